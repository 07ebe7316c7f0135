// explore.html: (1) the phase diagram — a grid of complete runs over two parameters, computed by
// Simulation.sweep of the wasm built with the `estimate` feature (pkg/leaselab_mc.js: the lab page's wasm
// leaves sweeps out for size) a few rows at a time so the page never blocks, drawn as two heat maps
// (one per policy), each cell linking to the lab; (2) probability mode — the Monte Carlo estimator of
// that same wasm, run in a module Web Worker (explore-worker.js). No simulation logic here: JS draws
// and drives.
import initSweeps, { Simulation, catalogue, defaultScenario, policies } from './pkg/leaselab_mc.js';
import { languages, loadLang, fmt } from './i18n.js';
import { en as enX, bn as bnX, PRESETS } from './explore-i18n.js';
import { clamp, loadCatalogue, rangeOf, urlName } from './settings.js';

const $ = (id) => document.getElementById(id);
/** The catalogue from this page's own wasm: the lab's (pkg/leaselab.js) would be a second download. */
const loadCore = () => loadCatalogue({ init: initSweeps, catalogue, defaultScenario, policies });
const SVGNS = 'http://www.w3.org/2000/svg';
/** How long one slice of the sweep should take before the page gets the main thread back: well under
 *  the 50 ms budget, since later rows can cost more than earlier ones (longer pauses, more retries). */
const SLICE_MS = 12;
/** Outcome codes from Simulation.sweep: 0 safe, 1 safe with a write rejected, 2 + i client i's update lost. */
const KINDS = ['safe', 'rejected', 'lost-a', 'lost-b', 'lost-other'];
const kindOf = (code) => KINDS[Math.min(code, 4)];
/** Fill and pattern per outcome: colour and a symbol, so no outcome is told by colour alone. */
const LOOK = {
  safe: { bg: '#dafbe1', ink: '#1a7f37', mark: '' },
  rejected: { bg: '#cfe2ff', ink: '#0a58ca', mark: 'dot' },
  'lost-a': { bg: '#ffe2b3', ink: '#8a4b00', mark: 'back' },
  'lost-b': { bg: '#ffd8d3', ink: '#b42318', mark: 'slash' },
  'lost-other': { bg: '#e9d7fe', ink: '#6e40c9', mark: 'grid' },
};

function query() {
  try {
    return new URLSearchParams(location.search);
  } catch {
    return new URLSearchParams();
  }
}

const q = query();
const st = {
  lang: Object.hasOwn(languages, q.get('lang')) ? q.get('lang') : 'en',
  d: null, // the merged dictionary: the lab's (scenario texts, policy names) and explore's
  core: null,
  grid: null, // the last phase diagram: {s, xp, yp, xs, ys, maps: [{policy, codes}]}
  cursor: { map: 0, xi: 0, yi: 0 },
  token: 0, // bumps when a new sweep starts; an older one stops at its next slice
};

// ---------- Start

async function start() {
  $('status').hidden = false;
  const [core, d] = await Promise.all([loadCore(), dict(st.lang)]);
  st.core = core;
  st.d = d;
  const langSel = $('lang');
  for (const [code, name] of Object.entries(languages)) langSel.add(new Option(name, code, false, code === st.lang));
  langSel.addEventListener('change', async () => {
    st.lang = langSel.value;
    st.d = await dict(st.lang);
    writeUrl({ lang: st.lang === 'en' ? null : st.lang });
    renderStatic();
    renderMaps();
    renderResult();
  });
  initPhase();
  initProb();
  renderStatic();
  $('status').hidden = true;
  $('lang-field').hidden = false;
  $('phase').hidden = false;
  $('prob').hidden = false;
  await sweepAll();
}

async function dict(lang) {
  const base = await loadLang(lang);
  return { ...base, x: { ...enX, ...(lang === 'bn' ? bnX : {}) } };
}

/** Keeps the address bar in step (where it may: a sandboxed iframe refuses). */
function writeUrl(changes) {
  try {
    const u = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) v === null ? u.delete(k) : u.set(k, String(v));
    const s = u.toString();
    history.replaceState(history.state, '', `${location.pathname}${s ? `?${s}` : ''}${location.hash}`);
  } catch {
    // keep working without it
  }
}

function renderStatic() {
  const { d } = st;
  const x = d.x;
  document.documentElement.lang = st.lang;
  document.title = x.docTitle;
  for (const el of document.querySelectorAll('[data-x]')) {
    const v = x[el.dataset.x];
    if (typeof v === 'string') el.textContent = v;
  }
  $('back').href = labUrl({});
  // Scenario titles and policy names in the reader's language.
  for (const o of $('scenario').options) o.textContent = scenarioTitle(st.core.byId[o.value]);
  for (const sel of document.querySelectorAll('select.policy')) for (const o of sel.options) o.textContent = d.policies[o.value] || o.value;
  for (const o of $('preset').options) o.textContent = o.value ? x.presets[o.value] : x.custom;
  fillAxisOptions();
  distLabels();
  presetSource();
}

const scenarioTitle = (s) => {
  const t = st.d.scenarios && st.d.scenarios[s.id];
  return (t && t.title) || s.title[st.lang] || s.title.en || s.id;
};
const paramLabel = (s, p) => {
  const t = st.d.scenarios && st.d.scenarios[s.id];
  return (t && t.params && t.params[p.name]) || (p.label && (p.label[st.lang] || p.label.en)) || p.name;
};

// ---------- Phase diagram

/** `n` whole-millisecond values from `lo`, a round step apart, not beyond `hi` (so every cell is a
 *  setting the lab can show exactly, and any slice of rows sweeps the same values). */
function axisValues([lo, hi], n) {
  const raw = (hi - lo) / Math.max(1, n - 1);
  const unit = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  const nice = [1, 1.2, 1.5, 2, 2.5, 3, 4, 4.5, 5, 6, 7.5, 8, 10].map((f) => f * unit).filter((v) => v <= raw && Number.isInteger(v));
  const step = Math.max(1, nice.length ? nice.at(-1) : Math.floor(raw));
  const count = Math.min(n, Math.floor((hi - lo) / step) + 1);
  return Array.from({ length: count }, (_, i) => lo + i * step);
}

/** The value the lab starts a parameter at: the default (or what the address says), clamped. */
function startValue(s, p) {
  const raw = q.get('scenario') === s.id || (!q.get('scenario') && s.id === st.core.defaultId) ? q.get(urlName(s, p)) : null;
  const v = raw === null ? p.default_ms : Number(raw);
  return clamp(Number.isFinite(v) ? Math.round(v) : p.default_ms, rangeOf(s, p));
}

function initPhase() {
  const { core } = st;
  const scen = $('scenario');
  for (const s of core.list) if (s.params.length >= 2) scen.add(new Option(s.id, s.id));
  scen.value = core.byId[q.get('scenario')] && [...scen.options].some((o) => o.value === q.get('scenario')) ? q.get('scenario') : core.defaultId;
  const fencing = core.policies.includes(q.get('fencing')) ? q.get('fencing') : 'none';
  for (const [id, def] of [['policy-a', fencing], ['policy-b', fencing === 'token' ? 'first-touch' : 'token'], ['p-policy', 'none']]) {
    const sel = $(id);
    for (const p of core.policies) sel.add(new Option(p, p, false, p === def));
  }
  scen.addEventListener('change', () => {
    fillAxisOptions(true);
    writeUrl({ scenario: scen.value });
    sweepAll();
  });
  for (const id of ['xparam', 'yparam', 'steps', 'policy-a', 'policy-b']) $(id).addEventListener('change', () => sweepAll());
  for (const [i, fig] of [$('map-a'), $('map-b')].entries()) {
    const svg = fig.querySelector('svg');
    svg.addEventListener('pointermove', (e) => hover(i, svg, e));
    svg.addEventListener('click', (e) => {
      if (hover(i, svg, e)) location.href = $('open-cell').href;
    });
    svg.addEventListener('keydown', (e) => key(i, e));
    svg.addEventListener('focus', () => moveCursor(i, st.cursor.xi, st.cursor.yi));
    for (const b of fig.querySelectorAll('.exports button')) b.addEventListener('click', () => exportMap(i, b.dataset.kind));
  }
  fillAxisOptions(true);
}

/** The x and y choices: the scenario's parameters; x defaults to TTL, y to the pause. */
function fillAxisOptions(reset = false) {
  const s = st.core.byId[$('scenario').value];
  for (const [id, pick] of [
    ['xparam', (ps) => ps.find((p) => p.name === 'ttl') || ps[0]],
    ['yparam', (ps) => ps.find((p) => urlName(s, p) === 'pause' && p.name !== $('xparam').value) || ps.find((p) => p.name !== $('xparam').value)],
  ]) {
    const sel = $(id);
    const keep = reset ? pick(s.params).name : sel.value;
    sel.textContent = '';
    for (const p of s.params) sel.add(new Option(`${paramLabel(s, p)} (${p.name})`, p.name, false, p.name === keep));
  }
}

/** Runs both maps' grids, a slice of rows at a time, and draws them. */
async function sweepAll() {
  const token = ++st.token;
  await (st.sweeps ??= initSweeps());
  if (token !== st.token) return;
  const s = st.core.byId[$('scenario').value];
  let xp = s.params.find((p) => p.name === $('xparam').value);
  let yp = s.params.find((p) => p.name === $('yparam').value);
  if (xp === yp) yp = s.params.find((p) => p !== xp);
  const n = Number($('steps').value);
  const xs = axisValues(rangeOf(s, xp), n);
  const ys = axisValues(rangeOf(s, yp), n);
  const policies = [$('policy-a').value, $('policy-b').value];
  const t0 = performance.now();
  $('detail').textContent = fmt(st.d.x.computing, { n: xs.length * ys.length * 2 });
  const maps = [];
  for (const policy of policies) {
    const sim = new Simulation(s.id);
    try {
      sim.setPolicy(policy);
      // The other parameters as the lab starts them, so an opened cell is the very same run.
      for (const p of s.params) if (p !== xp && p !== yp) sim.setParam(p.name, startValue(s, p));
      const codes = new Uint8Array(xs.length * ys.length);
      let rows = 1;
      for (let y0 = 0; y0 < ys.length; ) {
        const y1 = Math.min(ys.length, y0 + rows);
        const t = performance.now();
        codes.set(sim.sweep(xp.name, xs[0], xs[xs.length - 1], xs.length, yp.name, ys[y0], ys[y1 - 1], y1 - y0), y0 * xs.length);
        const dt = performance.now() - t;
        // Size the next slice to about SLICE_MS from this one's pace, growing at most twofold.
        rows = Math.max(1, Math.min((y1 - y0) * 2, Math.floor(((y1 - y0) * SLICE_MS) / Math.max(dt, 0.1))));
        y0 = y1;
        await new Promise((r) => setTimeout(r, 0));
        if (token !== st.token) return;
      }
      maps.push({ policy, codes });
    } finally {
      sim.free();
    }
  }
  st.grid = { s, xp, yp, xs, ys, maps, ms: performance.now() - t0 };
  const cur = { x: startValue(s, xp), y: startValue(s, yp) };
  st.grid.current = cur;
  st.cursor = { map: 0, xi: nearest(xs, cur.x), yi: nearest(ys, cur.y) };
  renderMaps();
  $('detail').textContent = fmt(st.d.x.computed, { n: xs.length * ys.length * 2, ms: Math.round(st.grid.ms) });
  updateLink();
  document.body.dataset.phase = 'ready';
}

const nearest = (vs, v) => vs.reduce((best, x, i) => (Math.abs(x - v) < Math.abs(vs[best] - v) ? i : best), 0);

// Geometry of one map, in SVG user units (the SVG scales to its box).
const G = { left: 58, top: 8, plot: 360, bottom: 44, right: 24 }; // right: room for the last x tick's label

function renderMaps() {
  const g = st.grid;
  if (!g) return;
  const { d } = st;
  const x = d.x;
  const { s, xp, yp, xs, ys } = g;
  $('current').textContent = fmt(x.current, { x: paramLabel(s, xp), xv: g.current.x, y: paramLabel(s, yp), yv: g.current.y });
  renderLegend(s);
  g.maps.forEach((m, i) => {
    const fig = $(i ? 'map-b' : 'map-a');
    const pname = d.policies[m.policy] || m.policy;
    fig.querySelector('.map-title').textContent = fmt(x.mapTitle, { policy: pname });
    const svg = fig.querySelector('svg');
    const lost = m.codes.reduce((a, c) => a + (c >= 2), 0);
    const rej = m.codes.reduce((a, c) => a + (c === 1), 0);
    svg.setAttribute('aria-label', fmt(x.mapLabel, { policy: pname, x: paramLabel(s, xp), x0: xs[0], x1: xs.at(-1), y: paramLabel(s, yp), y0: ys[0], y1: ys.at(-1), lost, rej, n: m.codes.length }));
    svg.dataset.policy = m.policy;
    drawMap(svg, `m${i}`, m, g);
  });
  moveCursor(st.cursor.map, st.cursor.xi, st.cursor.yi, false);
}

function renderLegend(s) {
  const ul = $('legend');
  ul.textContent = '';
  const present = new Set(st.grid.maps.flatMap((m) => [...new Set(m.codes)]));
  const codes = [0, 1, 2, 3, ...[...present].filter((c) => c > 3)];
  for (const code of codes) {
    const li = document.createElement('li');
    const svg = document.createElementNS(SVGNS, 'svg');
    svg.setAttribute('viewBox', '0 0 16 16');
    svg.setAttribute('aria-hidden', 'true');
    svg.innerHTML = `<defs>${patternDefs('lg')}</defs><rect x="0.5" y="0.5" width="15" height="15" fill="${fillOf('lg', code)}" stroke="#57606a"/>`;
    li.append(svg, document.createTextNode(` ${outcomeText(s, code)}`));
    ul.append(li);
  }
}

function outcomeText(s, code) {
  const x = st.d.x;
  if (code < 2) return x.outcomes[code];
  const c = s.clients[code - 2];
  if (c === 'A') return x.outcomes[2];
  if (c === 'B') return x.outcomes[3];
  return c ? fmt(x.lostOf, { c }) : x.outcomes[4];
}

function patternDefs(prefix) {
  const line = (ink, d) => `<path d="${d}" stroke="${ink}" stroke-width="1.3" fill="none"/>`;
  return Object.entries(LOOK)
    .map(([kind, { bg, ink, mark }]) => {
      const body =
        mark === 'slash' ? line(ink, 'M-1,7 L7,-1 M-1,15 L15,-1 M7,15 L15,7') :
        mark === 'back' ? line(ink, 'M-1,1 L7,9 M-1,-7 L15,9 M7,-7 L15,1') + line(ink, 'M-1,7 L7,-1 M-1,15 L15,-1 M7,15 L15,7') :
        mark === 'dot' ? `<circle cx="4" cy="4" r="1.4" fill="${ink}"/>` :
        mark === 'grid' ? line(ink, 'M0,4 H8 M4,0 V8') : '';
      return `<pattern id="${prefix}-${kind}" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="${bg}"/>${body}</pattern>`;
    })
    .join('');
}
const fillOf = (prefix, code) => `url(#${prefix}-${kindOf(code)})`;

/** Draws one map: cells, axes with units, ticks, the current setting's mark and the cursor. */
function drawMap(svg, prefix, m, g) {
  const { xs, ys, s, xp, yp } = g;
  const nx = xs.length;
  const ny = ys.length;
  const W = G.left + G.plot + G.right;
  const H = G.top + G.plot + G.bottom;
  const cw = G.plot / nx;
  const ch = G.plot / ny;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  // One rect per run of equal outcomes along a row (a few per row, not one per cell: thousands of
  // patterned SVG elements take hundreds of milliseconds to lay out and paint). Hit-testing is by
  // coordinates; each run says which cells it covers (data-yi, data-x0, data-len).
  const parts = [`<defs>${patternDefs(prefix)}</defs><g class="cells">`];
  for (let yi = 0; yi < ny; yi++) {
    const y = G.top + G.plot - (yi + 1) * ch;
    for (let x0 = 0; x0 < nx; ) {
      const code = m.codes[yi * nx + x0];
      let x1 = x0 + 1;
      while (x1 < nx && m.codes[yi * nx + x1] === code) x1++;
      parts.push(`<rect class="run" data-yi="${yi}" data-x0="${x0}" data-len="${x1 - x0}" data-code="${code}" x="${(G.left + x0 * cw).toFixed(2)}" y="${y.toFixed(2)}" width="${((x1 - x0) * cw + 0.05).toFixed(2)}" height="${(ch + 0.05).toFixed(2)}" fill="${fillOf(prefix, code)}"/>`);
      x0 = x1;
    }
  }
  parts.push('</g>');
  // Axes: a frame, five ticks each, the parameters' names with their unit.
  parts.push(`<rect class="x-frame" x="${G.left}" y="${G.top}" width="${G.plot}" height="${G.plot}" fill="none"/>`);
  const ticks = (n) => [...new Set([0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * (n - 1))))];
  for (const xi of ticks(nx)) {
    const cx = G.left + (xi + 0.5) * cw;
    parts.push(`<line class="x-tick" x1="${cx}" x2="${cx}" y1="${G.top + G.plot}" y2="${G.top + G.plot + 4}"/><text class="x-tick-label" x="${cx}" y="${G.top + G.plot + 16}" text-anchor="middle">${xs[xi]}</text>`);
  }
  for (const yi of ticks(ny)) {
    const cy = G.top + G.plot - (yi + 0.5) * ch;
    parts.push(`<line class="x-tick" x1="${G.left - 4}" x2="${G.left}" y1="${cy}" y2="${cy}"/><text class="x-tick-label" x="${G.left - 6}" y="${cy + 4}" text-anchor="end">${ys[yi]}</text>`);
  }
  parts.push(`<text class="axis-label" x="${G.left + G.plot / 2}" y="${H - 6}" text-anchor="middle">${esc(paramLabel(s, xp))} (ms)</text>`);
  parts.push(`<text class="axis-label" transform="translate(14 ${G.top + G.plot / 2}) rotate(-90)" text-anchor="middle">${esc(paramLabel(s, yp))} (ms)</text>`);
  // The setting the reader came from, at its exact place (it may fall between cells).
  const pos = (vs, v, n, size) => {
    const i = vs.length > 1 ? (v - vs[0]) / (vs[1] - vs[0]) : 0;
    return Math.min(n - 0.5, Math.max(-0.5, i)) * size + size / 2;
  };
  const mx = G.left + pos(xs, g.current.x, nx, cw);
  const my = G.top + G.plot - pos(ys, g.current.y, ny, ch);
  parts.push(`<g class="current" aria-hidden="true"><circle cx="${mx}" cy="${my}" r="7" fill="none" stroke="#fff" stroke-width="4"/><circle cx="${mx}" cy="${my}" r="7" fill="none" stroke="#1b1f24" stroke-width="2"/><circle cx="${mx}" cy="${my}" r="1.8" fill="#1b1f24"/></g>`);
  parts.push(`<rect class="cursor" x="0" y="0" width="${cw}" height="${ch}" fill="none" visibility="hidden"/>`);
  svg.innerHTML = parts.join('');
  svg.dataset.nx = nx;
  svg.dataset.ny = ny;
  svg.dataset.cells = m.codes.length;
}

const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The cell under the pointer, made current; false when the pointer is outside the plot. */
function hover(i, svg, e) {
  const g = st.grid;
  const ctm = svg.getScreenCTM();
  if (!g || !ctm) return false;
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
  const xi = Math.floor(((p.x - G.left) / G.plot) * g.xs.length);
  const yi = Math.floor(((G.top + G.plot - p.y) / G.plot) * g.ys.length);
  if (xi < 0 || yi < 0 || xi >= g.xs.length || yi >= g.ys.length) return false;
  moveCursor(i, xi, yi);
  return true;
}

function key(i, e) {
  const g = st.grid;
  if (!g) return;
  const { xi, yi } = st.cursor.map === i ? st.cursor : { ...st.cursor, map: i };
  const big = e.shiftKey ? 5 : 1;
  const moves = {
    ArrowLeft: [xi - big, yi],
    ArrowRight: [xi + big, yi],
    ArrowUp: [xi, yi + big],
    ArrowDown: [xi, yi - big],
    Home: [0, yi],
    End: [g.xs.length - 1, yi],
    PageUp: [xi, g.ys.length - 1],
    PageDown: [xi, 0],
  };
  if (moves[e.key]) {
    e.preventDefault();
    moveCursor(i, ...moves[e.key]);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    location.href = $('open-cell').href;
  }
}

/** Moves the cursor (the outlined cell) to map i's cell (xi, yi) and says what happens there. */
function moveCursor(i, xi, yi, announce = true) {
  const g = st.grid;
  if (!g) return;
  xi = Math.max(0, Math.min(g.xs.length - 1, xi));
  yi = Math.max(0, Math.min(g.ys.length - 1, yi));
  st.cursor = { map: i, xi, yi };
  const cw = G.plot / g.xs.length;
  const ch = G.plot / g.ys.length;
  for (const [j, id] of ['map-a', 'map-b'].entries()) {
    const c = $(id).querySelector('rect.cursor');
    if (!c) continue;
    c.setAttribute('x', G.left + xi * cw);
    c.setAttribute('y', G.top + G.plot - (yi + 1) * ch);
    c.setAttribute('visibility', 'visible');
    c.classList.toggle('active', j === i);
  }
  updateLink();
  if (announce) {
    const m = g.maps[i];
    $('detail').textContent = fmt(st.d.x.cellDetail, {
      policy: st.d.policies[m.policy] || m.policy,
      x: paramLabel(g.s, g.xp),
      xv: g.xs[xi],
      y: paramLabel(g.s, g.yp),
      yv: g.ys[yi],
      outcome: outcomeText(g.s, m.codes[yi * g.xs.length + xi]),
    });
  }
}

/** The lab's address for a setting (index.html next to this page). */
function labUrl(params) {
  const u = new URLSearchParams(params);
  if (st.lang !== 'en') u.set('lang', st.lang);
  const s = u.toString();
  return `index.html${s ? `?${s}` : ''}`;
}

function updateLink() {
  const g = st.grid;
  if (!g) return;
  const { map, xi, yi } = st.cursor;
  const m = g.maps[map];
  const params = { scenario: g.s.id };
  params[urlName(g.s, g.xp)] = g.xs[xi];
  params[urlName(g.s, g.yp)] = g.ys[yi];
  params.fencing = m.policy;
  const a = $('open-cell');
  a.href = labUrl(params);
  a.dataset.code = m.codes[yi * g.xs.length + xi];
  a.textContent = fmt(st.d.x.openCell, { x: paramLabel(g.s, g.xp), xv: g.xs[xi], y: paramLabel(g.s, g.yp), yv: g.ys[yi], policy: st.d.policies[m.policy] || m.policy });
  $('open-cell-p').hidden = false;
}

async function exportMap(i, kind) {
  const g = st.grid;
  if (!g) return;
  const svg = $(i ? 'map-b' : 'map-a').querySelector('svg');
  const base = `leaselab-${g.s.id}-${g.xp.name}-${g.yp.name}-${g.maps[i].policy}`;
  const { standaloneSvg, download, downloadPng } = await import('./share.js');
  const copy = svg.cloneNode(true);
  // The title inside the picture, since the figure's caption stays behind.
  const title = document.createElementNS(SVGNS, 'title');
  title.textContent = svg.getAttribute('aria-label');
  copy.prepend(title);
  copy.querySelector('rect.cursor')?.remove();
  const holder = document.createElement('div');
  holder.className = 'offscreen-x';
  holder.append(copy);
  document.body.append(holder);
  copy.setAttribute('width', svg.getBoundingClientRect().width);
  copy.setAttribute('height', svg.getBoundingClientRect().height);
  try {
    const text = standaloneSvg(copy);
    if (kind === 'svg') download(`${base}.svg`, 'image/svg+xml', text);
    else await downloadPng(`${base}.png`, text, svg.getBoundingClientRect());
    $('detail').textContent = fmt(st.d.x.exported, { kind: kind.toUpperCase() });
  } catch {
    $('detail').textContent = st.d.x.pngBlocked;
  } finally {
    holder.remove();
  }
}

// ---------- Probability mode

const prob = { worker: null, id: 0, total: 0, last: null, state: 'idle', spec: null };

function initProb() {
  const sel = $('preset');
  sel.add(new Option('', ''));
  for (const p of PRESETS) sel.add(new Option(p.id, p.id, false, p.id === 'seed-ratio'));
  sel.addEventListener('change', () => {
    const p = PRESETS.find((o) => o.id === sel.value);
    if (p) {
      $('dist').value = p.dist;
      $('dist-a').value = p.a;
      $('dist-b').value = p.b;
    }
    distLabels();
    presetSource();
  });
  for (const id of ['dist', 'dist-a', 'dist-b']) {
    $(id).addEventListener('input', () => {
      const p = PRESETS.find((o) => o.id === sel.value);
      if (p && !(p.dist === $('dist').value && Number($('dist-a').value) === p.a && Number($('dist-b').value) === p.b)) sel.value = '';
      distLabels();
      presetSource();
    });
  }
  for (const r of document.querySelectorAll('input[name=contender]')) r.addEventListener('change', () => ($('rate').disabled = !$('poisson').checked));
  if (q.get('seed') !== null && /^\d+$/.test(q.get('seed'))) $('p-seed').value = q.get('seed');
  $('prob-form').addEventListener('submit', (e) => {
    e.preventDefault();
    runEstimate();
  });
  $('p-cancel').addEventListener('click', cancelEstimate);
}

function distLabels() {
  const x = st.d.x;
  const pareto = $('dist').value === 'pareto';
  $('a-label').textContent = pareto ? x.scaleMs : x.medianMs;
  $('b-label').textContent = pareto ? x.shape : x.sigma;
}

function presetSource() {
  const id = $('preset').value;
  $('preset-source').textContent = id ? st.d.x.sources[id] : st.d.x.customSource;
}

function worker() {
  if (!prob.worker) {
    prob.worker = new Worker(new URL('./explore-worker.js', import.meta.url), { type: 'module' });
    prob.worker.onmessage = onWorker;
    prob.worker.onerror = (e) => finish('error', e.message || 'worker failed');
  }
  return prob.worker;
}

function runEstimate() {
  const form = $('prob-form');
  if (!form.reportValidity()) return;
  const always = $('always').checked;
  const spec = {
    policy: $('p-policy').value,
    ttl: Number($('p-ttl').value),
    retry: Number($('p-retry').value),
    work: Number($('p-work').value),
    dist: $('dist').value,
    a: Number($('dist-a').value),
    b: Number($('dist-b').value),
    rate: always ? 0 : Number($('rate').value),
    seed: Number($('p-seed').value),
    ops: Number($('p-ops').value),
    perDay: Number($('p-day').value),
  };
  prob.spec = spec;
  prob.total = spec.ops;
  prob.last = null;
  prob.id += 1;
  prob.state = 'running';
  writeUrl({ seed: spec.seed });
  $('p-run').disabled = true;
  $('p-cancel').disabled = false;
  $('p-progress').max = spec.ops;
  $('p-progress').value = 0;
  $('p-progress-text').textContent = st.d.x.running;
  $('p-result').textContent = '';
  document.body.dataset.estimate = 'running';
  worker().postMessage({ type: 'run', id: prob.id, ops: spec.ops, args: [spec.policy, spec.ttl, spec.retry, spec.work, spec.dist, spec.a, spec.b, spec.rate, spec.seed] });
}

function cancelEstimate() {
  if (prob.state !== 'running') return;
  prob.worker.postMessage({ type: 'cancel', id: prob.id });
  $('p-cancel').disabled = true;
}

function onWorker(e) {
  const m = e.data;
  if (m.id !== prob.id || prob.state !== 'running') return;
  if (m.type === 'error') return finish('error', m.message);
  prob.last = m.result;
  $('p-progress').value = m.result[0];
  $('p-progress-text').textContent = fmt(st.d.x.progress, { done: group(m.result[0]), total: group(prob.total) });
  if (m.type === 'done' || m.type === 'cancelled') finish(m.type);
}

function finish(state, message = '') {
  prob.state = state;
  prob.message = message;
  $('p-run').disabled = false;
  $('p-cancel').disabled = true;
  document.body.dataset.estimate = state;
  renderResult();
}

const group = (n) => Math.round(n).toLocaleString(st.lang === 'bn' ? 'bn-u-nu-latn' : 'en');
/** 2.80 × 10⁻⁶ for small numbers, plain for moderate ones. */
function sci(v) {
  if (!Number.isFinite(v)) return '—';
  if (v === 0) return '0';
  if (v >= 0.01 && v < 1e5) return String(Number(v.toPrecision(3)));
  const [m, ex] = v.toExponential(2).split('e');
  const sup = String(Number(ex)).replace(/[-0-9]/g, (c) => '⁻⁰¹²³⁴⁵⁶⁷⁸⁹'['-0123456789'.indexOf(c)]);
  return `${m} × 10${sup}`;
}

function renderResult() {
  const out = $('p-result');
  const x = st.d.x;
  if (prob.state === 'idle' || prob.state === 'running') return;
  if (prob.state === 'error') {
    out.textContent = fmt(x.badInput, { msg: prob.message });
    $('p-progress-text').textContent = '';
    return;
  }
  const r = prob.last;
  if (!r) {
    out.textContent = fmt(x.cancelled, { done: 0, total: group(prob.total) });
    return;
  }
  const [ops, lost, simulated, over, p, low, high, analytic] = r;
  const sp = prob.spec;
  Object.assign(out.dataset, { ops, lost, simulated, overRange: over, p, low, high, analytic, state: prob.state });
  const lines = [];
  if (prob.state === 'cancelled') lines.push(fmt(x.cancelled, { done: group(ops), total: group(prob.total) }));
  lines.push(fmt(x.resP, { p: sci(p), lo: sci(low), hi: sci(high), lost: group(lost), ops: group(ops) }));
  lines.push(fmt(x.resDay, { day: group(sp.perDay), e: sci(p * sp.perDay), lo: sci(low * sp.perDay), hi: sci(high * sp.perDay) }));
  if (lost === 0) lines.push(fmt(x.zeroNote, { ops: group(ops) }));
  lines.push(fmt(x.resDerived, { a: sci(analytic) }));
  const dist = fmt(sp.dist === 'pareto' ? x.distPareto : x.distLognormal, { a: sp.a, b: sp.b });
  const who = sp.rate === 0 ? x.whoAlways : fmt(x.whoRate, { r: sp.rate });
  lines.push(fmt(x.resSettings, { dist, who, ttl: sp.ttl, policy: st.d.policies[sp.policy] || sp.policy, seed: sp.seed, sim: group(simulated), over: group(over) }));
  out.textContent = '';
  lines.forEach((t, i) => {
    const para = document.createElement('p');
    para.textContent = t;
    if (i === lines.length - 2) para.className = 'derived';
    if (i === lines.length - 1) para.className = 'note';
    out.append(para);
  });
  $('p-progress-text').textContent = fmt(x.progress, { done: group(ops), total: group(prob.total) });
}

start().catch((e) => {
  const el = $('status');
  el.hidden = false;
  el.className = 'status error';
  el.textContent = fmt((st.d && st.d.x.loadError) || enX.loadError, { msg: e && e.message ? e.message : String(e) });
});
