// The "Find a failure" panel's Web Worker (a module worker; the panel starts one per core): searches
// slices of a grid with the wasm built with `estimate` (pkg/leaselab_mc.js, explore's, built for
// speed; the lab page's own wasm leaves the search out for size). A slice runs to its end inside the
// wasm; the panel cancels by terminating the worker.
//   in:  {type: 'check' | 'run', id, setup: {scenario, injections (null, or a table cell's), policy, retries, naive, params: [[name, ms]…]},
//         grid: {names, from: [ms…], to: [ms…], step: [ms…]}, costMax: null | the most a counterexample
//         may cost (in the slice's indices) to be worth finding}
//   out: {type: 'checked', id, combinations} | {type: 'done', id, out: [combinations, runs, cost, index…, b, key…]}
//        (Found::numbers: the behaviour keys as pairs of u32; search-plan.js's sliceAnswer reads it)
//        {type: 'error', id, message}
import init, { Simulation } from './pkg/leaselab_mc.js';

const ready = init();
let sim = null; // one handle, kept while the scenario (and its injected faults) stay
let simKey = '';

async function handle(m) {
  await ready;
  const { setup, grid } = m;
  const key = JSON.stringify([setup.scenario, setup.injections]);
  if (!sim || simKey !== key) {
    if (sim) sim.free();
    sim = null;
    sim = setup.injections ? Simulation.injected(setup.scenario, setup.injections) : new Simulation(setup.scenario);
    simKey = key;
  }
  sim.setPolicy(setup.policy);
  sim.setRetries(setup.retries);
  sim.setNaive(setup.naive);
  for (const [name, ms] of setup.params) sim.setParam(name, ms);
  const lists = [grid.names, Float64Array.from(grid.from), Float64Array.from(grid.to), Float64Array.from(grid.step)];
  if (m.type === 'check') return postMessage({ type: 'checked', id: m.id, combinations: sim.searchCombinations(...lists) });
  const out = sim.search(...lists, m.costMax ?? undefined);
  postMessage({ type: 'done', id: m.id, out: Array.from(out) });
}

onmessage = (e) => {
  handle(e.data).catch((err) => postMessage({ type: 'error', id: e.data.id, message: String(err && err.message ? err.message : err) }));
};
