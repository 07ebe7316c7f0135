// The space-time diagram's layout: a pure function of (run JSON, width, dictionary, number format,
// text measure) that decides where everything goes — the time scale, the lanes and their heights, each
// bar, arrow and tick, and where every label sits (its row under a lane, flipped near the right edge).
// No DOM: it returns plain data, which diagram.js paints into an <svg> and the unit tests
// (www/tests/unit/) check under plain Node. Nothing here simulates: every mark is read from the run.
import { fmt, ownKey } from './i18n.js';
import { nodeNames } from './explain.js';
import { collectMarks } from './event-marks.js';
import { connectionBands, diagramDesc, keepaliveTicks, laneWithLibrary, noticeMarks } from './service-marks.js';

const EPS = 1e-6;
/** Half a notice diamond's height (service-marks.js): where a leader from its note meets it. */
const DIAMOND_HALF_H = 6;
/** How many rows of notes a lane may have; more labels than that share the last row. Five: at the
 * lab page's 720–750 px, a scenario with a queue of waiters in Bengali needs them on its server's lane. */
const MAX_ROWS = 5;

/**
 * The page's text measure: a rough width from the number of characters (code points) at font size
 * `size`, good enough to keep labels apart; Bengali glyphs run wider. A real measure (canvas, a font's
 * metrics) can be passed to layoutDiagram instead; the page and the tests use this one.
 */
export const roughMeasure = (lang) => {
  const per = lang === 'bn' ? 0.66 : 0.57;
  return (text, size) => [...text].length * (size * per);
};

/** A "nice" tick step (1, 2 or 5 × 10^k) giving about `n` ticks over `span`. */
function niceStep(span, n) {
  const raw = span / Math.max(1, n);
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || 10 * p;
}

/** A text item: what it says, where its anchor is, and the box it covers (for the overlap checks). */
function label(c, x, y, text, attrs, size = c.fs) {
  const w = c.measure(text, size);
  const anchor = attrs['text-anchor'] || 'start';
  const left = anchor === 'end' ? x - w : anchor === 'middle' ? x - w / 2 : x;
  return { tag: 'text', attrs: { x, y, ...attrs }, text, box: { x: left, y: y - size * 0.8, w, h: size } };
}

/** The first instant at which two runs of the same schedule differ, or null. */
export function divergence(a, b) {
  const n = Math.max(a.events.length, b.events.length);
  for (let i = 0; i < n; i++) {
    const x = a.events[i];
    const y = b.events[i];
    if (!x || !y || JSON.stringify(x) !== JSON.stringify(y)) return Math.min(x ? x.t_ms : Infinity, y ? y.t_ms : Infinity);
  }
  return null;
}

/** The horizontal scale: [x0, x1] in px for [0, tMax] ms, with room after the last write for its value
 *  (and `inset` px more on the left, for the nodes' names beside their lines). */
function timeScale(run, { W, narrow, d, num, tFix, textW, inset = 0 }) {
  const x0 = (narrow ? 12 : 18) + inset;
  const x1 = W - (narrow ? 10 : 18);
  let tMax = run.end_ms;
  for (const l of run.leases) tMax = Math.max(tMax, l.ends_ms);
  for (const a of [...run.beliefs, ...run.pauses, ...run.held]) tMax = Math.max(tMax, a.to_ms);
  // Leave room after the last accepted write for the final stored value to be readable.
  let lastWrite = 0;
  for (const e of run.events) if (e.kind === 'write-accepted') lastWrite = e.t_ms;
  const tail = textW(fmt(d.value, { v: num(run.final) })) + 16;
  const plotW = x1 - x0;
  tMax = Math.max(tMax * 1.02, (lastWrite * plotW) / Math.max(plotW - tail, plotW / 2), 1);
  // `tFix` gives two diagrams one time scale (the side-by-side comparison).
  if (tFix > tMax) tMax = tFix;
  return { x0, x1, tMax, sx: (t) => x0 + (t / tMax) * (x1 - x0) };
}

/**
 * Greedy row assignment, lane by lane: each note, left to right, goes after its mark (flipped to the
 * left of it near the right edge, kept inside the plot either way) in the first row where it does
 * not touch its left neighbour. Sets each note's `at` (its left edge), `row` and `anchor`: a note
 * after its mark starts there, a flipped one ends there — anchored at that end (`end`), so that it
 * ends at its mark whatever the glyphs' real width (the measure overestimates them: a note placed by
 * its left edge would end short of its mark); one too wide for either side (`loose`) starts where it
 * fits. A notice's loose note gets a leader down from its diamond: it is placed before the others, in
 * the first row whose column above it is free, and no note placed after it crosses its leader.
 * Returns rows per lane.
 */
function placeNotes(notes, c) {
  const rowsOf = {};
  for (const k of c.laneKeys) {
    const rows = [];
    const leaders = []; // a loose note's leader: its column x, down to its row
    const sorted = notes[k].sort((p, q) => p.x - q.x).map((n) => [n, position(n, c)]);
    // A notice's note with a leader goes first, so nothing above it stands in its leader's way.
    const leading = ([n]) => n.loose && n.tie != null;
    for (const [n, w] of [...sorted.filter(leading), ...sorted.filter((e) => !leading(e))]) {
      const a = n.at;
      let r = rows.findIndex((right, i) => right + n.gap <= a && clearOfLeaders(leaders, i, a, w)
        && (!leading([n]) || columnFree(rows, i, n.x)));
      if (r < 0) r = rows.length < MAX_ROWS ? rows.push(-Infinity) - 1 : rows.length - 1;
      rows[r] = a + w;
      n.row = r;
      if (leading([n])) leaders.push({ x: n.x, row: r });
    }
    rowsOf[k] = rows.length;
  }
  return rowsOf;
}

/** Where note `n` goes beside its mark: sets its `at`, `anchor` and `loose`; returns its width. */
function position(n, c) {
  const w = c.textW(n.text);
  let a = n.x + 3;
  n.anchor = 'start';
  if (a + w > c.x1) [a, n.anchor] = [n.x - 3 - w, 'end'];
  if (a < c.x0) [a, n.anchor, n.loose] = [Math.max(c.x0, c.x1 - w), 'start', true];
  n.at = a;
  return w;
}

/** Whether a note from `a`, `w` wide, in row `i` keeps off every leader that runs down past that row. */
function clearOfLeaders(leaders, i, a, w) {
  return leaders.every((l) => l.row <= i || l.x < a - 1 || l.x > a + w + 1);
}

/**
 * Whether a leader at `x` down to row `i` would cross no note placed so far in the rows above it: each
 * row's notes run left to right, so its right end (`rows[q]`) left of `x` leaves the column free.
 */
function columnFree(rows, i, x) {
  return rows.slice(0, i).every((right) => right < x - 1);
}

/** A lane's name: the service (or a node and its clock), a client (and the nodes it reaches), storage. */
function laneName(k, run, c) {
  const { d, nodes } = c;
  // Named by the service where it has a name of its own (a server, an ensemble, a CP group, a table):
  // the service's own lane name where the dictionary has one (`lanes.SERVICE`), else the generic one.
  // `in`: a service whose words did not load has its lane called the lock service's (i18n.js orKeys).
  if (k === 'lock') return !nodes && run.service in d.lanes ? d.lanes[run.service] : d.lanes.lock;
  if (k === 'storage') return d.lanes.storage;
  // A node's lane: its short name beside its line (the group's name and clocks head the nodes: nodesName).
  if (nodes && nodes.includes(k)) return k;
  const reach = run.reach && run.reach[k];
  const name = laneWithLibrary(run, k, fmt(d.lanes.client, { c: k }), d);
  return reach && reach.length < run.nodes ? `${name} · ${fmt(d.reaches, { n: nodeNames(reach) })}` : name;
}

/** The nodes' group name over their lanes: the service's nodes and their clocks ("…; n3: monotonic clock"). */
function nodesName(run, c) {
  const { d, nodes } = c;
  const mono = nodes.filter((_, i) => run.node_clocks && run.node_clocks[i] === 'monotonic');
  const clocks = mono.length === 0 ? d.clockWall
    : mono.length === nodes.length ? d.clockMonotonic
      : `${d.clockWall}; ${mono.join(', ')}: ${d.clockMonotonic}`;
  return `${fmt(d.lanes.nodes, { n: nodes.length })} · ${clocks}`;
}

/** Whether the axis's unit ("ms", above its right end) would touch a note in the storage lane's last row. */
function unitClash(notes, rows, c) {
  if (c.tMax >= 2000) return false; // in seconds every tick says its unit; there is no separate one
  const left = c.x1 - c.textW(c.d.ms) - 6;
  return notes.some((n) => n.row === rows - 1 && n.at + c.textW(n.text) > left);
}

/**
 * The notes as text items into `out`, each in its row under its lane, anchored as placeNotes says.
 * A notice's note reads as its diamond's: it starts or ends at the diamond, or, where it is too wide
 * for either side (loose), a thin leader in the note's colour runs down from the diamond to the
 * note's top; note, diamond and leader name the notice's event (`data-event`). Returns each notice's note: [{ lane, x (the diamond's), box, anchor,
 * edge (the anchored x), leader (the line's attrs, or null), event }], for the tests.
 */
function noteItems(out, notes, lanes, rowH, c) {
  const tied = [];
  for (const k of c.laneKeys) {
    for (const n of notes[k]) {
      const y = lanes[k].notes + n.row * rowH;
      const edge = n.anchor === 'end' ? n.at + c.textW(n.text) : n.at;
      const tie = n.tie == null ? {} : { 'data-event': n.tie };
      const item = label(c, edge, y, n.text, { class: `ann ${n.cls}`, 'text-anchor': n.anchor, ...tie });
      let leader = null;
      if (n.tie != null && n.loose) {
        leader = { x1: n.x, x2: n.x, y1: lanes[k].line + DIAMOND_HALF_H + 1, y2: item.box.y, class: `leader ${n.cls}`, ...tie };
        out.push({ tag: 'line', attrs: leader });
      }
      out.push(item);
      if (n.tie != null) tied.push({ lane: k, x: n.x, box: item.box, anchor: n.anchor, edge, leader, event: n.tie });
    }
  }
  return tied;
}

/**
 * The lanes top to bottom, after the header: a row for where the runs part (with a `mark`), then one
 * for the overlap label. Where each lane starts, its time line, its notes; the storage lane gets an
 * empty row more when its last one would run into the axis's unit. Many nodes: one row names them
 * all, and each node's lane is its line alone (its name beside it, in the scale's inset), so that
 * five nodes fit a laptop's screen with their clients.
 */
function laneGeometry(m, rowsOf, run, c, mark) {
  const { fs } = c;
  const rowH = fs + 5;
  const head = fs + 10 + (mark ? rowH : 0);
  const lanes = {};
  let y = head + (c.nodes ? rowH : 0);
  for (const k of c.laneKeys) {
    const node = c.nodes && c.isSvc(k);
    // A node's lane holds its keys' bars and their ends (13 px each side of the line).
    const line = y + (node ? 14 : fs + 27);
    lanes[k] = { key: k, name: laneName(k, run, c), top: y, line, notes: line + 18 + fs, rows: rowsOf[k] };
    const rows = k === 'storage' && unitClash(m.notes.storage, rowsOf.storage, c) ? rowsOf[k] + 1 : rowsOf[k];
    y = node && !rows ? line + 15 : line + 20 + rows * rowH;
  }
  const axisY = y + 2;
  return { rowH, head, lanes, axisY, H: axisY + fs + 14 };
}

/**
 * A bar on `lane` from time a to b (top and height relative to its line), with the first of `labels`
 * that fits inside it, clear of the arrowheads landing at its start (one per tie slot).
 */
function bar(out, c, lane, a, b, top, h, cls, labels) {
  const xa = c.sx(a) + 0.5;
  // A bar that runs past the picture (a lock-delay after the last lease) is drawn, and labelled, to its edge.
  const w = Math.max(2, c.sx(Math.min(b, c.tMax)) - c.sx(a) - 1);
  out.push({ tag: 'rect', attrs: { x: xa, y: lane.line + top, width: w, height: h, rx: 2, class: cls } });
  const inset = 5 + (c.used.get(a) || 0) * c.gap;
  const s = labels.find((t) => t && c.textW(t) + inset + 4 <= w);
  if (s) out.push(label(c, xa + inset, lane.line + top + h / 2 + c.fs * 0.35, s, { class: `in-bar ${cls.split(' ').map((k) => `${k}-text`).join(' ')}` }));
}

/** The lock service's lanes: a crashed node's downtime, the leases (the truth), lock-delay. */
function serviceBars(out, run, c, lanes) {
  const { d, num, tok, nodes } = c;
  if (nodes) {
    // Many nodes: a crashed node is down until it restarts (dotted, no keys, no answers).
    const down = {};
    for (const e of run.events) {
      if (e.kind === 'node-crashed') down[e.node] = e.t_ms;
      if (e.kind === 'node-restarted' && down[e.node] != null) {
        bar(out, c, lanes[nodes[e.node]], down[e.node], e.t_ms, -6, 12, 'down', [d.down, '']);
        delete down[e.node];
      }
    }
    for (const k in down) bar(out, c, lanes[nodes[k]], down[k], c.tMax, -6, 12, 'down', [d.down, '']);
  }
  for (const l of run.leases) {
    const lane = lanes[c.svcOf(l)];
    const text = tok ? fmt(d.lease, { c: l.client, t: num(l.token) }) : fmt(d.leaseNoToken, { c: l.client });
    bar(out, c, lane, l.granted_ms, l.ends_ms, -10, 20, l.lost ? 'lease lost' : 'lease', [text, tok ? fmt(d.leaseShort, { c: l.client, t: num(l.token) }) : l.client]);
    const x = c.sx(l.ends_ms);
    if (!l.open) out.push({ tag: 'line', attrs: { x1: x, x2: x, y1: lane.line - 13, y2: lane.line + 13, class: l.released ? 'lease-end released' : 'lease-end' } });
  }
  // Lock-delay (Chubby's, and a session's): after a lease ends without a release, the lock is not grantable for a while.
  const delay = run.params && run.params.lockdelay_ms;
  if (delay > 0) {
    for (const l of run.leases) {
      if (!l.released) bar(out, c, lanes.lock, l.ends_ms, l.ends_ms + delay, -6, 12, 'lockdelay', [d.lockDelay, '']);
    }
  }
}

/** The client lanes: what each client believes (dashed, above the line; stale past its lease) and its pauses. */
function clientBars(out, run, c, lanes) {
  const { d, num, tok, narrow } = c;
  for (const b of run.beliefs) {
    const lane = lanes[b.client];
    // The truth for this belief: the client's lease that was live when the belief began.
    const lease = run.leases.find((l) => l.client === b.client && l.granted_ms <= b.from_ms + EPS && l.ends_ms >= b.from_ms - EPS);
    // A belief may carry token 0 after a release; the lease says which token it was.
    const t = b.token || (lease && lease.token);
    const text = tok && t ? fmt(d.belief, { c: b.client, t: num(t) }) : fmt(d.beliefNoToken, { c: b.client });
    const cut = lease && b.to_ms > lease.ends_ms + EPS ? Math.max(lease.ends_ms, b.from_ms) : b.to_ms;
    if (cut > b.from_ms + EPS) bar(out, c, lane, b.from_ms, cut, -17, 14, 'belief', [text, t ? fmt(d.beliefShort, { t: num(t) }) : '']);
    // A lock that lives as long as its session (`stale` in its `ownWords`): when it is gone, so is the session.
    const stale = lease ? d[lease.session_ended ? 'staleSession' : ownKey(d, run, 'stale')] : d.stale;
    if (cut < b.to_ms - EPS) bar(out, c, lane, cut, b.to_ms, -17, 14, 'belief stale', [narrow ? d.staleShort : stale, d.staleShort]);
  }
  for (const p of run.pauses) {
    bar(out, c, lanes[p.client], p.from_ms, p.to_ms, 3, 14, 'pause', [fmt(d.pauseBlock, { d: c.ms(p.to_ms - p.from_ms) }), d.pauseBlockShort]);
  }
}

/** The storage lane: the stored value over time, a step function of the accepted writes. */
function storageBars(out, run, c, lane) {
  let from = 0;
  let v = run.initial;
  const seg = (a, b, val, last) => bar(out, c, lane, a, b, -10, 20, last ? 'value final' : 'value', [fmt(c.d.value, { v: c.num(val) }), c.num(val)]);
  for (const e of run.events) {
    if (e.kind !== 'write-accepted') continue;
    seg(from, e.t_ms, v, false);
    from = e.t_ms;
    v = e.value;
  }
  seg(from, c.tMax, v, true);
}

/** Arrows between lanes: grants, reads, writes (slanted when the network held them). */
function arrowLines(out, arrows, c, lanes) {
  for (const a of arrows) {
    const la = lanes[a.from];
    const lb = lanes[a.to];
    const down = lb.line > la.line;
    const ya = la.line + (down ? 10 : -10) * (c.isSvc(a.from) || a.from === 'storage' ? 1 : 0.2);
    const yb = lb.line + (down ? -3 : 3);
    const m = a.cls.includes('ok') ? 'ah-ok' : a.cls.includes('bad') ? 'ah-bad' : 'ah';
    out.push({ tag: 'line', attrs: { x1: a.xa, y1: ya, x2: a.xb, y2: yb, class: `arrow ${a.cls}`, 'marker-end': `url(#${m})` } });
  }
}

/** The time axis with ms or s ticks, and the unit. */
function axisItems(out, c, axisY) {
  const { d, num, x0, x1, tMax, narrow, fs } = c;
  out.push({ tag: 'line', attrs: { x1: x0, x2: x1, y1: axisY, y2: axisY, class: 'axis' } });
  const inS = tMax >= 2000;
  const step = niceStep(tMax, Math.floor((x1 - x0) / (narrow ? 60 : 85)));
  for (let t = 0; t <= tMax + EPS; t += step) {
    const x = c.sx(t);
    out.push({ tag: 'line', attrs: { x1: x, x2: x, y1: axisY, y2: axisY + 5, class: 'axis' } });
    const text = inS ? `${num(t / 1000)} ${d.s}` : `${num(t)}${t === 0 ? ` ${d.ms}` : ''}`;
    out.push(label(c, x, axisY + fs + 6, text, { class: 'tick', 'text-anchor': t === 0 ? 'start' : 'middle' }));
  }
  if (!inS) out.push(label(c, x1, axisY - 4, d.ms, { class: 'tick unit', 'text-anchor': 'end' }));
}

/** What the layout works with: the sizes for this width, the time scale, the lanes' keys, the helpers. */
function context(run, { width, d, num, lang, tFix = 0, measure = roughMeasure(lang) }) {
  const W = Math.max(300, Math.round(width));
  const narrow = W < 600;
  const fs = narrow ? 11 : 12.5;
  const textW = (s) => measure(s, fs);
  // Many nodes (a majority service): a lane per node (n1 … nN), each with its own keys and clock, named
  // beside its line; otherwise one lock service.
  const nodes = run.nodes > 1 ? Array.from({ length: run.nodes }, (_, k) => `n${k + 1}`) : null;
  const inset = nodes ? textW(nodes[nodes.length - 1]) + 8 : 0;
  const scale = timeScale(run, { W, narrow, d, num, tFix, textW, inset });
  // Events at the same instant are drawn a few pixels apart, in (time, sequence) order.
  const gap = narrow ? 5 : 7;
  const used = new Map();
  const slot = (t) => {
    const n = used.get(t) || 0;
    used.set(t, n + 1);
    return Math.min(scale.x1, scale.sx(t) + n * gap);
  };
  return {
    ...scale,
    W, narrow, fs, d, num, measure, textW, gap, used, slot, nodes, inset,
    tok: run.tokens,
    ms: (v) => `${num(v)} ${d.ms}`,
    laneKeys: [...(nodes || ['lock']), ...run.clients, 'storage'],
    svcOf: (e) => (nodes ? nodes[e.node || 0] : 'lock'),
    isSvc: (k) => k === 'lock' || (nodes && nodes.includes(k)),
  };
}

/**
 * The diagram of `run` at `width` px. opts: { width, d (dictionary), num (number formatter), lang,
 * mark ({t, label}: where this run parts from the one it is compared with), tFix (a time scale to
 * share), measure(text, size) (a text's width in px; roughMeasure(lang) if not given) }.
 * Returns { W, H, fs, narrow, x0, x1, head, axisY, tMax, end, lanes, desc, ticks, queues, states,
 * items, labels }: `items` are what to draw in order, each { tag, attrs, text? }; `labels` the texts
 * among them, each with its `box` {x, y, w, h} by `measure`; `lanes` each { key, name, top, line,
 * notes, rows }; `desc` the diagram's text alternative; `ticks` the keepalive marks' boxes, `queues`
 * the waiters' queue at each change, `states` the connection-state bands (service-marks.js),
 * `notices` the library notices' diamonds (service-marks.js), `tied` each notice's note as tied to its
 * diamond (noteItems).
 */
export function layoutDiagram(run, opts) {
  const c = context(run, opts);
  const { d, fs, x0, x1, narrow, sx } = c;
  const m = collectMarks(run, c, laneName('lock', run, c));
  const g = laneGeometry(m, placeNotes(m.notes, c), run, c, opts.mark);
  const { head, axisY, lanes } = g;
  const items = [];
  // Overlap windows: across every lane, labelled in the header row — once where windows are too close
  // for a label each (three clients: A's belief overlaps B's, then C's).
  let labelEnd = -Infinity;
  for (const o of run.overlaps) {
    const a = sx(o.from_ms);
    const b = Math.max(sx(o.to_ms), a + 2);
    items.push({ tag: 'rect', attrs: { x: a, y: head - 4, width: b - a, height: axisY - head + 4, class: 'overlap' } });
    const text = narrow ? d.overlapShort : d.overlap;
    const w = c.textW(text);
    const right = a + w > x1;
    const start = right ? b - w : a;
    if (start < labelEnd + fs) continue;
    labelEnd = start + w;
    items.push(label(c, right ? b : a, head - 7, text, { class: 'overlap-label', 'text-anchor': right ? 'end' : 'start' }));
  }
  // Lanes: the time lines (their names come last, on top of any arrow crossing them).
  for (const k of c.laneKeys) items.push({ tag: 'line', attrs: { x1: x0, x2: x1, y1: lanes[k].line, y2: lanes[k].line, class: 'lane-line' } });
  serviceBars(items, run, c, lanes);
  clientBars(items, run, c, lanes);
  for (const q of m.asks) items.push({ tag: 'line', attrs: { x1: q.x, x2: q.x, y1: lanes[q.lane].line - 1, y2: lanes[q.lane].line - 8, class: 'ask' } });
  const states = connectionBands(run, c, lanes, (lane, a, b, top, h, cls, labels) => bar(items, c, lane, a, b, top, h, cls, labels));
  const ticks = keepaliveTicks(items, run, c, lanes);
  const notices = noticeMarks(items, run, c, lanes);
  storageBars(items, run, c, lanes.storage);
  arrowLines(items, m.arrows, c, lanes);
  // Annotations, in their rows under each lane (drawn late so their halo keeps them readable).
  const tied = noteItems(items, m.notes, lanes, g.rowH, c);
  for (const k of c.laneKeys) {
    const beside = c.nodes && c.isSvc(k);
    items.push(label(c, beside ? x0 - c.inset : x0, beside ? lanes[k].line + fs * 0.35 : lanes[k].top + fs + 2, lanes[k].name, { class: 'lane-name' }));
  }
  if (c.nodes) items.push(label(c, x0 - c.inset, head + fs + 2, nodesName(run, c), { class: 'lane-name lane-group' }));
  axisItems(items, c, axisY);
  // Where this run parts from the one it is compared with, labelled in the header's top row (11px:
  // the label's own size in style.css), clear of the overlap labels and the first lane's name.
  if (opts.mark) {
    const x = sx(opts.mark.t);
    items.push({ tag: 'line', attrs: { x1: x, x2: x, y1: fs + 6, y2: axisY, class: 'diverge' } });
    items.push(label(c, Math.max(x0, Math.min(x + 4, x1 - c.textW(opts.mark.label))), fs + 3, opts.mark.label, { class: 'diverge-label' }, 11));
  }
  return {
    W: c.W, H: g.H, fs, narrow, x0, x1, head, axisY, tMax: c.tMax, end: run.end_ms,
    lanes: c.laneKeys.map((k) => lanes[k]),
    desc: diagramDesc(run, d),
    /** The keepalive ticks' boxes, the queue as noted at each change, the connection-state bands, the
     * library notices' diamonds (service-marks.js) and their notes. */
    ticks, queues: m.queues, states, notices, tied,
    items,
    labels: items.filter((i) => i.tag === 'text'),
    /** The x of sim time t on the axis. */
    sx,
  };
}
