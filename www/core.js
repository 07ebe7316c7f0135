// The wasm's scenario catalogue with its English texts, for the lab (pkg/leaselab.js) and explore.html
// (pkg/leaselab_mc.js, a build of its own: that page then loads one wasm, not the lab's as well).
// The build keeps the scenarios' prose out of the wasm (its size budget) and writes it beside the wasm,
// English included (pkg/scenarios.en.json): fetched alongside, folded into the catalogue.

const cores = new Map();

/**
 * `{ init, catalogue, policies, defaultScenario }` of one wasm-bindgen module → a promise of
 * `{ list, byId, policies, defaultId }`, initialised once per page and module however many callers ask.
 */
export function loadCatalogue(wasm) {
  if (!cores.has(wasm.init)) cores.set(wasm.init, build(wasm));
  return cores.get(wasm.init);
}

async function build({ init, catalogue, policies, defaultScenario }) {
  const english = fetch(new URL('pkg/scenarios.en.json', import.meta.url))
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}));
  const [, texts] = await Promise.all([init(), english]);
  const list = JSON.parse(catalogue());
  if (list.some((s) => s.summary === undefined)) {
    for (const s of list) {
      const t = texts[s.id] || {};
      s.title ??= { en: t.title || s.id };
      s.summary = { en: t.summary || '' };
      s.source ??= t.source || '';
      s.derived ??= t.derived || '';
      for (const p of s.params) p.label ??= { en: (t.params && t.params[p.name]) || p.name };
    }
  }
  return { list, byId: Object.fromEntries(list.map((s) => [s.id, s])), policies: policies().split(','), defaultId: defaultScenario() };
}
