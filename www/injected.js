// A safety table cell's link opened in the lab (matrix.html, docs/matrix.md: `index.html?scenario=
// table-etcd&fencing=none&inject=freeze:A,at=600ms,for=60000ms`): the scenario with the injected
// faults, each at one value, as `leaselab run --inject` runs it. Only explore's wasm has injections
// and the table's base scenarios (pkg/leaselab_mc.js, the cargo feature `table`); the lab loads it,
// and this module, only for such a link (app.js), so the lab page's first load carries neither.
// The run is a one-scenario catalogue (engine "injected": engine.js), its title and summary its own:
// the base scenario's texts (pkg/table.LANG.json for the table's, pkg/scenarios.LANG.json for the
// others) with a sentence that names what was injected, in each language.
import { injectedBuild } from './engine.js';
import { fmt } from './i18n.js';

/** This module's words, in each language (here, not in the page's dictionaries: only such a link needs them). */
const WORDS = {
  en: {
    title: '{title} + injected {list}',
    summary: 'Faults injected into this run (a counterexample of the safety table): {list}.',
  },
  bn: {
    title: '{title} + ঢোকানো {list}',
    summary: 'এই রানে ঢোকানো ত্রুটি (নিরাপত্তা-সারণির একটি প্রতি-উদাহরণ): {list}।',
  },
};

/** A language's scenario texts, by id: the table's base scenarios and the catalogue's. */
async function textsOf(lang) {
  const get = (name) =>
    fetch(new URL(`pkg/${name}.${lang}.json`, import.meta.url))
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}));
  const [table, catalogue] = await Promise.all([get('table'), get('scenarios')]);
  return { ...catalogue, ...table };
}

/**
 * The catalogue `start` narrowed to scenario `id` with `injections` (leaselab run --inject's texts).
 * Rejects with the engine's message when the id is unknown or an injection is bad (a range, an
 * unknown client or key, …): the caller says so and keeps the page's own catalogue.
 */
export async function injectedCatalogue(start, id, injections) {
  const m = await injectedBuild();
  const entry = JSON.parse(m.scenarioEntry(id || ''));
  // Tried once here, so a bad injection is said before the lab draws anything.
  m.Simulation.injected(entry.id, injections).free();
  const langs = ['en', 'bn'];
  const texts = await Promise.all(langs.map(textsOf));
  const list = injections.join('; ');
  const field = (name) => Object.fromEntries(langs.map((l, k) => [l, (texts[k][entry.id] || {})[name] || '']));
  const summary = field('summary');
  for (const [k, l] of langs.entries()) summary[l] = `${fmt(WORDS[l].summary, { list })} ${summary[l]}`.trim();
  const title = field('title');
  if (!title.en) title.en = entry.id;
  for (const [k, l] of langs.entries()) if (title[l]) title[l] = fmt(WORDS[l].title, { title: title[l], list });
  for (const p of entry.params) {
    p.label = Object.fromEntries(langs.map((l, k) => [l, ((texts[k][entry.id] || {}).params || {})[p.name] || p.name]));
  }
  const s = { ...entry, title, summary, source: field('source').en, derived: field('derived').en, engine: 'injected', own: true, injections };
  return { ...start, list: [s], byId: { [s.id]: s }, defaultId: s.id };
}

/**
 * The page's catalogue for link `q` (its `scenario` and `inject` parameters), or, where the engine
 * refuses them (an unknown scenario, a bad injection) or cannot load, the page's own with a notice
 * on `lab` naming why.
 */
export async function injectedOr(start, q, lab) {
  const injections = q.getAll('inject');
  try {
    return await injectedCatalogue(start, q.get('scenario'), injections);
  } catch (e) {
    const why = e && e.message ? e.message : String(e);
    lab.setExtraNotices([{ key: 'badInject', vars: { value: injections.join(' '), why } }]);
    return start;
  }
}
