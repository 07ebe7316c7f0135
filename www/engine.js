// Where a lab's runs come from. The engine is one crate in two wasm builds (crate/src/services/mod.rs):
// the core (pkg/leaselab.js: the lease, session and redis services, the seed's and most of the
// catalogue's) and the full build (pkg/leaselab_full.js: every other service as well); the
// catalogue says which a scenario needs, as its `engine`. Neither is fetched to show a first verdict:
// the build wrote every scenario's run at its defaults under every policy, computed by the same wasm
// (tools/prerender.mjs), and a lab whose settings are a scenario's defaults draws those. The first
// change (or a link with other settings) fetches the build the scenario needs, once per page; both
// builds run the same code for the core services, so a run is the same whichever computes it.
// A scenario of the page's own (inline or src text: user-scenario.js) has engine "user": a third
// build with the parser (pkg/leaselab_user.js), loaded only then, its Simulation made from the text.
// A scenario with a client that calls a lock library (`library=` in its scenario) has engine
// "clients": a fifth build, every service and the libraries (pkg/leaselab_clients.js), loaded only for
// those, so that neither the core nor the full build carries the libraries' code.
// A safety table cell's link (injected.js) has engine "injected": explore's build (pkg/leaselab_mc.js),
// the only one with injections, its Simulation made with the faults injected.
import { foldTexts } from './settings.js';

/** The Simulation class of each build, once initialised. */
const ready = { core: null, full: null, clients: null, user: null, injected: null };
const loading = { core: null, full: null, clients: null, user: null, injected: null };
const MODULES = {
  core: () => import('./pkg/leaselab.js'),
  full: () => import('./pkg/leaselab_full.js'),
  clients: () => import('./pkg/leaselab_clients.js'),
  user: () => import('./pkg/leaselab_user.js'),
  injected: () => import('./pkg/leaselab_mc.js'),
};
/** The builds a scenario's `engine` names that are loaded for it alone (not the core's fallback). */
const OWN = new Set(['full', 'clients', 'user', 'injected']);
let start = null;
let byId = {};

/**
 * The catalogue (settings.js's shape: `{ list, byId, policies, defaultId }`, with `retriesOn`, the
 * catalogue's `+retry` count) and the default scenario's first runs, from pkg/start.json and the English texts: no wasm. Once per page.
 */
export function loadStart() {
  start ??= (async () => {
    // Literal URLs: tools/preload.mjs puts both in the page's preload links.
    const get = (url) =>
      fetch(url).then((r) => {
        if (!r.ok) throw new Error(`${url.pathname}: HTTP ${r.status}`);
        return r.json();
      });
    const texts = get(new URL('pkg/scenarios.en.json', import.meta.url)).catch(() => ({}));
    const [s, t] = await Promise.all([get(new URL('pkg/start.json', import.meta.url)), texts]);
    const list = foldTexts(s.scenarios, t);
    byId = Object.fromEntries(list.map((x) => [x.id, x]));
    return { list, byId, policies: s.policies, defaultId: s.default, retriesOn: s.retriesOn, runs: s.runs };
  })();
  return start;
}

/** A build's module, fetched and initialised once per page. */
function build(which) {
  loading[which] ??= MODULES[which]().then(async (m) => {
    await m.default();
    ready[which] = m.Simulation;
    return m;
  });
  return loading[which];
}

/** The user-scenario build's module (parseScenario, checkScenario, Simulation.fromText), once per page. */
export const userBuild = () => build('user');

/** The injected build's module (scenarioEntry, Simulation.injected), once per page. */
export const injectedBuild = () => build('injected');

/**
 * A constructor for user scenario `s` in the lab's form (`new S(id)`): a Simulation of its own text,
 * the id ignored (a user's id may be anything, even a catalogue scenario's).
 */
function userSimulation(s) {
  const Simulation = ready.user;
  return function UserSimulation() {
    return Simulation.fromText(s.text);
  };
}

/** A constructor for a table cell's run `s` in the lab's form: its scenario with `s.injections`. */
function injectedSimulation(s) {
  const Simulation = ready.injected;
  return function InjectedSimulation(id) {
    return Simulation.injected(id, s.injections);
  };
}

/** The Simulation class that can run catalogue scenario `s` now, or null until its build has loaded. */
export function simulationFor(s) {
  if (s.engine === 'user') return ready.user && userSimulation(s);
  if (s.engine === 'injected') return ready.injected && injectedSimulation(s);
  if (s.engine === 'clients') return ready.clients;
  if (s.engine !== 'full' && ready.core) return ready.core;
  return ready.full;
}

/** Makes sure a build that runs `s` is loaded; resolves when `simulationFor(s)` is not null. */
export async function loadEngine(s) {
  if (!simulationFor(s)) await build(OWN.has(s.engine) ? s.engine : 'core');
}

/** The Simulation class for the catalogue scenario `id` (its build loaded first: `loadEngine`). */
export function simulationForId(id) {
  const S = byId[id] ? simulationFor(byId[id]) : ready.core || ready.full;
  if (!S) throw new Error(`the engine for scenario ${id} is not loaded yet`);
  return S;
}

/**
 * Scenario `s`'s runs at its defaults under `policies`, as the build wrote them: `{ policy: run }`.
 * Rejects if one cannot be fetched (the caller then loads the engine instead).
 */
export async function defaultRuns(s, policies) {
  // A user's scenario has none (its id may even be a catalogue scenario's: not those runs), nor a
  // table cell's (faults injected).
  if (s.engine === 'user' || s.engine === 'injected') throw new Error(`no written runs for a scenario of engine ${s.engine}`);
  const c = await loadStart();
  const have = (c.runs && c.runs[s.id]) || {};
  const one = async (p) => {
    if (have[p]) return have[p];
    const r = await fetch(new URL(`pkg/runs/${s.id}/${p}.json`, import.meta.url));
    if (!r.ok) throw new Error(`the run of ${s.id} under ${p}: HTTP ${r.status}`);
    return r.json();
  };
  const runs = await Promise.all(policies.map(one));
  return Object.fromEntries(policies.map((p, i) => [p, runs[i]]));
}
