// Shared by the end-to-end tests and the benchmark: a server on dist/ and a headless Chromium; the CLI's
// verdict and axe-core's findings, which several tests compare the page with.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../tools/serve.mjs';
import { inPidNamespaceExecutable } from './pid-namespace.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = join(ROOT, 'dist');
export const RESULTS = join(ROOT, 'test-results');
/** axe-core's script, injected into a page to audit it. */
export const AXE = join(ROOT, 'www', 'node_modules', 'axe-core', 'axe.min.js');
/** The native CLI that `cargo build --release` (make test-rust) leaves. */
export const CLI = join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'release', 'leaselab');

/**
 * docs/scenario-format.md's first file, as the page shows it: the job runner (a 10 s lease, a queue
 * that holds a write 2 s). The tests that run a reader's own file use the page's text, not a copy
 * (crate/tests/cli_file.rs does too).
 */
export const MY_JOB = (() => {
  const page = readFileSync(join(ROOT, 'docs', 'scenario-format.md'), 'utf8');
  const text = /^```scenario\n([\s\S]*?)^```$/m.exec(page)?.[1];
  if (!text?.includes('\nid: my-job\n')) throw new Error('docs/scenario-format.md: its first scenario is not the job runner');
  return text;
})();

/**
 * The benchmarks' sweep (bench.mjs's every-cell and fast sweeps, tools/wasm-ab.mjs): the seed scenario's
 * 256 × 256 grid of TTL 10–2000 ms × pause 0–3000 ms, as `Simulation.sweep`'s arguments before
 * `everyCell` (the same grid as crate/examples/sweep_timing.rs).
 */
export const SEED_SWEEP = { scenario: 'seed-gc-pause', args: ['ttl', 10, 2000, 256, 'pause', 0, 3000, 256] };

const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * A headless Chromium; chromium.launch() gives every browser a fresh temporary profile of its own. It
 * runs in a PID namespace of its own (pid-namespace.mjs), so that nothing it starts (its crash handler)
 * outlives it.
 */
export function launch() {
  return chromium.launch({
    executablePath: inPidNamespaceExecutable(process.env.CHROMIUM || '/usr/bin/chromium'),
    headless: true,
    args: ARGS,
  });
}

/** Starts a server on dist/ (ephemeral port) and a browser; returns { url, browser, close() }. */
export async function setup({ csp = false } = {}) {
  const srv = await serve({ dir: DIST, port: 0, csp });
  const browser = await launch();
  await mkdir(RESULTS, { recursive: true });
  return {
    url: srv.url,
    browser,
    async close() {
      await browser.close();
      await srv.close();
    },
  };
}

/**
 * A fresh page that records console errors, page errors, CSP reports and every request URL.
 * `watch.problems()` lists what should never happen.
 */
export async function openPage(browser, { width = 1280, height = 900, reducedMotion = 'reduce', colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, reducedMotion, colorScheme });
  const page = await context.newPage();
  const watch = { errors: [], requests: [], csp: [] };
  page.on('console', (m) => {
    const text = m.text();
    if (/Content[- ]Security[- ]Policy/i.test(text)) watch.csp.push(text);
    if (m.type() === 'error') watch.errors.push(`console: ${text}`);
  });
  page.on('pageerror', (e) => watch.errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => watch.requests.push(r.url()));
  watch.problems = () => [...watch.errors, ...watch.csp.map((c) => `csp: ${c}`)];
  return { context, page, watch };
}

/**
 * Runs the native CLI with the arguments `argsFor(file)` gives, where `file` is a file of its own in a
 * temporary directory, removed afterwards, holding `text` when there is one (a scenario to run with
 * `--file`). Returns { lost (exit status 1: an update was lost), stdout }; throws on any other exit
 * status (2: bad input), with what the CLI said. The e2e tests' cliVerdict and the recipes'
 * (tools/recipes/cli-verdict.mjs) both run it so.
 */
export function runCli(argsFor, text = null) {
  const dir = mkdtempSync(join(tmpdir(), 'leaselab-cli-'));
  const file = join(dir, 'scenario.txt');
  const args = argsFor(file);
  try {
    if (text != null) writeFileSync(file, text);
    return { lost: false, stdout: execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    if (e.status === 1) return { lost: true, stdout: e.stdout };
    throw new Error(`leaselab ${args.join(' ')}: exit ${e.status}: ${String(e.stderr || e.message).trim()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The CLI's verdict for scenario `text` with these extra arguments: { outcome, final, expected }. */
export async function cliVerdict(text, args = []) {
  const run = JSON.parse(runCli((file) => ['run', '--file', file, '--json', ...args], text).stdout);
  return { outcome: run.lost_update ? 'lost-update' : 'safe', final: run.final, expected: run.expected };
}

/** The CLI's `search --json` answer for the seed's scenario: `grid` is [[name, from, to, step]…] in ms. */
export function cliSearch(fencing, grid) {
  const args = ['search', '--fencing', fencing, ...grid.flatMap(([n, a, b, s]) => ['--vary', `${n}=${a}ms..${b}ms:${s}ms`]), '--json'];
  try {
    return JSON.parse(execFileSync(CLI, args, { encoding: 'utf8' }));
  } catch (e) {
    if (e.status === 1) return JSON.parse(e.stdout); // exit 1: an update can be lost
    throw e;
  }
}

/**
 * Runs axe-core (from node_modules, injected by the test, never shipped) on the page as it stands, or
 * on the element `within` selects: { bad: the serious and critical violations, all: every one }.
 */
export async function axeViolations(page, within = null) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const all = await page.evaluate(async (within) => {
    const r = await window.axe.run(within ? document.querySelector(within) : document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
      html: v.nodes[0]?.html,
    }));
  }, within);
  return { bad: all.filter((v) => v.impact === 'serious' || v.impact === 'critical'), all };
}

/** Waits until the verdict is rendered and returns its data. */
export async function verdict(page) {
  const box = page.locator('[data-testid="outcome"][data-outcome]');
  await box.waitFor();
  return box.evaluate((e) => ({ outcome: e.dataset.outcome, final: Number(e.dataset.final), expected: Number(e.dataset.expected), text: e.textContent }));
}

/**
 * Waits until `probe()` (async) returns a value that `ok` accepts, then returns it. A wait for a
 * condition, not a verdict on speed: its only bound is Playwright's default timeout (30 s), a
 * hang's, as every locator wait in these tests has; past it, fails with the last value seen.
 */
export async function until(probe, ok, what) {
  let last;
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    last = await probe();
    if (ok(last)) return last;
  }
  assert.fail(`${what}: still ${JSON.stringify(last)} after 30 s`);
}
