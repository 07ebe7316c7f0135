// The lock's queue of waiters on the lock-service lane (etcd, ZooKeeper): both keep the lock as an
// ordered list — etcd the lock's keys by create revision, ZooKeeper the lock's ephemeral sequential
// nodes by sequence number — whose first entry holds the lock while each other one waits for the entry
// before it. The layout notes the list under the service's lane each time its waiters change, read from
// the trace alone: `queued` (a key or node is created behind another), `granted` (an entry reaches the
// front), and the entry going away (`lease-expired`, `released`, `session-ended`). Pure: no DOM.
import { fmt } from './i18n.js';

/** The services whose lock is a queue. */
const QUEUED = new Set(['etcd', 'zookeeper']);

/** What takes a client's key (or node) out of the queue. */
const GONE = new Set(['lease-expired', 'released', 'session-ended']);

/** One entry's words: the client and, where the trace says it, its revision (etcd) or sequence number. */
function entry(q, c, service) {
  if (q.n == null) return q.client;
  const key = service === 'zookeeper' ? 'queueSeq' : 'queueRev';
  return fmt(c.d[c.narrow ? `${key}Short` : key], { c: q.client, n: c.num(q.n) });
}

/**
 * The queue's notes for `run` on the lock lane: at each change of who waits, the whole list in order
 * (the holder first), and the expiry of a waiter's lease (a waiter holds no lease bar to end). Calls
 * `note(lane, x, text, cls)` for each; returns the lists it noted, for the tests: [{ t, queue }].
 */
export function queueNotes(run, c, note) {
  if (!QUEUED.has(run.service) || c.nodes) return [];
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
    const list = q.map((k) => entry(k, c, run.service)).join(c.d.queueSep);
    note('lock', c.sx(e.t_ms), fmt(c.d.queue, { q: list || c.d.queueEmpty }), 'n-queue');
    noted.push({ t: e.t_ms, queue: q.map((k) => k.client) });
  }
  return noted;
}
