// End-to-end tests of the lab's "Find a failure" panel in dist/ (headless Chromium, the strict CSP):
// its answer equals the CLI's (`leaselab search --json`) on a safe and an unsafe grid in English and
// Bengali; the counterexample is opened in the diagram and its link reproduces the verdict; Cancel
// stops the workers; bad ranges get a clear message and no answer; the element shows the panel when
// its `controls` asks; axe-core finds nothing serious; screenshots at 390 and 1280 px. Needs
// `bash tools/build-web.sh` and `cargo build --release` (target/release/leaselab, the CLI).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { setup, openPage, verdict, RESULTS, axeViolations, cliSearch, CLI } from './helpers.mjs';

const noCli = !existsSync(CLI) && 'cargo build --release first';

let env; // strict CSP
let plain; // no CSP, so the test can inject axe-core
before(async () => {
  env = await setup({ csp: true });
  plain = await setup();
});
after(async () => {
  await env?.close();
  await plain?.close();
});

/** Opens `path` on a fresh page, waits for the verdict, runs `fn(page)`, then checks nothing went wrong. */
async function withPage(path, fn, { server = () => env, cores, ...opts } = {}) {
  const srv = server();
  const { context, page, watch } = await openPage(srv.browser, opts);
  try {
    // `cores`: what navigator.hardwareConcurrency says, so the panel starts that many workers.
    if (cores) await page.addInitScript((n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), cores);
    await page.goto(`${srv.url}${path}`);
    await verdict(page);
    await fn(page, srv);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
    const origin = new URL(srv.url).origin;
    assert.deepEqual(watch.requests.filter((u) => new URL(u).origin !== origin), [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
}

/** Opens the panel and sets its rows: the named parameters varied as given, every other one not. */
async function fillGrid(page, grid) {
  const box = page.locator('#search-box');
  if (!(await box.evaluate((d) => d.open))) await page.locator('#search-box > summary').click();
  await page.locator('#search-dims .search-dim').first().waitFor();
  for (const row of await page.locator('#search-dims .search-dim').all()) {
    const name = await row.getAttribute('data-param');
    const dim = grid.find((g) => g[0] === name);
    await row.locator('[data-f=vary]').setChecked(Boolean(dim));
    if (!dim) continue;
    for (const [k, f] of [[1, 'from'], [2, 'to'], [3, 'step']]) await row.locator(`[data-f=${f}]`).fill(String(dim[k]));
  }
}

/** Runs the search and returns the result's data: safe, combinations, and the marked values by name. */
async function runSearch(page) {
  await page.locator('[data-testid="search"]').click();
  const r = page.locator('[data-testid="search-result"][data-safe]');
  await r.waitFor({ timeout: 120_000 });
  return r.evaluate((e) => ({
    safe: e.dataset.safe === 'true',
    combinations: Number(e.dataset.combinations),
    behaviours: e.dataset.behaviours === undefined ? null : Number(e.dataset.behaviours),
    values: Object.fromEntries([...e.querySelectorAll('mark')].map((m) => [m.dataset.param, Number(m.dataset.ms)])),
    link: e.querySelector('a[data-testid="search-link"]')?.href ?? null,
    text: e.textContent,
  }));
}

/** The seed's parameters at their defaults (contracts: ttl 300, pause 600, retry 50, work 0). */
const SEED_DEFAULTS = { ttl: 300, pause: 600, retry: 50, work: 0, arrival: 0 };

const SAFE = ['token', [['ttl', 100, 900, 10], ['pause', 100, 1000, 10]]];
const UNSAFE = ['none', [['ttl', 100, 900, 10], ['pause', 100, 1000, 10]]];
// Three dimensions, the first not TTL: the tie order and the cost are the flags' order.
const UNSAFE_3D = ['none', [['pause', 0, 400, 25], ['ttl', 200, 500, 20], ['work', 0, 90, 30]]];

for (const lang of ['en', 'bn']) {
  for (const [what, [fencing, grid]] of [['safe', SAFE], ['unsafe', UNSAFE], ['unsafe, 3-D', UNSAFE_3D]]) {
    test(`the panel's answer is the CLI's: ${what} grid (${lang})`, { skip: noCli }, () =>
      withPage(`index.html?lang=${lang}&fencing=${fencing}`, async (page) => {
        const want = cliSearch(fencing, grid);
        await fillGrid(page, grid);
        const got = await runSearch(page);
        assert.equal(got.safe, want.safe);
        assert.equal(got.combinations, want.combinations);
        if (want.safe) {
          assert.equal(got.link, null);
          // Counts with thousands separators in both languages (the page's runs are its slices', not the CLI's).
          const m = new Intl.NumberFormat(lang).format(want.behaviours);
          const words = lang === 'en' ? [`No lost update in 7,371 combinations (at least ${m} distinct behaviours; `, ' engine runs'] : [`৭,৩৭১টি সমন্বয়ের কোনোটিতেই আপডেট হারায় না (অন্তত ${m}টি আলাদা আচরণ; `, 'টি ইঞ্জিন রানে'];
          for (const w of words) assert.ok(got.text.includes(w), `${got.text} should include ${w}`);
          assert.match(got.text, lang === 'en' ? /; \d,\d{3} engine runs/ : /; [০-৯],[০-৯]{3}টি/);
          assert.equal(got.behaviours, want.behaviours);
          return;
        }
        assert.deepEqual(got.values, want.counterexample.params);
        // Opened in the diagram: the lab shows the counterexample's run, with the CLI's numbers.
        const v = await verdict(page);
        assert.equal(v.outcome, 'lost-update');
        assert.equal(v.final, want.counterexample.run.final);
        assert.equal(v.expected, want.counterexample.run.expected);
        // The link reproduces it on a fresh page.
        const fresh = await page.context().newPage();
        await fresh.goto(got.link);
        const again = await verdict(fresh);
        assert.deepEqual([again.outcome, again.final], ['lost-update', want.counterexample.run.final]);
        // Each varied value is in the link, or is the scenario's default (which the lab's links leave out).
        for (const [name, ms] of Object.entries(want.counterexample.params)) {
          const inLink = new URL(got.link).searchParams.get(name);
          assert.equal(inLink ?? String(SEED_DEFAULTS[name]), String(ms), name);
        }
        await fresh.close();
      }));
  }
}

// The distinct behaviours the page shows are the CLI's `behaviours` for the same grid, whether one worker
// or two search its slices (each worker sends its slices' behaviour keys; the panel unites them). On
// grids where a path signature misses a choice, slicing can change what the runs meet (both numbers
// are lower bounds then; crate::search's Found::behaviours): this grid has none.
for (const cores of [1, 2]) {
  test(`the panel's distinct behaviours are the CLI's, with ${cores} worker(s)`, { skip: noCli }, () =>
    withPage('index.html?fencing=first-touch', async (page) => {
      const grid = [['ttl', 100, 900, 20], ['pause', 0, 1500, 30], ['work', 0, 60, 20]];
      const want = cliSearch('first-touch', grid);
      assert.equal(want.safe, true);
      await fillGrid(page, grid);
      const got = await runSearch(page);
      assert.equal(await page.evaluate(() => navigator.hardwareConcurrency), cores);
      assert.deepEqual([got.safe, got.combinations, got.behaviours], [true, want.combinations, want.behaviours]);
      assert.ok(want.behaviours > 1, `${want.behaviours}`);
    }, { cores }));
}

test('Cancel stops the search: the workers end, no answer comes, a new search runs', () =>
  withPage('index.html', async (page) => {
    // A grid of a million points whose path changes almost everywhere: minutes of work.
    await fillGrid(page, [['ttl', 1000, 1990, 10], ['pause', 0, 990, 10], ['retry', 1, 10, 1], ['work', 0, 9, 1]]);
    await page.locator('[data-testid="search"]').click();
    const cancel = page.locator('#search-cancel');
    await cancel.waitFor();
    assert.equal(await page.locator('#search-progress').isVisible(), true);
    assert.equal(await page.locator('[data-testid="search"]').isDisabled(), true);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'search-cancel', 'focus on Cancel');
    await page.keyboard.press('Enter');
    await page.locator('#search-status', { hasText: 'Search cancelled.' }).waitFor();
    assert.equal(await cancel.isHidden(), true);
    assert.equal(await page.locator('#search-progress').isHidden(), true);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'search', 'focus back on the search button');
    await page.waitForTimeout(1500);
    assert.equal(await page.locator('[data-testid="search-result"]').isHidden(), true, 'no answer after Cancel');
    // Escape cancels too.
    await page.locator('[data-testid="search"]').click();
    await cancel.waitFor();
    await page.keyboard.press('Escape');
    await page.locator('#search-status', { hasText: 'Search cancelled.' }).waitFor();
    // And the panel still works.
    await fillGrid(page, UNSAFE[1]);
    const got = await runSearch(page);
    assert.equal(got.safe, false);
  }));

test('bad ranges: a clear message naming the parameter, and no search', () =>
  withPage('index.html', async (page) => {
    const cases = [
      [[['ttl', 100, 900, 0]], /TTL.*step must be more than 0/],
      [[['ttl', 'abc', 900, 10]], /TTL.*From “abc” is not a whole number/],
      [[['pause', 100, 50, 10]], /Pause.*range is empty/],
      [[['ttl', 100, 90000, 10]], /TTL.*within 10–2000 ms/],
      [[['pause', 0, 100, 0.5]], /Pause.*Step “0.5” is not a whole number/],
      [[], /Tick at least one parameter/],
    ];
    for (const [grid, message] of cases) {
      await fillGrid(page, grid);
      await page.locator('[data-testid="search"]').click();
      const status = page.locator('#search-status.problem');
      await status.waitFor();
      assert.match(await status.textContent(), message);
      assert.equal(await page.locator('[data-testid="search-result"]').isHidden(), true);
      assert.equal(await page.locator('#search-cancel').isHidden(), true, 'nothing started');
    }
  }));

test('the element shows the panel when `controls` asks for it, and searches', () =>
  withPage('embed.html?controls=sliders+fencing+search', async (page) => {
    const el = page.locator('lease-lab');
    await el.locator('#search-box').waitFor();
    await fillGrid(page, UNSAFE[1]);
    const got = await runSearch(page);
    assert.deepEqual([got.safe, got.values], [false, { ttl: 100, pause: 110 }]);
    assert.ok(got.link.includes('ttl=100') && got.link.includes('pause=110'), got.link);
  }));

test('the element leaves the panel out by default', () =>
  withPage('embed.html', async (page) => {
    assert.equal(await page.locator('lease-lab #search-box').isHidden(), true);
  }));

// axe-core (helpers.mjs's axeViolations): no serious or critical findings.
for (const [lang, opts] of [['en', {}], ['bn', { width: 390, height: 800, colorScheme: 'dark' }]]) {
  test(`the panel: axe-core finds nothing serious, with an answer shown (${lang})`, () =>
    withPage(`index.html?lang=${lang}`, async (page) => {
      await fillGrid(page, UNSAFE[1]);
      await runSearch(page);
      const { bad, all } = await axeViolations(page, '#search-box');
      assert.deepEqual(bad, [], JSON.stringify(all, null, 1));
    }, { server: () => plain, ...opts }));
}

test('the panel: no horizontal scroll at 390 px; screenshots at 1280 and 390 px, en and bn', async () => {
  for (const [width, lang] of [[1280, 'en'], [390, 'en'], [1280, 'bn'], [390, 'bn']]) {
    await withPage(`index.html?lang=${lang}`, async (page) => {
      await fillGrid(page, UNSAFE[1]);
      await runSearch(page);
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(sw <= width, `${width} ${lang}: scrollWidth ${sw} > ${width}`);
      await page.locator('#search-box').screenshot({ path: join(RESULTS, `search-${width}-${lang}.png`) });
    }, { width, height: 900 });
    // And a safe answer (the count of combinations, behaviours and runs).
    await withPage(`index.html?lang=${lang}&fencing=${SAFE[0]}`, async (page) => {
      await fillGrid(page, SAFE[1]);
      await runSearch(page);
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(sw <= width, `${width} ${lang} safe: scrollWidth ${sw} > ${width}`);
      await page.locator('#search-box').screenshot({ path: join(RESULTS, `search-safe-${width}-${lang}.png`) });
    }, { width, height: 900 });
  }
});
