// The marks of the services that keep a session or a lease alive, read from the run's trace alone;
// what to draw, and in which words, is the run's `diagram` (docs/run-json.md): the page names no
// service. Pure (no DOM), called by layout.js. Four of them, and the text alternative that says what
// they are:
//
// - Keepalive ticks (`diagram.marks` has `ka`): each keepalive, ping, heartbeat, session or Lease
//   renewal that reached the server, a small upward triangle on the sending client's lane line at the
//   instant it arrived. The trace records a keepalive only when it arrives, so the ticks stop where the
//   client stops sending — frozen in a pause, or cut off by the network — and the gap lines up with the
//   pause's hatched block. One that arrives after its lease (or session) is gone is hollow, with a note
//   on the client's lane in the service's words (`keepaliveFailed`, or its `ownWords`' key):
//   that reply is how the client learns it. A service that `observes` (expiry judged by each
//   candidate's observation of one record): a renew call that was refused is the leader giving up
//   leading, a note of its own.
// - The queue of waiters (`queue`), on the lock-service lane: the lock kept as an ordered list — keys
//   by create revision, sequential nodes by sequence number, or the waiting lock calls themselves by
//   commit index (the entry's word: `queueRev` or the service's own) — whose first entry holds the
//   lock while each other one waits for the entry before it. Noted each time its waiters change, from
//   `queued` (a key or node created behind another), `granted` (an entry reaches the front) and the
//   entry going away (`lease-expired`, `released`, `session-ended`).
// - A service that `observes`: what a candidate judges expiry by — the last change of the record it
//   saw before it took over, noted on its lane (it takes over a lease duration later, by its own clock).
// - Connection states (`conn`: the service's default client's, or those a client's library tells its listener) on a client's lane: SUSPENDED from the moment the client has
//   heard nothing from the server for two thirds of the session timeout, LOST from when the client
//   takes the session as gone, each a band in the row under the lane line (where a pause's block goes;
//   a frozen client changes no state) until the next change — RECONNECTED ends it — or the end of the run.
//
// And the notices of a client's lock library (below). (One module, not five: each request costs the
// page's budget its headers.)
import { fmt, ownKey, serviceHas } from './i18n.js';

// ---------- keepalive ticks

/** Half the triangle's width, and its height above and below the lane line, in px. */
const HALF = 4;
const UP = 3;
const DOWN = 4.5;

/**
 * The note of a keepalive that came too late, in the service's words: "keepalive ✗: lease gone",
 * "ping ✗: session gone", "renew ✗: no answer"; and, where the service `observes`, a leader giving
 * up: "stops leading".
 */
export function keepaliveNotes(run, c, note) {
  const text = c.d[ownKey(c.d, run, 'keepaliveFailed')];
  for (const e of run.events) if (e.kind === 'keepalive-failed') note(e.actor, c.sx(e.t_ms), text, 'n-bad');
  if (!serviceHas(run, 'observes')) return;
  for (const e of run.events) if (e.kind === 'renew-denied') note(e.actor, c.sx(e.t_ms), c.d.stoppedLeading, 'n-bad');
  observedNotes(run, c, note);
}

/** A service that `observes`: each takeover's last observation of the record, on the candidate's lane. */
function observedNotes(run, c, note) {
  const last = {};
  for (const e of run.events) {
    if (e.kind === 'queued') last[e.actor] = e;
    if (e.kind !== 'granted' || !last[e.actor]) continue;
    const seen = last[e.actor];
    delete last[e.actor];
    note(e.actor, c.sx(seen.t_ms), fmt(c.narrow ? c.d.lastSeenShort : c.d.lastSeen, { h: seen.behind }), '');
  }
}

/**
 * The ticks, drawn into `out` (paths); returns their boxes ({ x, y, w, h, t, client, ok }) so that
 * the tests can check they keep clear of every label and stop during a freeze.
 */
export function keepaliveTicks(out, run, c, lanes) {
  const marks = [];
  for (const e of run.events) {
    const ok = e.kind === 'keepalive';
    if (!ok && e.kind !== 'keepalive-failed') continue;
    const x = c.sx(e.t_ms);
    const y = lanes[e.actor].line;
    out.push({ tag: 'path', attrs: { d: `M${x - HALF},${y + DOWN}h${2 * HALF}l${-HALF},${-UP - DOWN}z`, class: ok ? 'ka' : 'ka bad' } });
    marks.push({ x: x - HALF, y: y - UP, w: 2 * HALF, h: UP + DOWN, t: e.t_ms, client: e.actor, ok });
  }
  return marks;
}

// ---------- the queue of waiters

/** What takes a client's key (or node) out of the queue. */
const GONE = new Set(['lease-expired', 'released', 'session-ended']);

/**
 * One entry's words: the client and, where the trace says it, its number in the queue — a revision,
 * a sequence number or a lock call's commit index, in the service's word (`queueRev` or its own).
 */
function entry(q, c, run) {
  if (q.n == null) return q.client;
  const key = ownKey(c.d, run, 'queueRev');
  return fmt(c.d[c.narrow ? `${key}Short` : key], { c: q.client, n: c.num(q.n) });
}

/**
 * The queue's notes for `run` on the lock lane: at each change of who waits, the whole list in order
 * (the holder first), and the expiry of a waiter's lease (a waiter holds no lease bar to end). Calls
 * `note(lane, x, text, cls)` for each; returns the lists it noted, for the tests: [{ t, queue }].
 */
export function queueNotes(run, c, note) {
  if (!run.diagram.marks.includes('queue') || c.nodes) return [];
  const q = [];
  const noted = [];
  let waiters = '';
  for (const e of run.events) {
    const at = q.findIndex((k) => k.client === e.actor);
    if (e.kind === 'queued') {
      if (at >= 0) q.splice(at, 1);
      q.push({ client: e.actor, n: e.rev });
    } else if (e.kind === 'granted') {
      const [k] = at >= 0 ? q.splice(at, 1) : [{ client: e.actor, n: null }];
      q.unshift(k);
    } else if (GONE.has(e.kind) && at >= 0) {
      q.splice(at, 1);
      // A waiter's lease ran out while it waited: its key is deleted, and nobody tells it.
      if (e.kind === 'lease-expired' && at > 0) note('lock', c.sx(e.t_ms), fmt(c.narrow ? c.d.waiterExpiredShort : c.d.waiterExpired, { c: e.actor }), 'n-bad');
    } else continue;
    const now = q.slice(1).map((k) => k.client).join();
    if (now === waiters) continue;
    waiters = now;
    const list = q.map((k) => entry(k, c, run)).join(c.d.queueSep);
    note('lock', c.sx(e.t_ms), fmt(c.d.queue, { q: list }), 'n-queue');
    noted.push({ t: e.t_ms, queue: q.map((k) => k.client) });
  }
  return noted;
}

// ---------- connection states (the default client's, or a client library's)

const STATES = { suspended: 'suspended', lost: 'lost', reconnected: null };

/** The bands of `run`: [{ client, state, from, to }], in the order they begin; none of zero length. */
export function connectionSpans(run) {
  const open = {};
  const spans = [];
  const close = (client, t) => {
    const s = open[client];
    if (s && t > s.from) spans.push({ ...s, to: t });
    delete open[client];
  };
  for (const e of run.events) {
    if (!Object.hasOwn(STATES, e.kind)) continue;
    close(e.actor, e.t_ms);
    if (STATES[e.kind]) open[e.actor] = { client: e.actor, state: STATES[e.kind], from: e.t_ms };
  }
  for (const client in open) close(client, run.end_ms);
  return spans.sort((a, b) => a.from - b.from);
}

/**
 * Draws the bands with `bar(lane, from, to, top, height, cls, labels)` (the layout's bars: the first
 * label that fits goes inside), each labelled with the state's name and what it means: the default
 * words, or, for a client that calls a library (service-marks.js), that its listener is told so.
 */
export function connectionBands(run, c, lanes, bar) {
  const { d, narrow } = c;
  const spans = connectionSpans(run);
  for (const s of spans) {
    const lane = lanes[s.client];
    if (!lane) continue;
    const lib = libraryOf(run, s.client);
    const words = lib ? [d.libSuspendedBand, d.libLostBand].map((w) => fmt(w, { lib: lib.name })) : [d.suspendedBand, d.lostBand];
    const long = s.state === 'suspended' ? words[0] : words[1];
    const short = s.state === 'suspended' ? 'SUSPENDED' : 'LOST';
    bar(lane, s.from, s.to, 3, 14, `conn ${s.state}`, narrow ? [short, ''] : [long, short, '']);
  }
  return spans;
}

// ---------- what a client's lock library told the code
//
// What a client's lock library told the application's code, drawn on that client's lane beside the
// truth the other marks show (the lease on the lock lane, the stale belief). A run in which a client
// calls a library (`library=` in its scenario) names it in `libraries` ({ A: { name, version, speaks } })
// and records each notice as an event of kind `notice` on the client's lane (docs/run-json.md): `note`
// says what the code saw — `owned-yes` / `owned-no` (its "do I still hold it?", with `truth`, whether
// it really held the lock then), `release-raised` (with `raised`, the exception's name),
// `renewal-died` (a renewal thread or watchdog that stopped, which the code is never told of),
// `session-done`, `listener-ok` / `listener-lost` (a check of its connection listener). The states a
// session service's library calls its listener with stay the connection-state bands
// (service-marks.js), worded by the library. Pure (no DOM), called by layout.js, view.js and explain.js; the words, and what each
// library's code calls things (`libraryCalls`), are the dictionaries' (i18n/libraries.js): no library
// is named here.

/** The library client `k` calls in `run` ({ name, version, speaks }), or null. */
export const libraryOf = (run, k) => (run.libraries && run.libraries[k]) || null;

/** The marks a run's legend shows: its service's (`diagram.marks`) and, with a library client, the notices. */
export const marksOf = (run) => (run.libraries ? [...run.diagram.marks, 'notice'] : run.diagram.marks);

/** The words' variables for event `e` of a library client: the library's name, its calls as the code
 * writes them (`call` the ownership question, its answers `yes` and `no`, `release`, `renewal`,
 * `done`, `reconnected`) and what it raised. */
export function libraryVars(e, run, d) {
  const lib = e.library || (libraryOf(run, e.actor) || {}).name || '';
  const calls = (d.libraryCalls && d.libraryCalls[lib]) || {};
  return { ...calls, call: calls.owned, lib, raised: e.raised || '' };
}

/** Whether client `c` held the lock at time `t` by the lock service's truth (`leases`: its bars). */
const heldAt = (run, c, t) => run.leases.some((l) => l.client === c && l.granted_ms <= t && (l.open || t < l.ends_ms));

/**
 * Whether notice `e` of `run` misleads the code: an answer that is not the truth (a yes or no with its
 * `truth` the other way; a listener that heard nothing while the lock was gone, by the leases), or news
 * it is never given (a renewal that died).
 */
export function misleads(e, run) {
  if (e.note === 'owned-yes' || e.note === 'owned-no') return e.truth === (e.note === 'owned-no');
  if (e.note === 'listener-ok') return !heldAt(run, e.actor, e.t_ms);
  return e.note === 'renewal-died';
}

/** A notice's key in the dictionaries' notes (`noteOwnedYes`, …), by its `note`. */
const NOTE = {
  'owned-yes': 'noteOwnedYes',
  'owned-no': 'noteOwnedNo',
  'release-raised': 'noteReleaseRaised',
  'renewal-died': 'noteRenewalDied',
  'session-done': 'noteSessionDone',
  'listener-ok': 'noteListenerOk',
  'listener-lost': 'noteListenerLost',
};


/**
 * The key of event `e`'s sentence in the dictionaries' `ev`, where a library told the code something:
 * `notice-NOTE` (`-stale` for a yes that is not the truth, `-held` for a no that is not), or
 * `library-STATE` for a library client's listener state; null for any other event.
 */
export function libraryEventKey(e, run) {
  if (e.kind === 'notice') {
    const untrue = misleads(e, run) && e.note !== 'renewal-died';
    return `notice-${e.note}${untrue ? (e.note === 'owned-no' ? '-held' : '-stale') : ''}`;
  }
  // The connection states a library's listener is called with (drawn as the bands above).
  return Object.hasOwn(STATES, e.kind) && libraryOf(run, e.actor) ? `library-${e.kind}` : null;
}

/** A client lane's name with the library it calls and its version: "client A · NAME VERSION". */
export function laneWithLibrary(run, k, name, d) {
  const lib = libraryOf(run, k);
  return lib ? fmt(d.laneLibrary, { c: name, lib: lib.name, v: lib.version }) : name;
}

/**
 * The notes of `run`'s notices, each on its client's lane at its moment, through
 * `note(lane, x, text, cls, tie)`: in red where it misleads the code or is an exception, else in
 * the notices' own colour. A phone's width takes the short words. The layout ties each note to its
 * diamond (layout.js, noteItems) by `tie`, the notice's index in `run.events`.
 */
export function noticeNotes(run, c, note) {
  for (const [i, e] of run.events.entries()) {
    if (e.kind !== 'notice' || !NOTE[e.note]) continue;
    const bad = misleads(e, run);
    const key = NOTE[e.note] + (bad && (e.note === 'owned-yes' || e.note === 'listener-ok') ? 'Stale' : '');
    const text = c.narrow && `${key}Short` in c.d ? c.d[`${key}Short`] : c.d[key];
    note(e.actor, c.sx(e.t_ms), fmt(text, libraryVars(e, run, c.d)), bad || e.note === 'release-raised' ? 'n-bad' : 'n-notice', i);
  }
}

/** Half the diamond's width and height, in px. */
const HALF_W = 5;
const HALF_H = 6;

/**
 * The notices' diamonds on their clients' lane lines, drawn into `out` (paths): filled where the code
 * was told the truth, hollow and red where it was misled; each names its event (`data-event`, its
 * index in `run.events`), as its note does. Returns their boxes ({ x, y, w, h, t, client, note,
 * misleads, event }) for the tests.
 */
export function noticeMarks(out, run, c, lanes) {
  const marks = [];
  for (const [i, e] of run.events.entries()) {
    if (e.kind !== 'notice' || !lanes[e.actor]) continue;
    const x = c.sx(e.t_ms);
    const y = lanes[e.actor].line;
    const bad = misleads(e, run);
    out.push({ tag: 'path', attrs: { d: `M${x},${y - HALF_H}l${HALF_W},${HALF_H}l${-HALF_W},${HALF_H}l${-HALF_W},${-HALF_H}z`, class: bad ? 'notice bad' : 'notice', 'data-event': i } });
    marks.push({ x: x - HALF_W, y: y - HALF_H, w: 2 * HALF_W, h: 2 * HALF_H, t: e.t_ms, client: e.actor, note: e.note, misleads: bad, event: i });
  }
  return marks;
}

/** The text alternative's sentence on the libraries: which client calls which, and what the diamonds
 * are (the legend's words); '' for a run without one. */
export function librariesDesc(run, d) {
  if (!run.libraries) return '';
  const list = Object.entries(run.libraries).map(([k, l]) => `${k}: ${l.name} ${l.version}`);
  return fmt(d.svgDescLibraries, { list: list.join(', ') });
}

// ---------- the text alternative

/**
 * The description of `run`'s diagram in dictionary `d`: the lanes and, for a service with marks of its
 * own (`diagram.marks`), which service it is; where a client calls a library, which one
 * (service-marks.js); then the legend's words for those marks.
 */
export function diagramDesc(run, d) {
  const keys = marksOf(run);
  const service = run.nodes > 1 || !run.diagram.marks.length ? [] : [fmt(d.svgDescService, { s: d.lanes[run.service] })];
  if (!service.length && !run.libraries) return d.svgDesc;
  const legend = new Map(d.legend);
  const marks = (service.length ? keys : ['notice']).map((k) => legend.get(k));
  return [d.svgDesc, ...service, librariesDesc(run, d), ...marks].filter(Boolean).join(' ');
}
