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
import { fmt } from './i18n.js';

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

/** The connection states a library's listener is called with (service-marks.js draws them). */
const STATES = new Set(['suspended', 'lost', 'reconnected']);

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
  return STATES.has(e.kind) && libraryOf(run, e.actor) ? `library-${e.kind}` : null;
}

/** A client lane's name with the library it calls and its version: "client A · NAME VERSION". */
export function laneWithLibrary(run, k, name, d) {
  const lib = libraryOf(run, k);
  return lib ? fmt(d.laneLibrary, { c: name, lib: lib.name, v: lib.version }) : name;
}

/**
 * The notes of `run`'s notices, each on its client's lane at its moment, through
 * `note(lane, x, text, cls)`: in red where it misleads the code or is an exception, else in the
 * notices' own colour. A phone's width takes the short words.
 */
export function noticeNotes(run, c, note) {
  for (const e of run.events) {
    if (e.kind !== 'notice' || !NOTE[e.note]) continue;
    const bad = misleads(e, run);
    const key = NOTE[e.note] + (bad && (e.note === 'owned-yes' || e.note === 'listener-ok') ? 'Stale' : '');
    const text = c.narrow && `${key}Short` in c.d ? c.d[`${key}Short`] : c.d[key];
    note(e.actor, c.sx(e.t_ms), fmt(text, libraryVars(e, run, c.d)), bad || e.note === 'release-raised' ? 'n-bad' : 'n-notice');
  }
}

/** Half the diamond's width and height, in px. */
const HALF_W = 5;
const HALF_H = 6;

/**
 * The notices' diamonds on their clients' lane lines, drawn into `out` (paths): filled where the code
 * was told the truth, hollow and red where it was misled. Returns their boxes ({ x, y, w, h, t,
 * client, note, misleads }) for the tests.
 */
export function noticeMarks(out, run, c, lanes) {
  const marks = [];
  for (const e of run.events) {
    if (e.kind !== 'notice' || !lanes[e.actor]) continue;
    const x = c.sx(e.t_ms);
    const y = lanes[e.actor].line;
    const bad = misleads(e, run);
    out.push({ tag: 'path', attrs: { d: `M${x},${y - HALF_H}l${HALF_W},${HALF_H}l${-HALF_W},${HALF_H}l${-HALF_W},${-HALF_H}z`, class: bad ? 'notice bad' : 'notice' } });
    marks.push({ x: x - HALF_W, y: y - HALF_H, w: 2 * HALF_W, h: 2 * HALF_H, t: e.t_ms, client: e.actor, note: e.note, misleads: bad });
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
