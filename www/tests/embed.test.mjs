// End-to-end tests of embedding: the <lease-lab> element (www/lease-lab.js), the iframe form
// (embed.html), the embed snippets, the docs example (examples/docs-page.html), the no-JS fallback and
// the languages loaded on demand. Against dist/ in headless Chromium, like e2e.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setup, openPage, RESULTS, ROOT, axeViolations } from './helpers.mjs';
import { serve } from '../../tools/serve.mjs';
import { FALLBACK_WIDTH } from '../../tools/fallback.mjs';

const DOCS = 'examples/docs-page.html';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Opens `path` (or a page made of `html`, served at `path` on the same origin) and runs `fn`, then
 *  checks nothing went wrong and nothing left the origin. */
async function withPage(path, fn, opts = {}) {
  const { context, page, watch } = await openPage(env.browser, opts);
  try {
    if (opts.html) await page.route(env.url + path, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: opts.html }));
    await page.goto(env.url + path);
    await fn(page, watch);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
    const origin = new URL(env.url).origin;
    assert.deepEqual(watch.requests.filter((u) => new URL(u).origin !== origin), [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
}

/** A page with one script tag and the given elements (no styles, no inline scripts). */
const hostPage = (body, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>host</title>` +
  `<script type="module" src="/lease-lab.js"></script></head><body><main>${body}</main></body></html>`;

const lab = (page, i = 0) => page.locator('lease-lab').nth(i);
/** Waits for the i-th element's verdict to show these values; returns its data. */
async function expectVerdict(page, i, outcome, final, expected) {
  const box = lab(page, i).locator(`[data-testid="outcome"][data-outcome="${outcome}"][data-final="${final}"][data-expected="${expected}"]`);
  await box.waitFor();
  return box.evaluate((e) => ({ outcome: e.dataset.outcome, final: Number(e.dataset.final), expected: Number(e.dataset.expected), text: e.textContent }));
}
async function verdictOf(scope) {
  const box = scope.locator('[data-testid="outcome"][data-outcome]').first();
  await box.waitFor();
  return box.evaluate((e) => ({ outcome: e.dataset.outcome, final: Number(e.dataset.final), expected: Number(e.dataset.expected) }));
}
/** The state an element shows: its verdict data and its controls' values. */
const stateOf = (page, i) =>
  lab(page, i).evaluate((host) => {
    const r = host.shadowRoot;
    const box = r.querySelector('[data-testid=outcome]');
    return {
      outcome: box.dataset.outcome,
      final: box.dataset.final,
      expected: box.dataset.expected,
      ttl: r.getElementById('ttl').value,
      pause: r.getElementById('pause').value,
      fencing: r.getElementById('fencing').value,
      now: r.getElementById('now').textContent,
      scrub: r.getElementById('scrub').value,
    };
  });

test('docs example: two labs, the first unfenced and the second fenced, the wasm fetched once and only on a change', () =>
  withPage(DOCS, async (page, watch) => {
    assert.equal(await page.locator('lease-lab').count(), 2);
    await expectVerdict(page, 0, 'lost-update', 440, 450);
    await expectVerdict(page, 1, 'safe', 450, 450);
    assert.match(await lab(page, 0).locator('#verdict-word').textContent(), /LOST UPDATE/);
    assert.ok((await lab(page, 1).locator('svg#svg rect.lease').count()) === 2, 'diagram drawn in the shadow root');
    // The fallback content is gone once the lab runs (the named slot is a fence's source: fence.test.mjs).
    assert.equal(await lab(page, 0).evaluate((h) => !!h.shadowRoot.querySelector('slot:not([name])')), false);
    // Both show the runs the build wrote: no wasm until a reader changes something, then one for both.
    const wasm = () => watch.requests.filter((u) => u.endsWith('.wasm'));
    assert.deepEqual(wasm(), [], 'no wasm for two labs at their defaults');
    await lab(page, 0).locator('#fencing').selectOption('version');
    await expectVerdict(page, 0, 'safe', 450, 450);
    await lab(page, 1).locator('#fencing').selectOption('owner');
    await expectVerdict(page, 1, 'safe', 450, 450);
    assert.equal(wasm().length, 1, `one wasm request for two labs: ${wasm()}`);
    assert.equal(watch.requests.filter((u) => /lease-lab\.js$/.test(u)).length, 1, 'the module once, though the snippet was pasted twice');
    assert.deepEqual(watch.requests.filter((u) => /bn/.test(u)), [], 'an English reader downloads no Bengali');
  }));

test('two instances are independent: attributes, controls and events of one leave the other alone', () =>
  withPage(DOCS, async (page) => {
    await expectVerdict(page, 0, 'lost-update', 440, 450);
    await expectVerdict(page, 1, 'safe', 450, 450);
    const second = await stateOf(page, 1);
    await page.evaluate(() => {
      window.seen = [0, 0];
      document.querySelectorAll('lease-lab').forEach((el, i) => el.addEventListener('verdict', () => window.seen[i]++));
    });
    // An attribute of the first.
    await lab(page, 0).evaluate((el) => el.setAttribute('pause', '200'));
    await expectVerdict(page, 0, 'safe', 390, 390);
    assert.equal(await lab(page, 0).locator('#pause').inputValue(), '200');
    // A control of the first.
    await lab(page, 0).locator('#fencing').selectOption('version');
    await lab(page, 0).locator('[data-testid=outcome]').waitFor();
    assert.equal(await lab(page, 0).locator('#fencing').inputValue(), 'version');
    assert.deepEqual(await stateOf(page, 1), second, 'the second lab did not change');
    assert.deepEqual(await page.evaluate(() => window.seen), [2, 0], 'verdict events: two from the first, none from the second');
    // And the other way round.
    await lab(page, 1).evaluate((el) => el.setAttribute('fencing', 'none'));
    await expectVerdict(page, 1, 'lost-update', 440, 450);
    assert.equal((await stateOf(page, 0)).pause, '200');
    assert.equal((await stateOf(page, 0)).fencing, 'version');
  }));

test('attribute changes re-render: scenario, params, lang, controls, theme, height, and bad values', () =>
  withPage('host.html', async (page) => {
    const el = lab(page, 0);
    await expectVerdict(page, 0, 'lost-update', 440, 450);
    assert.equal(await el.locator('#notice').isVisible(), false);
    await el.evaluate((e) => e.setAttribute('scenario', 'postgres-session'));
    await expectVerdict(page, 0, 'safe', 390, 390);
    assert.match(await el.locator('#scn-title').textContent(), /advisory|session|PostgreSQL/i);
    await el.evaluate((e) => e.setAttribute('keepalive', '300'));
    await expectVerdict(page, 0, 'safe', 450, 450);
    await el.evaluate((e) => e.setAttribute('scenario', 'seed-gc-pause'));
    await expectVerdict(page, 0, 'lost-update', 440, 450);
    // Several at once are one change.
    await el.evaluate((e) => {
      e.setAttribute('fencing', 'token');
      e.setAttribute('ttl', '0.2s');
    });
    await expectVerdict(page, 0, 'safe', 450, 450);
    assert.equal(await el.locator('#ttl').inputValue(), '200');
    // Removing an attribute goes back to the default.
    await el.evaluate((e) => e.removeAttribute('fencing'));
    await expectVerdict(page, 0, 'lost-update', 440, 450);

    // controls
    assert.ok(await el.locator('#pause').isVisible());
    assert.equal(await el.locator('#scenario').isVisible(), false, 'the default controls have no scenario picker');
    await el.evaluate((e) => e.setAttribute('controls', 'none'));
    await el.locator('#pause').waitFor({ state: 'hidden' });
    assert.equal(await el.locator('#play').isVisible(), false);
    assert.ok(await el.locator('svg#svg').isVisible(), 'the diagram always shows');
    await el.evaluate((e) => e.setAttribute('controls', 'scenario, play'));
    await el.locator('#scenario').waitFor();
    assert.ok(await el.locator('#play').isVisible());
    assert.equal(await el.locator('#pause').isVisible(), false);
    await el.evaluate((e) => e.setAttribute('controls', 'all'));
    await openShare(el);
    for (const id of ['scenario', 'ttl', 'fencing', 'retries', 'reset', 'lang', 'play', 'copy-embed']) assert.ok(await el.locator(`#${id}`).isVisible(), id);

    // theme: dark by attribute, whatever the system says; light by attribute under a dark system.
    const bg = () => el.evaluate((e) => getComputedStyle(e.shadowRoot.getElementById('lab')).backgroundColor);
    assert.equal(await bg(), 'rgb(255, 255, 255)');
    await el.evaluate((e) => e.setAttribute('theme', 'dark'));
    assert.equal(await bg(), 'rgb(13, 17, 23)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await el.evaluate((e) => e.setAttribute('theme', 'light'));
    assert.equal(await bg(), 'rgb(255, 255, 255)');
    await el.evaluate((e) => e.setAttribute('theme', 'auto'));
    assert.equal(await bg(), 'rgb(13, 17, 23)');
    // The host's custom properties win over the built-in palette.
    await el.evaluate((e) => e.style.setProperty('--lease-lab-bg', 'rgb(1, 2, 3)'));
    assert.equal(await bg(), 'rgb(1, 2, 3)');
    await page.emulateMedia({ colorScheme: 'light' });

    // height: a fixed height with scrolling inside; without it, as tall as the content.
    const h = () => el.evaluate((e) => Math.round(e.getBoundingClientRect().height));
    const natural = await h();
    assert.ok(natural > 600, `sized to its content: ${natural}`);
    await el.evaluate((e) => e.setAttribute('height', '320'));
    assert.equal(await h(), 320);
    await el.evaluate((e) => e.removeAttribute('height'));
    assert.equal(await h(), natural);

    // Bad values: a visible notice, a safe fallback, never a blank lab or a wrong verdict.
    await el.evaluate((e) => {
      e.setAttribute('fencing', 'magic');
      e.setAttribute('pause', 'soon');
      e.setAttribute('theme', 'purple');
      e.setAttribute('height', 'tall');
      e.setAttribute('controls', 'sliders bogus');
    });
    await el.locator('#notice').waitFor();
    const notice = await el.locator('#notice').textContent();
    for (const s of ['attributes of this lab', 'fencing=magic', 'pause=soon', 'theme=purple', 'height=tall', '“bogus”']) assert.ok(notice.includes(s), `${s} in ${notice}`);
    await expectVerdict(page, 0, 'lost-update', 440, 450);
    assert.equal(await el.locator('#fencing').inputValue(), 'none');
    assert.equal(await el.locator('#pause').inputValue(), '600');
  }, { html: hostPage('<lease-lab></lease-lab>') }));

test('bad attributes at load: a notice and the seed’s run, not a blank element', () =>
  withPage('bad.html', async (page) => {
    await expectVerdict(page, 0, 'lost-update', 440, 450);
    const notice = lab(page, 0).locator('#notice');
    await notice.waitFor();
    const text = await notice.textContent();
    for (const s of ['scenario=nope', 'ttl=-5', 'lang=xx']) assert.ok(text.includes(s), `${s} in ${text}`);
    assert.equal(await lab(page, 0).locator('#ttl').inputValue(), '10', 'clamped to the slider’s range');
  }, { html: hostPage('<lease-lab scenario="nope" ttl="-5" lang="xx"></lease-lab>') }));

test('lang=bn shows Bengali in the element (dictionary and scenario texts loaded on demand), English beside it', () =>
  withPage('bn.html', async (page, watch) => {
    await expectVerdict(page, 0, 'lost-update', 440, 450);
    await expectVerdict(page, 1, 'lost-update', 440, 450);
    await expectVerdict(page, 2, 'lost-update', 440, 450);
    const bn = lab(page, 0);
    assert.match(await bn.locator('[data-testid=outcome]').textContent(), /হারানো আপডেট/);
    assert.equal(await bn.locator('#h-verdict').textContent(), 'ফলাফল');
    // The scenario's title comes from pkg/scenarios.bn.json (the wasm carries English only).
    assert.match(await bn.locator('#scn-title').textContent(), /বীজ-উদাহরণ/);
    assert.match(await bn.locator('#pause-label').textContent(), /বিরতি/);
    assert.equal(await bn.evaluate((e) => e.shadowRoot.getElementById('lab').lang), 'bn');
    // Bengali digits in the numbers, and a font stack that has Bengali glyphs first.
    assert.match(await bn.locator('#verdict-numbers').textContent(), /৪৪০/);
    assert.match(await bn.evaluate((e) => getComputedStyle(e.shadowRoot.getElementById('lab')).fontFamily), /^"?Noto Sans Bengali/);
    // The second has no lang: English, whatever its neighbour says.
    assert.match(await lab(page, 1).locator('[data-testid=outcome]').textContent(), /LOST UPDATE/);
    // The third inherits the language of the page around it.
    assert.match(await lab(page, 2).locator('[data-testid=outcome]').textContent(), /হারানো আপডেট/);
    assert.equal(watch.requests.filter((u) => u.endsWith('/i18n/bn.js')).length, 1, 'the dictionary once');
    assert.equal(watch.requests.filter((u) => u.endsWith('/pkg/scenarios.bn.json')).length, 1, 'the scenario texts once');
    // Switching language from the element's own picker, and back by attribute.
    await lab(page, 1).evaluate((e) => e.setAttribute('controls', 'lang'));
    await lab(page, 1).locator('#lang').selectOption('bn');
    await lab(page, 1).locator('#verdict-word', { hasText: 'হারানো আপডেট' }).waitFor();
    await bn.evaluate((e) => e.setAttribute('lang', 'en'));
    await bn.locator('#verdict-word', { hasText: 'LOST UPDATE' }).waitFor();
    assert.match(await bn.locator('#scn-title').textContent(), /The seed's run/);
  }, { html: hostPage('<lease-lab lang="bn"></lease-lab><lease-lab></lease-lab><div lang="bn-BD"><lease-lab></lease-lab></div>') }));

test('the page in English loads no Bengali; with lang=bn it loads it once', async () => {
  await withPage('', async (page, watch) => {
    await verdictOf(page);
    assert.deepEqual(watch.requests.filter((u) => /bn/.test(u)), []);
  });
  await withPage('?lang=bn', async (page, watch) => {
    await page.locator('#verdict-word', { hasText: 'হারানো আপডেট' }).waitFor();
    assert.match(await page.locator('#scn-title').textContent(), /বীজ-উদাহরণ/, 'scenario title from scenarios.bn.json');
    assert.match(await page.locator('#scenario option:checked').textContent(), /বীজ-উদাহরণ/);
    assert.equal(watch.requests.filter((u) => /\/i18n\/bn\.js$|scenarios\.bn\.json$/.test(u)).length, 2);
  });
});

test('the docs example under the strict CSP: no violations, no console errors, nothing off-origin, from a sub-path', async () => {
  const strict = await setup({ csp: true });
  try {
    const { context, page, watch } = await openPage(strict.browser);
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)),
    );
    const resp = await page.goto(strict.url + DOCS);
    assert.match(resp.headers()['content-security-policy'], /style-src 'self'/);
    await expectVerdict(page, 0, 'lost-update', 440, 450);
    await expectVerdict(page, 1, 'safe', 450, 450);
    // Operate it: sliders, a language change (dynamic import + fetch), the height attribute (CSSOM).
    await lab(page, 0).locator('#pause').fill('200');
    await expectVerdict(page, 0, 'safe', 390, 390);
    await lab(page, 1).evaluate((e) => {
      e.setAttribute('lang', 'bn');
      e.setAttribute('height', '400');
    });
    await lab(page, 1).locator('#verdict-word', { hasText: 'নিরাপদ' }).waitFor();
    await openShare(lab(page, 1));
    await lab(page, 1).locator('#copy-embed').click();
    await lab(page, 1).locator('#share-text').waitFor();
    assert.deepEqual(watch.problems(), []);
    const origin = new URL(strict.url).origin;
    assert.deepEqual(watch.requests.filter((u) => new URL(u).origin !== origin), []);
    await context.close();
  } finally {
    await strict.close();
  }
  // From a sub-path: everything it loads stays under it.
  const srv = await serve({ dir: ROOT, port: 0, csp: true });
  try {
    const { context, page, watch } = await openPage(env.browser);
    await page.goto(`${srv.url}dist/${DOCS}`);
    await expectVerdict(page, 1, 'safe', 450, 450);
    assert.ok(watch.requests.every((u) => u.startsWith(`${srv.url}dist/`)), watch.requests.join('\n'));
    assert.deepEqual(watch.problems(), []);
    await context.close();
  } finally {
    await srv.close();
  }
});

for (const [name, opts] of [
  ['1280 px', {}],
  ['390 px, dark', { width: 390, height: 800, colorScheme: 'dark' }],
]) {
  test(`axe-core on the docs example (${name}): no serious or critical violations, shadow roots included`, () =>
    withPage(DOCS, async (page) => {
      await expectVerdict(page, 1, 'safe', 450, 450);
      // Open what a reader would open, so that it is checked too.
      for (const i of [0, 1]) {
        await lab(page, i).locator('details.events summary').click();
        await lab(page, i).locator('details.transcript summary').click();
        await lab(page, i).locator('details.margin summary').click();
        await openShare(lab(page, i));
      }
      await lab(page, 0).locator('#copy-embed').click();
      const { bad, all } = await axeViolations(page);
      assert.deepEqual(bad, [], JSON.stringify(all, null, 1));
      // axe looked inside the shadow roots (a rule that ran on the sliders there).
      const checked = await page.evaluate(async () => {
        const r = await window.axe.run(document, { runOnly: ['label'], resultTypes: ['passes'] });
        return r.passes.flatMap((p) => p.nodes.map((n) => n.target));
      });
      assert.ok(checked.some((t) => Array.isArray(t[0])), 'shadow-DOM nodes were checked');
    }, opts));
}

test('keyboard: Tab into a lab and operate it; its keys never reach the other lab', () =>
  withPage(DOCS, async (page) => {
    await expectVerdict(page, 0, 'lost-update', 440, 450);
    await expectVerdict(page, 1, 'safe', 450, 450);
    const focused = () =>
      page.evaluate(() => {
        const host = document.activeElement;
        const labs = [...document.querySelectorAll('lease-lab')];
        return { lab: labs.indexOf(host), id: host.shadowRoot ? host.shadowRoot.activeElement?.id : host.id };
      });
    const tabTo = async (labIndex, id) => {
      for (let i = 0; i < 60; i++) {
        const f = await focused();
        if (f.lab === labIndex && f.id === id) return;
        await page.keyboard.press('Tab');
      }
      assert.fail(`Tab never reached #${id} in lab ${labIndex}`);
    };
    const second = await stateOf(page, 1);
    await tabTo(0, 'pause');
    const outline = await lab(page, 0).locator('#pause').evaluate((e) => getComputedStyle(e).outlineStyle);
    assert.notEqual(outline, 'none', 'focus is visible inside the shadow root');
    await page.keyboard.press('Home');
    await expectVerdict(page, 0, 'safe', 390, 390);
    // The live region of that lab, and only that lab, says so.
    await lab(page, 0).locator('#live', { hasText: 'SAFE: final 390, expected 390' }).waitFor();
    assert.equal(await lab(page, 1).locator('#live').textContent(), '');
    // "," and "." step through the events of the focused lab.
    await tabTo(0, 'next');
    await page.keyboard.press(',');
    const now1 = (await stateOf(page, 0)).now;
    assert.match(now1, /^At \d+ ms:/);
    await page.keyboard.press(',');
    assert.notEqual((await stateOf(page, 0)).now, now1);
    await page.keyboard.press('Enter'); // "Next event"
    assert.equal((await stateOf(page, 0)).now, now1);
    assert.deepEqual(await stateOf(page, 1), second, 'the other lab did not move');
    // Keys pressed outside any lab do nothing to either.
    await page.locator('h1').click();
    const before = [await stateOf(page, 0), await stateOf(page, 1)];
    await page.keyboard.press('.');
    await page.keyboard.press(',');
    assert.deepEqual([await stateOf(page, 0), await stateOf(page, 1)], before);
    // And the second, operated by keyboard, leaves the first alone.
    await tabTo(1, 'fencing');
    await page.keyboard.press('Home'); // the first option: none
    await expectVerdict(page, 1, 'lost-update', 440, 450);
    assert.equal((await stateOf(page, 0)).final, '390');
  }));

/** Opens an element's "Share and export" disclosure (the compact layout keeps its buttons there; the
 *  page has none). */
async function openShare(scope) {
  const box = scope.locator('details.share-box');
  if ((await box.count()) && !(await box.evaluate((e) => e.open))) await box.locator('summary').click();
}

/** The text a share button put in the field (the clipboard is not readable in headless Chromium). */
async function copied(scope, button) {
  await openShare(scope);
  const field = scope.locator('#share-text');
  await field.evaluate((e) => (e.value = ''));
  await scope.locator(`#${button}`).click();
  await field.waitFor();
  await field.evaluate((e) => new Promise((ok) => (function poll() { e.value ? ok() : setTimeout(poll, 20); })()));
  return field.inputValue();
}

test('“Copy embed snippet” on the page: pasted into a fresh page, it reproduces the verdict and the settings', () =>
  withPage('?scenario=gc-pause&ttl=700&pause=900&fencing=version&retries=3', async (page) => {
    const want = await verdictOf(page);
    const snippet = await copied(page, 'copy-embed');
    const url = new URL(env.url);
    assert.match(snippet, new RegExp(`^<script type="module" src="${url.origin}/lease-lab\\.js"></script>\\n<lease-lab [^>]*></lease-lab>$`));
    for (const a of ['scenario="gc-pause"', 'ttl="700"', 'pause="900"', 'fencing="version"', 'retries="3"']) assert.ok(snippet.includes(a), `${a} in ${snippet}`);
    const iframe = await copied(page, 'copy-iframe');
    const src = /src="([^"]+)"/.exec(iframe)[1].replace(/&amp;/g, '&');
    assert.ok(src.startsWith(`${url.origin}/embed.html?`), src);
    // The element snippet, pasted.
    const { context, page: fresh } = await openPage(env.browser);
    await fresh.route(env.url + 'pasted.html', (r) => r.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><title>pasted</title><body>${snippet}</body></html>` }));
    await fresh.goto(env.url + 'pasted.html');
    assert.deepEqual(await verdictOf(fresh.locator('lease-lab')), want);
    assert.equal(await fresh.locator('lease-lab #ttl').inputValue(), '700');
    assert.equal(await fresh.locator('lease-lab #retries').isChecked(), true);
    // The iframe snippet's address, opened.
    await fresh.goto(src);
    assert.deepEqual(await verdictOf(fresh.locator('lease-lab')), want);
    await context.close();
  }));

test('the element’s own share controls: link and snippet reproduce its current state', () =>
  withPage(DOCS, async (page) => {
    const el = lab(page, 1);
    await expectVerdict(page, 1, 'safe', 450, 450);
    await el.locator('#pause').fill('250');
    await el.locator('#fencing').selectOption('owner');
    // The first change fetches the engine: wait for its verdict, not the one drawn before.
    await expectVerdict(page, 1, 'safe', 390, 390);
    const want = await verdictOf(el);
    const snippet = await copied(el, 'copy-embed');
    assert.match(snippet, /pause="250"/);
    assert.match(snippet, /fencing="owner"/);
    const link = await copied(el, 'copy-link');
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/\?pause=250&fencing=owner$/, 'the full page, with what differs from the defaults');
    const { context, page: fresh } = await openPage(env.browser);
    await fresh.route(env.url + 'pasted.html', (r) => r.fulfill({ contentType: 'text/html', body: `<!doctype html><title>pasted</title>${snippet}` }));
    await fresh.goto(env.url + 'pasted.html');
    assert.deepEqual(await verdictOf(fresh.locator('lease-lab')), want);
    await fresh.goto(link);
    assert.deepEqual(await verdictOf(fresh), want, 'the link opens the full page in the same state');
    await context.close();
  }));

test('embed.html gives the page’s verdict for the same parameters, and fills the frame', async () => {
  for (const q of ['', '?fencing=token', '?scenario=gc-pause&ttl=700&pause=900&fencing=version', '?scenario=postgres-session&keepalive=300', '?pause=200&retries=3&fencing=token', '?scenario=delayed-write&pause=100', '?scenario=write-only-gap&fencing=token', '?lang=bn&fencing=first-touch']) {
    let want;
    await withPage(q, async (page) => {
      want = await verdictOf(page);
    });
    await withPage(`embed.html${q}`, async (page) => {
      assert.deepEqual(await verdictOf(page.locator('lease-lab')), want, q);
      if (q.includes('lang=bn')) assert.match(await page.locator('lease-lab #verdict-word').textContent(), /[\u0980-\u09FF]/);
      const box = await page.locator('lease-lab').boundingBox();
      assert.equal(Math.round(box.width), 800, 'as wide as the frame');
      assert.ok(box.height >= 600, 'at least as tall as the frame');
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(sw <= 800, `no sideways scroll: ${sw}`);
    }, { width: 800, height: 600 });
  }
  // Only the lab's own parameters become attributes.
  await withPage('embed.html?onclick=alert(1)&style=color:red&fencing=token', async (page) => {
    await verdictOf(page.locator('lease-lab'));
    assert.deepEqual(await page.locator('lease-lab').evaluate((e) => e.getAttributeNames().sort()), ['class', 'fencing']);
  });
});

test('exports from inside an element: a standalone SVG with the element’s styles', () =>
  withPage(DOCS, async (page) => {
    await expectVerdict(page, 1, 'safe', 450, 450);
    await openShare(lab(page, 1));
    const [dl] = await Promise.all([page.waitForEvent('download'), lab(page, 1).locator('button.export[data-kind=svg]').click()]);
    assert.equal(dl.suggestedFilename(), 'leaselab-seed-gc-pause-token.svg');
    const { readFile } = await import('node:fs/promises');
    const text = (await readFile(await dl.path())).toString();
    const parsed = await page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      return { error: !!doc.querySelector('parsererror'), leases: doc.querySelectorAll('rect.lease').length, styled: /\.lease\s*\{/.test(doc.querySelector('style')?.textContent || '') };
    }, text);
    assert.deepEqual(parsed, { error: false, leases: 2, styled: true });
  }));

test('no-JS fallback: the page and the docs example show the seed’s run as a picture and its transcript, as this build draws it', async () => {
  // What the build draws now, in the browser, at the fallback's width.
  let fresh;
  await withPage('', async (page) => {
    await verdictOf(page);
    fresh = await page.evaluate(async (width) => {
      const [wasm, { drawDiagram }, { loadLang }] = await Promise.all([import('./pkg/leaselab.js'), import('./diagram.js'), import('./i18n.js')]);
      await wasm.default(); // the page itself drew the seed from the run the build wrote: no wasm yet
      const { Simulation } = wasm;
      const out = {};
      for (const policy of ['none', 'token']) {
        const sim = new Simulation('seed-gc-pause');
        sim.setPolicy(policy);
        const run = JSON.parse(sim.runJson());
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        const num = (v) => (v == null || Number.isNaN(v) ? '' : String(Math.round(v * 1000) / 1000));
        drawDiagram(svg, run, { width, d: await loadLang('en'), num, lang: 'en' }).setTime(Infinity);
        out[policy] = { transcript: run.transcript.join('\n'), svg: new XMLSerializer().serializeToString(svg) };
      }
      return out;
    }, FALLBACK_WIDTH);
  });
  const shape = (page, text) =>
    page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      const s = doc.documentElement;
      const count = (sel) => s.querySelectorAll(sel).length;
      return { viewBox: s.getAttribute('viewBox'), texts: [...s.querySelectorAll('text')].map((e) => e.textContent), rects: count('rect'), lines: count('line'), markers: count('marker') };
    }, text);

  const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    for (const [path, policies] of [['', ['none']], [DOCS, ['none', 'token']]]) {
      await page.goto(env.url + path);
      const imgs = page.locator('img[src*="fallback/seed-gc-pause-"]');
      assert.equal(await imgs.count(), policies.length, path);
      for (let i = 0; i < policies.length; i++) {
        const policy = policies[i];
        const img = imgs.nth(i);
        await img.scrollIntoViewIfNeeded();
        await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
        assert.equal(await img.evaluate((e) => e.naturalWidth), FALLBACK_WIDTH);
        assert.match(await img.getAttribute('alt'), /Space-time diagram/);
        const pre = page.locator(`pre[data-transcript="seed-gc-pause ${policy}"]`);
        assert.equal(await pre.textContent(), fresh[policy].transcript, `${path || 'index'}: the transcript of this build (${policy})`);
        const file = await (await page.request.get(new URL(await img.getAttribute('src'), page.url()).href)).text();
        assert.doesNotMatch(file, /<style|class=/, 'self-contained: presentation attributes, no stylesheet');
        const got = await shape(page, file);
        const drawn = await shape(page, fresh[policy].svg);
        assert.deepEqual({ ...got, rects: got.rects - 1 }, drawn, `fallback-${policy}.svg is what this build draws (one background rect added)`);
      }
      await page.screenshot({ path: join(RESULTS, `nojs-${path ? 'docs' : 'page'}.png`), fullPage: true });
    }
  } finally {
    await context.close();
  }
});

test('screenshots of the docs example at 1280 and 390 px (test-results/), and of one lab for the README', async () => {
  for (const [width, scheme] of [[1280, 'light'], [390, 'light'], [390, 'dark']]) {
    await withPage(DOCS, async (page) => {
      await expectVerdict(page, 1, 'safe', 450, 450);
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(sw <= width, `no sideways scroll at ${width}: ${sw}`);
      const shot = join(RESULTS, `docs-${width}${scheme === 'dark' ? '-dark' : ''}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      if (width === 1280) await lab(page, 0).screenshot({ path: join(RESULTS, 'embed.png') });
    }, { width, height: 900, colorScheme: scheme });
  }
});
