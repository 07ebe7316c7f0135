// The words a run needs beyond the core's dictionaries (i18n.js): each lock service's
// (i18n/services/<id>.js) and the client libraries' (i18n/libraries.js, with their scenarios' prose),
// each loaded once per page, only for a run that needs them, and put into every dictionary built so
// far (in place: every lab holding one shows them from then on) and into every one built later.
// i18n.js builds the dictionaries and offers these loads to the page.

/**
 * The lock services whose words are in the dictionaries themselves: the page's core engine's
 * (crate/src/services/mod.rs), which every first page may show. Every other service's words are a
 * module of their own, i18n/services/<id>.js, loaded only when a run needs them (`loadServiceWords`).
 */
const BUILT_IN = new Set(['lease', 'session', 'redis']);

/** Each dictionary built so far, by language (i18n.js's loadLang): words that arrive later go into them all. */
const built = {};
/** Each service's words as its module exports them ({ en, bn }), once they have arrived. */
const serviceWords = new Map();
const serviceLoads = new Map();

export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `a` with `b`'s words over it, a new object: a nested table (ev, lanes, ownWords) gains `b`'s entries. */
function merged(a, b) {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObject(v) && isObject(a[k]) ? { ...a[k], ...v } : v;
  return out;
}

/**
 * Dictionary `d` (of language `lang`) with the words of one lock service over it, as a new object:
 * `words` is what the service's module exports ({ en, bn, … }), its English filling any gap in `lang`.
 */
export const withServiceWords = (d, words, lang) => merged(d, merged(words.en, (lang !== 'en' && words[lang]) || {}));

/** Whether service `id`'s words are in the dictionaries now (or will never be: a failed load). */
export const serviceWordsSettled = (id) => !id || BUILT_IN.has(id) || serviceWords.has(id) || serviceLoads.get(id) === 'failed';

/**
 * Loads the words of lock service `id` (a run's `service`, a catalogue entry's) from
 * i18n/services/<id>.js, once per page, and puts them into every dictionary in use and every one
 * loaded later, in each language. Never rejects: a service without such a module (a bad id, a failed
 * fetch) is said on the console, and its run is drawn with its missing words as their keys (orKeys).
 * One module per service with every language in it ({ en, bn }), not one per service and language:
 * a service's words keep one home, and a reader who switches language mid-run needs no request more
 * (the other language costs 0.4–1.1 KB gzipped per service, and only on a run on that service).
 */
export function loadServiceWords(id) {
  if (serviceWordsSettled(id)) return Promise.resolve();
  if (!/^[a-z][a-z0-9_-]*$/.test(id)) {
    console.warn(`leaselab: no words for lock service “${id}”: not a service id`);
    serviceLoads.set(id, 'failed');
    return Promise.resolve();
  }
  if (!serviceLoads.has(id)) {
    const load = import(`./i18n/services/${id}.js`).then((m) => {
      if (!isObject(m.default) || !isObject(m.default.en)) throw new Error('it exports no { en, … } words');
      serviceWords.set(id, m.default);
      // Into the dictionaries in use, in place: every lab holding one shows the words from now on.
      for (const [lang, d] of Object.entries(built)) Object.assign(d, withServiceWords(d, m.default, lang));
    });
    serviceLoads.set(
      id,
      load.catch((e) => {
        console.warn(`leaselab: the words of lock service “${id}” did not load (${e && e.message ? e.message : e}); its events show as keys`);
        serviceLoads.set(id, 'failed');
      }),
    );
  }
  return serviceLoads.get(id);
}

/** The client libraries' words (i18n/libraries.js) once they have arrived, and their one load. */
let libraryWords = null;
let libraryLoad = null;
let librarySettled = false;

/** Whether the client libraries' words are in the dictionaries now (or will never be: a failed load). */
export const libraryWordsSettled = () => librarySettled;

/**
 * Loads the client libraries' words once per page into every dictionary, as loadServiceWords does a
 * service's: one module for every library (only what each one's code calls things differs), fetched
 * only for a scenario with a library client, with their scenarios' prose in each of `langs` (the
 * codes of every language on offer: i18n.js's `languages`). Never rejects: a failure is said on the
 * console.
 */
export function loadLibraryWordsIn(langs) {
  // The library scenarios' prose (pkg/clients.LANG.json: tools/prerender.mjs keeps it out of the
  // texts every page loads), in each language's `scenarios` as the other scenarios' are in Bengali.
  const prose = (lang) =>
    fetch(new URL(`pkg/clients.${lang}.json`, import.meta.url))
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}));
  libraryLoad ??= Promise.all([import('./i18n/libraries.js'), ...langs.map(prose)])
    .then(([m, ...texts]) => {
      if (!isObject(m.default) || !isObject(m.default.en)) throw new Error('it exports no { en, … } words');
      const words = Object.fromEntries(langs.map((lang, i) => [lang, { ...m.default[lang], scenarios: texts[i] }]));
      libraryWords = words;
      for (const [lang, d] of Object.entries(built)) Object.assign(d, withServiceWords(d, words, lang));
    })
    .catch((e) => console.warn(`leaselab: the client libraries' words did not load (${e && e.message ? e.message : e}); their notices show as keys`))
    .then(() => {
      librarySettled = true;
    });
  return libraryLoad;
}

/**
 * Dictionary `d` of language `lang` as a lab uses it: with every lock service's and the client
 * libraries' words loaded so far over it, and kept, so that words arriving later go into it too.
 */
export function withWordsLoaded(d, lang) {
  for (const w of serviceWords.values()) d = withServiceWords(d, w, lang);
  if (libraryWords) d = withServiceWords(d, libraryWords, lang);
  return (built[lang] = d);
}
