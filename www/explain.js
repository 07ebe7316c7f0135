// Words for a run: the verdict's explanation and one sentence per event. Pure functions of
// (run JSON, dictionary, number formatter); they only read what the wasm reported.
import { fmt, ownKey, serviceHas } from './i18n.js';
import { libraryEventKey, libraryVars } from './service-marks.js';

/** How far a clock stepped, in ms with its sign: +300, −300. */
export const stepText = (ms, num) => `${ms > 0 ? '+' : '−'}${num(Math.abs(ms))}`;
/** A majority round's validity, in ms from µs, with a minus sign when it is spent. */
export const validityText = (us, num) => `${us < 0 ? '−' : ''}${num(Math.abs(us) / 1000)}`;
/** Lock nodes by their names (n1, n2, …) from their 0-based indexes. */
export const nodeNames = (ks) => ks.map((k) => `n${k + 1}`).join(', ');

/** The sentence for one event, for the events table and the "now" line. */
export function describeEvent(e, run, d, num) {
  const v = {
    a: e.actor,
    token: num(e.token),
    end: num(e.lease_end_ms),
    holder: e.holder,
    value: num(e.value),
    version: num(e.version),
    dur: num(e.dur_ms),
    held: num(e.held_ms),
    attempt: e.attempt,
    left: e.left_us != null ? num(e.left_us / 1000) : '',
    need: num(e.need_ms),
    reason: e.reason ? d.reasons[e.reason] || e.reason : '',
    step: e.step_ms != null ? stepText(e.step_ms, num) : '',
    node: e.node != null ? `n${e.node + 1}` : '',
    g: e.granted_nodes != null ? `${num(e.granted_nodes)}/${num(run.nodes)}` : '',
    validity: e.validity_us != null ? validityText(e.validity_us, num) : '',
    k: e.keys_lost != null ? num(e.keys_lost) : '',
    nodes: e.nodes ? nodeNames(e.nodes) : '',
    rev: e.rev != null ? num(e.rev) : '',
    behind: e.behind || '',
  };
  // What a client's library told its code (service-marks.js): in the library's words and calls.
  const lib = libraryEventKey(e, run);
  if (lib) return lib in d.ev ? fmt(d.ev[lib], { ...v, ...libraryVars(e, run, d) }) : `${e.actor}: ${e.kind} ${e.note || ''}`.trim();
  let key = e.kind;
  if (key === 'granted' && e.lease_end_ms == null) key = 'grantedSession';
  else if (key === 'granted' && e.token == null) key = 'grantedNoToken';
  else if (key === 'denied' && e.reason === 'session-gone') key = 'deniedNoSession';
  else if (key === 'denied' && e.holder == null) key = 'deniedDelay';
  else if (key === 'session-ended') key = `session-ended-${e.cause}`;
  else if (key === 'write-sent' && e.held_ms > 0) key = 'write-held';
  else if (key === 'partition') key = e.cut ? 'partition-cut' : 'partition-heal';
  // A lock without a TTL (a session's): no end by the client's own reckoning (left_us is near i64::MAX).
  else if (key === 'check-ok' && !(e.left_us < Number.MAX_SAFE_INTEGER)) key = 'check-okNoEnd';
  else if (key === 'redlock-acquired' && e.validity_us <= 0) key = 'redlock-trusted';
  else if (key === 'redlock-failed' && e.granted_nodes >= run.quorum) key = 'redlock-late';
  // An unlock that freed nothing, where the service has words for it (`released-nothing` in its
  // `ownWords`): an unlock that fails (LockOwnershipLostException), a release by a session that
  // no longer holds the key, a delete refused on the record's version (its lock was taken over).
  else if (key === 'released' && e.ended_lease === false) key = ownKey(d, run, 'released-nothing', key);
  // Under a `lock-delay`: a session destroyed while it holds the key releases it under lock-delay.
  if (serviceHas(run, 'lock-delay') && key === 'session-ended-disconnected' && e.freed_lock) key = 'session-ended-freed';
  // A service words its grants, failures, expiries and unlocks in its own terms where the dictionary
  // has them (`SERVICE-KIND` in the language's `ev`), unless its events keep the `generic-words` (the
  // seed's services: their names begin keys of other kinds, `lease-granted` is not the seed's grant).
  if (!serviceHas(run, 'generic-words') && `${run.service}-${key}` in d.ev) key = `${run.service}-${key}`;
  // On one of many nodes: the node's own words for what happens on it.
  if (e.node != null && ['granted', 'grantedNoToken', 'denied', 'released', 'lease-expired', 'server-clock-step'].includes(key)) key = `node-${key}`;
  v.freed = e.freed_lock ? d.ev.freed : '';
  v.tok = e.token != null && run.tokens ? fmt(d.ev.tok, { token: num(e.token) }) : '';
  return key in d.ev ? fmt(d.ev[key], v) : `${e.actor}: ${e.kind}`;
}

/** Who the events table names: the client itself, or the lock service / storage acting on it. */
export function whoOf(e, d) {
  if (e.lane === 'lock' && e.node != null) return `${d.node} n${e.node + 1}`;
  return e.lane === 'lock' ? d.lockService : e.lane === 'storage' ? d.storage : e.actor;
}

/** The distinct event times, ascending (the stops of "previous / next event"). */
export function eventTimes(run) {
  return [...new Set(run.events.map((e) => e.t_ms))].sort((a, b) => a - b);
}

/** Why the storage refused write `w`, in words, replaying what the storage had seen before it. */
function whyRejected(w, run, d, num) {
  let seen = 0;
  const tokenOf = {};
  const versionRead = {};
  const valueRead = {};
  for (const e of run.events) {
    if (e.kind === 'write-rejected' && e.actor === w.client && e.t_ms === w.t_ms) break;
    if (e.kind === 'granted') tokenOf[e.actor] = e.token;
    if (e.kind === 'read') {
      versionRead[e.actor] = e.version;
      valueRead[e.actor] = e.value;
      // first-touch: a read with a token also raises the highest token the storage has seen.
      if (run.fencing === 'first-touch' && tokenOf[e.actor]) seen = Math.max(seen, tokenOf[e.actor]);
    }
    if (e.kind === 'write-accepted' && e.token) seen = Math.max(seen, e.token);
  }
  switch (w.reason) {
    case 'stale-token':
      return fmt(d.whyToken, { t: num(w.token), seen: seen ? num(seen) : '?' });
    case 'version-changed':
      return fmt(d.whyVersion, { c: w.client, vr: w.client in versionRead ? num(versionRead[w.client]) : '?' });
    case 'etag-changed':
      return fmt(d.whyEtag, { c: w.client, vr: w.client in valueRead ? num(valueRead[w.client]) : '?' });
    case 'not-owner':
      return fmt(d.whyOwner, { c: w.client });
    case 'session-gone':
      return fmt(d.whySession, { c: w.client });
    default:
      return fmt(d.whyOther, { reason: d.reasons[w.reason] || w.reason || '?' });
  }
}

/** The verdict: { lost (bool), word, numbers, lines[] }. */
export function explainVerdict(run, d, num) {
  const lost = run.verdict === 'lost-update';
  const lines = [];
  const writes = [...run.writes].sort((a, b) => a.t_ms - b.t_ms);
  if (lost) {
    const mine = writes.filter((w) => w.client === run.lost && w.accepted);
    const victim = mine[mine.length - 1];
    const other = victim && writes.find((w) => w.accepted && w.client !== run.lost && w.t_ms >= victim.t_ms);
    if (victim && other) {
      lines.push(fmt(d.lostWhy, { victim: run.lost, v1: num(victim.value), other: other.client, v2: num(other.value), snap: num(other.snapshot) }));
    }
    lines.push(run.fencing === 'none' ? d.lostNoLock : fmt(d.lostFenced, { policy: run.fencing }));
  } else {
    const refused = writes.filter((w) => !w.accepted);
    for (const w of refused) {
      lines.push(fmt(d.safeRejected, { c: w.client, v: num(w.value), why: whyRejected(w, run, d, num) }));
    }
    const stale = writes.find((w) => w.accepted && w.stale);
    if (run.final !== run.expected) {
      const key = refused.length || !stale ? 'safeDiffers' : 'safeStaleCounted';
      lines.push(fmt(d[key], { final: num(run.final), expected: num(run.expected), c: stale && stale.client }));
    } else if (!refused.length) lines.push(run.stale_write_accepted ? d.safeStale : d.safeClean);
    // S3's ETag is the content: a stale writer's condition holds again once the content is back (ABA).
    if (stale && run.fencing === 'etag') lines.push(fmt(d.etagAba, { c: stale.client, v: num(stale.snapshot) }));
  }
  // `random-tokens` (a random record version number): whatever a guard that orders tokens did, it did by chance.
  if (serviceHas(run, 'random-tokens') && run.tokens && ['token', 'first-touch'].includes(run.fencing)) lines.push(d[ownKey(d, run, 'rvnNoOrder')]);
  if (run.locked_out) lines.push(fmt(d.lockedOut, { c: run.locked_out }));
  return {
    lost,
    word: lost ? d.lost : d.safe,
    numbers: fmt(d.finalExpected, { final: num(run.final), expected: num(run.expected) }),
    lines,
  };
}

/**
 * The safety margin: for each write that reached the storage after its writer's lease had ended (or
 * after another client was granted the lock), how late it was and where the time went — pause,
 * network hold, a clock that said there was time left — so the reader sees which assumption broke.
 * Returns one sentence per late write, or one sentence saying every write landed inside its lease.
 */
export function safetyMargin(run, d, num) {
  if (run.nodes > 1) return redlockMargin(run, d, num);
  const out = [];
  for (const w of run.writes) {
    // The writer's lease at the time: the last one granted to it before the write landed.
    const lease = run.leases.filter((l) => l.client === w.client && l.granted_ms <= w.t_ms).pop();
    if (!lease) {
      // Told it held the lock, though it never did (a waiter whose lease expired: a stale grant).
      if (w.stale && w.accepted) out.push(fmt(d.marginNeverHeld, { c: w.client, t: num(w.t_ms) }));
      continue;
    }
    // When the writer's hold ended is the core's fact (null: it still holds a session lock).
    const late = w.held_until_ms == null ? 0 : w.t_ms - w.held_until_ms;
    if (late <= 0 && !w.stale) continue;
    const within = (a) => a.client === w.client && a.from_ms < w.t_ms && a.to_ms > lease.granted_ms;
    const causes = [];
    for (const p of run.pauses.filter(within)) causes.push(fmt(d.marginPause, { c: w.client, dur: num(p.to_ms - p.from_ms) }));
    for (const h of run.held.filter(within)) causes.push(fmt(d.marginHeld, { dur: num(h.to_ms - h.from_ms) }));
    const check = run.events.filter((e) => e.actor === w.client && e.kind === 'check-ok' && e.t_ms >= lease.granted_ms && e.t_ms <= w.t_ms).pop();
    // (A lock without a TTL — a session's — has no end by the client's clock: its check is not a clock's.)
    const byClock = check && check.left_us < Number.MAX_SAFE_INTEGER;
    if (byClock && !lease.open && check.t_ms >= lease.ends_ms) {
      causes.push(fmt(d.marginClock, { c: w.client, left: num(check.left_us / 1000), t: num(check.t_ms), over: num(check.t_ms - lease.ends_ms) }));
    }
    if (serviceHas(run, 'observes')) causes.push(...observerCauses(run, w, lease, d, num));
    const ttl = run.ttl_ms;
    const words = { c: w.client, t: num(w.t_ms), ttl: num(ttl), from: num(lease.granted_ms), end: num(lease.ends_ms), late: num(late) };
    // Late after a hold its service ended by its timer, in the service's words (`marginLate`: a session
    // invalidated, an item taken over by a waiter where no server expires it).
    const head = lease.session_ended
      ? fmt(d.marginSession, words)
      : late > 0
        ? fmt(d[ownKey(d, run, 'marginLate', ttl == null ? 'marginLateUntil' : 'marginLate')], words)
        : fmt(d.marginStale, { c: w.client, t: num(w.t_ms) });
    const broke = causes.length ? fmt(d.marginBecause, { causes: causes.join(d.marginAnd) }) : '';
    // Under a `lock-delay`, a write after its writer's session was invalidated: whether the delay held.
    const delayed = !lease.session_ended && late > 0 && serviceHas(run, 'lock-delay');
    out.push(delayed ? [head, broke, lockDelayHeld(w, lease, run, d, num)].filter(Boolean).join(' ') : `${head} ${broke}`.trim());
  }
  if (!out.length) out.push(d[ownKey(d, run, 'marginOk')]);
  return out;
}

/**
 * A service that `observes` (expiry judged by each candidate's observation of one record): a leader that
 * had not given up leading when another took over. Its last renewal is in the trace; with the naive
 * switch (client-go before 1.12) it kept leading on a renew call that had no answer; otherwise it was
 * still inside its renew deadline, which is then no shorter than the lease as the new holder observed it.
 */
function observerCauses(run, w, lease, d, num) {
  const stopped = run.events.some((e) => e.actor === w.client && e.kind === 'renew-denied' && e.t_ms >= lease.granted_ms && e.t_ms <= w.t_ms);
  if (stopped) return [];
  const renewals = run.events.filter((e) => e.actor === w.client && e.kind === 'keepalive' && e.t_ms <= w.t_ms);
  const last = renewals.length ? renewals[renewals.length - 1].t_ms : lease.granted_ms;
  return [fmt(run.naive ? d.marginHungRenew : d.marginRenewDeadline, { c: w.client, last: num(last) })];
}

/**
 * Under a `lock-delay`, for a write after its writer's session was invalidated: whether the key's
 * lock-delay still kept everyone else out when the write landed — the write is stale exactly when
 * another client had been granted the lock before it (the run says); '' without a lock-delay.
 */
function lockDelayHeld(w, lease, run, d, num) {
  const delay = run.params && run.params.lockdelay_ms;
  return delay > 0 ? fmt(w.stale ? d.marginDelayOver : d.marginDelayHeld, { until: num(lease.ends_ms + delay) }) : '';
}

/**
 * The margin over many nodes: a client holds the lock while it has live keys on a majority of them, and it
 * trusts it for validity = TTL − elapsed − drift. The quorum, the drift allowance, the validity and
 * when the writer's majority ended come from the run JSON; this function only picks the causes to
 * name. For each write from a client that no longer held a majority, say when it lost it and why: a
 * pause, a key that a crash forgot, a node whose clock jumped, or a naive client that trusted a
 * majority with no validity left. (Which keys ended before their TTL ran out is still worked out here,
 * from `granted_ms + ttl_ms`: the run JSON does not say.)
 */
function redlockMargin(run, d, num) {
  const out = [];
  const { quorum, drift_ms: drift } = run;
  for (const w of run.writes.filter((x) => x.stale)) {
    const acq = run.events.filter((e) => e.actor === w.client && e.kind === 'redlock-acquired' && e.t_ms <= w.t_ms).pop();
    if (!acq) continue;
    // Its keys from that round: granted between its requests and its count.
    const sent = run.events.filter((e) => e.actor === w.client && e.kind === 'acquire-sent' && e.t_ms <= acq.t_ms).pop();
    const from = sent ? sent.t_ms : 0;
    const keys = run.leases.filter((l) => l.client === w.client && l.granted_ms >= from && l.granted_ms <= acq.t_ms);
    // When fewer than a quorum of those keys were left: the core's fact.
    const end = w.held_until_ms;
    const causes = [];
    if (acq.validity_us <= 0) causes.push(fmt(d.marginNaive, { c: w.client, v: num(acq.validity_us / 1000) }));
    // Pauses between the round's requests and the write.
    for (const p of run.pauses.filter((p) => p.client === w.client && p.from_ms < w.t_ms && p.to_ms > from)) {
      causes.push(fmt(d.marginPause, { c: w.client, dur: num(p.to_ms - p.from_ms) }));
    }
    // Keys gone by then before their TTL ran out: a crash, or their node's clock jumping.
    for (const l of keys.filter((l) => l.ends_ms <= end && l.ends_ms < l.granted_ms + run.ttl_ms)) {
      const n = `n${l.node + 1}`;
      const step = run.events.find((e) => e.kind === 'server-clock-step' && e.node === l.node && e.t_ms <= l.ends_ms);
      if (l.lost) causes.push(fmt(d.marginCrash, { n, c: w.client, t: num(l.ends_ms) }));
      else if (step) causes.push(fmt(d.marginJump, { n, by: stepText(step.step_ms, num), t: num(step.t_ms) }));
    }
    const head = fmt(d.marginMajority, { c: w.client, t: num(w.t_ms), end: num(end), late: num(Math.max(0, w.t_ms - end)), q: num(quorum), n: num(run.nodes) });
    const broke = causes.length ? fmt(d.marginBecause, { causes: causes.join(d.marginAnd) }) : '';
    out.push(`${head} ${broke}`.trim());
  }
  if (!out.length) out.push(fmt(d.marginRedlockOk, { drift: num(drift) }));
  return out;
}
