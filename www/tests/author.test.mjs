// End-to-end tests of author.html (www/author.js): type and the lab follows (its verdict the CLI's for
// the same text), errors by line that move the caret, expectation lines ✓/✗, the picker, the embed
// snippet (which, pasted into a page, runs the same), the download, the share link's round trip, both
// languages, the keyboard and axe. Against dist/ in headless Chromium, like the other e2e tests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setup, openPage, ROOT, RESULTS, cliVerdict, axeViolations } from './helpers.mjs';

const SEED = await readFile(join(ROOT, 'crate', 'scenarios', 'seed-gc-pause.txt'), 'utf8');

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Opens author.html (+ `query`), runs `fn`, then: no console or page errors, nothing off the origin. */
async function withAuthor(query, fn, opts = {}) {
  const { context, page, watch } = await openPage(env.browser, opts);
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.url).origin });
    await page.goto(`${env.url}author.html${query}`);
    await fn(page, context);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
    const origin = new URL(env.url).origin;
    assert.deepEqual(watch.requests.filter((u) => !u.startsWith('blob:') && new URL(u).origin !== origin), [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
}

const labOf = (page) => page.locator('#lab-slot lease-lab');
async function verdictOf(scope, want) {
  const sel = want
    ? `[data-testid="outcome"][data-outcome="${want.outcome}"][data-final="${want.final}"][data-expected="${want.expected}"]`
    : '[data-testid="outcome"][data-outcome]';
  const box = scope.locator(sel).first();
  await box.waitFor();
  return box.evaluate((e) => ({ outcome: e.dataset.outcome, final: Number(e.dataset.final), expected: Number(e.dataset.expected) }));
}
/** The expectation lines as shown, once the worker has answered for the text as it stands. */
const expects = async (page) => {
  await page.locator('#expects:not([aria-busy]) li').first().waitFor();
  return page.locator('#expects li').evaluateAll((els) => els.map((e) => ({ ok: e.dataset.ok === 'true', text: e.textContent })));
};

test('it starts from the seed: the lab runs it and every expectation line holds', () =>
  withAuthor('', async (page) => {
    assert.deepEqual(await verdictOf(labOf(page)), await cliVerdict(SEED));
    const list = await expects(page);
    assert.equal(list.length, SEED.split('\n').filter((l) => l.startsWith('expect ')).length);
    assert.ok(list.every((x) => x.ok && /^✓ holds: line \d+: expect /.test(x.text)), JSON.stringify(list));
    assert.equal(await page.locator('#start').inputValue(), 'seed-gc-pause');
    assert.match(await page.locator('#gutter').textContent(), /^1\n2\n3\n/);
  }));

test('typing: the lab follows, its verdict the CLI’s; a broken expectation shows ✗ with what differs', () =>
  withAuthor('', async (page) => {
    await verdictOf(labOf(page));
    const edited = SEED.replace('client A: acquire; read; pause $pause; write 60', 'client A: acquire; read; pause $pause; write 100');
    await page.locator('#text').fill(edited);
    const want = await cliVerdict(edited);
    assert.equal(want.final, 400);
    assert.deepEqual(await verdictOf(labOf(page), want), want);
    const line = edited.split('\n').findIndex((l) => l.startsWith('expect none:')) + 1;
    await page.locator('#expects li[data-ok="false"]').first().waitFor();
    const bad = (await expects(page)).filter((x) => !x.ok);
    assert.ok(bad.some((x) => x.text.startsWith(`✗ does not hold: line ${line}: expect none — `) && /final/.test(x.text)), JSON.stringify(bad));
  }));

test('errors by line: listed under the text, the lab keeps its last good run, a click (or Enter) moves the caret', () =>
  withAuthor('', async (page) => {
    await verdictOf(labOf(page));
    const lines = SEED.split('\n');
    const at = lines.findIndex((l) => l.startsWith('client A:'));
    lines[at] = 'client A: acquire; read; fly; write 60';
    await page.locator('#text').fill(lines.join('\n'));
    const err = page.locator('#errors button').first();
    await err.waitFor();
    assert.match(await err.textContent(), new RegExp(`^line ${at + 1}, column \\d+: `));
    assert.equal(await page.locator('#stale').isVisible(), true);
    assert.equal(await labOf(page).count(), 1, 'the last lab stays');
    await err.click();
    const caret = await page.locator('#text').evaluate((t) => [document.activeElement === t, t.value.slice(0, t.selectionStart).split('\n').length]);
    assert.deepEqual(caret, [true, at + 1]);
    // By keyboard: focus the error, Enter.
    await page.locator('#text').evaluate((t) => t.setSelectionRange(0, 0));
    await err.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#text').evaluate((t) => t.value.slice(0, t.selectionStart).split('\n').length), at + 1);
    // Fixed: the errors go, the lab runs the text again.
    await page.locator('#text').fill(SEED);
    await page.locator('#no-errors').waitFor();
    assert.equal(await page.locator('#stale').isVisible(), false);
  }));

test('a scenario past the event limit: its expectation ✗ names the limit (checked in a worker), so does the lab', () =>
  withAuthor('', async (page) => {
    await verdictOf(labOf(page));
    const forever =
      'id: forever\ntitle: Forever\nsummary: Never ends\nservice: redlock ttl=3600s nodes=1\nclient A: acquire; read; write 1\n' +
      [...'BCDEFGH'].map((c) => `client ${c}: acquire every 1us; read; write 1\n`).join('') +
      'expect none: final=499\n';
    await page.locator('#text').fill(forever);
    await page.locator('#expects li[data-ok="false"]').first().waitFor();
    assert.match(await page.locator('#expects li').first().textContent(), /more than 1000000 events/);
    assert.match(await labOf(page).locator('[data-testid="scenario-error"]').textContent(), /more than 1000000 events/);
    // The page goes on: back to a text that runs.
    await page.locator('#start').selectOption('gc-pause');
    await verdictOf(labOf(page));
  }));

test('start from another catalogue scenario', () =>
  withAuthor('', async (page) => {
    await verdictOf(labOf(page));
    await page.locator('#start').selectOption('gc-pause');
    await page.waitForFunction(() => document.getElementById('text').value.includes('id: gc-pause'));
    const text = await page.locator('#text').inputValue();
    assert.equal(text, await readFile(join(ROOT, 'crate', 'scenarios', 'gc-pause.txt'), 'utf8'));
    const want = await cliVerdict(text);
    assert.deepEqual(await verdictOf(labOf(page), want), want);
  }));

test('copy embed snippet: the text inline; pasted into a page, it runs the same', () =>
  withAuthor('', async (page, context) => {
    await verdictOf(labOf(page));
    const edited = SEED.replace('write 60', 'write 75');
    await page.locator('#text').fill(edited);
    await page.locator('#copy-snippet').click();
    await page.locator('#copy-field').waitFor();
    const snippet = await page.locator('#copy-field').inputValue();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);
    assert.match(snippet, /<script type="module" src="[^"]+\/lease-lab\.js"><\/script>\n<lease-lab>\n<script type="text\/x-leaselab">\n/);
    assert.ok(snippet.includes(edited), 'the text, inline and unchanged');
    const host = await context.newPage();
    await host.route(`${env.url}host.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>h</title></head><body><main>${snippet}</main></body></html>` }));
    await host.goto(`${env.url}host.html`);
    const want = await cliVerdict(edited);
    assert.deepEqual(await verdictOf(host.locator('lease-lab'), want), want);
  }));

test('download .txt: the text as it stands, named after its id', () =>
  withAuthor('', async (page) => {
    await verdictOf(labOf(page));
    const edited = SEED.replace('id: seed-gc-pause', 'id: our-job');
    await page.locator('#text').fill(edited);
    await page.locator('#no-errors').waitFor();
    await page.waitForFunction(() => document.querySelector('#expects li'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
    assert.equal(download.suggestedFilename(), 'our-job.txt');
    assert.equal(await readFile(await download.path(), 'utf8'), edited);
  }));

test('share link: the scenario travels in the fragment and comes back exactly, with no server', () =>
  withAuthor('?lang=bn', async (page, context) => {
    await verdictOf(labOf(page));
    const edited = `${SEED}# একটি মন্তব্য — a comment, “quoted” & <marked>\n`;
    await page.locator('#text').fill(edited);
    await page.locator('#share-link').click();
    await page.waitForFunction(() => document.getElementById('copy-field').value.includes('#s='));
    const link = await page.locator('#copy-field').inputValue();
    assert.match(link, /author\.html\?lang=bn#s=[A-Za-z0-9_-]+$/);
    const again = await context.newPage();
    await again.goto(link);
    await again.waitForFunction(() => document.getElementById('text').value.length > 0);
    assert.equal(await again.locator('#text').inputValue(), edited);
    await verdictOf(labOf(again));
    // A link whose fragment is not a scenario says so and starts from the catalogue.
    const broken = await context.newPage();
    await broken.goto(`${env.url}author.html#s=garbage*`);
    await broken.waitForFunction(() => document.getElementById('text').value.includes('id: seed-gc-pause'));
    assert.match(await broken.locator('#action-status').textContent(), /could not be read/);
  }));

for (const [lang, width] of [['en', 1280], ['en', 390], ['bn', 1280], ['bn', 390]]) {
  test(`looks and axe (${lang}, ${width} px): no serious or critical violations`, () =>
    withAuthor(lang === 'en' ? '' : `?lang=${lang}`, async (page) => {
      await verdictOf(labOf(page));
      if (lang === 'bn') assert.equal(await page.locator('h1').textContent(), 'নিজের পরিস্থিতি লিখুন');
      // An error and a failing expectation, so that they are checked too.
      await page.locator('#text').fill(SEED.replace('expect none: final=440', 'expect none: final=1').replace('balance: 500', 'balance: 500\nbogus line'));
      await page.locator('#errors button').first().waitFor();
      if (lang === 'bn') assert.match(await page.locator('#errors button').first().textContent(), /^লাইন \d+, কলাম \d+/);
      await page.screenshot({ path: join(RESULTS, `author-${lang}-${width}.png`), fullPage: true });
      const { bad, all } = await axeViolations(page);
      assert.deepEqual(bad, [], JSON.stringify(all, null, 1));
      // No sideways scroll on a phone.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'fits the width');
    }, { width, height: 900 }));
}
