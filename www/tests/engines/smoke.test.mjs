// The smoke suite in every engine readers use (issue 19): Chromium (playwright-core on Debian's
// Chromium), Firefox ESR (geckodriver) and WebKitGTK (WebKitWebDriver driving MiniBrowser under
// xvfb-run) — Safari and iPhone readers are WebKit. Each engine loads the same pages from one server on
// dist/ and collects the same facts: the seed's verdict per policy (index.html), the docs example's labs
// and a <lease-lab> made by script, explore's phase diagram and a Monte Carlo estimate, a lesson's
// answer, and a host page on another origin taking lease-lab.js from that server (CORS): its search
// panel's answer, from workers, and a lab with the reader's own scenario inline. Each engine's facts are
// checked against the scenario files (and the CLI's estimate, run and search), then all three are
// compared: the same settings must give the same verdicts and the same numbers, exactly.
// `make test-engines`; needs `bash tools/build-web.sh` and `bash tools/setup.sh test`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../../tools/serve.mjs';
import { ROOT, DIST, RESULTS, CLI, MY_JOB, cliSearch, cliVerdict } from '../helpers.mjs';
import { freePort, startDriver, openSession } from './webdriver.mjs';
import { inPidNamespace, inPidNamespaceExecutable } from '../pid-namespace.mjs';
import { PAGES, ESTIMATE_FORM, CROSS_ORIGIN_GRID } from './pages.mjs';

const WIDTH = 1280;
const HEIGHT = 900;

let server; // dist/, with CORS: a CDN or docs host for the host page
let host; // the host page, on another origin
let hostDir;
await mkdir(RESULTS, { recursive: true });
const facts = {}; // engine → what it saw
const seconds = {}; // engine → its suite's wall time
before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/ is missing: run bash tools/build-web.sh');
  server = await serve({ dir: DIST, port: 0, cors: true });
  hostDir = await mkdtemp(join(tmpdir(), 'leaselab-engines-host-'));
  await writeFile(join(hostDir, 'host.html'), hostPage(server.url));
  host = await serve({ dir: hostDir, port: 0 });
});
after(async () => {
  await server?.close();
  await host?.close();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
  await writeFile(join(RESULTS, 'engines.json'), JSON.stringify({ seconds, facts }, null, 1));
});

/**
 * A docs page on its own origin that takes lease-lab.js from `labUrl` (as from a CDN): a lab with the
 * search panel, and one with the reader's own scenario inline (docs/scenario-format.md's first file).
 * Its first script counts the workers the page starts (the search runs only in workers).
 */
function hostPage(labUrl) {
  const countWorkers = 'window.workersMade = []; const W = window.Worker; window.Worker = class extends W { constructor(url, o) { super(url, o); window.workersMade.push(String(url)); } };';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title><link rel="icon" href="data:,">` +
    `<script>${countWorkers}</script><script type="module" src="${labUrl}lease-lab.js"></script></head>` +
    `<body><main><h1>A docs page on another origin</h1><lease-lab fencing="none" controls="search"></lease-lab>` +
    `<lease-lab><script type="text/x-leaselab">${MY_JOB}</script></lease-lab></main></body></html>`
  );
}

/** Chromium through playwright-core: the flags and fresh profile the other browser tests use. */
async function chromiumEngine() {
  const browser = await chromium.launch({
    executablePath: inPidNamespaceExecutable(process.env.CHROMIUM || '/usr/bin/chromium'),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } })).newPage();
    return {
      goto: (url) => page.goto(url),
      execute: (body) => page.evaluate(`(async () => { ${body} })()`),
      screenshot: () => page.screenshot(),
      close: () => browser.close(),
    };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/** A browser driven over WebDriver: its driver started on a free port, one session, the window sized. */
async function webDriverEngine(startArgs, capabilities) {
  const port = await freePort();
  const driver = await startDriver(...startArgs(port), port);
  try {
    const session = await openSession(driver, capabilities);
    await session.setWindowRect({ width: WIDTH, height: HEIGHT });
    return { ...session, close: () => session.close().finally(driver.stop) };
  } catch (e) {
    await driver.stop();
    throw e;
  }
}

/** Firefox ESR, headless, under geckodriver (which gives it a fresh temporary profile and removes it). */
const firefoxEngine = () =>
  webDriverEngine((port) => inPidNamespace('geckodriver', ['--host', '127.0.0.1', '--port', String(port)]), {
    browserName: 'firefox',
    'moz:firefoxOptions': {
      binary: process.env.FIREFOX || '/usr/bin/firefox-esr',
      args: ['-headless'],
      prefs: { 'app.update.disabledForTesting': true, 'browser.shell.checkDefaultBrowser': false, 'datareporting.policy.dataSubmissionEnabled': false },
    },
  });

/** WebKitGTK's MiniBrowser (its path is Debian's: /usr/lib/<multiarch>/webkit2gtk-4.1/), on a private Xvfb. */
function webkitEngine() {
  const binary =
    process.env.MINIBROWSER ||
    readdirSync('/usr/lib')
      .map((dir) => `/usr/lib/${dir}/webkit2gtk-4.1/MiniBrowser`)
      .find((path) => existsSync(path));
  assert.ok(binary, 'MiniBrowser not found: bash tools/setup.sh test installs webkit2gtk-driver');
  return webDriverEngine(
    (port) => inPidNamespace('xvfb-run', ['-a', '-s', `-screen 0 ${WIDTH}x1024x24 -nolisten tcp`, 'WebKitWebDriver', '--host=127.0.0.1', `--port=${port}`]),
    { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary, args: ['--automation'] } },
  );
}

// Waits in the page (polling) for `probe()` to give something truthy, and returns it.
const UNTIL = `const until = async (probe, what, ms = 60000) => {
  for (const end = Date.now() + ms; ; ) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting for ' + (typeof what === 'function' ? what() : what));
    await new Promise((r) => setTimeout(r, 50));
  }
};`;

/** Loads each page of PAGES in `engine` and collects what its probe returns; a page marked `shot` is
 *  also saved as test-results/engine-NAME-PAGE.png, to look at. */
async function collect(engine, name) {
  const out = {};
  for (const p of PAGES(expectations('seed-gc-pause'))) {
    await engine.goto((p.host ? host : server).url + p.path);
    const got = await engine.execute(`${UNTIL}\nreturn (${p.probe})(until);`);
    if (p.shot) await writeFile(join(RESULTS, `engine-${name}-${p.name}.png`), await engine.screenshot());
    if (p.key) (out[p.name] ??= {})[p.key] = got;
    else out[p.name] = got;
  }
  return out;
}

const ENGINES = { chromium: chromiumEngine, firefox: firefoxEngine, webkit: webkitEngine };
for (const [name, open] of Object.entries(ENGINES)) {
  test(`${name}: the smoke pages load and give the scenario files' verdicts`, async (t) => {
    const started = performance.now();
    const engine = await open();
    try {
      facts[name] = await collect(engine, name);
    } finally {
      await engine.close();
    }
    seconds[name] = Math.round((performance.now() - started) / 100) / 10;
    t.diagnostic(`${name}: ${seconds[name]} s`);
    console.log(`engine ${name}: ${seconds[name]} s`);
    await checkFacts(facts[name]);
  });
}

test('the same settings give the same verdicts and numbers in every engine', () => {
  const names = Object.keys(ENGINES);
  assert.deepEqual(Object.keys(facts), names, 'every engine ran');
  for (const other of names.slice(1)) assert.deepEqual(facts[other], facts[names[0]], `${other} against ${names[0]}`);
});

/** The `expect POLICY: …` lines of a scenario file at its defaults, as { policy: { final, lost, … } }. */
function expectations(id) {
  const text = readFileSync(join(ROOT, 'crate', 'scenarios', `${id}.txt`), 'utf8');
  const out = {};
  for (const [, policy, rest] of text.matchAll(/^expect ([a-z-]+): (.*)$/gm)) out[policy] = Object.fromEntries(rest.trim().split(/\s+/).map((kv) => kv.split('=')));
  return out;
}

/** A verdict as the page shows it against a scenario file's expectation. */
function checkVerdict(v, want, where) {
  assert.equal(v.outcome, want.lost === 'none' ? 'safe' : 'lost-update', `${where}: outcome`);
  assert.equal(v.final, Number(want.final), `${where}: final`);
  if (want.expected) assert.equal(v.expected, Number(want.expected), `${where}: expected`);
}

/** What one engine saw, against the scenario files, the CLI and the lesson's own numbers. */
async function checkFacts(f) {
  const seed = expectations('seed-gc-pause');
  assert.deepEqual(Object.keys(f.index).sort(), Object.keys(seed).sort(), 'every policy of the seed');
  for (const [policy, v] of Object.entries(f.index)) checkVerdict(v, seed[policy], `index.html fencing=${policy}`);
  const [unfenced, fenced, made] = f.docs;
  checkVerdict(unfenced, seed.none, 'docs page, first lab');
  checkVerdict(fenced, seed.token, 'docs page, second lab');
  checkVerdict(made, expectations('write-only-gap')['first-touch'], '<lease-lab scenario=write-only-gap fencing=first-touch>');
  for (const lab of f.docs) assert.match(lab.diagram, /Lock service/, 'a diagram drawn');
  for (const map of Object.values(f.explore.maps)) assert.equal(map.cells, map.nx * map.ny, 'one cell per grid point');
  if (existsSync(CLI)) {
    const form = ESTIMATE_FORM;
    const args = ['--preset', form.preset, '--ttl', `${form['p-ttl']}ms`, '--rate', 'always', '--fencing', form['p-policy'], '--ops', form['p-ops'], '--seed', form['p-seed']];
    const want = JSON.parse(execFileSync(CLI, ['estimate', '--json', ...args], { encoding: 'utf8' }));
    assert.ok(want.lost > 0, 'an estimate with lost updates to compare');
    for (const k of ['ops', 'lost', 'simulated', 'p', 'low', 'high', 'analytic']) assert.equal(Number(f.explore.estimate[k]), want[k], `estimate: ${k} as the CLI's`);
    assert.equal(Number(f.explore.estimate.overRange), want.over_range);
  }
  assert.equal(f.learn.correct, 'false', 'the lesson marks the first choice wrong');
  assert.match(f.learn.reveal, /Final 440, expected 450/);
  await checkCrossOrigin(f.crossOrigin);
}

/** The host page on another origin: the seed's verdict, the own scenario's and the search's as the CLI's. */
async function checkCrossOrigin(x) {
  checkVerdict(x.seed, expectations('seed-gc-pause').none, 'host page on another origin, the search lab');
  assert.ok(x.inWorkers, 'the search ran in workers, started from another origin');
  if (!existsSync(CLI)) return;
  const { outcome, final, expected } = x.own;
  assert.deepEqual({ outcome, final, expected }, await cliVerdict(MY_JOB), 'host page, the own scenario: as `leaselab run --file`');
  const want = cliSearch('none', CROSS_ORIGIN_GRID);
  const wantValues = want.counterexample ? want.counterexample.params : {};
  assert.deepEqual(x.search, { safe: want.safe, combinations: want.combinations, values: wantValues }, 'the search: as `leaselab search --json`');
}
