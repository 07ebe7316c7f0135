// explore.html's phase diagram: the controls (scenario, axes, cells per axis, two policies), the grids of
// complete runs computed by Simulation.sweep a few rows at a time so the page never blocks, the two heat
// maps and their legend (drawn by explore-map.js), the cursor moved by pointer or keyboard, the link that
// opens a cell in the lab, and the exports.
import { fmt } from './i18n.js';
import { rangeOf, urlName } from './settings.js';
import { $, q, st, labUrl, paramLabel, startValue, writeUrl } from './explore-state.js';
import { Simulation, sweepsReady } from './explore-wasm.js';
import { SVGNS, cellAt, drawMap, placeCursor, swatch } from './explore-map.js';

/** How long one slice of the sweep should take before the page gets the main thread back: well under
 *  the 50 ms budget, since later rows can cost more than earlier ones (longer pauses, more retries). */
const SLICE_MS = 12;
const SLICE_MARK = 'leaselab:sweep-slice';

const phase = {
  grid: null, // the last phase diagram: {s, xp, yp, xs, ys, maps: [{policy, codes}], current, ms}
  cursor: { map: 0, xi: 0, yi: 0 },
  token: 0, // bumps when a new sweep starts; an older one stops at its next slice
};

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

/** Fills the controls from the catalogue and the address, and listens to them and to the maps. */
export function initPhase() {
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
    svg.addEventListener('focus', () => moveCursor(i, phase.cursor.xi, phase.cursor.yi));
    for (const b of fig.querySelectorAll('.exports button')) b.addEventListener('click', () => exportMap(i, b.dataset.kind));
  }
  fillAxisOptions(true);
}

/** The x and y choices: the scenario's parameters; x defaults to TTL, y to the pause. */
export function fillAxisOptions(reset = false) {
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

/** One map's codes: policy `policy` over xs × ys, a slice of rows at a time; null once a newer sweep
 *  (token) has started. */
async function sweepMap(s, xp, yp, xs, ys, policy, token) {
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
      performance.mark(SLICE_MARK); // one per slice, for DevTools and the test that the page yields between them
      const dt = performance.now() - t;
      // Size the next slice to about SLICE_MS from this one's pace, growing at most twofold.
      rows = Math.max(1, Math.min((y1 - y0) * 2, Math.floor(((y1 - y0) * SLICE_MS) / Math.max(dt, 0.1))));
      y0 = y1;
      await new Promise((r) => setTimeout(r, 0));
      if (token !== phase.token) return null;
    }
    return codes;
  } finally {
    sim.free();
  }
}

/** Runs both maps' grids, a slice of rows at a time, and draws them. */
export async function sweepAll() {
  const token = ++phase.token;
  performance.clearMarks(SLICE_MARK);
  await sweepsReady();
  if (token !== phase.token) return;
  const s = st.core.byId[$('scenario').value];
  const xp = s.params.find((p) => p.name === $('xparam').value);
  let yp = s.params.find((p) => p.name === $('yparam').value);
  if (xp === yp) yp = s.params.find((p) => p !== xp);
  const n = Number($('steps').value);
  const xs = axisValues(rangeOf(s, xp), n);
  const ys = axisValues(rangeOf(s, yp), n);
  const t0 = performance.now();
  $('detail').textContent = fmt(st.d.x.computing, { n: xs.length * ys.length * 2 });
  const maps = [];
  for (const policy of [$('policy-a').value, $('policy-b').value]) {
    const codes = await sweepMap(s, xp, yp, xs, ys, policy, token);
    if (!codes) return;
    maps.push({ policy, codes });
  }
  const current = { x: startValue(s, xp), y: startValue(s, yp) };
  phase.grid = { s, xp, yp, xs, ys, maps, ms: performance.now() - t0, current };
  phase.cursor = { map: 0, xi: nearest(xs, current.x), yi: nearest(ys, current.y) };
  renderMaps();
  $('detail').textContent = fmt(st.d.x.computed, { n: xs.length * ys.length * 2, ms: Math.round(phase.grid.ms) });
  updateLink();
  document.body.dataset.phase = 'ready';
}

const nearest = (vs, v) => vs.reduce((best, x, i) => (Math.abs(x - v) < Math.abs(vs[best] - v) ? i : best), 0);

/** Draws the last grid's maps, legend and captions in the reader's language. */
export function renderMaps() {
  const g = phase.grid;
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
    drawMap(svg, `m${i}`, m, g, { x: paramLabel(s, xp), y: paramLabel(s, yp) });
  });
  moveCursor(phase.cursor.map, phase.cursor.xi, phase.cursor.yi, false);
}

function renderLegend(s) {
  const ul = $('legend');
  ul.textContent = '';
  const present = new Set(phase.grid.maps.flatMap((m) => [...new Set(m.codes)]));
  const codes = [0, 1, 2, 3, ...[...present].filter((c) => c > 3)];
  for (const code of codes) {
    const li = document.createElement('li');
    li.append(swatch(code), document.createTextNode(` ${outcomeText(s, code)}`));
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

/** The cell under the pointer, made current; false when the pointer is outside the plot. */
function hover(i, svg, e) {
  const g = phase.grid;
  const cell = g && cellAt(svg, g, e.clientX, e.clientY);
  if (!cell) return false;
  moveCursor(i, cell.xi, cell.yi);
  return true;
}

function key(i, e) {
  const g = phase.grid;
  if (!g) return;
  const { xi, yi } = phase.cursor.map === i ? phase.cursor : { ...phase.cursor, map: i };
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
  const g = phase.grid;
  if (!g) return;
  xi = Math.max(0, Math.min(g.xs.length - 1, xi));
  yi = Math.max(0, Math.min(g.ys.length - 1, yi));
  phase.cursor = { map: i, xi, yi };
  for (const [j, id] of ['map-a', 'map-b'].entries()) placeCursor($(id).querySelector('svg'), g, xi, yi, j === i);
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

function updateLink() {
  const g = phase.grid;
  if (!g) return;
  const { map, xi, yi } = phase.cursor;
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
  const g = phase.grid;
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
