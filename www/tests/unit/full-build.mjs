// What the unit tests share: the lab's wasm build that runs every scenario (www/pkg, from
// tools/build-web.sh) loaded in Node, its catalogue and policies, the dictionaries of both languages, and a run at the defaults.
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WWW = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** A module of the page, by its path under www/. */
export const imp = (f) => import(pathToFileURL(join(WWW, f)).href);

/**
 * The build that runs every catalogue scenario, ready: { pkg, catalogue, policies, dicts: { en, bn } }.
 * That is the clients build (every service, as the full build has, and the client libraries): the full
 * build leaves out the scenarios whose clients call a library. Its runs of the others are the full
 * build's (www/tests/e2e.test.mjs checks the written runs against the page's own engines).
 */
export async function loadFullBuild() {
  const pkg = await imp('pkg/leaselab_clients.js');
  const wasm = await readFile(join(WWW, 'pkg', 'leaselab_clients_bg.wasm')).catch(() => {
    throw new Error('www/pkg/leaselab_clients_bg.wasm is missing: run bash tools/build-web.sh first');
  });
  await pkg.default({ module_or_path: wasm });
  const { loadLang, loadWordsFor } = await imp('i18n.js');
  const dicts = {};
  for (const lang of ['en', 'bn']) dicts[lang] = await loadLang(lang);
  const catalogue = JSON.parse(pkg.catalogue());
  // Every service's words (i18n/services/) and the libraries', as the lab loads them for a run that needs them.
  await Promise.all(catalogue.map(loadWordsFor));
  return { pkg, catalogue, policies: pkg.policies().split(','), dicts };
}

/** The run of scenario `id` under `policy` at its defaults, as the lab gets it. */
export function runWith(pkg, id, policy) {
  const sim = new pkg.Simulation(id);
  try {
    sim.setPolicy(policy);
    return JSON.parse(sim.runJson());
  } finally {
    sim.free();
  }
}
