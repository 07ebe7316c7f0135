// What the unit tests share: the lab's full wasm build (www/pkg, from tools/build-web.sh) loaded in
// Node, its catalogue and policies, the dictionaries of both languages, and a run at the defaults.
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WWW = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** A module of the page, by its path under www/. */
export const imp = (f) => import(pathToFileURL(join(WWW, f)).href);

/** The full build, ready: { pkg, catalogue, policies, dicts: { en, bn } }. */
export async function loadFullBuild() {
  const pkg = await imp('pkg/leaselab_full.js');
  const wasm = await readFile(join(WWW, 'pkg', 'leaselab_full_bg.wasm')).catch(() => {
    throw new Error('www/pkg/leaselab_full_bg.wasm is missing: run bash tools/build-web.sh first');
  });
  await pkg.default({ module_or_path: wasm });
  const { loadLang, loadServiceWords } = await imp('i18n.js');
  const dicts = {};
  for (const lang of ['en', 'bn']) dicts[lang] = await loadLang(lang);
  const catalogue = JSON.parse(pkg.catalogue());
  // Every service's words (i18n/services/), as the lab loads them for a run that needs them.
  await Promise.all([...new Set(catalogue.map((s) => s.service))].map(loadServiceWords));
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
