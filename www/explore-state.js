// explore.html's settings and words: what the address says (read once at start, written back as the
// reader changes things), the reader's language and its merged dictionary, the catalogue, and the
// lab's address for a setting. No drawing and no wasm here.
import { languages, loadLang } from './i18n.js';
import { en as enX, bn as bnX } from './explore-i18n.js';
import { clamp, rangeOf, urlName } from './settings.js';

export const $ = (id) => document.getElementById(id);

function query() {
  try {
    return new URLSearchParams(location.search);
  } catch {
    return new URLSearchParams();
  }
}

/** The address's query as the page was opened. */
export const q = query();

/** The page's shared state; each panel keeps its own beside it. */
export const st = {
  lang: Object.hasOwn(languages, q.get('lang')) ? q.get('lang') : 'en',
  d: null, // the merged dictionary: the lab's (scenario texts, policy names) and explore's
  core: null, // the catalogue: { list, byId, policies, defaultId } (settings.js's loadCatalogue)
};

/** The lab's dictionary for `lang` with explore's strings under `x` (English where a language lacks one). */
export async function dict(lang) {
  const base = await loadLang(lang);
  return { ...base, x: { ...enX, ...(lang === 'bn' ? bnX : {}) } };
}

/** Keeps the address bar in step (where it may: a sandboxed iframe refuses). */
export function writeUrl(changes) {
  try {
    const u = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) v === null ? u.delete(k) : u.set(k, String(v));
    const s = u.toString();
    history.replaceState(history.state, '', `${location.pathname}${s ? `?${s}` : ''}${location.hash}`);
  } catch {
    // keep working without it
  }
}

/** The lab's address for a setting (index.html next to this page). */
export function labUrl(params) {
  const u = new URLSearchParams(params);
  if (st.lang !== 'en') u.set('lang', st.lang);
  const s = u.toString();
  return `index.html${s ? `?${s}` : ''}`;
}

/** The value the lab starts a parameter at: the default (or what the address says), clamped. */
export function startValue(s, p) {
  const raw = q.get('scenario') === s.id || (!q.get('scenario') && s.id === st.core.defaultId) ? q.get(urlName(s, p)) : null;
  const v = raw === null ? p.default_ms : Number(raw);
  return clamp(Number.isFinite(v) ? Math.round(v) : p.default_ms, rangeOf(s, p));
}

export const scenarioTitle = (s) => {
  const t = st.d.scenarios && st.d.scenarios[s.id];
  return (t && t.title) || s.title[st.lang] || s.title.en || s.id;
};

export const paramLabel = (s, p) => {
  const t = st.d.scenarios && st.d.scenarios[s.id];
  return (t && t.params && t.params[p.name]) || (p.label && (p.label[st.lang] || p.label.en)) || p.name;
};
