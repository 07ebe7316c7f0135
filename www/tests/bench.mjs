// Benchmark (not a test): slider input → re-simulated and re-rendered, navigation → verdict shown, and
// explore.html's sweep and Monte Carlo in wasm, in headless Chromium against dist/; then the page's
// size. Prints one `name: value unit` line per figure.
//   node www/tests/bench.mjs        (after `bash tools/build-web.sh`)
//   node www/tests/bench.mjs search (only the search figures; `sweep`: only explore's sweep and Monte
//                                    Carlo; `page`: only the slider, navigation and size figures;
//                                    `matrix`: only matrix.html's live safety table)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, openPage, ROOT, SEED_SWEEP } from './helpers.mjs';

const INPUTS = 300;
const NAVIGATIONS = 12;

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const print = (name, v, unit) => console.log(`${name}: ${v.toFixed(2)} ${unit}`);

const GROUPS = ['page', 'sweep', 'search', 'matrix'];
const only = process.argv[2];
if (only !== undefined && !GROUPS.includes(only)) {
  console.error(`bench: unknown group ${JSON.stringify(only)}; expected one of ${GROUPS.join(', ')}`);
  process.exit(2);
}
const wanted = (group) => only === undefined || only === group;

const env = await setup();
try {
  if (wanted('page')) await pageBench(env);
  if (wanted('sweep')) await sweepBench(env);
  if (wanted('search')) await searchBench(env);
  if (wanted('matrix')) await matrixBench(env);
  if (wanted('page')) printSizes();
} finally {
  await env.close();
}

/** The lab page: a slider's re-render, and navigation to the first verdict. */
async function pageBench(env) {
  const { page, context } = await openPage(env.browser);
  await page.goto(env.url);
  await page.locator('[data-testid=outcome][data-outcome]').waitFor();
  // Each sample: set the Pause slider, dispatch `input`, and time until the handler has re-simulated
  // and rebuilt the DOM (synchronous), then until the next frame has been produced.
  const samples = await page.evaluate(async (n) => {
    const el = document.querySelector('#pause');
    const box = document.querySelector('[data-testid=outcome]');
    const lo = Number(el.min);
    const hi = Number(el.max);
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const dom = [];
    const toFrame = [];
    let flips = 0;
    for (let i = 0; i < n; i++) {
      const v = Math.round(lo + ((hi - lo) * ((i * 37) % n)) / (n - 1));
      const before = box.dataset.outcome;
      const t0 = performance.now();
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      const t1 = performance.now();
      await frame();
      toFrame.push(performance.now() - t0);
      dom.push(t1 - t0);
      if (box.dataset.outcome !== before) flips++;
    }
    return { dom, toFrame, flips };
  }, INPUTS);
  print('slider_rerender_median_ms', quantile(samples.dom, 0.5), 'ms');
  print('slider_rerender_p95_ms', quantile(samples.dom, 0.95), 'ms');
  print('slider_to_next_frame_median_ms', quantile(samples.toFrame, 0.5), 'ms');
  console.log(`slider_inputs: ${INPUTS} inputs (${samples.flips} verdict flips)`);
  await context.close();

  // Navigation: from navigation start to the moment the page marks its first verdict.
  const nav = [];
  for (let i = 0; i < NAVIGATIONS; i++) {
    const { page: p, context: c } = await openPage(env.browser);
    await p.goto(env.url);
    await p.locator('[data-testid=outcome][data-outcome]').waitFor();
    nav.push(await p.evaluate(() => performance.getEntriesByName('leaselab:verdict')[0].startTime));
    await c.close();
  }
  print('navigation_to_verdict_median_ms', quantile(nav, 0.5), 'ms');
  print('navigation_to_verdict_max_ms', Math.max(...nav), 'ms');
}

/**
 * Loads www/tests/minimal-sim.mjs into the explore page (through DevTools, which the page's CSP does
 * not govern) and returns a timer like `wasmSweep`'s: median and fastest ms of `reps` every-cell
 * sweeps of the seed's grid by the minimal plain-JS simulation, the yardstick issue 18 measures the
 * engine against. Before any figure, it must handle as many events as the engine's runs do in all
 * (`sweep_timing --events-total`); its grid is compared with the engine's after the rounds.
 */
async function loadMinimalSim(xp, native) {
  const src = readFileSync(join(ROOT, 'www', 'tests', 'minimal-sim.mjs'), 'utf8').replace(/^export /gm, '');
  await xp.evaluate(`(() => {\n${src}\nwindow.minimalSim = sweepSeedEveryCell;\n})()`);
  const out = execFileSync(native, ['--events-total'], { encoding: 'utf8' });
  const engineEvents = Number(/^events_total: (\d+)/m.exec(out)[1]);
  const jsEvents = await xp.evaluate(() => window.minimalSim().events);
  if (jsEvents !== engineEvents) {
    throw new Error(`the minimal JS simulation handles ${jsEvents} events, the engine ${engineEvents}`);
  }
  console.log(`events_total: ${engineEvents} (the engine's and the minimal JS simulation's)`);
  return (reps) =>
    xp.evaluate((reps) => {
      const ms = [];
      let grid = null;
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        grid = window.minimalSim().codes;
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      window.minimalGrid = Array.from(grid);
      return { median: ms[ms.length >> 1], min: ms[0] };
    }, reps);
}

async function sweepBench(env) {
  // The explore page's computations, in the browser: the 256×256 (ttl, pause) sweep of the seed's
  // scenario through explore.html's wasm (built with `estimate`; the same grid as `cargo run --example
  // sweep_timing`), fast and with every cell run, and the Monte Carlo estimator at the seed's ratio,
  // seeds 0–4 as natively. Medians.
  const { page: xp, context: xc } = await openPage(env.browser);
  await xp.goto(`${env.url}explore.html`);
  await xp.locator('body[data-phase=ready]').waitFor();
  await xp.evaluate(async (scenario) => {
    const core = await import('./pkg/leaselab_mc.js');
    await core.default();
    window.benchCore = core;
    window.benchSim = new core.Simulation(scenario);
  }, SEED_SWEEP.scenario);
  // Median ms of `reps` sweeps in the page; checks the fast grid equals the every-cell one.
  const wasmSweep = (everyCell, reps) =>
    xp.evaluate(
      ([everyCell, reps, args]) => {
        const sim = window.benchSim;
        const ms = [];
        let grid = null;
        for (let i = 0; i < reps; i++) {
          const t0 = performance.now();
          grid = sim.sweep(...args, everyCell);
          ms.push(performance.now() - t0);
        }
        ms.sort((a, b) => a - b);
        window.benchGrid ??= {};
        window.benchGrid[everyCell] = Array.from(grid);
        return { median: ms[ms.length >> 1], min: ms[0] };
      },
      [everyCell, reps, SEED_SWEEP.args],
    );
  // The same sweep natively, in a child process (the example `make bench` has just built).
  const native = join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'release', 'examples', 'sweep_timing');
  const nativeSweeps = () => {
    const out = execFileSync(native, ['--sweeps-only'], { encoding: 'utf8' });
    const fig = (name) => Number(new RegExp(`^${name}: ([\\d.]+)`, 'm').exec(out)[1]);
    return {
      n: { median: fig('sweep_native_ms'), min: fig('sweep_native_min_ms') },
      ne: { median: fig('sweep_every_cell_native_ms'), min: fig('sweep_every_cell_native_min_ms') },
    };
  };
  // Rounds alternate native and wasm so both see the same machine: the shared machine's speed drifts
  // by 2x within seconds, and a ratio of medians taken minutes apart mostly measures that drift. Each
  // round's ratio compares the fastest repetition on each side (noise only ever adds time); the figure
  // is the median of the rounds' ratios.
  const minimalSweep = await loadMinimalSim(xp, native);
  // Warm-up first: V8 runs new wasm in its baseline compiler and tiers hot functions up meanwhile.
  await wasmSweep(false, 20);
  await wasmSweep(true, 1);
  await minimalSweep(1);
  const rounds = [];
  for (let r = 0; r < 7; r++) {
    const { n, ne } = nativeSweeps();
    const w = await wasmSweep(false, 21);
    const we = await wasmSweep(true, 3);
    const js = await minimalSweep(3);
    rounds.push({ n, w, ratio: w.min / n.min, ne, we, everyRatio: we.min / ne.min, js, jsRatio: we.min / js.min });
  }
  const everyMs = quantile(rounds.map((r) => r.we.median), 0.5);
  const same = await xp.evaluate(() => {
    const [a, b] = [window.benchGrid[false], window.benchGrid[true]];
    return a.length === b.length && a.every((c, i) => c === b[i]);
  });
  if (!same) throw new Error('the fast sweep and the every-cell sweep disagree in wasm');
  const minimalSame = await xp.evaluate(() => {
    const [a, b] = [window.benchGrid[true], window.minimalGrid];
    return a.length === b.length && a.every((c, i) => c === b[i]);
  });
  if (!minimalSame) throw new Error('the minimal JS simulation and the engine disagree on some cell');
  const cells = 256 * 256;
  const rates = await xp.evaluate(async () => {
    const mc = window.benchCore;
    const rates = [];
    for (let seed = 0; seed < 5; seed++) {
      const est = new mc.Estimator('none', 30000, 50, 0, 'pareto', 50, 2, 0, seed);
      const t0 = performance.now();
      est.step(5e6);
      rates.push(5e6 / ((performance.now() - t0) / 1e3));
      est.free();
    }
    return rates;
  });
  await xc.close();
  print('sweep_wasm_ms', quantile(rounds.map((r) => r.w.median), 0.5), 'ms');
  print('sweep_native_ms_interleaved', quantile(rounds.map((r) => r.n.median), 0.5), 'ms');
  // Median over rounds of (fastest wasm ÷ fastest native), measured back to back.
  print('sweep_wasm_over_native', quantile(rounds.map((r) => r.ratio), 0.5), 'x');
  // And the fastest of all rounds on each side: the least disturbed figure this machine gives.
  const fastest = (k) => Math.min(...rounds.map((r) => r[k].min));
  print('sweep_wasm_over_native_fastest', fastest('w') / fastest('n'), 'x');
  const fmtRound = (r) => `${r.w.min.toFixed(1)}/${r.n.min.toFixed(1)}`;
  console.log(`(rounds, fastest wasm/native ms: ${rounds.map(fmtRound).join(' ')})`);
  print('sweep_every_cell_wasm_ms', everyMs, 'ms');
  print('sweep_every_cell_wasm_over_native', quantile(rounds.map((r) => r.everyRatio), 0.5), 'x');
  print('sweep_every_cell_minimal_js_ms', quantile(rounds.map((r) => r.js.median), 0.5), 'ms');
  // Median over rounds of (fastest engine sweep ÷ fastest minimal JS sweep), back to back in one page.
  print('sweep_every_cell_wasm_over_minimal_js', quantile(rounds.map((r) => r.jsRatio), 0.5), 'x');
  // Every cell run: cells per second are the engine's runs per second.
  console.log(`runs_per_s_wasm: ${Math.round(cells / (everyMs / 1e3))} runs/s`);
  console.log(`montecarlo_ops_per_s_wasm: ${Math.round(quantile(rates, 0.5))} ops/s`);
}

/**
 * The lab's "Find a failure" search in its Web Workers (search.js, on explore's wasm), on a grid of a
 * million points in four dimensions of the seed's scenario (TTL × pause × B's retry × B's work, token
 * fencing): search_1m_wasm_ms, the whole grid as one slice in one worker (post to reply); and
 * search_workers_speedup, the panel's own split over every core against the same split over one
 * worker, run alternately so both see the same machine. Workers are started and their wasm loaded
 * before the clock starts. Medians of REPS, and the fastest of each side.
 */
async function searchBench(env) {
  const { page, context } = await openPage(env.browser);
  await page.goto(env.url);
  await page.locator('[data-testid=outcome][data-outcome]').waitFor();
  const figures = await page.evaluate(async () => {
    const REPS = 7;
    const { ask, searchInWorkers, searchWorkers } = await import('./search.js');
    const { slicesOf, sliceGrid, combinationsOf } = await import('./search-plan.js');
    const dims = [
      { name: 'ttl', from: 100, to: 1090, step: 10 },
      { name: 'pause', from: 0, to: 990, step: 10 },
      { name: 'retry', from: 1, to: 10, step: 1 },
      { name: 'work', from: 0, to: 9, step: 1 },
    ];
    const setup = { scenario: 'seed-gc-pause', policy: 'token', retries: 0, naive: false, params: [] };
    const cores = navigator.hardwareConcurrency || 2;
    const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const warm = async (ws) => {
      for (const w of ws) await ask(w, { type: 'check', setup, grid: sliceGrid(dims, { lo: 0, hi: 0 }) });
    };
    const one = searchWorkers(1);
    await warm(one);
    const whole = sliceGrid(dims, { lo: 0, hi: 99 });
    const wholeMs = [];
    let runs = 0;
    for (let i = 0; i <= REPS; i++) {
      const t0 = performance.now();
      const r = await ask(one[0], { type: 'run', setup, grid: whole });
      if (i) wholeMs.push(performance.now() - t0); // the first is a warm-up (V8 tiers the wasm up)
      runs = r.out[1];
    }
    const many = searchWorkers(cores);
    await warm(many);
    const timed = async (ws) => {
      const t0 = performance.now();
      const found = await searchInWorkers(ws, setup, dims, slicesOf(dims, ws.length * 4));
      return { ms: performance.now() - t0, found };
    };
    await timed(one);
    await timed(many);
    const oneMs = [];
    const manyMs = [];
    let same = true;
    for (let i = 0; i < REPS; i++) {
      const a = await timed(one);
      const b = await timed(many);
      oneMs.push(a.ms);
      manyMs.push(b.ms);
      same &&= JSON.stringify(a.found.counterexample) === JSON.stringify(b.found.counterexample);
    }
    for (const w of [...one, ...many]) w.terminate();
    const fastest = (xs) => Math.min(...xs);
    return {
      combinations: combinationsOf(dims),
      runs,
      wholeMs: median(wholeMs),
      wholeMinMs: fastest(wholeMs),
      oneMs: median(oneMs),
      manyMs: median(manyMs),
      fastestRatio: fastest(oneMs) / fastest(manyMs),
      cores,
      same,
    };
  });
  await context.close();
  if (!figures.same) throw new Error('the search on every core and on one worker disagree');
  print('search_1m_wasm_ms', figures.wholeMs, 'ms');
  console.log(`(search: ${figures.combinations} combinations, ${figures.runs} engine runs in one slice)`);
  print('search_one_worker_ms', figures.oneMs, 'ms');
  print('search_all_workers_ms', figures.manyMs, 'ms');
  print('search_workers_speedup', figures.oneMs / figures.manyMs, `x (${figures.cores} workers)`);
  // The fastest of each side (noise only ever adds time): the least disturbed figure a shared machine gives.
  print('search_1m_wasm_min_ms', figures.wholeMinMs, 'ms');
  print('search_workers_speedup_fastest', figures.fastestRatio, 'x');
}

/**
 * matrix.html's "Compute in this browser" (issue 39): the whole default safety table, every service ×
 * fault × policy, on one worker per core, from the click to the last cell on the page (the page's own
 * figure, body[data-live-ms]). matrix_wasm_first_ms is the first run (workers started, wasm fetched and
 * compiled); matrix_wasm_ms the median of REPS more on the same page, as a reader who computes again sees.
 */
async function matrixBench(env) {
  const REPS = 5;
  const { page, context } = await openPage(env.browser);
  await page.goto(`${env.url}matrix.html`);
  await page.locator('body[data-ready]').waitFor();
  const once = async () => {
    await page.locator('#compute').click();
    await page.locator('body[data-live=done]').waitFor({ timeout: 120_000 });
    const ms = Number(await page.evaluate(() => document.body.dataset.liveMs));
    await page.evaluate(() => delete document.body.dataset.live);
    return ms;
  };
  const first = await once();
  const ms = [];
  for (let i = 0; i < REPS; i++) ms.push(await once());
  const cells = (await page.locator('#live-status').textContent()).match(/(\d+) cells/)?.[1];
  const workers = (await page.locator('#live-status').textContent()).match(/on (\d+) workers/)?.[1];
  await context.close();
  print('matrix_wasm_ms', quantile(ms, 0.5), `ms (${cells} cells, ${workers} workers)`);
  print('matrix_wasm_first_ms', first, 'ms');
}

/** The page's size, gzipped, as tools/size-check.sh measures it (dist/ as built). */
function printSizes() {
  const sizes = execFileSync('bash', [join(ROOT, 'tools', 'size-check.sh')], { encoding: 'utf8' });
  for (const name of ['page_gzip_bytes', 'wasm_gzip_bytes']) {
    const m = new RegExp(`^${name}: (\\d+) B`, 'm').exec(sizes);
    if (m) console.log(`${name}: ${m[1]} B`);
  }
}
