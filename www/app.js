// The driver: reads the URL, owns the controls and the playback clock, asks the wasm for a run and
// hands it to the pure renderers. No simulation logic lives here.
import init, { Simulation, catalogue, defaultScenario, policies } from './pkg/leaselab.js';
import { dictionaries, dict, fmt } from './i18n.js';
import { drawDiagram } from './diagram.js';
import { describeEvent, eventTimes, explainVerdict, safetyMargin, whoOf } from './explain.js';
import { copyText, exportRun } from './share.js';

const $ = (id) => document.getElementById(id);
const TTL_UI = [10, 2000];
const PAUSE_UI = [0, 3000];
const SPEEDS = ['1', '0.25', '0.1', '0.04'];
const DEFAULT_SPEED = '0.1';
const EPS = 1e-6;
const BEFORE = -1; // playhead position "before the run" (sim times are never negative)

let cat; // scenario id → catalogue entry
let catList;
let POLICIES;
let DEFAULT_ID;
let sim = null;
let run = null;
let diagram = null;
let d = dict('en');
let num = (v) => String(v);
let notices = []; // [{key, vars}] — kept as keys so a language switch re-words them
const state = { scenario: '', ttl: 0, pause: 0, fencing: 'none', lang: 'en', extra: {}, compare: 'token', retries: 0 };
/** How often a refused client starts over when the box is ticked (the catalogue's "+retry"). */
const RETRIES_ON = 3;
let other = null; // the run under the comparison policy, while the side-by-side view is open
const play = { t: 0, on: false, raf: 0, last: 0, speed: Number(DEFAULT_SPEED), times: [], shownRow: -2 };
const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');

// ---------- Scenario parameters and slider ranges

/** The scenario's parameter driven by the Pause slider: `pause`, else `delay` (a held packet). */
const pauseParam = (s) => s.params.find((p) => p.name === 'pause') || s.params.find((p) => p.name === 'delay') || null;
const ttlParam = (s) => s.params.find((p) => p.name === 'ttl');
/** A slider's range: the UI's range clamped to the scenario's own. */
const rangeOf = (p, ui) => [Math.max(ui[0], Math.ceil(p.min_ms)), Math.min(ui[1], Math.floor(p.max_ms))];
const clamp = (v, [lo, hi]) => Math.min(hi, Math.max(lo, v));
/** The scenario's other parameters (retry intervals, lock-delay, when an admin kills a session, …):
 *  each gets a slider of its own, built from the scenario's parameter list. */
const extraParams = (s) => s.params.filter((p) => p !== ttlParam(s) && p !== pauseParam(s));
const EXTRA_UI = [0, 3000];
const defaultsOf = (s) => ({
  ttl: ttlParam(s) ? clamp(ttlParam(s).default_ms, rangeOf(ttlParam(s), TTL_UI)) : 0,
  pause: pauseParam(s) ? clamp(pauseParam(s).default_ms, rangeOf(pauseParam(s), PAUSE_UI)) : 0,
  extra: Object.fromEntries(extraParams(s).map((p) => [p.name, clamp(p.default_ms, rangeOf(p, EXTRA_UI))])),
});

// ---------- URL state

function query() {
  try {
    return new URLSearchParams(location.search);
  } catch {
    return new URLSearchParams(); // sandboxed iframes may refuse access to location
  }
}

/** Reads the contract's parameters; anything unusable falls back (or clamps) with a notice. */
function readUrl() {
  const q = query();
  notices = [];
  const note = (key, vars) => notices.push({ key, vars });
  const lang = q.get('lang');
  state.lang = 'en';
  if (lang !== null) {
    if (Object.hasOwn(dictionaries, lang)) state.lang = lang;
    else note('badLang', { value: lang });
  }
  const id = q.get('scenario');
  state.scenario = DEFAULT_ID;
  if (id !== null) {
    if (Object.hasOwn(cat, id)) state.scenario = id;
    else note('badScenario', { value: id });
  }
  const f = q.get('fencing');
  state.fencing = 'none';
  if (f !== null) {
    if (POLICIES.includes(f)) state.fencing = f;
    else note('badFencing', { value: f, list: POLICIES.join(', ') });
  }
  const s = cat[state.scenario];
  const def = defaultsOf(s);
  state.ttl = def.ttl;
  if (ttlParam(s)) state.ttl = readMs(q, 'ttl', rangeOf(ttlParam(s), TTL_UI), def.ttl, note);
  else if (q.get('ttl') !== null) note('noTtl', { value: q.get('ttl') });
  state.pause = def.pause;
  if (pauseParam(s)) state.pause = readMs(q, 'pause', rangeOf(pauseParam(s), PAUSE_UI), def.pause, note);
  else if (q.get('pause') !== null) note('noPause', { value: q.get('pause') });
  state.retries = 0;
  const r = q.get('retries');
  if (r !== null) {
    if (/^(0|1|2|3|4|5|6|7|8|9|10)$/.test(r)) state.retries = Number(r);
    else note('badNumber', { name: 'retries', value: r, used: 0 });
  }
  state.extra = { ...def.extra };
  for (const p of extraParams(s)) state.extra[p.name] = readMs(q, p.name, rangeOf(p, EXTRA_UI), def.extra[p.name], note);
}

function readMs(q, name, range, def, note) {
  const raw = q.get(name);
  if (raw === null) return def;
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v)) {
    note('badNumber', { name, value: raw, used: def });
    return def;
  }
  const used = clamp(Math.round(v), range);
  if (used !== v) note('clamped', { name, value: raw, min: range[0], max: range[1], used });
  return used;
}

let urlTimer = 0;
/** Writes the non-default settings into the address bar (debounced while a slider is dragged). */
function writeUrl(now = false) {
  clearTimeout(urlTimer);
  if (!now) {
    urlTimer = setTimeout(() => writeUrl(true), 150);
    return;
  }
  try {
    const q = new URLSearchParams(location.search);
    const def = defaultsOf(cat[state.scenario]);
    const want = {
      scenario: state.scenario !== DEFAULT_ID ? state.scenario : null,
      ttl: ttlParam(cat[state.scenario]) && state.ttl !== def.ttl ? state.ttl : null,
      pause: pauseParam(cat[state.scenario]) && state.pause !== def.pause ? state.pause : null,
      fencing: state.fencing !== 'none' ? state.fencing : null,
      lang: state.lang !== 'en' ? state.lang : null,
      retries: state.retries ? state.retries : null,
    };
    for (const p of cat[state.scenario].params) if (!(p.name in want)) want[p.name] = null;
    for (const [k, v] of Object.entries(state.extra)) if (v !== def.extra[k]) want[k] = v;
    for (const [k, v] of Object.entries(want)) v === null ? q.delete(k) : q.set(k, v);
    const s = q.toString();
    history.replaceState(history.state, '', `${location.pathname}${s ? `?${s}` : ''}${location.hash}`);
  } catch {
    // Sandboxed iframe or file: URL without history — the page keeps working without it.
  }
}

// ---------- Simulation

function simulate() {
  if (!sim || sim.scenario !== state.scenario) {
    if (sim) sim.free();
    sim = new Simulation(state.scenario);
  }
  sim.setPolicy(state.fencing);
  sim.setRetries(state.retries);
  if (ttlParam(cat[state.scenario])) sim.setParam('ttl', state.ttl);
  const p = pauseParam(cat[state.scenario]);
  if (p) sim.setParam(p.name, state.pause);
  for (const [k, v] of Object.entries(state.extra)) sim.setParam(k, v);
  run = JSON.parse(sim.runJson());
  // The comparison: same scenario and parameters, another storage policy.
  other = null;
  if (state.compare === state.fencing) {
    state.compare = state.fencing === 'none' ? 'token' : 'none';
    $('compare-policy').value = state.compare;
  }
  if ($('compare').open) {
    sim.setPolicy(state.compare);
    other = JSON.parse(sim.runJson());
    sim.setPolicy(state.fencing);
  }
  play.times = eventTimes(run);
}

// ---------- Rendering (all of it reads `run`, the playhead and the dictionary)

function option(parent, value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  parent.appendChild(o);
  return o;
}

function fillSelects() {
  const langSel = $('lang');
  langSel.replaceChildren();
  for (const [k, v] of Object.entries(dictionaries)) option(langSel, k, v.langName).lang = k;
  langSel.value = state.lang;

  const sc = $('scenario');
  sc.replaceChildren();
  const groups = new Map();
  for (const s of catList) {
    if (!groups.has(s.group)) {
      const g = document.createElement('optgroup');
      g.label = (d.groups && d.groups[s.group]) || s.group;
      sc.appendChild(g);
      groups.set(s.group, g);
    }
    option(groups.get(s.group), s.id, s.title[state.lang] || s.title.en);
  }
  sc.value = state.scenario;

  const f = $('fencing');
  f.replaceChildren();
  for (const p of POLICIES) option(f, p, d.policies[p] || p);
  f.value = state.fencing;
  const cp = $('compare-policy');
  cp.replaceChildren();
  for (const p of POLICIES) option(cp, p, d.policies[p] || p);
  cp.value = state.compare;

  const sp = $('speed');
  const keep = sp.value || DEFAULT_SPEED;
  sp.replaceChildren();
  for (const s of SPEEDS) option(sp, s, d.speeds[s]);
  sp.value = keep;
}

/** Builds the scenario's extra sliders (only when the scenario or the language changes). */
function renderExtra() {
  const s = cat[state.scenario];
  const list = $('extra-list');
  const params = extraParams(s);
  const key = `${s.id}/${state.lang}`;
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    list.replaceChildren();
    for (const p of params) {
      const field = document.createElement('div');
      field.className = 'field';
      const label = document.createElement('label');
      label.htmlFor = `x-${p.name}`;
      label.textContent = p.label[state.lang] || p.label.en;
      const row = document.createElement('div');
      row.className = 'slider';
      const input = document.createElement('input');
      Object.assign(input, { type: 'range', id: `x-${p.name}`, step: 1 });
      [input.min, input.max] = rangeOf(p, EXTRA_UI);
      input.dataset.param = p.name;
      const out = document.createElement('output');
      out.htmlFor = input.id;
      out.id = `x-${p.name}-out`;
      row.append(input, out);
      field.append(label, row);
      list.append(field);
    }
  }
  for (const p of params) {
    $(`x-${p.name}`).value = state.extra[p.name];
    $(`x-${p.name}-out`).value = `${num(state.extra[p.name])} ${d.ms}`;
  }
  $('extra').hidden = !params.length;
}

/** Sets one of the two contract sliders from its scenario parameter, or switches it off (`p` null). */
function syncSlider(id, p, ui, value, label, note) {
  const input = $(id);
  if (p) {
    [input.min, input.max] = rangeOf(p, ui);
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

function syncSliders() {
  renderExtra();
  $('retries').checked = state.retries > 0;
  const s = cat[state.scenario];
  // A session lock (PostgreSQL) has no TTL at all: that is the point of those scenarios.
  const tp = ttlParam(s);
  syncSlider('ttl', tp, TTL_UI, state.ttl, tp ? d.ttl : d.ttlOff, tp ? '' : d.noteNoTtl);
  const p = pauseParam(s);
  const label = !p ? d.pauseOff : p.name === 'delay' ? d.pauseAsDelay : p.label[state.lang] || d.pause;
  syncSlider('pause', p, PAUSE_UI, state.pause, label, !p ? d.noteNoPause : p.name === 'delay' ? d.noteDelay : '');
}

function renderNotices() {
  const list = $('notice-list');
  list.replaceChildren();
  for (const n of notices) {
    const li = document.createElement('li');
    li.textContent = fmt(d.notices[n.key], n.vars);
    list.appendChild(li);
  }
  $('notice').hidden = !notices.length;
}

function renderStatic() {
  document.documentElement.lang = state.lang;
  document.title = d.docTitle;
  for (const e of document.querySelectorAll('[data-i18n]')) {
    const v = d[e.dataset.i18n];
    if (typeof v === 'string') e.textContent = v;
  }
  const legend = $('legend');
  legend.replaceChildren();
  for (const [kind, text] of d.legend) {
    const li = document.createElement('li');
    li.appendChild(legendIcon(kind));
    li.append(text);
    legend.appendChild(li);
  }
  fillSelects();
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
  if (kind === 'lease') add('rect', { ...box, class: 'lease' });
  else if (kind === 'belief') add('rect', { ...box, class: 'belief' });
  else if (kind === 'pause') add('rect', { ...box, class: 'pause' });
  else if (kind === 'overlap') add('rect', { ...box, class: 'overlap' });
  else if (kind === 'value') add('rect', { ...box, class: 'value' });
  else if (kind === 'ask') {
    add('line', { x1: 2, x2: 34, y1: 12, y2: 12, class: 'lane-line' });
    for (const x of [10, 18, 26]) add('line', { x1: x, x2: x, y1: 12, y2: 5, class: 'ask' });
  } else add('line', { x1: 4, y1: 8, x2: 30, y2: 8, class: 'arrow write ok', 'marker-end': 'url(#ah-ok)' });
  return svg;
}

function renderVerdict() {
  const v = explainVerdict(run, d, num);
  const box = $('outcome');
  box.dataset.outcome = run.verdict;
  box.dataset.final = String(run.final);
  box.dataset.expected = String(run.expected);
  box.classList.toggle('lost', v.lost);
  box.classList.toggle('safe', !v.lost);
  $('verdict-mark').textContent = v.lost ? '✗' : '✓';
  $('verdict-word').textContent = v.word;
  $('verdict-numbers').textContent = v.numbers;
  const lines = $('verdict-lines');
  lines.replaceChildren();
  for (const l of v.lines) {
    const p = document.createElement('p');
    p.textContent = l;
    lines.appendChild(p);
  }
  $('verdict-expected').textContent = d.expectedIs;
  const margin = $('margin');
  margin.replaceChildren();
  for (const line of safetyMargin(run, d, num)) {
    const li = document.createElement('li');
    li.textContent = line;
    margin.appendChild(li);
  }
  $('transcript').textContent = run.transcript.join('\n');
  if (!performance.getEntriesByName('leaselab:verdict').length) performance.mark('leaselab:verdict');
  announce(fmt(d.live, { verdict: v.word, final: num(run.final), expected: num(run.expected) }));
}

let liveTimer = 0;
let lastSaid = null;
/** Tells screen readers about a changed verdict, once the slider has settled. */
function announce(text) {
  clearTimeout(liveTimer);
  if (lastSaid === null) {
    lastSaid = text; // the first verdict is on the page already; do not read it out
    return;
  }
  liveTimer = setTimeout(() => {
    if (text !== lastSaid) $('live').textContent = lastSaid = text;
  }, 600);
}

function renderAbout() {
  const s = cat[state.scenario];
  $('scn-title').textContent = s.title[state.lang] || s.title.en;
  $('about-summary').textContent = s.summary[state.lang] || s.summary.en;
  $('about-source').textContent = s.source;
  $('about-derived-text').textContent = s.derived;
  $('about-derived').hidden = !s.derived;
}

function renderEvents() {
  const body = $('events');
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
  play.shownRow = -2;
}

/** The first instant at which two runs of the same schedule differ, or null. */
function divergence(a, b) {
  const n = Math.max(a.events.length, b.events.length);
  for (let i = 0; i < n; i++) {
    const x = a.events[i];
    const y = b.events[i];
    if (!x || !y || JSON.stringify(x) !== JSON.stringify(y)) return Math.min(x ? x.t_ms : Infinity, y ? y.t_ms : Infinity);
  }
  return null;
}

function renderDiagram() {
  // The width comes from the ResizeObserver: reading clientWidth here, after the other renderers have
  // written to the DOM, would force a synchronous layout on every slider input.
  if (!play.width) play.width = $('chart').clientWidth || 800;
  const t = other ? divergence(run, other) : null;
  const mark = t === null ? null : { t, label: fmt(d.diverge, { t: num(t) }) };
  const opts = { width: play.width, d, num, lang: state.lang, mark };
  diagram = drawDiagram($('svg'), run, opts);
  if (other) {
    // Both on one time scale: whichever needs the longer axis sets it for both.
    let second = drawDiagram($('svg2'), other, { ...opts, id: 'svg2', tFix: diagram.tMax });
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
}

function renderAll() {
  syncSliders();
  renderVerdict();
  renderAbout();
  renderDiagram();
  renderEvents();
  const scrub = $('scrub');
  scrub.max = run.end_ms;
  setPlayhead(play.t);
}

/**
 * Moves the playhead: the veil, the scrubber, the "now" line and the events table's past/future.
 * t = BEFORE means "before the run": nothing has happened yet, not even the events at 0 ms.
 */
function setPlayhead(t) {
  play.t = Math.min(Math.max(BEFORE, t), run.end_ms);
  diagram.setTime(play.t);
  const scrub = $('scrub');
  scrub.value = Math.max(0, play.t);
  scrub.setAttribute('aria-valuetext', `${num(Math.max(0, play.t))} ${d.ms}`);
  // The latest event time at or before the playhead; its events make up the "now" line.
  let at = -1;
  for (const x of play.times) if (x <= play.t + EPS) at = x;
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
    if (e.t_ms <= play.t + EPS) last = i;
  });
  if (last !== play.shownRow) {
    play.shownRow = last;
    for (let i = 0; i < rows.length; i++) rows[i].classList.toggle('future', i > last);
  }
  $('play').textContent = play.on ? d.stop : d.play;
}

// ---------- Playback (requestAnimationFrame, owned here)

function tick(now) {
  play.t += (now - play.last) * play.speed;
  play.last = now;
  if (play.t >= run.end_ms) {
    play.on = false;
    play.t = run.end_ms;
  }
  setPlayhead(play.t);
  if (play.on) play.raf = requestAnimationFrame(tick);
}

function start() {
  if (play.t >= run.end_ms - EPS) play.t = BEFORE;
  play.on = true;
  play.last = performance.now();
  cancelAnimationFrame(play.raf);
  play.raf = requestAnimationFrame(tick);
  setPlayhead(play.t);
}

function stop() {
  play.on = false;
  cancelAnimationFrame(play.raf);
}

function step(dir) {
  stop();
  const t = play.t;
  const next = dir > 0 ? play.times.find((x) => x > t + EPS) : [...play.times].reverse().find((x) => x < t - EPS);
  setPlayhead(next ?? (dir > 0 ? run.end_ms : BEFORE));
}

// ---------- Wiring

/** A setting changed: re-simulate, re-render, show the whole run, remember it in the URL. */
function changed({ urlNow = false } = {}) {
  stop();
  try {
    simulate();
  } catch (e) {
    showError(e);
    return;
  }
  play.t = run.end_ms;
  renderAll();
  writeUrl(urlNow);
}

function showError(e) {
  const st = $('status');
  st.hidden = false;
  st.classList.add('error');
  st.textContent = fmt(d.loadError, { msg: e && e.message ? e.message : String(e) });
}

function setLang(lang) {
  if (lang === state.lang && num.lang === lang) return;
  state.lang = lang;
  d = dict(lang);
  // Plain digits need no Intl (its first use costs ~30 ms of start-up); other scripts get theirs.
  const nf = lang === 'en' ? null : new Intl.NumberFormat(lang, { maximumFractionDigits: 3, useGrouping: false });
  num = (v) => (v == null || Number.isNaN(v) ? '' : nf ? nf.format(v) : String(Math.round(v * 1000) / 1000));
  num.lang = lang;
}

function wire() {
  const lab = $('lab');
  $('ttl').addEventListener('input', (e) => {
    state.ttl = Number(e.target.value);
    changed();
  });
  $('pause').addEventListener('input', (e) => {
    state.pause = Number(e.target.value);
    changed();
  });
  for (const id of ['ttl', 'pause']) $(id).addEventListener('change', () => writeUrl(true));
  // The scenario's own extra sliders (rebuilt per scenario): one listener on their container.
  $('extra-list').addEventListener('input', (e) => {
    if (!e.target.dataset.param) return;
    state.extra[e.target.dataset.param] = Number(e.target.value);
    changed();
  });
  $('extra-list').addEventListener('change', () => writeUrl(true));
  $('compare').addEventListener('toggle', () => changed());
  $('copy-link').addEventListener('click', async () => {
    writeUrl(true);
    let href;
    try {
      href = location.href;
    } catch {
      href = '';
    }
    const ok = href && (await copyText(href, $('share-text')));
    $('share-status').textContent = ok ? d.copied : d.copyByHand;
  });
  for (const b of document.querySelectorAll('button.export')) {
    b.addEventListener('click', async () => {
      const base = `leaselab-${state.scenario}-${state.fencing}`;
      try {
        await exportRun(b.dataset.kind, run, $('svg'), base);
        $('share-status').textContent = fmt(d.exported, { kind: b.textContent });
      } catch (e) {
        $('share-status').textContent = e.message;
      }
    });
  }
  $('retries').addEventListener('change', (e) => {
    state.retries = e.target.checked ? RETRIES_ON : 0;
    changed({ urlNow: true });
  });
  $('compare-policy').addEventListener('change', (e) => {
    state.compare = e.target.value;
    changed();
  });
  $('fencing').addEventListener('change', (e) => {
    state.fencing = e.target.value;
    changed({ urlNow: true });
  });
  $('scenario').addEventListener('change', (e) => {
    state.scenario = e.target.value;
    Object.assign(state, defaultsOf(cat[state.scenario]));
    changed({ urlNow: true });
  });
  $('reset').addEventListener('click', () => {
    Object.assign(state, defaultsOf(cat[state.scenario]), { fencing: 'none', retries: 0 });
    fillSelects();
    changed({ urlNow: true });
  });
  $('lang').addEventListener('change', (e) => {
    setLang(e.target.value);
    renderStatic();
    renderNotices();
    renderAll();
    writeUrl(true);
  });
  $('notice-close').addEventListener('click', () => {
    $('notice').hidden = true;
    $('scenario').focus(); // the button vanishes; keep focus in the lab, at its first control
  });
  $('play').addEventListener('click', () => {
    if (play.on) stop();
    else start();
    setPlayhead(play.t);
  });
  $('next').addEventListener('click', () => step(1));
  $('back').addEventListener('click', () => step(-1));
  $('scrub').addEventListener('input', (e) => {
    stop();
    setPlayhead(Number(e.target.value));
  });
  $('speed').addEventListener('change', (e) => {
    play.speed = Number(e.target.value);
  });
  // Keyboard shortcuts, scoped to the lab (never window): "." next event, "," previous event.
  lab.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    if (e.key === '.') step(1);
    else if (e.key === ',') step(-1);
    else return;
    e.preventDefault();
  });
  // Re-lay the diagram out when its container changes width (it draws at 1 unit = 1 CSS pixel).
  new ResizeObserver(([entry]) => {
    const w = Math.round(entry.contentRect.width);
    if (run && Math.abs(w - play.width) >= 1) {
      play.width = w;
      renderDiagram();
      setPlayhead(play.t);
    }
  }).observe($('chart'));
}

async function main() {
  // The language first, so that even the loading message is in the reader's language.
  const want = query().get('lang');
  setLang(Object.hasOwn(dictionaries, want || '') ? want : 'en');
  $('status').textContent = d.loading;
  await init();
  catList = JSON.parse(catalogue());
  cat = Object.fromEntries(catList.map((s) => [s.id, s]));
  POLICIES = policies().split(',');
  DEFAULT_ID = defaultScenario();
  readUrl();
  setLang(state.lang);
  renderStatic();
  renderNotices();
  simulate();
  // Reduced motion: no animated playback on load; the whole run is shown (stepping still works).
  play.t = reduceMotion.matches ? run.end_ms : BEFORE;
  renderAll();
  for (const id of ['scenario', 'fencing', 'retries', 'reset', 'play', 'back', 'next', 'scrub']) $(id).disabled = false;
  syncSliders(); // enables the TTL and Pause sliders the scenario has
  $('status').hidden = true;
  wire();
  if (!reduceMotion.matches) start();
}

main().catch(showError);
