// A minimal plain-JS event simulation of the seed's scenario (seed-gc-pause: A takes the lock, reads,
// pauses, writes 60; B polls every 50 ms, reads, writes 50; no fencing; zero latencies), written only
// to be fast: the yardstick issue 18 measures the engine's every-cell sweep against ("a minimal
// plain-JS event simulation of the same runs"). It handles exactly the engine's events in the
// engine's order — a queue ordered by (time, scheduling order), one event per message and timer — so
// its event count and its outcome for every cell must equal the engine's; bench.mjs checks both over
// the whole 256 × 256 grid before it prints a time. Nothing else: no trace, no clocks, no faults,
// no other service or policy, no retries.
//
// Not part of the page: www/tests/bench.mjs runs it in the same Chromium as the engine's wasm.

// Event kinds, as the engine names them.
const STEP = 0; // a client runs its next operations (its start, or its retry timer)
const WAKE = 1; // A's pause ends
const ACQUIRE_AT = 2; // a lock request reaches the server
const ACQUIRE_REPLY = 3; // its answer reaches the client
const READ_AT = 4;
const READ_REPLY = 5;
const WRITE_AT = 6;
const WRITE_REPLY = 7;

const A = 0;
const B = 1;
const INITIAL = 500;
const DEBIT = [60, 50];
const RETRY_US = 50_000;

// One run's state, reused by every run (no allocation per run or per event).
const pc = new Int32Array(2);
const snapshot = new Float64Array(2);
const granted = new Uint8Array(2);
// The accepted writes in order, three numbers each: client, value, snapshot (for the verdict).
const writes = new Float64Array(3 * 8);
let nWrites = 0;

/** Queues client `c`'s next operation at `now` (the script: A acquire, read, pause, write; B acquire
 * every 50 ms, read, work 0, write). */
function advance(q, c, now, pause) {
  switch (pc[c]) {
    case 0:
      q.push(now, ACQUIRE_AT, c);
      return;
    case 1:
      q.push(now, READ_AT, c);
      return;
    case 2:
      if (c === A) {
        q.push(now + pause, WAKE, c);
        return;
      }
      pc[c] = 3; // B's `work 0`: nothing to wait for
      q.push(now, WRITE_AT, c);
      return;
    case 3:
      q.push(now, WRITE_AT, c);
      return;
    default:
      return; // the script is over
  }
}

/** One run at `ttl` and `pause` (µs): its outcome code, as the engine's sweep reports it (0 safe, 2 + i
 * the update of client i lost); the events it handled are added to `q.handled`. */
export function runSeed(ttl, pause, q) {
  q.clear();
  let balance = INITIAL;
  let leaseEnd = -1; // the lock's current lease ends then (−1: never granted)
  pc[0] = pc[1] = 0;
  nWrites = 0;
  q.push(0, STEP, A);
  q.push(0, STEP, B);
  while (q.size > 0) {
    const now = q.time();
    const kind = q.kind();
    const c = q.client();
    q.pop();
    q.handled++;
    switch (kind) {
      case STEP:
        advance(q, c, now, pause);
        break;
      case ACQUIRE_AT:
        granted[c] = now < leaseEnd ? 0 : 1;
        if (granted[c]) leaseEnd = now + ttl;
        q.push(now, ACQUIRE_REPLY, c);
        break;
      case ACQUIRE_REPLY:
        if (granted[c]) {
          pc[c] = 1;
          advance(q, c, now, pause);
        } else {
          q.push(now + RETRY_US, STEP, c);
        }
        break;
      case READ_AT:
        snapshot[c] = balance;
        q.push(now, READ_REPLY, c);
        break;
      case WAKE:
      case READ_REPLY:
      case WRITE_REPLY:
        pc[c]++;
        advance(q, c, now, pause);
        break;
      case WRITE_AT:
        balance = snapshot[c] - DEBIT[c];
        writes[3 * nWrites] = c;
        writes[3 * nWrites + 1] = balance;
        writes[3 * nWrites + 2] = snapshot[c];
        nWrites++;
        q.push(now, WRITE_REPLY, c);
        break;
    }
  }
  // Lost: the balance misses an accepted write's debit; the victim is the first accepted write that a
  // later one overwrote without having read it (crate/src/outcome.rs's rule).
  if (balance === INITIAL - DEBIT[A] - DEBIT[B]) return 0;
  for (let i = 1; i < nWrites; i++) {
    if (writes[3 * i + 2] !== writes[3 * i - 2]) return 2 + writes[3 * i - 3];
  }
  return 0;
}

/** Pending events, sorted by time from the latest down: the soonest is the last (a run keeps a
 * handful pending, so a new one moves into place in a comparison or two). Ties go by scheduling order
 * without a sequence number: a new event was scheduled after every pending one, so it goes before
 * (nearer the end than) none of those due at the same time — it stops below them (`<=`). A key of
 * time × 2²⁰ + sequence, one division per event to read the time back, took 60% longer. */
export class Queue {
  constructor() {
    this.at = new Float64Array(256); // µs (a run's two hours exceed an Int32)
    this.what = new Int32Array(256); // kind × 8 + client
    this.size = 0;
    /** Events popped since the queue was made: the runs' events handled. */
    this.handled = 0;
  }
  clear() {
    this.size = 0;
  }
  push(t, kind, client) {
    let i = this.size++;
    while (i > 0 && this.at[i - 1] <= t) {
      this.at[i] = this.at[i - 1];
      this.what[i] = this.what[i - 1];
      i--;
    }
    this.at[i] = t;
    this.what[i] = kind * 8 + client;
  }
  /** The soonest event's time, kind and client. */
  time() {
    return this.at[this.size - 1];
  }
  kind() {
    return this.what[this.size - 1] >> 3;
  }
  client() {
    return this.what[this.size - 1] & 7;
  }
  pop() {
    this.size--;
  }
}

/** The value of step `i` of an axis from `from` to `to` (µs) in `steps`, as crate/src/sweep.rs's
 * `Axis::value` computes it (integer µs, rounded down). */
export const axisValue = (from, to, steps, i) => from + Math.floor(((to - from) * i) / (steps - 1));

/** The 256 × 256 (ttl 10 ms–2 s, pause 0–3 s) sweep, every cell run, row-major with pause outer as the
 * engine's sweep returns it: `{ codes, events }` (events: the total handled). */
export function sweepSeedEveryCell(steps = 256) {
  const codes = new Uint8Array(steps * steps);
  const q = new Queue();
  for (let yi = 0; yi < steps; yi++) {
    const pause = axisValue(0, 3_000_000, steps, yi);
    for (let xi = 0; xi < steps; xi++) {
      codes[yi * steps + xi] = runSeed(axisValue(10_000, 2_000_000, steps, xi), pause, q);
    }
  }
  return { codes, events: q.handled };
}
