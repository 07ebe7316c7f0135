// A safety table cell's link (docs/matrix.md's `link`) opens the cell's counterexample in the lab: the
// base scenario with the faults injected (www/injected.js, on explore's wasm), the same verdict and
// final balance as `leaselab run` with the cell's `run_args`, for every unsafe cell of the shipped
// table (dist/pkg/matrix.json). A link the engine refuses gets a notice and the page's own lab.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, openPage, verdict, CLI, DIST } from './helpers.mjs';

const noCli = !existsSync(CLI) && 'cargo build --release first';
const table = JSON.parse(readFileSync(join(DIST, 'pkg', 'matrix.json'), 'utf8'));
const unsafe = table.cells.filter((c) => c.verdict === 'unsafe');

let env;
before(async () => {
  env = await setup({ csp: true });
});
after(async () => {
  await env?.close();
});

/** `leaselab run` with a cell's arguments: its verdict and final balance. */
function cliRun(args) {
  let out;
  try {
    out = execFileSync(CLI, ['run', ...args, '--json'], { encoding: 'utf8' });
  } catch (e) {
    if (e.status !== 1) throw e;
    out = e.stdout; // exit 1: a lost update
  }
  const run = JSON.parse(out);
  return { outcome: run.lost_update ? 'lost-update' : 'safe', final: run.final };
}

/** Opens `path` in the lab, runs `fn(page)`, then checks nothing went wrong and nothing left the origin. */
async function withLab(path, fn, opts = {}) {
  const { context, page, watch } = await openPage(env.browser, opts);
  try {
    await page.goto(`${env.url}${path}`);
    await fn(page);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
    const origin = new URL(env.url).origin;
    assert.deepEqual(watch.requests.filter((u) => new URL(u).origin !== origin), [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
}

test('the shipped table has unsafe cells, each with a link', () => {
  assert.ok(unsafe.length >= 10, `${unsafe.length} unsafe cells`);
  for (const c of unsafe) assert.match(c.link, /^index\.html\?scenario=table-[a-z]+&fencing=[a-z-]+(&inject=[^&#]+)+$/, c.link);
});

test("every unsafe cell's link shows the lost update `leaselab run` finds with its run_args", { skip: noCli }, async () => {
  for (const c of unsafe) {
    await withLab(c.link, async (page) => {
      const v = await verdict(page);
      const cli = cliRun(c.run_args);
      assert.equal(cli.outcome, 'lost-update', `${c.link}: the CLI`);
      assert.deepEqual({ outcome: v.outcome, final: v.final }, cli, c.link);
      assert.equal(await page.locator('#notice').isHidden(), true, `${c.link}: no notice`);
    });
  }
});

test('the run says what was injected, in English and Bengali; the address keeps the injection', async () => {
  const c = unsafe[0];
  const injected = new URLSearchParams(c.link.split('?')[1]).getAll('inject');
  for (const lang of ['en', 'bn']) {
    await withLab(`${c.link}&lang=${lang}`, async (page) => {
      await verdict(page);
      const text = await page.locator('body').innerText();
      for (const inj of injected) assert.ok(text.includes(inj), `${lang}: ${inj} is said`);
      assert.ok(text.includes(lang === 'en' ? 'Faults injected into this run' : 'এই রানে ঢোকানো ত্রুটি'), lang);
      await page.locator('#ttl').focus();
      await page.keyboard.press('ArrowRight');
      await verdict(page);
      const q = new URL(page.url()).searchParams;
      assert.deepEqual(q.getAll('inject'), injected, `${lang}: the address keeps the injection`);
      const table = new URL(await page.locator('#matrix-link').evaluate((a) => a.href));
      assert.equal(table.searchParams.get('lang'), lang === 'en' ? null : lang, `${lang}: the table's link keeps the language`);
    });
  }
});

for (const [what, query, words] of [
  ['an unknown client', 'scenario=table-lease&inject=freeze:Z,at=1ms,for=1ms', 'freeze:Z'],
  ['a range (the lab runs one point)', 'scenario=table-lease&inject=freeze:A,at=0ms..10ms:1ms,for=5ms', 'one point'],
  ['an unknown scenario', 'scenario=no-such&inject=freeze:A,at=1ms,for=1ms', 'no-such'],
  ['markup in the value, shown as text', 'scenario=table-lease&inject=%3Cimg%20src%3Dx%3E', '<img src=x>'],
]) {
  test(`a link with ${what}: a notice, and the page's own lab`, async () => {
    await withLab(`index.html?${query}`, async (page) => {
      const v = await verdict(page);
      assert.ok(['safe', 'lost-update'].includes(v.outcome));
      const notice = page.locator('#notice');
      await notice.waitFor();
      assert.ok((await notice.innerText()).includes(words), await notice.innerText());
      assert.equal(await page.locator('#notice img').count(), 0, 'no markup from the address');
    });
  });
}

test("the lab's search keeps the cell's faults injected while it varies the scenario's own parameters", async () => {
  // table-lease's freeze cell: unsafe at the base's TTL with the freeze, safe there without it.
  const c = unsafe.find((x) => x.service === 'lease' && x.fault === 'pause' && x.fencing === 'none');
  await withLab(c.link, async (page) => {
    await verdict(page);
    await page.locator('#search-box > summary').click();
    await page.locator('#search-dims .search-dim').first().waitFor();
    for (const row of await page.locator('#search-dims .search-dim').all()) {
      const vary = (await row.getAttribute('data-param')) === 'ttl';
      await row.locator('[data-f=vary]').setChecked(vary);
      if (vary) for (const [f, v] of [['from', 250], ['to', 300], ['step', 50]]) await row.locator(`[data-f=${f}]`).fill(String(v));
    }
    await page.locator('[data-testid="search"]').click();
    const r = page.locator('[data-testid="search-result"][data-safe]');
    await r.waitFor({ timeout: 120_000 });
    assert.equal(await r.getAttribute('data-safe'), 'false', await r.innerText());
    const link = await r.locator('a[data-testid="search-link"]').getAttribute('href');
    assert.ok(new URL(link, env.url).searchParams.getAll('inject').length > 0, `the counterexample's link keeps the injection: ${link}`);
  });
});
