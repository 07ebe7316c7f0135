// The scenario catalogue and the settings it allows, for the lab and explore.html (no DOM): loading the
// catalogue from a wasm module once per page, the sliders' ranges (the one definition), reading and
// checking what the URL's query or an element's attributes say (anything unusable falls back or
// clamps, and leaves a notice), and writing the settings back out as URL parameters (share.js makes
// embed snippets of them, on demand). Everything but loadCatalogue is a pure function of the catalogue.
import { languages } from './i18n.js';

/** The folder this file is served from: the page (index.html), lease-lab.js and embed.html live there. */
export const HERE = new URL('./', import.meta.url);

/**
 * The sliders' own ranges in ms: TTL, Pause, and every other parameter of a scenario. A slider shows
 * this range narrowed to its parameter's (`rangeOf`), so a setting outside it is clamped with a notice.
 */
export const UI_RANGES = { ttl: [10, 2000], pause: [0, 3000], other: [0, 3000] };


// ---------- The catalogue
// The wasm's scenario catalogue with its English texts: for explore.html from its own wasm
// (pkg/leaselab_mc.js: that page loads one wasm, not the lab's as well), for the lab as the build wrote
// it from the wasm (pkg/start.json, engine.js: the lab's first verdict needs no wasm).
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
  const list = foldTexts(JSON.parse(catalogue()), texts);
  return { list, byId: Object.fromEntries(list.map((s) => [s.id, s])), policies: policies().split(','), defaultId: defaultScenario() };
}

/** The wasm's catalogue (no prose) with the English texts (pkg/scenarios.en.json, keyed by id) folded in. */
export function foldTexts(list, texts) {
  if (list.some((s) => s.summary === undefined)) {
    for (const s of list) {
      const t = texts[s.id] || {};
      s.title ??= { en: t.title || s.id };
      s.summary = { en: t.summary || '' };
      // Undefined where the texts have none: the English sources are fetched apart (view.js).
      s.source ??= t.source;
      s.derived ??= t.derived;
      for (const p of s.params) p.label ??= { en: (t.params && t.params[p.name]) || p.name };
    }
  }
  return list;
}

// ---------- Parameters and the sliders' ranges

/** The scenario's parameter driven by the Pause slider: `pause`, else `delay` (a held packet). */
export const pauseParam = (s) => s.params.find((p) => p.name === 'pause') || s.params.find((p) => p.name === 'delay') || null;
export const ttlParam = (s) => s.params.find((p) => p.name === 'ttl');
/** The scenario's other parameters (retry intervals, lock-delay, when an admin kills a session, …):
 *  each gets a slider of its own, built from the scenario's parameter list. */
export const extraParams = (s) => s.params.filter((p) => p !== ttlParam(s) && p !== pauseParam(s));
/** The lab's URL name for a scenario parameter: the Pause slider's is `pause`, the others their own. */
export const urlName = (s, p) => (p === pauseParam(s) ? 'pause' : p.name);

/** Parameter `p` of scenario `s`: its slider's range, the UI's range clamped to the scenario's own —
 *  or the scenario's own range where its default lies outside the UI's (a session's TTL in
 *  seconds), so a slider always reaches the scenario's default. */
export function rangeOf(s, p) {
  const ui = p === ttlParam(s) ? UI_RANGES.ttl : p === pauseParam(s) ? UI_RANGES.pause : UI_RANGES.other;
  const own = [Math.ceil(p.min_ms), Math.floor(p.max_ms)];
  if (p.default_ms < ui[0] || p.default_ms > ui[1]) return own;
  return [Math.max(ui[0], own[0]), Math.min(ui[1], own[1])];
}

export const clamp = (v, [lo, hi]) => Math.min(hi, Math.max(lo, v));

/** Where the sliders start for scenario `s`: each parameter's default, inside its slider's range. */
export function defaultsOf(s) {
  const start = (p) => clamp(p.default_ms, rangeOf(s, p));
  return {
    ttl: ttlParam(s) ? start(ttlParam(s)) : 0,
    pause: pauseParam(s) ? start(pauseParam(s)) : 0,
    extra: Object.fromEntries(extraParams(s).map((p) => [p.name, start(p)])),
  };
}

/** The other policy the comparison shows: the reader's choice, or token against none. */
export const compareOf = (st) => (st.compare && st.compare !== st.fencing ? st.compare : st.fencing === 'none' ? 'token' : 'none');

/** Whether the settings are scenario `s`'s own defaults (what tools/prerender.mjs ran). */
export function atDefaults(st, s) {
  const p = (q) => q.default_ms;
  const extraOk = s.params.every((q) => q === ttlParam(s) || q === pauseParam(s) || st.extra[q.name] === p(q));
  return (
    (!ttlParam(s) || st.ttl === p(ttlParam(s))) &&
    (!pauseParam(s) || st.pause === p(pauseParam(s))) &&
    extraOk &&
    st.retries === 0 &&
    Boolean(st.naive) === Boolean(s.naive)
  );
}

/** A duration in milliseconds: a number, optionally with `ms` or `s` ("300", "300ms", "0.3s"). */
function parseMs(raw) {
  const m = /^\s*(-?(?:\d+(?:\.\d*)?|\.\d+))\s*(ms|s)?\s*$/.exec(raw);
  return m ? Number(m[1]) * (m[2] === 's' ? 1000 : 1) : NaN;
}

function readMs(get, name, range, def, note) {
  const raw = get(name);
  if (raw === null) return def;
  const v = parseMs(raw);
  if (!Number.isFinite(v)) {
    note('badNumber', { name, value: raw, used: def });
    return def;
  }
  const used = clamp(Math.round(v), range);
  if (used !== v) note('clamped', { name, value: raw, min: range[0], max: range[1], used });
  return used;
}

/** The settings that are names from a list (language, scenario, fencing); the others at their defaults. */
function readChoices(get, c, note) {
  const st = { lang: 'en', scenario: c.defaultId, fencing: 'none', retries: 0, naive: false };
  const choose = (name, ok, key, vars) => {
    const v = get(name);
    if (v === null) return;
    if (ok(v)) st[name] = v;
    else note(key, { value: v, ...vars });
  };
  choose('lang', (v) => Object.hasOwn(languages, v), 'badLang');
  choose('scenario', (v) => Object.hasOwn(c.byId, v), 'badScenario');
  choose('fencing', (v) => c.policies.includes(v), 'badFencing', { list: c.policies.join(', ') });
  // compare=POLICY opens the side-by-side view with that policy next to the fencing one.
  choose('compare', (v) => c.policies.includes(v), 'badCompare', { list: c.policies.join(', ') });
  st.sideBySide = 'compare' in st;
  return st;
}

/**
 * The settings `get(name)` gives (a string or null per name: the URL's query or an element's
 * attributes), for catalogue `c` ({list, byId, policies, defaultId}). Anything unusable falls back to
 * the default (or clamps) and leaves a notice {key, vars}, so a bad value is visible and never yields
 * a wrong verdict. Returns { st, notices }.
 */
export function readSettings(get, c) {
  const notices = [];
  const note = (key, vars) => notices.push({ key, vars });
  const st = readChoices(get, c, note);
  const s = c.byId[st.scenario];
  st.naive = Boolean(s.naive); // the scenario's own setting (a lock's old version), unless the URL says
  const def = defaultsOf(s);
  st.ttl = def.ttl;
  if (ttlParam(s)) st.ttl = readMs(get, 'ttl', rangeOf(s, ttlParam(s)), def.ttl, note);
  else if (get('ttl') !== null) note('noTtl', { value: get('ttl') });
  st.pause = def.pause;
  if (pauseParam(s)) st.pause = readMs(get, 'pause', rangeOf(s, pauseParam(s)), def.pause, note);
  else if (get('pause') !== null) note('noPause', { value: get('pause') });
  const r = get('retries');
  if (r !== null) {
    if (/^(10|\d)$/.test(r)) st.retries = Number(r);
    else note('badNumber', { name: 'retries', value: r, used: 0 });
  }
  const nv = get('naive');
  if (nv !== null) {
    const yes = ['1', 'true', 'yes'].includes(nv);
    if (!yes && !['0', 'false', 'no'].includes(nv)) note('badFlag', { name: 'naive', value: nv });
    else if (!s.has_naive) note('noNaive', { value: nv });
    else st.naive = yes;
  }
  st.extra = { ...def.extra };
  for (const p of extraParams(s)) st.extra[p.name] = readMs(get, p.name, rangeOf(s, p), def.extra[p.name], note);
  return { st, notices };
}

/** The names readSettings reads: the contract's own and every scenario parameter's. */
export function settingNames(c) {
  const names = new Set(['scenario', 'ttl', 'pause', 'fencing', 'compare', 'lang', 'retries', 'naive']);
  for (const s of c.list) for (const p of s.params) names.add(p.name);
  return names;
}

/**
 * Settings that changed at the source (`names`, e.g. attributes) and were read again (`read`, from
 * readSettings), taken into `state`; what the reader set on the others stays. A new scenario resets
 * everything but the language (which the caller switches).
 */
export function takeSettings(state, read, names) {
  if (names.has('scenario')) Object.assign(state, read, { lang: state.lang });
  else {
    for (const k of ['ttl', 'pause', 'fencing', 'retries', 'naive']) if (names.has(k)) state[k] = read[k];
    if (names.has('compare')) Object.assign(state, { compare: read.compare || state.compare, sideBySide: read.sideBySide });
    for (const k of Object.keys(read.extra)) if (names.has(k)) state.extra[k] = read.extra[k];
  }
  return state;
}

/** The settings as the Reset button leaves them: the scenario's defaults, unfenced, no retries. */
export const resetOf = (s) => ({ ...defaultsOf(s), fencing: 'none', retries: 0, naive: Boolean(s.naive) });

/**
 * The settings `st` as [name, value] pairs: those that differ from the defaults (for the URL), or with
 * `explicit` the scenario, TTL, pause and fencing always (for a snippet that must not drift).
 */
export function paramsOf(st, c, { explicit = false } = {}) {
  const s = c.byId[st.scenario];
  const def = defaultsOf(s);
  const out = [];
  const put = (k, v, isDefault) => (explicit || !isDefault) && out.push([k, String(v)]);
  put('scenario', st.scenario, st.scenario === c.defaultId);
  if (ttlParam(s)) put('ttl', st.ttl, st.ttl === def.ttl);
  if (pauseParam(s)) put('pause', st.pause, st.pause === def.pause);
  put('fencing', st.fencing, st.fencing === 'none');
  for (const [k, v] of Object.entries(st.extra)) if (v !== def.extra[k]) out.push([k, String(v)]);
  if (st.sideBySide) out.push(['compare', compareOf(st)]);
  if (st.retries) out.push(['retries', String(st.retries)]);
  if (Boolean(st.naive) !== Boolean(s.naive)) out.push(['naive', st.naive ? '1' : '0']);
  if (st.lang !== 'en') out.push(['lang', st.lang]);
  return out;
}
