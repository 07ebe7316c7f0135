// Unit tests of the "Find a failure" panel's arithmetic (www/search-plan.js) under plain Node: a grid
// cut into slices along its first dimension, each searched by the wasm the panel's workers load
// (explore's, built with `estimate`: target/web-mc, by tools/build-web.sh), combined — with and
// without skipping slices that cannot win — gives exactly the answer of searching the whole grid at
// once (the CLI's), whatever the number of slices; and the reader's rows are checked with a clear
// problem for each kind of bad range.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { imp } from './full-build.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const plan = await imp('search-plan.js');

let mc;
before(async () => {
  const dir = join(ROOT, 'target', 'web-mc');
  mc = await import(pathToFileURL(join(dir, 'leaselab_mc.js')).href);
  const wasm = await readFile(join(dir, 'leaselab_mc_bg.wasm')).catch(() => {
    throw new Error('target/web-mc/leaselab_mc_bg.wasm is missing: run bash tools/build-web.sh first');
  });
  await mc.default({ module_or_path: wasm });
});

const GRIDS = [
  ['seed-gc-pause', 'none', [{ name: 'ttl', from: 100, to: 900, step: 10 }, { name: 'pause', from: 100, to: 1000, step: 10 }]],
  ['seed-gc-pause', 'token', [{ name: 'pause', from: 0, to: 1200, step: 60 }, { name: 'ttl', from: 10, to: 690, step: 40 }]],
  ['seed-gc-pause', 'none', [{ name: 'pause', from: 0, to: 400, step: 25 }, { name: 'ttl', from: 200, to: 500, step: 20 }, { name: 'retry', from: 10, to: 100, step: 30 }]],
  // Many points of least cost: the tie order (first dimension first) decides.
  ['seed-gc-pause', 'none', [{ name: 'work', from: 0, to: 50, step: 10 }, { name: 'pause', from: 400, to: 800, step: 100 }, { name: 'ttl', from: 300, to: 700, step: 100 }]],
  ['write-only-gap', 'token', [{ name: 'ttl', from: 10, to: 2000, step: 40 }, { name: 'pause', from: 0, to: 3000, step: 60 }]],
];

function searchOf(sim, grid, costMax) {
  return Array.from(sim.search(grid.names, Float64Array.from(grid.from), Float64Array.from(grid.to), Float64Array.from(grid.step), costMax ?? undefined));
}

/** The slices in the order workers might finish them: in order, reversed, odd ones first, shuffled. */
function orders(slices) {
  const shuffled = [...slices];
  let x = 12345;
  for (let i = shuffled.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  return [slices, [...slices].reverse(), [...slices.filter((_, i) => i % 2), ...slices.filter((_, i) => !(i % 2))], shuffled];
}

test('slices combined give the whole grid’s answer, for any number of slices, skipping or not', () => {
  const unequal = [];
  for (const [id, policy, dims] of GRIDS) {
    const sim = new mc.Simulation(id);
    sim.setPolicy(policy);
    const whole = plan.sliceAnswer({ lo: 0 }, searchOf(sim, plan.sliceGrid(dims, { lo: 0, hi: plan.countOf(dims[0]) - 1 })), dims.length);
    assert.equal(whole.combinations, plan.combinationsOf(dims));
    for (const n of [1, 2, 3, 7, 1000]) {
      const cases = orders(plan.slicesOf(dims, n)).flatMap((order, o) => [false, true].map((skip) => [order, o, skip]));
      for (const [order, o, skip] of cases) {
        const answers = [];
        let best = null;
        let skipped = 0;
        for (const slice of order) {
          if (skip && plan.skippable(slice, best)) {
            skipped += (slice.hi - slice.lo + 1) * plan.combinationsOf(dims.slice(1));
            continue;
          }
          // With skipping, each slice looks only for a counterexample that beats the best so far.
          const costMax = skip ? plan.costMaxFor(slice, best) : null;
          const a = plan.sliceAnswer(slice, searchOf(sim, plan.sliceGrid(dims, slice), costMax), dims.length);
          answers.push(a);
          if (a.counterexample && plan.smaller(a.counterexample, best)) best = a.counterexample;
        }
        const got = plan.combine(dims, answers, skipped);
        const what = `${id} ${policy} ${dims.map((d) => d.name)} n=${n} order=${o} skip=${skip}`;
        assert.equal(got.combinations, whole.combinations, what);
        assert.deepEqual(got.counterexample && { cost: got.counterexample.cost, index: got.counterexample.index }, whole.counterexample, what);
        // Behaviours: only when every point was decided, then at least one, at most one per run; a
        // safe grid unsliced gives the CLI's number (with complete signatures, any slicing would).
        if (whole.counterexample) assert.equal(whole.behaviours, null, what);
        else {
          assert.ok(got.behaviours >= 1 && got.behaviours <= got.runs, what);
          if (n === 1) assert.equal(got.behaviours, whole.behaviours.length, what);
          if (got.behaviours !== whole.behaviours.length) unequal.push(`${what}: ${got.behaviours} vs ${whole.behaviours.length}`);
        }
        if (got.counterexample) {
          assert.deepEqual(got.counterexample.values, got.counterexample.index.map((i, k) => dims[k].from + i * dims[k].step), what);
        }
      }
    }
    sim.free();
  }
  console.log(`behaviours unequal to the whole grid's: ${unequal.length}`, unequal.slice(0, 5));
});

test('slices partition the first dimension, cheapest first, narrow at the start, none wider than an nth', () => {
  for (const count of [1, 10, 100, 1000]) {
    const dims = [{ name: 'ttl', from: 10, to: 10 * count, step: 10 }];
    for (const n of [1, 3, 8, 10, 50]) {
      const slices = plan.slicesOf(dims, n);
      assert.equal(slices[0].lo, 0);
      assert.equal(slices.at(-1).hi, count - 1);
      for (let i = 1; i < slices.length; i++) assert.equal(slices[i].lo, slices[i - 1].hi + 1);
      const widest = Math.ceil(count / n);
      for (const s of slices) assert.ok(s.hi - s.lo + 1 <= widest, `${count} ${n}: ${JSON.stringify(s)}`);
      assert.equal(slices[0].hi, 0, 'the first slice is one value wide');
      assert.ok(slices.length >= Math.min(n, count) / 2, `${count} ${n}: ${slices.length} slices`);
    }
  }
});

test('the reader’s rows: each kind of bad range is named; good rows become the grid', () => {
  const range = () => [10, 2000];
  const row = (o) => ({ name: 'ttl', vary: true, from: '100', to: '200', step: '10', ...o });
  assert.deepEqual(plan.readGrid([row({})], range), { dims: [{ name: 'ttl', from: 100, to: 200, step: 10 }] });
  assert.equal(plan.readGrid([row({ vary: false })], range).problem, 'searchNone');
  assert.equal(plan.readGrid([row({ from: 'abc' })], range).problem, 'searchNotWhole');
  assert.equal(plan.readGrid([row({ step: '1.5' })], range).problem, 'searchNotWhole');
  assert.equal(plan.readGrid([row({ to: '' })], range).problem, 'searchNotWhole');
  assert.equal(plan.readGrid([row({ step: '0' })], range).problem, 'searchStepZero');
  assert.equal(plan.readGrid([row({ from: '300' })], range).problem, 'searchEmpty');
  assert.equal(plan.readGrid([row({ to: '5000' })], range).problem, 'searchOutside');
  assert.equal(plan.readGrid([row({ from: '5' })], range).problem, 'searchOutside');
});

test('the starting range is around the value, inside the slider’s range, in whole steps', () => {
  for (const [v, r] of [[300, [10, 2000]], [600, [0, 3000]], [0, [0, 3000]], [2000, [10, 2000]], [5, [1, 10]]]) {
    const { from, to, step } = plan.rangeAround(v, r);
    assert.ok(from >= r[0] && to <= r[1] && from <= v && v <= to + step, `${v} ${r}: ${from}..${to}:${step}`);
    assert.ok(step >= 1 && Number.isInteger((to - from) / step));
  }
});
