// Keepalive ticks: each keepalive (etcd) or ping (ZooKeeper) that reached the server, drawn as a small
// upward triangle on the sending client's lane line at the instant it arrived. The trace records a
// keepalive only when it arrives, so the ticks stop where the client stops sending — frozen in a pause,
// or cut off by the network — and the gap lines up with the pause's hatched block. A keepalive that
// arrives after its lease (or session) is gone is a hollow triangle, with a note on the client's lane:
// that reply is how the client learns it. Pure: no DOM.
import { fmt } from './i18n.js';

/** Half the triangle's width, and its height above and below the lane line, in px. */
const HALF = 4;
const UP = 3;
const DOWN = 4.5;

const KINDS = new Set(['keepalive', 'keepalive-failed']);

/** The keepalive events of `run` (etcd's and ZooKeeper's only). */
export function keepalives(run) {
  return run.events.filter((e) => KINDS.has(e.kind));
}

/** The note of a keepalive that came too late: "keepalive ✗: lease gone" (etcd), "ping ✗: session gone". */
export function keepaliveNotes(run, c, note) {
  const zk = run.service === 'zookeeper';
  for (const e of keepalives(run)) {
    if (e.kind !== 'keepalive-failed') continue;
    const key = (zk ? 'pingFailed' : 'keepaliveFailed') + (c.narrow ? 'Short' : '');
    note(e.actor, c.sx(e.t_ms), fmt(c.d[key], { c: e.actor }), 'n-bad');
  }
}

/**
 * The ticks, drawn into `out` (paths); returns their boxes ({ x, y, w, h, t, client, ok }) so that
 * the tests can check they keep clear of every label and stop during a freeze.
 */
export function keepaliveTicks(out, run, c, lanes) {
  const marks = [];
  for (const e of keepalives(run)) {
    const lane = lanes[e.actor];
    if (!lane) continue;
    const x = c.sx(e.t_ms);
    const y = lane.line;
    const ok = e.kind === 'keepalive';
    out.push({ tag: 'path', attrs: { d: `M${x - HALF},${y + DOWN} L${x + HALF},${y + DOWN} L${x},${y - UP} z`, class: ok ? 'ka' : 'ka bad' } });
    marks.push({ x: x - HALF, y: y - UP, w: 2 * HALF, h: UP + DOWN, t: e.t_ms, client: e.actor, ok });
  }
  return marks;
}
