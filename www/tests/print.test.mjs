// End-to-end test of printing (issue 19): a page with labs printed to PDF by Chromium shows each lab's
// diagram and verdict — as text in the PDF, read back with pdftotext — and none of its controls, in
// black on white even when the lab is dark on screen. Against dist/, like embed.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setup, openPage, RESULTS } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Prints the page to test-results/NAME.pdf (and a PNG of its first page) and returns the PDF's text. */
async function printed(page, name) {
  const pdf = join(RESULTS, `${name}.pdf`);
  await page.pdf({ path: pdf, format: 'A4', printBackground: false });
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '2', pdf, join(RESULTS, name)]);
  return execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
}

const count = (text, s) => text.split(s).length - 1;
// Words of the controls that must not print (the verdict, the diagram and the title do). The page's own prose names “Copy embed snippet”.
const CONTROLS = ['Fencing (what the storage checks)', 'Playhead', 'Previous event', 'Copy link to this state', 'Copy iframe snippet', 'Transcript (the seed', 'Events (the diagram as text)',
  'Share and export', 'Events, as text'];

test('printing the docs example: each lab’s verdict and diagram as text, no controls', async () => {
  const { context, page, watch } = await openPage(env.browser, { width: 1280, height: 900 });
  try {
    await page.goto(`${env.url}examples/docs-page.html`);
    for (const i of [0, 1]) await page.locator('lease-lab').nth(i).locator('[data-testid="outcome"][data-outcome]').waitFor();
    const text = await printed(page, 'print-docs');
    // The verdicts, with their numbers.
    assert.ok(text.includes('LOST UPDATE'), 'the first lab’s verdict');
    assert.ok(text.includes('SAFE'), 'the second lab’s verdict');
    assert.match(text, /final 440 · expected 450/);
    assert.match(text, /final 450 · expected 450/);
    // The diagrams, drawn (SVG text prints as text): both labs' lanes and the fenced write refused.
    // Each label once (no halo drawn as a second copy of it).
    assert.equal(count(text, 'Lock service'), 2, 'two diagrams');
    assert.match(text, /A 440 · t1 · ACCEPTED/, 'the first: A’s stale write accepted');
    assert.match(text, /A 440 · t1 · REJECTED/, 'the second: refused');
    // The safety margin prints, though the compact layout keeps it in a closed disclosure on screen.
    assert.equal(count(text, 'assumed: pauses are shorter than the TTL'), 2, 'both labs’ safety margins');
    for (const c of CONTROLS) assert.ok(!text.includes(c), `no “${c}” on paper`);
    assert.deepEqual(watch.problems(), []);
  } finally {
    await context.close();
  }
});

test('a lab dark on screen prints black on white; in Bengali its verdict prints too', async () => {
  const { context, page } = await openPage(env.browser, { width: 390, height: 800, colorScheme: 'dark' });
  try {
    const html =
      '<!doctype html><html lang="en" data-theme="dark"><head><meta charset="utf-8"><title>host</title>' +
      '<script type="module" src="/lease-lab.js"></script></head><body><main><lease-lab lang="bn"></lease-lab></main></body></html>';
    await page.route(`${env.url}dark.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await page.goto(`${env.url}dark.html`);
    const el = page.locator('lease-lab');
    await el.locator('[data-testid="outcome"][data-outcome]').waitFor();
    const colours = () => el.evaluate((e) => {
      const s = getComputedStyle(e.shadowRoot.getElementById('lab'));
      return [s.backgroundColor, s.color];
    });
    assert.equal((await colours())[0], 'rgb(13, 17, 23)', 'dark on screen');
    await page.emulateMedia({ media: 'print' });
    assert.deepEqual(await colours(), ['rgb(255, 255, 255)', 'rgb(27, 31, 36)'], 'white paper, dark ink');
    assert.equal(await el.locator('#ttl').isVisible(), false, 'no sliders on paper');
    assert.ok(await el.locator('svg#svg').isVisible());
    await page.emulateMedia({ media: null }); // (media 'screen' would print the screen's styles)
    const text = await printed(page, 'print-bn');
    assert.match(text, /৪৪০/, 'the verdict’s numbers in Bengali digits');
    assert.match(text, /হারানো আপডেট/, 'LOST UPDATE, in Bengali');
    assert.ok(!text.includes('TTL ('), 'no TTL slider on paper'); // its label: “TTL (লিজের মেয়াদ)”
  } finally {
    await context.close();
  }
});
