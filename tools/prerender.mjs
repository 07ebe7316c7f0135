// node tools/prerender.mjs DIST — what a lab needs to show its first verdict without the wasm, written
// by the wasm itself (the full build, www/pkg/leaselab_full.js, run under Node, and the clients build,
// leaselab_clients.js, for a scenario with a lock library), so it is exactly what the page would compute:
//   DIST/pkg/start.json            the catalogue as the wasm gives it (no prose), the policies, the
//                                  default scenario, how often a refused client retries when the box
//                                  is ticked (the catalogue's `+retry`), and the default scenario's
//                                  runs under `none` and `token` (the first view and its comparison);
//   DIST/pkg/runs/ID/POLICY.json   every catalogue scenario's run at its defaults under every policy;
//   DIST/pkg/scenarios.LANG.json   kept to the scenarios of that catalogue.
// A lab whose settings are a scenario's defaults draws these and fetches the engine only when the
// reader changes something (www/engine.js); any other setting loads the engine at once.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WWW = join(dirname(fileURLToPath(import.meta.url)), '..', 'www');
const dist = process.argv[2];
if (!dist) {
  console.error('usage: node tools/prerender.mjs DIST');
  process.exit(2);
}

/** A build of the page's wasm (www/pkg/NAME.js), initialised under Node. */
async function wasmBuild(name) {
  const m = await import(pathToFileURL(join(WWW, 'pkg', `${name}.js`)).href);
  await m.default({ module_or_path: await readFile(join(WWW, 'pkg', `${name}_bg.wasm`)) });
  return m;
}
const pkg = await wasmBuild('leaselab_full');
// A scenario whose clients call a lock library runs on the build with the libraries (its `engine`
// "clients"), as the page runs it; the full build leaves such scenarios out of its catalogue, so the
// catalogue the page starts from is the clients build's: every scenario, each with its engine.
const clients = await wasmBuild('leaselab_clients');
const scenarios = JSON.parse(clients.catalogue());
const engineOf = Object.fromEntries(scenarios.map((s) => [s.id, s.engine]));

/** The run JSON of scenario `id` under `policy` at its defaults, as the lab asks for it. */
function runJson(id, policy) {
  const sim = new (engineOf[id] === 'clients' ? clients : pkg).Simulation(id);
  try {
    sim.setPolicy(policy);
    return sim.runJson();
  } finally {
    sim.free();
  }
}

const policies = pkg.policies().split(',');
const defaultId = pkg.defaultScenario();
let files = 0;
for (const s of scenarios) {
  await mkdir(join(dist, 'pkg', 'runs', s.id), { recursive: true });
  for (const p of policies) {
    await writeFile(join(dist, 'pkg', 'runs', s.id, `${p}.json`), runJson(s.id, p));
    files++;
  }
}
const first = Object.fromEntries(['none', 'token'].map((p) => [p, JSON.parse(runJson(defaultId, p))]));
const retriesOn = pkg.retriesOn();
await writeFile(join(dist, 'pkg', 'start.json'), JSON.stringify({ scenarios, policies, default: defaultId, retriesOn, runs: { [defaultId]: first } }));
// The scenarios' prose (pkg/scenarios.LANG.json, written by the native CLI, whose catalogue also has
// the command line's own scenarios: the safety table's base runs) for this catalogue's scenarios only.
// The others' prose (the table's base scenarios) goes to pkg/table.LANG.json, which only a table
// cell's link fetches (www/engine.js). The prose of a scenario whose client calls a lock library goes
// to pkg/clients.LANG.json, which i18n.js fetches with the libraries' words, only for such a scenario:
// the page's first load stays within its budget however many library scenarios there are.
const ids = new Set(scenarios.filter((s) => engineOf[s.id] !== 'clients').map((s) => s.id));
for (const lang of ['en', 'bn']) {
  const file = join(dist, 'pkg', `scenarios.${lang}.json`);
  const texts = Object.entries(JSON.parse(await readFile(file, 'utf8')));
  const part = (keep) => JSON.stringify(Object.fromEntries(texts.filter(([id]) => keep(id))));
  if (lang === 'en') {
    // English's sources and derivations (the About section's, below the first screen) go to
    // pkg/sources.en.json, which the lab fetches only when that section comes near the screen
    // (www/view.js): the first load stays within its budget. Another language's prose is one file.
    const kept = texts.filter(([id]) => ids.has(id));
    await writeFile(join(dist, 'pkg', 'sources.en.json'), JSON.stringify(Object.fromEntries(kept.map(([id, t]) => [id, { source: t.source, derived: t.derived }]))));
    await writeFile(file, JSON.stringify(Object.fromEntries(kept.map(([id, { source, derived, ...rest }]) => [id, rest]))));
  } else {
    await writeFile(file, part((id) => ids.has(id)));
  }
  await writeFile(join(dist, 'pkg', `clients.${lang}.json`), part((id) => engineOf[id] === 'clients'));
  await writeFile(join(dist, 'pkg', `table.${lang}.json`), part((id) => !ids.has(id) && !engineOf[id]));
}
console.log(`prerender: ${files} runs (${scenarios.length} scenarios × ${policies.length} policies) and pkg/start.json`);
