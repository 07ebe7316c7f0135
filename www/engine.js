// The lab's two wasm builds of one engine (crate/src/services/mod.rs): the core (pkg/leaselab.js: the
// lease, session and redis services, the seed's and most of the catalogue's) that a page loads at
// start, and the full build (pkg/leaselab_full.js: Redlock, etcd and ZooKeeper as well) fetched the
// first time a scenario needs it — the catalogue says which, as each scenario's `engine`. A reader of
// the seed downloads only the core. Both builds run the same code for the core services, so a
// scenario's run is the same whichever build runs it.
import init, { Simulation, catalogue, defaultScenario, policies } from './pkg/leaselab.js';
import { loadCatalogue } from './settings.js';

/** The Simulation class of each build, once initialised; the catalogue, once loaded. */
const ready = { core: null, full: null };
let full = null;
let byId = {};

/** The core build and its catalogue (settings.js's shape), initialised once per page. */
export const loadCore = () =>
  loadCatalogue({ init, catalogue, defaultScenario, policies }).then((c) => {
    ready.core = Simulation;
    byId = c.byId;
    return c;
  });

/** The full build's module, fetched and initialised once per page. */
function fullModule() {
  full ??= import('./pkg/leaselab_full.js').then(async (m) => {
    await m.default();
    ready.full = m.Simulation;
    return m;
  });
  return full;
}

/** The full build and its catalogue (for a test that runs every scenario at once). */
export const loadFull = () =>
  fullModule()
    .then((m) => loadCatalogue({ init: m.default, catalogue: m.catalogue, defaultScenario: m.defaultScenario, policies: m.policies }))
    .then((c) => {
      byId = c.byId;
      return c;
    });

/** The Simulation class that can run catalogue scenario `s` now, or null until its build has loaded. */
export function simulationFor(s) {
  if (s.engine !== 'full' && ready.core) return ready.core;
  return ready.full;
}

/** The Simulation class for the catalogue scenario `id` (its build loaded first: `loadEngine`). */
export function simulationForId(id) {
  const S = byId[id] ? simulationFor(byId[id]) : ready.core || ready.full;
  if (!S) throw new Error(`the engine for scenario ${id} is not loaded yet`);
  return S;
}

/** Makes sure a build that runs `s` is loaded; resolves when `simulationFor(s)` is not null. */
export async function loadEngine(s) {
  if (!simulationFor(s)) await (s.engine === 'full' ? fullModule() : loadCore());
}
