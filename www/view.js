// The lab's view: how its markup (lab-markup.js) is filled from a snapshot of the lab — its settings,
// the scenario, the run (and the comparison run), the dictionary and number format, the parts shown,
// the notices, the playhead. Every render function here is a function of that snapshot: it reads
// nothing else and keeps nothing, so drawing the same snapshot twice gives the same page. `v` is where
// the ids live: { $(id), root }. The Lab (lab.js) owns the state and calls these after every change.
import { languages, fmt, ownKey } from './i18n.js';
import { drawDiagram } from './diagram.js';
import { divergence } from './layout.js';
import { describeEvent, explainVerdict, safetyMargin, whoOf } from './explain.js';
import { extraParams, pauseParam, rangeOf, ttlParam } from './settings.js';
import { DEFAULT_SPEED, SPEEDS } from './playback.js';
import { marksOf } from './service-marks.js';

const EPS = 1e-6;

/** A scenario's title or summary in language `lang`: the language file's, the catalogue's, or English. */
export function scText(d, lang, s, field) {
  // A page's own scenario (s.own) has only its own words, even under a catalogue scenario's id.
  const t = !s.own && d.scenarios && d.scenarios[s.id];
  return (t && t[field]) || s[field][lang] || s[field].en;
}

/** A scenario parameter's label in language `lang`. */
export function paramLabel(d, lang, s, p) {
  const t = !s.own && d.scenarios && d.scenarios[s.id];
  return (t && t.params && t.params[p.name]) || p.label[lang] || p.label.en;
}

function option(parent, value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  parent.appendChild(o);
  return o;
}

/** Replaces `parent`'s children with one `tag` element per text. */
function texts(parent, tag, list) {
  parent.replaceChildren();
  for (const t of list) {
    const e = document.createElement(tag);
    e.textContent = t;
    parent.appendChild(e);
  }
}

/** A small swatch per legend entry, drawn with the diagram's own classes. */
function legendIcon(kind) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 36 16');
  svg.setAttribute('class', 'swatch');
  svg.setAttribute('aria-hidden', 'true');
  const add = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    svg.appendChild(e);
  };
  const box = { x: 2, y: 3, width: 32, height: 10, rx: 2 };
  if (['lease', 'belief', 'pause', 'overlap', 'value'].includes(kind)) add('rect', { ...box, class: kind });
  else if (kind === 'conn') for (const [x, k] of [[2, 'suspended'], [20, 'lost']]) add('rect', { ...box, x, width: 14, class: `conn ${k}` });
  else if (kind === 'ask') {
    add('line', { x1: 2, x2: 34, y1: 12, y2: 12, class: 'lane-line' });
    for (const x of [10, 18, 26]) add('line', { x1: x, x2: x, y1: 12, y2: 5, class: 'ask' });
  } else if (kind === 'ka') {
    add('line', { x1: 2, x2: 34, y1: 10, y2: 10, class: 'lane-line' });
    add('path', { d: 'M5,13h6l-3-6zM15,13h6l-3-6z', class: 'ka' });
    add('path', { d: 'M25,13h6l-3-6z', class: 'ka bad' });
  } else if (kind === 'notice') {
    add('line', { x1: 2, x2: 34, y1: 8, y2: 8, class: 'lane-line' });
    add('path', { d: 'M10,3l4,5l-4,5l-4,-5z', class: 'notice' });
    add('path', { d: 'M26,3l4,5l-4,5l-4,-5z', class: 'notice bad' });
  } else if (kind === 'queue') for (const x of [2, 14, 26]) add('rect', { ...box, x, width: 8, class: 'value' });
  else add('line', { x1: 4, y1: 8, x2: 30, y2: 8, class: 'arrow write ok', 'marker-end': 'url(#ah-ok)' });
  return svg;
}

/** Shows the parts of the lab whose `controls` token is in `features`. */
export function applyFeatures(v, features) {
  for (const e of v.root.querySelectorAll('[data-feature]')) {
    e.hidden = !e.dataset.feature.split(' ').some((f) => features.has(f));
  }
  v.$('grid').classList.toggle('solo', v.$('h-settings').parentElement.hidden);
}

/** The menus: language, scenario (by group), fencing, comparison policy, speed (which keeps its choice). */
export function fillSelects(v, { st, core, d }) {
  const { $ } = v;
  const langSel = $('lang');
  if (langSel) {
    langSel.replaceChildren();
    for (const [k, name] of Object.entries(languages)) option(langSel, k, name).lang = k;
    langSel.value = st.lang;
  }
  const sc = $('scenario');
  sc.replaceChildren();
  const groups = new Map();
  for (const s of core.list) {
    if (!groups.has(s.group)) {
      const g = document.createElement('optgroup');
      g.label = (d.groups && d.groups[s.group]) || s.group;
      sc.appendChild(g);
      groups.set(s.group, g);
    }
    option(groups.get(s.group), s.id, scText(d, st.lang, s, 'title'));
  }
  sc.value = st.scenario;
  for (const [id, value] of [['fencing', st.fencing], ['compare-policy', st.compare]]) {
    const f = $(id);
    f.replaceChildren();
    for (const p of core.policies) option(f, p, d.policies[p] || p);
    f.value = value;
  }
  const sp = $('speed');
  const keep = sp.value || DEFAULT_SPEED;
  sp.replaceChildren();
  for (const s of SPEEDS) option(sp, s, d.speeds[s]);
  sp.value = keep;
}

/** The words that do not depend on the run: data-i18n texts and labels, the legend, the menus. */
export function renderStatic(v, snap) {
  const { d, st, page } = snap;
  const { $, root } = v;
  if (page) {
    document.documentElement.lang = st.lang;
    document.title = d.docTitle;
  } else $('lab').lang = st.lang;
  for (const e of root.querySelectorAll('[data-i18n]')) {
    const text = d[e.dataset.i18n];
    if (typeof text === 'string') e.textContent = text;
  }
  for (const e of root.querySelectorAll('[data-i18n-label]')) e.setAttribute('aria-label', d[e.dataset.i18nLabel]);
  $('notice-title').textContent = page ? d.noticeTitle : d.noticeTitleEmbed;
  const legend = $('legend');
  legend.replaceChildren();
  for (const [kind, text] of d.legend) {
    const li = document.createElement('li');
    li.dataset.kind = kind;
    li.appendChild(legendIcon(kind));
    li.append(text);
    legend.appendChild(li);
  }
  fillSelects(v, snap);
}

/** The notices about unusable settings (URL or attributes), worded in the current language. */
export function renderNotices(v, { d, notices }) {
  texts(v.$('notice-list'), 'li', notices.map((n) => fmt(d.notices[n.key], n.vars)));
  v.$('notice').hidden = !notices.length;
}

/** One slider for the scenario's other parameters (built when the scenario or the language changes). */
function extraSlider(s, p, label) {
  const field = document.createElement('div');
  field.className = 'field';
  const lab = document.createElement('label');
  lab.htmlFor = `x-${p.name}`;
  lab.textContent = label;
  const row = document.createElement('div');
  row.className = 'slider';
  const input = document.createElement('input');
  Object.assign(input, { type: 'range', id: `x-${p.name}`, step: 1 });
  [input.min, input.max] = rangeOf(s, p);
  input.dataset.param = p.name;
  const out = document.createElement('output');
  out.htmlFor = input.id;
  out.id = `x-${p.name}-out`;
  row.append(input, out);
  field.append(lab, row);
  return field;
}

/** The scenario's extra sliders and their values. */
export function renderExtra(v, { st, s, d, num, features }) {
  const { $ } = v;
  const list = $('extra-list');
  const params = extraParams(s);
  const key = `${s.id}/${st.lang}`;
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    list.replaceChildren(...params.map((p) => extraSlider(s, p, paramLabel(d, st.lang, s, p))));
  }
  for (const p of params) {
    $(`x-${p.name}`).value = st.extra[p.name];
    $(`x-${p.name}-out`).value = `${num(st.extra[p.name])} ${d.ms}`;
  }
  $('extra').hidden = !params.length || !features.has('params');
}

/** Sets one of the two contract sliders from its scenario parameter, or switches it off (`p` null). */
function syncSlider(v, { s, d, num }, id, p, value, label, note) {
  const { $ } = v;
  const input = $(id);
  if (p) {
    [input.min, input.max] = rangeOf(s, p);
    input.value = value;
    $(`${id}-out`).value = `${num(value)} ${d.ms}`;
  } else {
    $(`${id}-out`).value = '—';
  }
  input.disabled = !p;
  $(`${id}-label`).textContent = label;
  $(`${id}-note`).textContent = note;
  $(`${id}-note`).hidden = !note;
}

/** The settings' controls showing the settings: sliders, boxes. */
export function syncSliders(v, snap) {
  const { st, s, d } = snap;
  renderExtra(v, snap);
  v.$('retries').checked = st.retries > 0;
  // The naive switch: the majority client that skips the validity check, or what the service's own
  // words (`ownWords`: `naiveLabel`, `noteNaive`) say it stands for.
  v.$('naive-box').hidden = !s.has_naive;
  v.$('naive-box').querySelector('label span').textContent = d[ownKey(d, snap.run, 'naiveLabel')];
  v.$('naive-note').textContent = d[ownKey(d, snap.run, 'noteNaive')];
  v.$('naive').checked = Boolean(st.naive);
  // A session lock (PostgreSQL) has no TTL at all: that is the point of those scenarios. Others may
  // fix their TTL in the scenario itself.
  const tp = ttlParam(s);
  const session = s.service === 'session';
  const [off, offNote] = session ? [d.ttlOff, d.noteNoTtl] : [d.ttlFixed, d.noteTtlFixed];
  // A `session-ttl` is a session's (after the last heartbeat or renewal), not a lease's: the scenario's word.
  const ttlLabel = (snap.run.diagram.has.includes('session-ttl') && tp && paramLabel(d, st.lang, s, tp)) || d.ttl;
  syncSlider(v, snap, 'ttl', tp, st.ttl, tp ? ttlLabel : off, tp ? '' : offNote);
  const p = pauseParam(s);
  const label = !p ? d.pauseOff : p.name === 'delay' ? d.pauseAsDelay : paramLabel(d, st.lang, s, p) || d.pause;
  syncSlider(v, snap, 'pause', p, st.pause, label, !p ? d.noteNoPause : p.name === 'delay' ? d.noteDelay : '');
}

/** The verdict, its reasons, the safety margin and the transcript. Returns what a screen reader is told. */
export function renderVerdict(v, { d, num, run }) {
  const { $ } = v;
  const w = explainVerdict(run, d, num);
  const box = $('outcome');
  box.removeAttribute('aria-busy');
  box.dataset.outcome = run.verdict;
  box.dataset.final = String(run.final);
  box.dataset.expected = String(run.expected);
  box.classList.toggle('lost', w.lost);
  box.classList.toggle('safe', !w.lost);
  $('verdict-mark').textContent = w.lost ? '✗' : '✓';
  $('verdict-word').textContent = w.word;
  $('verdict-numbers').textContent = w.numbers;
  texts($('verdict-lines'), 'p', w.lines);
  $('verdict-expected').textContent = d.expectedIs;
  texts($('margin'), 'li', safetyMargin(run, d, num));
  $('transcript').textContent = run.transcript.join('\n');
  if (!performance.getEntriesByName('leaselab:verdict').length) performance.mark('leaselab:verdict');
  return fmt(d.live, { verdict: w.word, final: num(run.final), expected: num(run.expected) });
}

/** The scenario's title, summary and sources. */
export function renderAbout(v, { st, s, d }) {
  const { $ } = v;
  $('scn-title').textContent = scText(d, st.lang, s, 'title');
  $('about-summary').textContent = scText(d, st.lang, s, 'summary');
  // A library scenario's prose comes with the libraries' words (the dictionary's `scenarios`).
  const t = (!s.own && d.scenarios && d.scenarios[s.id]) || {};
  const source = s.source ?? t.source;
  // A catalogue scenario's English sources are a file of their own (tools/prerender.mjs), fetched
  // when the About section first comes near the screen: it is below the first one, so they do not
  // weigh on the page's first load (its budget).
  const known = source !== undefined ? { source, derived: s.derived || t.derived } : arrived && (arrived[s.id] || {});
  if (known) {
    stopWatching(v);
    fillSources(v, known);
  } else if (watching.get(v)?.id !== s.id) {
    fillSources(v, {});
    sourcesWhenNear(v, s.id);
  }
}

function fillSources(v, { source = '', derived = '' }) {
  v.$('about-source').textContent = source;
  v.$('about-derived-text').textContent = derived;
  v.$('about-derived').hidden = !derived;
}

/** pkg/sources.en.json ({id: {source, derived}}), once per page: a promise, never rejecting (not
 *  preloaded: tools/preload.mjs's ON_DEMAND). */
let sources = null;
/** The file's contents once they have arrived (then every render fills the About at once). */
let arrived = null;
const loadSources = () =>
  (sources ??= fetch(new URL('pkg/sources.en.json', import.meta.url))
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}))
    .then((all) => (arrived = all)));
/** The About section each lab watches (`v`): one watcher per lab, for the scenario it shows now. */
const watching = new WeakMap();

function stopWatching(v) {
  const w = watching.get(v);
  if (w) {
    w.io?.disconnect();
    removeEventListener('beforeprint', w.fill);
    watching.delete(v);
  }
  delete v.$('about-source').dataset.scenario;
}

/** Fills scenario `id`'s sources into lab `v` once its About section is near the screen, or printed. */
function sourcesWhenNear(v, id) {
  stopWatching(v);
  const el = v.$('about-source');
  const fill = () => loadSources().then((all) => el.dataset.scenario === id && fillSources(v, all[id] || {}));
  el.dataset.scenario = id;
  if (typeof IntersectionObserver !== 'function') return void fill();
  const io = new IntersectionObserver((seen) => {
    if (!seen.some((e) => e.isIntersecting)) return;
    io.disconnect();
    fill();
  }, { rootMargin: '400px' });
  watching.set(v, { io, fill, id });
  addEventListener('beforeprint', fill);
  io.observe(el);
}

/** The events table: one row per event, ties marked. */
export function renderEvents(v, { d, num, run }) {
  const body = v.$('events');
  body.replaceChildren();
  let prev = null;
  for (const e of run.events) {
    const tr = document.createElement('tr');
    if (e.t_ms === prev) tr.className = 'tie';
    prev = e.t_ms;
    for (const text of [num(e.t_ms), whoOf(e, d), describeEvent(e, run, d, num)]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

/** Legend entries for marks only some services draw (keepalives, the queue, connection states): the run's
 * `diagram.marks`; and a library's notices, for a run with a client that calls one (service-marks.js). */
const LEGEND_FOR = new Set(['ka', 'queue', 'conn', 'notice']);

/**
 * The diagram at `width`, and with a comparison run the second diagram on the same time scale, with
 * where the two part and the comparison's verdict. Returns the first diagram (for its playhead).
 */
export function renderDiagram(v, { st, d, num, run, other, width }) {
  const marks = marksOf(run);
  for (const li of v.$('legend').children) li.hidden = LEGEND_FOR.has(li.dataset.kind) && !marks.includes(li.dataset.kind);
  const { $ } = v;
  const t = other ? divergence(run, other) : null;
  const mark = t === null ? null : { t, label: fmt(d.diverge, { t: num(t) }) };
  const opts = { width, d, num, lang: st.lang, mark };
  let diagram = drawDiagram($('svg'), run, opts);
  if (other) {
    // Both on one time scale: whichever needs the longer axis sets it for both.
    const second = drawDiagram($('svg2'), other, { ...opts, id: 'svg2', tFix: diagram.tMax });
    if (second.tMax > diagram.tMax) diagram = drawDiagram($('svg'), run, { ...opts, tFix: second.tMax });
    second.setTime(Infinity); // the whole comparison run, no playhead
    const word = other.verdict === 'lost-update' ? d.lost : d.safe;
    $('compare-verdict').textContent = fmt(d.compareVerdict, {
      policy: d.policies[other.fencing] || other.fencing,
      word,
      final: num(other.final),
      expected: num(other.expected),
      same: t === null ? d.compareSame : fmt(d.diverge, { t: num(t) }),
    });
    $('compare-verdict').className = `compare-verdict ${other.verdict}`;
  }
  // On paper a diagram drawn for a phone would be blown up to the page's width: print no wider than drawn.
  for (const id of ['svg', 'svg2']) $(id).style.setProperty('--drawn-width', `${width}px`);
  $('scrub').max = run.end_ms;
  return diagram;
}

/** A diagram taller than the room its box has (style.css: the wide, sticky column) scrolls in the box:
 * then, and only then, the box takes the keyboard's focus, so that keys scroll it too. */
export function markScrolling(v) {
  const chart = v.$('chart');
  if (chart.scrollHeight > chart.clientHeight + 1) chart.tabIndex = 0;
  else chart.removeAttribute('tabindex');
}

/**
 * The playhead at sim time `t` (BEFORE, -1: before the run): the diagram's veil, the scrubber, the
 * "now" line, the play button, and the events table's past and future rows. `shown` is the index of
 * the last row the table shows as past; returns the new one (the rows change only when it does).
 */
export function renderPlayhead(v, { d, num, run }, diagram, { t, on, times }, shown) {
  const { $ } = v;
  diagram.setTime(t);
  const scrub = $('scrub');
  scrub.value = Math.max(0, t);
  scrub.setAttribute('aria-valuetext', `${num(Math.max(0, t))} ${d.ms}`);
  // The latest event time at or before the playhead; its events make up the "now" line.
  let at = -1;
  for (const x of times) if (x <= t + EPS) at = x;
  const boring = new Set(['start', 'acquire-sent', 'done']);
  const now = $('now');
  if (at < 0) now.textContent = d.nothingYet;
  else {
    const said = run.events.filter((e) => e.t_ms === at && !boring.has(e.kind)).map((e) => describeEvent(e, run, d, num));
    now.textContent = `${fmt(d.atTime, { t: `${num(at)} ${d.ms}` })} ${said.join(' ') || '…'}`;
  }
  const rows = $('events').children;
  let last = -1;
  run.events.forEach((e, i) => {
    if (e.t_ms <= t + EPS) last = i;
  });
  if (last !== shown) for (let i = 0; i < rows.length; i++) rows[i].classList.toggle('future', i > last);
  $('play').textContent = on ? d.stop : d.play;
  return last;
}
