// explore.html's wasm and worker: the crate built with the `estimate` feature (pkg/leaselab_mc.js; the
// lab page's wasm leaves sweeps and the estimator out for size), initialised once for the page, and
// the module Web Worker that runs the Monte Carlo estimate (explore-worker.js, which loads the same
// wasm itself). The only module of the page's own that imports the wasm's glue.
import initSweeps, { Simulation, catalogue, defaultScenario, estimateForm, policies, presets } from './pkg/leaselab_mc.js';
import { loadCatalogue } from './settings.js';
import { startWorker } from './worker-start.js';

export { Simulation };

/** The catalogue from this page's own wasm: the lab's (pkg/leaselab.js) would be a second download. */
export const loadCore = () => loadCatalogue({ init: initSweeps, catalogue, defaultScenario, policies });

/**
 * The estimate form's presets, starting values and bounds, from the crate (its one definition; call
 * once loadCore has resolved): `{ presets: [{id, dist, a, b}], scenario, default: {preset, dist, a, b,
 * ttl_ms, retry_ms, work_ms, rate_per_s, seed}, limits: {name: [min, max]} }` (report::estimate_form_json).
 */
export const loadEstimateForm = () => ({ presets: JSON.parse(presets()), ...JSON.parse(estimateForm()) });

let sweeps = null;
/** Resolves once the wasm is ready for Simulation.sweep. */
export const sweepsReady = () => (sweeps ??= initSweeps());

/** A new estimate worker, its replies and failures going to the given handlers. */
export function estimateWorker(onmessage, onerror) {
  const w = startWorker(new URL('./explore-worker.js', import.meta.url));
  w.onmessage = onmessage;
  w.onerror = onerror;
  return w;
}
