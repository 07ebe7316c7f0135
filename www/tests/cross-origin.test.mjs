// End-to-end tests of a <lease-lab> whose lease-lab.js comes from another origin than the page that
// embeds it (a CDN or a docs host, which sends CORS): the page on origin A, dist/ on origin B with
// `Access-Control-Allow-Origin: *`. The lab's workers start there too (www/worker-start.js): the
// "Find a failure" panel answers as the CLI does (`leaselab search --json`), in workers; a user
// scenario's trial run runs in its worker, so the page's main thread is never held (the Long Tasks
// API, as user-scenario.test.mjs measures it). A host whose CSP allows blob: workers gets the same;
// one that forbids them, and a page without Worker, get the panel's clear message and the scenario
// tried on the main thread, with no page error. Needs `bash tools/build-web.sh` and `cargo build --release` (the CLI).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, cliVerdict, cliSearch, CLI, DIST, MY_JOB } from './helpers.mjs';
import { serve } from '../../tools/serve.mjs';

const noCli = !existsSync(CLI) && 'cargo build --release first';

// Two real servers: Chromium refuses a page that is not itself on loopback (a routed one) the loopback
// address space, so the host's pages are files in a temporary folder served on origin A.
let browser;
let hostDir;
let host; // origin A: the host site
let lab; // origin B: dist/ served with CORS, as a CDN serves lease-lab.js
before(async () => {
  hostDir = await mkdtemp(join(tmpdir(), 'leaselab-host-'));
  host = await serve({ dir: hostDir, port: 0 });
  lab = await serve({ dir: DIST, port: 0, cors: true });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await host?.close();
  await lab?.close();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});


/** Seven clients retrying every microsecond against an hour's lease: past the event limit (cli_file.rs). */
const FOREVER =
  'id: forever\ntitle: Forever\nsummary: Never ends\nservice: redlock ttl=3600s nodes=1\nclient A: acquire; read; write 1\n' +
  [...'BCDEFGH'].map((c) => `client ${c}: acquire every 1us; read; write 1\n`).join('');

const inline = (text) => `<lease-lab><script type="text/x-leaselab">${text}</script></lease-lab>`;
const SEARCH_LAB = '<lease-lab fencing="none" controls="search"></lease-lab>';

/**
 * The host's CSP: what its own page needs plus origin B for the lab's script, styles, fonts and
 * fetches, and its worker-src: B and, if `blob`, blob: (a worker's module imports are checked against
 * worker-src too, so B must be there as well as blob:).
 */
const hostCsp = (blob) => {
  const b = new URL(lab.url).origin;
  return (
    `default-src 'self'; script-src 'self' ${b} 'wasm-unsafe-eval'; connect-src 'self' ${b}; ` +
    `style-src 'self' ${b}; font-src 'self' ${b}; img-src 'self' ${b} data:; worker-src 'self' ${b}${blob ? ' blob:' : ''}`
  );
};

/** How often the page's main thread tried a scenario text itself (user-scenario.js marks each time). */
const triedOnMain = (page) => page.evaluate(() => performance.getEntriesByName('leaselab:scenario-on-main-thread').length);

let pages = 0;

/**
 * Opens a host page on origin A (body `body`, CSP `csp` if given, in a meta element) that loads
 * lease-lab.js from origin B, runs `fn(page, seen, watch)`; then no page error and no console error
 * but the `expected` ones. `seen.workers`: the URLs of the workers the page started; `init`: script
 * run in the page before its own.
 */
async function withHost(body, fn, { csp = null, expected = [], init = '' } = {}) {
  const { context, page, watch } = await openPage(browser);
  const seen = { workers: [] };
  page.on('worker', (w) => seen.workers.push(w.url()));
  try {
    if (init) await page.addInitScript(init);
    const meta = csp ? `<meta http-equiv="Content-Security-Policy" content="${csp}">` : '';
    const html =
      `<!doctype html><html lang="en"><head><meta charset="utf-8">${meta}<title>host</title><link rel="icon" href="data:,">` +
      `<script type="module" src="${lab.url}lease-lab.js"></script></head><body><main><h1>Host</h1>${body}</main></body></html>`;
    const name = `host-${++pages}.html`;
    await writeFile(join(hostDir, name), html);
    await page.goto(`${host.url}${name}`);
    assert.notEqual(new URL(host.url).origin, new URL(lab.url).origin, 'two origins');
    await fn(page, seen, watch);
    const problems = watch.problems().filter((p) => !expected.some((re) => re.test(p)));
    assert.deepEqual(problems, [], 'no unexpected console errors, page errors or CSP reports');
  } finally {
    await context.close();
  }
}

const GRID = [['ttl', 100, 900, 10], ['pause', 100, 1000, 10]];

/** Opens the panel of the lab `scope`, varies the grid's parameters only, clicks search. */
async function startSearch(scope, grid) {
  await scope.locator('#search-box > summary').click();
  await scope.locator('#search-dims .search-dim').first().waitFor();
  for (const row of await scope.locator('#search-dims .search-dim').all()) {
    const name = await row.getAttribute('data-param');
    const dim = grid.find((g) => g[0] === name);
    await row.locator('[data-f=vary]').setChecked(Boolean(dim));
    if (!dim) continue;
    for (const [k, f] of [[1, 'from'], [2, 'to'], [3, 'step']]) await row.locator(`[data-f=${f}]`).fill(String(dim[k]));
  }
  await scope.locator('[data-testid="search"]').click();
}

/** The search's answer once shown (safe, combinations, the marked values by name); fails on a problem said. */
async function searchAnswer(scope) {
  await scope.locator('[data-testid="search-result"][data-safe], #search-status.problem').first().waitFor({ timeout: 120_000 });
  const problem = scope.locator('#search-status.problem');
  if (await problem.count()) assert.fail(`the panel said: ${await problem.textContent()}`);
  const r = scope.locator('[data-testid="search-result"][data-safe]');
  return r.evaluate((e) => ({
    safe: e.dataset.safe === 'true',
    combinations: Number(e.dataset.combinations),
    values: Object.fromEntries([...e.querySelectorAll('mark')].map((m) => [m.dataset.param, Number(m.dataset.ms)])),
  }));
}

/** The lab's verdict box, once shown. */
async function verdictOf(scope) {
  const box = scope.locator('[data-testid="outcome"][data-outcome]').first();
  await box.waitFor();
  return box.evaluate((e) => ({ outcome: e.dataset.outcome, final: Number(e.dataset.final), expected: Number(e.dataset.expected) }));
}

/** The search's answer equals the CLI's, and it came from workers whose script came from origin B. */
async function searchesInWorkers(page, seen, watch) {
  const want = cliSearch('none', GRID);
  const scope = page.locator('lease-lab');
  await verdictOf(scope);
  await startSearch(scope, GRID);
  const got = await searchAnswer(scope);
  assert.deepEqual([got.safe, got.combinations, got.values], [want.safe, want.combinations, want.counterexample.params]);
  assert.ok(seen.workers.length >= 1, `workers started: ${seen.workers}`);
  assert.ok(watch.requests.includes(`${lab.url}search-worker.js`), 'the workers loaded search-worker.js from origin B');
  assert.ok(watch.requests.includes(`${lab.url}pkg/leaselab_mc_bg.wasm`), 'and its wasm from origin B');
}

test('lease-lab.js from another origin: the search panel answers as the CLI does, in workers', { skip: noCli }, () =>
  withHost(SEARCH_LAB, searchesInWorkers));

test('a host whose CSP allows blob: workers: the search runs in workers', { skip: noCli }, () =>
  withHost(SEARCH_LAB, searchesInWorkers, { csp: hostCsp(true) }));

test('lease-lab.js from another origin: a user scenario is tried in its worker, never on the main thread', () =>
  withHost(inline(FOREVER), async (page, seen, watch) => {
    const box = page.locator('lease-lab [data-testid="scenario-error"]');
    await box.waitFor();
    const text = await box.textContent();
    assert.match(text, /more than 1000000 events/);
    assert.equal(await triedOnMain(page), 0, 'the main thread never tried the text');
    assert.ok(watch.requests.includes(`${lab.url}user-scenario-worker.js`), 'the worker loaded its script from origin B');
    assert.ok(seen.workers.length >= 1);
  }));

/** The panel says it cannot start its workers; the user scenario (second lab) is tried on the main thread. */
async function noWorkers(page, seen) {
  assert.deepEqual(await verdictOf(page.locator('lease-lab').nth(1)), await cliVerdict(MY_JOB, []));
  assert.equal(await triedOnMain(page), 1, 'with no worker the main thread tried the text, once');
  const scope = page.locator('lease-lab').first();
  await startSearch(scope, GRID);
  const status = scope.locator('#search-status.problem');
  await status.waitFor();
  assert.match(await status.textContent(), /cannot start the search’s workers.*worker-src blob:/);
  assert.equal(await scope.locator('[data-testid="search-result"][data-safe]').count(), 0, 'no answer');
  assert.equal(await scope.locator('[data-testid="search"]').isEnabled(), true, 'the panel is usable again');
  assert.deepEqual(seen.workers, [], 'no worker ran');
}

test('a host whose CSP forbids blob: workers: the panel says so plainly, the scenario runs on the main thread', { skip: noCli }, () =>
  withHost(SEARCH_LAB + inline(MY_JOB), noWorkers, {
    csp: hostCsp(false),
    expected: [/Creating a worker from 'blob:.*violates .*"worker-src 'self' http/],
  }));

test('a page without Worker: the same message, the same fallback', { skip: noCli }, () =>
  withHost(SEARCH_LAB + inline(MY_JOB), noWorkers, { init: 'delete window.Worker;' }));
