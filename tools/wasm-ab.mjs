// Interleaved A/B timing of explore's wasm builds in headless Chromium: the every-cell seed sweep
// (bench.mjs's `sweep_every_cell_wasm_ms`) run by each build in turn, in one page, so that the shared
// machine's drift falls on all of them alike. For changes to the engine's speed: Node's V8 and
// Chromium's disagreed on several (docs/performance.md), and the bench measures Chromium.
//
//   node tools/wasm-ab.mjs DIR_A DIR_B [DIR …] [--rounds N] [--grid X,FROM,TO,STEPS,Y,FROM,TO,STEPS]
//
// Each DIR holds a build's leaselab_mc.js and leaselab_mc_bg.wasm (a copy of dist/pkg after
// `bash tools/build-web.sh`). Prints each build's fastest and first-quartile time over N rounds (31).
// --grid sweeps another grid of the seed's scenario (ms), every cell run: e.g.
// `ttl,10,11,256,pause,0,1,256` (18 events a run) against `ttl,2000,2001,256,pause,0,1,256` (135)
// tells a run's fixed cost from a polling round's (issue 18, CHANGELOG.md: the seventh pass).
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { launch, SEED_SWEEP } from '../www/tests/helpers.mjs';

const FILES = ['leaselab_mc.js', 'leaselab_mc_bg.wasm'];

/** `X,FROM,TO,STEPS,Y,FROM,TO,STEPS` as the arguments of `Simulation.sweep` (before `every_cell`). */
function parseGrid(text = '') {
  const parts = text.split(',');
  const axis = (i) => {
    const [name, ...nums] = parts.slice(i, i + 4);
    const [from, to, steps] = nums.map(Number);
    const ok = /^[a-z_]+$/.test(name) && nums.every((n) => /^\d+$/.test(n)) && to > from && steps >= 2;
    return ok ? [name, from, to, steps] : null;
  };
  const [x, y] = [axis(0), axis(4)];
  if (parts.length !== 8 || !x || !y) {
    fail(`--grid: expected X,FROM,TO,STEPS,Y,FROM,TO,STEPS (names, whole ms, FROM < TO, STEPS ≥ 2), got "${text}"`);
  }
  return [...x, ...y];
}

function parseArgs(argv) {
  const dirs = [];
  let rounds = 31;
  let grid = SEED_SWEEP.args;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') {
      rounds = Number(argv[++i]);
      if (!Number.isInteger(rounds) || rounds < 4) fail(`--rounds: expected a whole number ≥ 4, got ${argv[i]}`);
    } else if (argv[i] === '--grid') {
      grid = parseGrid(argv[++i]);
    } else {
      dirs.push(resolve(argv[i]));
    }
  }
  if (dirs.length < 2) fail('usage: node tools/wasm-ab.mjs DIR_A DIR_B [DIR …] [--rounds N] [--grid X,FROM,TO,STEPS,Y,FROM,TO,STEPS]');
  for (const dir of dirs) {
    for (const f of FILES) if (!existsSync(join(dir, f))) fail(`${dir} has no ${f} (copy dist/pkg after tools/build-web.sh)`);
  }
  return { dirs, rounds, grid };
}

function fail(message) {
  console.error(`wasm-ab: ${message}`);
  process.exit(2);
}

/** The page: loads build i from /i/, warms each up, then times them in turn, round after round. */
function page(count, rounds, grid) {
  return `<!doctype html><script type="module">
const sims = [];
for (let i = 0; i < ${count}; i++) {
  const core = await import('/' + i + '/leaselab_mc.js');
  await core.default({ module_or_path: '/' + i + '/leaselab_mc_bg.wasm' });
  const sim = new core.Simulation(${JSON.stringify(SEED_SWEEP.scenario)});
  sims.push(() => sim.sweep(...${JSON.stringify(grid)}, true));
}
const time = (f) => { const t0 = performance.now(); f(); return performance.now() - t0; };
for (let w = 0; w < 3; w++) sims.forEach((f) => f());
const times = sims.map(() => []);
for (let r = 0; r < ${rounds}; r++) sims.forEach((f, i) => times[i].push(time(f)));
window.abTimes = times;
</script>`;
}

/** Serves the page at / and build i's two files at /i/NAME, nothing else. */
function serve(dirs, html) {
  return createServer((req, res) => {
    const [, index, file] = req.url.split('/');
    if (req.url === '/') {
      res.setHeader('content-type', 'text/html');
      return res.end(html);
    }
    const dir = dirs[Number(index)];
    if (dir === undefined || !FILES.includes(file)) {
      res.statusCode = 404;
      return res.end();
    }
    res.setHeader('content-type', file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript');
    res.end(readFileSync(join(dir, file)));
  }).listen(0, '127.0.0.1');
}

const { dirs, rounds, grid } = parseArgs(process.argv.slice(2));
const server = serve(dirs, page(dirs.length, rounds, grid));
await new Promise((ok) => server.on('listening', ok));
const browser = await launch();
try {
  const tab = await browser.newPage();
  tab.on('pageerror', (e) => fail(`the page failed: ${e.message}`));
  await tab.goto(`http://127.0.0.1:${server.address().port}/`);
  await tab.waitForFunction(() => window.abTimes, null, { timeout: 30 * 60_000 });
  const times = await tab.evaluate(() => window.abTimes);
  times.forEach((t, i) => {
    const s = [...t].sort((a, b) => a - b);
    const q1 = s[Math.floor(s.length / 4)];
    console.log(`${basename(dirs[i]).padEnd(16)} fastest ${s[0].toFixed(1)} ms, first quartile ${q1.toFixed(1)} ms`);
  });
} finally {
  await browser.close();
  server.close();
}
