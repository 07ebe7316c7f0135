// End-to-end test of how sharp a printed lab is (issue 19): the docs example printed to PDF by Chromium
// carries its diagrams as vector drawing and real text (no bitmap), laid out for paper — the labels
// at their own size, not a wide screen's diagram shrunk to fit the sheet — and the screen gets its own
// layout back after printing. Read back with poppler's pdfimages, pdftocairo and pdftotext.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, openPage, RESULTS } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Each lab's diagram width in drawing units (1 unit = 1 CSS px as laid out). */
const drawnWidths = (page) =>
  page.locator('lease-lab').evaluateAll((els) => els.map((e) => Math.round(e.shadowRoot.getElementById('svg').viewBox.baseVal.width)));

/** The heights, in pt, of the boxes pdftotext gives the words `word` (a box is about 1.2 × the type size). */
const wordHeights = (bbox, word) =>
  [...bbox.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)]
    .filter((m) => m[3] === word)
    .map((m) => Number(m[2]) - Number(m[1]));

test('printing the docs example at 1280 px: vector diagrams, labels at print size, the screen’s layout back after', async (t) => {
  const { context, page, watch } = await openPage(env.browser, { width: 1280, height: 900 });
  try {
    await page.goto(`${env.url}examples/docs-page.html`);
    for (const i of [0, 1]) await page.locator('lease-lab').nth(i).locator('[data-testid="outcome"][data-outcome]').waitFor();
    await page.evaluate(() => document.fonts.ready);
    const onScreen = await drawnWidths(page);
    assert.ok(onScreen.every((w) => w > 900), `drawn for a wide screen: ${onScreen}`);
    const pdf = join(RESULTS, 'print-sharp.pdf');
    await page.pdf({ path: pdf, format: 'A4', printBackground: false });
    // 150 dpi pictures of the sheets, to look at.
    execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '3', pdf, join(RESULTS, 'print-sharp')]);

    // Vector: no raster image anywhere, and the drawing is paths (lanes, leases, arrows) in the PDF.
    const images = execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' }).trim().split('\n').slice(2);
    assert.deepEqual(images, [], 'no bitmap in the PDF');
    const svg = join(RESULTS, 'print-sharp.svg');
    execFileSync('pdftocairo', ['-svg', pdf, svg]);
    const paths = (readFileSync(svg, 'utf8').match(/<path /g) || []).length;
    t.diagnostic(`${paths} paths in the PDF (as SVG)`);
    assert.ok(paths >= 100, `the diagrams are drawn as paths (${paths})`);

    // The labels at print size: each lane name's box at least 10 pt tall (type of about 9 pt; shrunk
    // from the screen's 1,130 px layout it was 7.9 pt, type of about 6.5 pt).
    const bbox = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8' });
    for (const word of ['Lock', 'Storage', 'ACCEPTED']) {
      const hs = wordHeights(bbox, word);
      t.diagnostic(`“${word}”: ${hs.map((h) => h.toFixed(1)).join(', ')} pt`);
      assert.ok(hs.length >= 2, `“${word}” in both diagrams`);
      for (const h of hs) assert.ok(h >= 10, `“${word}” printed ${h.toFixed(1)} pt tall`);
    }

    // After printing, the screen's layout is back, at the width it had.
    assert.deepEqual(await drawnWidths(page), onScreen, 'the diagrams drawn for the screen again');
    assert.deepEqual(watch.problems(), []);
  } finally {
    await context.close();
  }
});
