// The space-time diagram: a pure function of (run JSON, width, dictionary) that fills an <svg>, plus a
// cheap setTime(t) that moves the playhead and greys out the future. Nothing here simulates: every
// bar, arrow and label is read from the run the wasm returned.
import { fmt } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const EPS = 1e-6;

function el(parent, name, attrs = {}, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) if (attrs[k] != null) e.setAttribute(k, attrs[k]);
  if (text != null) e.textContent = text;
  parent.appendChild(e);
  return e;
}

/** A "nice" tick step (1, 2 or 5 × 10^k) giving about `n` ticks over `span`. */
function niceStep(span, n) {
  const raw = span / Math.max(1, n);
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || 10 * p;
}

/**
 * Draws `run` into `svg`. opts: { width, d (dictionary), num (number formatter), lang }.
 * Returns { setTime(t) }.
 */
export function drawDiagram(svg, run, { width, d, num, lang, id = 'svg', mark = null, tFix = 0 }) {
  svg.replaceChildren();
  el(svg, 'title', { id: `${id}-title` }, d.svgTitle);
  el(svg, 'desc', { id: `${id}-desc` }, d.svgDesc);
  const W = Math.max(300, Math.round(width));
  const narrow = W < 600;
  const fs = narrow ? 11 : 12.5;
  // Rough text width: good enough to keep labels apart; Bengali glyphs run wider.
  const charW = fs * (lang === 'bn' ? 0.66 : 0.57);
  const textW = (s) => [...s].length * charW;
  const ms = (v) => `${num(v)} ${d.ms}`;

  const x0 = narrow ? 12 : 18;
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
  const sx = (t) => x0 + (t / tMax) * (x1 - x0);

  // Events at the same instant are drawn a few pixels apart, in (time, sequence) order.
  const gap = narrow ? 5 : 7;
  const used = new Map();
  const slot = (t) => {
    const n = used.get(t) || 0;
    used.set(t, n + 1);
    return Math.min(x1, sx(t) + n * gap);
  };

  // --- Pass 1: collect marks per lane, so the annotation rows can be sized before drawing.
  const clients = run.clients;
  // Redlock: a lane per node (n1 … nN), each with its own keys and clock; otherwise one lock service.
  const nodes = run.nodes > 1 ? Array.from({ length: run.nodes }, (_, k) => `n${k + 1}`) : null;
  const svcLanes = nodes || ['lock'];
  const svcOf = (e) => (nodes ? nodes[e.node || 0] : 'lock');
  const isSvc = (k) => k === 'lock' || (nodes && nodes.includes(k));
  const laneKeys = [...svcLanes, ...clients, 'storage'];
  const nodeList = (ks) => ks.map((k) => `n${k + 1}`).join(', ');
  const lastRound = {}; // client → the note of its last failed Redlock round (repeats are not noted again)
  const notes = Object.fromEntries(laneKeys.map((k) => [k, []])); // {x, text, cls}
  const arrows = []; // {from, to, xa, xb, cls}
  const asks = []; // {lane, x}
  const tok = run.tokens;
  const pending = {};
  for (const e of run.events) {
    const a = e.actor;
    switch (e.kind) {
      case 'granted': {
        const x = slot(e.t_ms);
        arrows.push({ from: svcOf(e), to: a, xa: x, xb: x, cls: 'grant' });
        // Redlock: one grant per node; the client's own count (below) says whether it holds the lock.
        if (!nodes) notes[a].push({ x, text: tok ? fmt(d.gets, { t: num(e.token) }) : d.getsNoToken, cls: 'n-grant' });
        break;
      }
      case 'renewed': {
        const x = slot(e.t_ms);
        arrows.push({ from: 'lock', to: a, xa: x, xb: x, cls: 'grant' });
        notes.lock.push({ x, text: d.renewed, cls: '' });
        break;
      }
      case 'denied':
        asks.push({ lane: a, x: sx(e.t_ms) });
        break;
      case 'redlock-acquired':
      case 'redlock-failed': {
        const v = fmt(d.validity, { v: `${e.validity_us < 0 ? '−' : ''}${num(Math.abs(e.validity_us) / 1000)}` });
        const g = `${num(e.granted_nodes)}/${num(run.nodes)}`;
        let text;
        const short = narrow ? 'Short' : '';
        if (e.kind === 'redlock-acquired') text = fmt(e.validity_us > 0 ? d[`rlHolds${short}`] : d[`rlTrusts${short}`], { g, v });
        else text = fmt(e.granted_nodes * 2 > run.nodes ? d[`rlTooLate${short}`] : d.rlNoMajority, { g, v });
        if (e.kind === 'redlock-failed') {
          asks.push({ lane: a, x: sx(e.t_ms) });
          if (lastRound[a] === text) break;
        }
        lastRound[a] = e.kind === 'redlock-failed' ? text : null;
        notes[a].push({ x: sx(e.t_ms), text, cls: e.kind === 'redlock-acquired' ? (e.validity_us > 0 ? 'n-grant' : 'n-bad') : '' });
        break;
      }
      case 'node-crashed':
        notes[svcOf(e)].push({ x: sx(e.t_ms), text: fmt(d.crashed, { k: num(e.keys_lost) }), cls: 'n-bad' });
        break;
      case 'node-restarted':
        notes[svcOf(e)].push({ x: sx(e.t_ms), text: d.restarted, cls: '' });
        break;
      case 'failover':
        notes.lock.push({ x: sx(e.t_ms), text: fmt(d.failover, { k: num(e.keys_lost) }), cls: 'n-bad' });
        break;
      case 'partition':
        notes[a].push({ x: sx(e.t_ms), text: fmt(e.cut ? d.cutOff : d.healed, { n: nodeList(e.nodes) }), cls: e.cut ? 'n-bad' : '' });
        break;
      case 'read':
      case 'read-rejected': {
        const x = slot(e.t_ms);
        const bad = e.kind === 'read-rejected';
        arrows.push({ from: 'storage', to: a, xa: x, xb: x, cls: bad ? 'read bad' : 'read' });
        notes[a].push({ x, text: bad ? d.readRefused : fmt(d.reads, { v: num(e.value) }), cls: bad ? 'n-bad' : '' });
        break;
      }
      case 'server-clock-step':
        notes[svcOf(e)].push({ x: sx(e.t_ms), text: fmt(d.serverStep, { by: `${e.step_ms > 0 ? '+' : '−'}${num(Math.abs(e.step_ms))}` }), cls: 'n-bad' });
        break;
      case 'clock-step':
        notes[a].push({ x: sx(e.t_ms), text: fmt(d.clientStep, { by: `${e.step_ms > 0 ? '+' : '−'}${num(Math.abs(e.step_ms))}` }), cls: 'n-bad' });
        break;
      case 'pause-end':
        notes[a].push({ x: sx(e.t_ms), text: d.wakes, cls: '' });
        break;
      case 'check-ok':
      case 'check-failed':
        notes[a].push({ x: sx(e.t_ms), text: e.kind === 'check-ok' ? d.checkOk : d.checkFailed, cls: '' });
        break;
      case 'write-sent':
        if (e.held_ms > 0) {
          const x = slot(e.t_ms);
          pending[a] = { x };
          notes[a].push({ x, text: `${fmt(d.sends, { v: num(e.value) })} · ${fmt(d.inFlight, { d: ms(e.held_ms) })}`, cls: 'n-held' });
        } else pending[a] = null;
        break;
      case 'write-accepted':
      case 'write-rejected': {
        const ok = e.kind === 'write-accepted';
        const xb = slot(e.t_ms);
        const xa = pending[a] ? pending[a].x : xb;
        pending[a] = null;
        arrows.push({ from: a, to: 'storage', xa, xb, cls: ok ? 'write ok' : 'write bad' });
        const key = narrow ? (ok ? 'wroteShort' : 'refusedShort') : tok ? (ok ? 'wrote' : 'refused') : ok ? 'wroteNoToken' : 'refusedNoToken';
        notes.storage.push({ x: xb, text: fmt(d[key], { c: a, v: num(e.value), t: num(e.token) }), cls: ok ? 'n-ok' : 'n-bad' });
        break;
      }
    }
  }
  for (const l of run.leases) {
    if (l.open) continue; // still held when the run ends: no end to mark
    const lane = notes[svcOf(l)];
    // Redlock lanes are busy: a release there needs no words (the bar ends), an expiry a short one.
    if (l.lost) lane.push({ x: sx(l.ends_ms), text: fmt(narrow ? d.keyLostShort : d.keyLost, { c: l.client }), cls: 'n-bad' });
    else if (l.released) {
      if (!nodes) lane.push({ x: sx(l.ends_ms), text: fmt(narrow ? d.releasedShort : d.released, { c: l.client }), cls: '' });
    } else if (l.session_ended) lane.push({ x: sx(l.ends_ms), text: fmt(narrow ? d.sessionEndedShort : d.sessionEnded, { c: l.client }), cls: 'n-bad' });
    else lane.push({ x: sx(l.ends_ms), text: fmt(narrow || nodes ? d.expiredShort : d.expired, { c: l.client }), cls: 'n-exp' });
  }

  // Greedy row assignment: each label goes to the first row where it does not touch its neighbour.
  const rowsOf = {};
  for (const k of laneKeys) {
    const rows = [];
    for (const n of notes[k].sort((p, q) => p.x - q.x)) {
      const w = textW(n.text);
      // After its mark; flipped to the left of it near the right edge; kept inside the plot either way.
      let a = n.x + 3;
      if (a + w > x1) a = n.x - 3 - w;
      if (a < x0) a = Math.max(x0, x1 - w);
      n.at = a;
      let r = rows.findIndex((right) => right + 6 <= a);
      if (r < 0) r = rows.length < 4 ? rows.push(-Infinity) - 1 : rows.length - 1;
      rows[r] = a + w;
      n.row = r;
    }
    rowsOf[k] = rows.length;
  }

  // --- Layout: a header row for the overlap label, then the lanes, then the time axis.
  const rowH = fs + 5;
  const head = fs + 10;
  const lanes = {};
  let y = head;
  for (const k of laneKeys) {
    const line = y + fs + (nodes && isSvc(k) ? 22 : 31);
    lanes[k] = { top: y, line, notes: line + 18 + fs };
    y = line + 20 + rowsOf[k] * rowH + 4;
  }
  const axisY = y + 2;
  const H = axisY + fs + 14;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('font-size', fs);
  if (narrow) svg.classList.add('narrow');
  else svg.classList.remove('narrow');

  // --- Defs: arrowheads and patterns (no colour-only cues: hatching, dashes, words, ✓/✗).
  const defs = el(svg, 'defs');
  for (const id of ['ah', 'ah-ok', 'ah-bad']) {
    const m = el(defs, 'marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    el(m, 'path', { d: 'M0,0 L10,5 L0,10 z', class: id });
  }
  const hatch = el(defs, 'pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  el(hatch, 'rect', { width: 6, height: 6, class: 'hatch-bg' });
  el(hatch, 'line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'hatch-line' });
  const dots = el(defs, 'pattern', { id: 'dots', width: 8, height: 8, patternUnits: 'userSpaceOnUse' });
  el(dots, 'rect', { width: 8, height: 8, class: 'dots-bg' });
  el(dots, 'circle', { cx: 2, cy: 2, r: 1.1, class: 'dots-dot' });

  // Overlap windows: across every lane, labelled in the header row.
  for (const o of run.overlaps) {
    const a = sx(o.from_ms);
    const b = Math.max(sx(o.to_ms), a + 2);
    el(svg, 'rect', { x: a, y: head - 4, width: b - a, height: axisY - head + 4, class: 'overlap' });
    const label = narrow ? d.overlapShort : d.overlap;
    const right = a + textW(label) > x1;
    el(svg, 'text', { x: right ? b : a, y: head - 7, class: 'overlap-label', 'text-anchor': right ? 'end' : 'start' }, label);
  }

  // Lanes: the time lines (their names come last, on top of any arrow crossing them).
  for (const k of laneKeys) {
    el(svg, 'line', { x1: x0, x2: x1, y1: lanes[k].line, y2: lanes[k].line, class: 'lane-line' });
  }

  const bar = (lane, a, b, top, h, cls, label, shortLabel) => {
    const xa = sx(a) + 0.5;
    const w = Math.max(2, sx(b) - sx(a) - 1);
    el(svg, 'rect', { x: xa, y: lane.line + top, width: w, height: h, rx: 2, class: cls });
    for (const s of [label, shortLabel]) {
      // Text starts clear of the arrowheads that land at the bar's start (one per tie slot).
      const inset = 5 + (used.get(a) || 0) * gap;
      if (s && textW(s) + inset + 4 <= w) {
        el(svg, 'text', { x: xa + inset, y: lane.line + top + h / 2 + fs * 0.35, class: `in-bar ${cls.split(' ').map((c) => `${c}-text`).join(' ')}` }, s);
        break;
      }
    }
  };

  // Redlock: a crashed node is down until it restarts (dotted, no keys, no answers).
  if (nodes) {
    const down = {};
    for (const e of run.events) {
      if (e.kind === 'node-crashed') down[e.node] = e.t_ms;
      if (e.kind === 'node-restarted' && down[e.node] != null) {
        bar(lanes[nodes[e.node]], down[e.node], e.t_ms, -6, 12, 'down', d.down, '');
        delete down[e.node];
      }
    }
    for (const k in down) bar(lanes[nodes[k]], down[k], tMax, -6, 12, 'down', d.down, '');
  }

  // Lock service lane(s): the leases as the lock service knows them — the truth.
  for (const l of run.leases) {
    const lane = lanes[svcOf(l)];
    const label = tok ? fmt(d.lease, { c: l.client, t: num(l.token) }) : fmt(d.leaseNoToken, { c: l.client });
    bar(lane, l.granted_ms, l.ends_ms, -10, 20, l.lost ? 'lease lost' : 'lease', label, tok ? fmt(d.leaseShort, { c: l.client, t: num(l.token) }) : l.client);
    const x = sx(l.ends_ms);
    if (!l.open) el(svg, 'line', { x1: x, x2: x, y1: lane.line - 13, y2: lane.line + 13, class: l.released ? 'lease-end released' : 'lease-end' });
  }

  // Lock-delay (Chubby, Consul): after a lease ends without a release, the lock is not grantable for a while.
  const delay = run.params && run.params.lockdelay_ms;
  if (delay > 0) {
    for (const l of run.leases) {
      if (!l.released) bar(lanes.lock, l.ends_ms, l.ends_ms + delay, -6, 12, 'lockdelay', d.lockDelay, '');
    }
  }

  // Client lanes: what each client believes (dashed, above the line) and its pauses (hatched, below).
  for (const b of run.beliefs) {
    const lane = lanes[b.client];
    // The truth for this belief: the client's lease that was live when the belief began.
    const lease = run.leases.find((l) => l.client === b.client && l.granted_ms <= b.from_ms + EPS && l.ends_ms >= b.from_ms - EPS);
    // A belief may carry token 0 after a release; the lease says which token it was.
    const t = b.token || (lease && lease.token);
    const label = tok && t ? fmt(d.belief, { c: b.client, t: num(t) }) : fmt(d.beliefNoToken, { c: b.client });
    const cut = lease && b.to_ms > lease.ends_ms + EPS ? Math.max(lease.ends_ms, b.from_ms) : b.to_ms;
    if (cut > b.from_ms + EPS) bar(lane, b.from_ms, cut, -17, 14, 'belief', label, t ? fmt(d.beliefShort, { t: num(t) }) : '');
    const stale = lease && lease.session_ended ? d.staleSession : d.stale;
    if (cut < b.to_ms - EPS) bar(lane, cut, b.to_ms, -17, 14, 'belief stale', narrow ? d.staleShort : stale, d.staleShort);
  }
  for (const p of run.pauses) {
    bar(lanes[p.client], p.from_ms, p.to_ms, 3, 14, 'pause', fmt(d.pauseBlock, { d: ms(p.to_ms - p.from_ms) }), d.pauseBlockShort);
  }
  for (const q of asks) {
    const ln = lanes[q.lane];
    el(svg, 'line', { x1: q.x, x2: q.x, y1: ln.line - 1, y2: ln.line - 8, class: 'ask' });
  }

  // Storage lane: the stored value over time, as a step function of the accepted writes.
  {
    let from = 0;
    let v = run.initial;
    const seg = (a, b, val, last) => bar(lanes.storage, a, b, -10, 20, last ? 'value final' : 'value', fmt(d.value, { v: num(val) }), num(val));
    for (const e of run.events) {
      if (e.kind !== 'write-accepted') continue;
      seg(from, e.t_ms, v, false);
      from = e.t_ms;
      v = e.value;
    }
    seg(from, tMax, v, true);
  }

  // Arrows between lanes: grants, reads, writes (slanted when the network held them).
  for (const a of arrows) {
    const la = lanes[a.from];
    const lb = lanes[a.to];
    const down = lb.line > la.line;
    const ya = la.line + (down ? 10 : -10) * (isSvc(a.from) || a.from === 'storage' ? 1 : 0.2);
    const yb = lb.line + (down ? -3 : 3);
    const m = a.cls.includes('ok') ? 'ah-ok' : a.cls.includes('bad') ? 'ah-bad' : 'ah';
    el(svg, 'line', { x1: a.xa, y1: ya, x2: a.xb, y2: yb, class: `arrow ${a.cls}`, 'marker-end': `url(#${m})` });
  }

  // Annotations, in their rows under each lane (drawn last so their halo keeps them readable).
  for (const k of laneKeys) {
    for (const n of notes[k]) {
      el(svg, 'text', {
        x: n.at,
        y: lanes[k].notes + n.row * rowH,
        class: `ann ${n.cls}`,
        'text-anchor': 'start',
      }, n.text);
    }
  }

  for (const k of laneKeys) {
    let name;
    if (k === 'lock') name = run.service === 'redis' ? d.lanes.redis : d.lanes.lock;
    else if (k === 'storage') name = d.lanes.storage;
    else if (nodes && nodes.includes(k)) {
      const i = nodes.indexOf(k);
      const mono = run.node_clocks && run.node_clocks[i] === 'monotonic';
      name = `${fmt(d.lanes.node, { n: i + 1 })} · ${mono ? d.clockMonotonic : d.clockWall}`;
    } else {
      name = fmt(d.lanes.client, { c: k });
      const reach = run.reach && run.reach[k];
      if (reach && reach.length < run.nodes) name += ` · ${fmt(d.reaches, { n: nodeList(reach) })}`;
    }
    el(svg, 'text', { x: x0, y: lanes[k].top + fs + 2, class: 'lane-name' }, name);
  }

  // Time axis with ms or s ticks.
  el(svg, 'line', { x1: x0, x2: x1, y1: axisY, y2: axisY, class: 'axis' });
  const inS = tMax >= 2000;
  const step = niceStep(tMax, Math.floor((x1 - x0) / (narrow ? 60 : 85)));
  for (let t = 0; t <= tMax + EPS; t += step) {
    const x = sx(t);
    el(svg, 'line', { x1: x, x2: x, y1: axisY, y2: axisY + 5, class: 'axis' });
    const label = inS ? `${num(t / 1000)} ${d.s}` : `${num(t)}${t === 0 ? ` ${d.ms}` : ''}`;
    el(svg, 'text', { x, y: axisY + fs + 6, class: 'tick', 'text-anchor': t === 0 ? 'start' : 'middle' }, label);
  }
  if (!inS) el(svg, 'text', { x: x1, y: axisY - 4, class: 'tick unit', 'text-anchor': 'end' }, d.ms);

  // Where this run parts from the one it is compared with.
  if (mark) {
    const x = sx(mark.t);
    el(svg, 'line', { x1: x, x2: x, y1: head - 4, y2: axisY, class: 'diverge' });
    el(svg, 'text', { x: Math.min(x + 4, x1 - textW(mark.label)), y: head + fs - 2, class: 'diverge-label' }, mark.label);
  }

  // The playhead: a veil over the future and a line at "now".
  const veil = el(svg, 'rect', { x: x1, y: head - 4, width: 0, height: axisY - head + 4, class: 'future' });
  const line = el(svg, 'line', { x1: x1, x2: x1, y1: head - 4, y2: axisY, class: 'playhead' });
  const knob = el(svg, 'path', { d: '', class: 'playhead-knob' });
  return {
    /** The time at the right edge (to line up another diagram with this one). */
    tMax,
    /** Moves the playhead to sim time t (t < 0: before the run starts, everything veiled). */
    setTime(t) {
      const x = Math.min(x1, t < 0 ? x0 - 6 : sx(t));
      const atEnd = t >= run.end_ms - EPS;
      veil.setAttribute('x', x);
      veil.setAttribute('width', atEnd ? 0 : Math.max(0, x1 - x));
      line.setAttribute('x1', x);
      line.setAttribute('x2', x);
      knob.setAttribute('d', `M${x - 5},${axisY} L${x + 5},${axisY} L${x},${axisY - 7} z`);
      // At the end the whole run is shown; a line there would only hide the last arrows.
      line.classList.toggle('done', atEnd);
      knob.classList.toggle('done', atEnd);
    },
  };
}
