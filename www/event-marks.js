// The diagram's first pass (layout.js): the marks each event of a run leaves — notes under a lane,
// arrows between lanes, the short ticks of refused requests — and how each lease ended, collected
// before anything is placed, so that the note rows can be sized first. Pure (no DOM); nothing here
// simulates: every mark is read from the run, worded by the dictionary in the layout's context `c`.
import { fmt, ownKey } from './i18n.js';
import { nodeNames, stepText, validityText } from './explain.js';
import { keepaliveNotes, noticeNotes, queueNotes } from './service-marks.js';

/** A majority round as the client's note: holds, trusts a spent majority, too late, or no majority. */
function roundNote(e, run, c) {
  const { d, num } = c;
  const v = fmt(d.validity, { v: validityText(e.validity_us, num) });
  const g = `${num(e.granted_nodes)}/${num(run.nodes)}`;
  const short = c.narrow ? 'Short' : '';
  if (e.kind === 'redlock-acquired') return fmt(e.validity_us > 0 ? d[`rlHolds${short}`] : d[`rlTrusts${short}`], { g, v });
  return fmt(e.granted_nodes >= run.quorum ? d[`rlTooLate${short}`] : d.rlNoMajority, { g, v });
}

/**
 * Pass 1: the marks each event leaves, per kind — notes under a lane ({x, text, cls}), arrows between
 * lanes, the short ticks of refused requests — so the note rows can be sized before anything is placed.
 */
const MARKS = {
  granted(e, m, c) {
    const x = c.slot(e.t_ms);
    m.arrows.push({ from: c.svcOf(e), to: e.actor, xa: x, xb: x, cls: 'grant' });
    // Many nodes: one grant per node; the client's own count (below) says whether it holds the lock.
    if (!c.nodes) m.note(e.actor, x, c.tok ? fmt(c.d.gets, { t: c.num(e.token) }) : c.d.getsNoToken, 'n-grant');
  },
  renewed(e, m, c) {
    const x = c.slot(e.t_ms);
    m.arrows.push({ from: 'lock', to: e.actor, xa: x, xb: x, cls: 'grant' });
    m.note('lock', x, c.d.renewed, '');
  },
  // A waiter whose lease expired while it waited is told it holds the lock (a stale grant).
  'stale-grant'(e, m, c) {
    const x = c.slot(e.t_ms);
    m.arrows.push({ from: 'lock', to: e.actor, xa: x, xb: x, cls: 'grant bad' });
    m.note(e.actor, x, c.narrow ? c.d.staleGrantShort : c.d.staleGrant, 'n-bad');
  },
  denied(e, m, c) {
    m.asks.push({ lane: e.actor, x: c.sx(e.t_ms) });
  },
  'redlock-acquired'(e, m, c, run) {
    const text = roundNote(e, run, c);
    m.lastRound[e.actor] = null;
    m.note(e.actor, c.sx(e.t_ms), text, e.validity_us > 0 ? 'n-grant' : 'n-bad');
  },
  'redlock-failed'(e, m, c, run) {
    const text = roundNote(e, run, c);
    m.asks.push({ lane: e.actor, x: c.sx(e.t_ms) });
    // A failed round like the last one is not noted again.
    if (m.lastRound[e.actor] === text) return;
    m.lastRound[e.actor] = text;
    m.note(e.actor, c.sx(e.t_ms), text, '');
  },
  'node-crashed'(e, m, c) {
    m.note(c.svcOf(e), c.sx(e.t_ms), fmt(c.d.crashed, { k: c.num(e.keys_lost) }), 'n-bad');
  },
  'node-restarted'(e, m, c) {
    m.note(c.svcOf(e), c.sx(e.t_ms), c.d.restarted, '');
  },
  failover(e, m, c) {
    m.note('lock', c.sx(e.t_ms), fmt(c.d.failover, { k: c.num(e.keys_lost) }), 'n-bad');
  },
  partition(e, m, c, run) {
    const n = c.nodes ? nodeNames(e.nodes) : m.lockName;
    m.note(e.actor, c.sx(e.t_ms), fmt(e.cut ? c.d.cutOff : c.d.healed, { n }), e.cut ? 'n-bad' : '');
  },
  read(e, m, c) {
    const x = c.slot(e.t_ms);
    const bad = e.kind === 'read-rejected';
    m.arrows.push({ from: 'storage', to: e.actor, xa: x, xb: x, cls: bad ? 'read bad' : 'read' });
    m.note(e.actor, x, bad ? c.d.readRefused : fmt(c.d.reads, { v: c.num(e.value) }), bad ? 'n-bad' : '');
  },
  'server-clock-step'(e, m, c) {
    m.note(c.svcOf(e), c.sx(e.t_ms), fmt(c.d.serverStep, { by: stepText(e.step_ms, c.num) }), 'n-bad');
  },
  'clock-step'(e, m, c) {
    m.note(e.actor, c.sx(e.t_ms), fmt(c.d.clientStep, { by: stepText(e.step_ms, c.num) }), 'n-bad');
  },
  'pause-end'(e, m, c) {
    m.note(e.actor, c.sx(e.t_ms), c.d.wakes, '');
  },
  'check-ok'(e, m, c) {
    m.note(e.actor, c.sx(e.t_ms), e.kind === 'check-ok' ? c.d.checkOk : c.d.checkFailed, '');
  },
  'write-sent'(e, m, c) {
    if (!(e.held_ms > 0)) {
      m.pending[e.actor] = null;
      return;
    }
    const x = c.slot(e.t_ms);
    m.pending[e.actor] = { x };
    m.note(e.actor, x, `${fmt(c.d.sends, { v: c.num(e.value) })} · ${fmt(c.d.inFlight, { d: c.ms(e.held_ms) })}`, 'n-held');
  },
  'write-accepted'(e, m, c) {
    const ok = e.kind === 'write-accepted';
    const xb = c.slot(e.t_ms);
    const xa = m.pending[e.actor] ? m.pending[e.actor].x : xb;
    m.pending[e.actor] = null;
    m.arrows.push({ from: e.actor, to: 'storage', xa, xb, cls: ok ? 'write ok' : 'write bad' });
    const key = c.narrow ? (ok ? 'wroteShort' : 'refusedShort') : c.tok ? (ok ? 'wrote' : 'refused') : ok ? 'wroteNoToken' : 'refusedNoToken';
    m.note('storage', xb, fmt(c.d[key], { c: e.actor, v: c.num(e.value), t: c.num(e.token) }), ok ? 'n-ok' : 'n-bad');
  },
};
MARKS['read-rejected'] = MARKS.read;
MARKS['check-failed'] = MARKS['check-ok'];
MARKS['write-rejected'] = MARKS['write-accepted'];

/** Every event's marks, then how each lease ended (expired, released, lost, its session gone).
 * `lockName`: the lock service's lane name, which a client's cut names (layout.js's laneName). */
export function collectMarks(run, c, lockName) {
  const notes = Object.fromEntries(c.laneKeys.map((k) => [k, []]));
  // A queue note keeps a wider gap to its left neighbour: two lists side by side would read as one.
  // `tie`: where the layout ties the note to a mark of its own, that mark's event (its index in
  // `run.events`: a library notice's diamond, service-marks.js).
  const note = (lane, x, text, cls, tie = null) => notes[lane].push({ x, text, cls, tie, gap: cls === 'n-queue' ? 18 : 6 });
  const m = { notes, arrows: [], asks: [], pending: {}, lastRound: {}, note, lockName };
  for (const e of run.events) if (Object.hasOwn(MARKS, e.kind)) MARKS[e.kind](e, m, c, run);
  m.queues = queueNotes(run, c, m.note);
  keepaliveNotes(run, c, m.note);
  noticeNotes(run, c, m.note);
  const { d, narrow, nodes } = c;
  for (const l of run.leases) {
    if (l.open) continue; // still held when the run ends: no end to mark
    const x = c.sx(l.ends_ms);
    const lane = c.svcOf(l);
    // Node lanes are busy: a release there needs no words (the bar ends), an expiry a short one.
    if (l.lost) m.note(lane, x, fmt(narrow ? d.keyLostShort : d.keyLost, { c: l.client }), 'n-bad');
    else if (l.released) {
      if (!nodes) m.note(lane, x, fmt(narrow ? d.releasedShort : d.released, { c: l.client }), '');
    } else if (l.session_ended) m.note(lane, x, fmt(narrow ? d.sessionEndedShort : d.sessionEnded, { c: l.client }), 'n-bad');
    else m.note(lane, x, fmt(narrow || nodes ? d.expiredShort : expiryWords(run, d), { c: l.client }), 'n-exp');
  }
  return m;
}

/** How a lock's end by its service's timer is said: a lease expires, or the service's own word for a
 * lease that was neither released nor lost (`expired` in its `ownWords`): a session expires, a session is
 * invalidated (its key released, then closed for the lock-delay), a record is taken over by a waiter
 * (where no server expires it). */
function expiryWords(run, d) {
  return d[ownKey(d, run, 'expired')];
}
