//! The discrete-event engine: a queue of events ordered by `(time, sequence)`, a clock that jumps to the
//! next event, the lock service, the guarded store and the clients.
//!
//! Ties: two events at the same microsecond run in the order they were scheduled (the sequence number),
//! so every run is exactly repeatable. A message with zero latency is still an event: it arrives after
//! everything already scheduled for that instant.

use std::collections::VecDeque;

use crate::client::{ClientSpec, ClientState, HeldLease, Op, Phase};
use crate::error::Error;
use crate::lock::{Grant, LeaseService};
use crate::scenario::{FaultAction, Scenario, ServiceKind, ServiceSpec};
use crate::store::{Credentials, GuardedStore, Policy, Refusal};
use crate::time::{SimTime, SEC};
use crate::trace::{Kind, Span, TraceEvent, WriteRecord};

/// Most events one run may process before it is stopped with an error.
pub const EVENTS_MAX: u32 = 1_000_000;
/// Latest simulated time a run may reach: two hours.
pub const SIM_TIME_US_MAX: u64 = 7_200 * SEC;
/// Most retries a client may be given.
pub const RETRIES_MAX: u32 = 10;

/// How to run a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub policy: Policy,
    /// One value per scenario parameter, in µs (see [`Scenario::defaults`]).
    pub params: Vec<u64>,
    /// How often a client whose access was refused (or whose check failed) starts over.
    pub retries: u32,
    /// Record the trace (off for sweeps).
    pub trace: bool,
    /// Seeds the lock values (and any other randomness).
    pub seed: u64,
    /// Redlock: clients trust a majority of grants without checking the validity left.
    pub naive: bool,
}

impl Config {
    pub fn new(scenario: &Scenario, policy: Policy) -> Config {
        Config {
            policy,
            params: scenario.defaults(),
            retries: 0,
            trace: true,
            seed: 0x1ea5e,
            naive: false,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Ev {
    /// The client runs its next operations (start, after work, after a retry timer).
    Step(u8),
    /// A pause ends.
    Wake(u8),
    AcquireAt(u8),
    AcquireReply(u8, Grant),
    ReadAt(u8, Credentials),
    ReadReply(u8, Result<(i64, u64), Refusal>),
    WriteAt {
        client: u8,
        cred: Credentials,
        version_read: u64,
        value: i64,
        debit: i64,
        snapshot: i64,
    },
    WriteReply(u8, bool),
    ReleaseAt(u8, u64),
    RenewAt(u8, u64),
    RenewReply(u8, Option<SimTime>),
    /// The scenario's fault number `i` happens.
    Fault(u8),
    /// A frozen client's session times out (no keepalives).
    SessionTimeout(u8),
    /// The client closes its connection at the end of its script.
    Disconnect(u8),
    /// A timed pause (a fault, not a script step) ends.
    Thaw(u8),
    /// Redlock: the client's acquire request reaches a node (client, node, round).
    NodeAcquireAt(u8, u8, u16),
    /// Redlock: a node's answer reaches the client (client, node, granted, round).
    NodeAcquireReply(u8, u8, bool, u16),
    /// Redlock: an unlock reaches a node (client, node, round whose value it deletes).
    NodeReleaseAt(u8, u8, u16),
    /// Redlock: the client stops waiting for replies of this round.
    RoundTimeout(u8, u16),
    /// A crashed node restarts (the `u8` is the node).
    Restart(u8),
}

impl Ev {
    fn client(&self) -> u8 {
        match *self {
            Ev::Step(c)
            | Ev::Wake(c)
            | Ev::AcquireAt(c)
            | Ev::AcquireReply(c, _)
            | Ev::ReadAt(c, _)
            | Ev::ReadReply(c, _)
            | Ev::WriteReply(c, _)
            | Ev::ReleaseAt(c, _)
            | Ev::RenewAt(c, _)
            | Ev::RenewReply(c, _)
            | Ev::Fault(c)
            | Ev::SessionTimeout(c)
            | Ev::Disconnect(c)
            | Ev::Thaw(c)
            | Ev::NodeAcquireAt(c, ..)
            | Ev::NodeAcquireReply(c, ..)
            | Ev::NodeReleaseAt(c, ..)
            | Ev::RoundTimeout(c, _)
            | Ev::Restart(c) => c,
            Ev::WriteAt { client, .. } => client,
        }
    }
}

/// Message contents waiting in the queue, one slot per kind per client. A client has at most one
/// message of each kind in flight (it waits for every reply), so a slot is never overwritten before
/// its event is handled. Keeping payloads here keeps queue entries at 16 bytes, which is what makes
/// the heap fast.
#[derive(Clone, Copy, Debug, Default)]
struct Mailbox {
    grant: Option<Grant>,
    read_cred: Credentials,
    read_result: Option<Result<(i64, u64), Refusal>>,
    write: (Credentials, u64, i64, i64, i64),
    write_ok: bool,
    release: u64,
    renew: u64,
    renewed: Option<SimTime>,
}

/// A queue entry: `key` = time (the high 33 bits) and sequence (the low 31), so ordering the keys
/// orders by `(time, sequence)` — sequences are unique — with one 64-bit comparison (a `u128` costs
/// several in wasm); `meta` = event tag (8 bits), client (8), payload (16: a Redlock message's node,
/// answer and round). Times past 2³³ µs (beyond the run's time limit) are kept as 2³³ − 1: such an
/// event stops the run with the time-limit error when it comes up, as any time past the limit does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Queued {
    key: u64,
    meta: u32,
}

const SEQ_BITS: u32 = 31;
const KEY_TIME_MAX: u64 = (1 << (64 - SEQ_BITS)) - 1;

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl Queued {
    fn new(at: SimTime, seq: u32, tag: u8, client: u8, payload: u16) -> Queued {
        // A run schedules a few events per event it handles, and handles at most EVENTS_MAX.
        debug_assert!(seq < 1 << SEQ_BITS);
        Queued {
            key: (at.0.min(KEY_TIME_MAX) << SEQ_BITS) | u64::from(seq),
            meta: (u32::from(tag) << 24) | (u32::from(client) << 16) | u32::from(payload),
        }
    }
    fn at(self) -> SimTime {
        SimTime(self.key >> SEQ_BITS)
    }
    /// Sequence, kind, client and payload: everything but the time (for the signature).
    fn identity(self) -> u64 {
        ((self.key & ((1 << SEQ_BITS) - 1)) << 32) | u64::from(self.meta)
    }
    fn tag(self) -> u8 {
        (self.meta >> 24) as u8
    }
    fn client(self) -> u8 {
        (self.meta >> 16) as u8
    }
    fn payload(self) -> u16 {
        self.meta as u16
    }
}

/// A Redlock message's payload: node (3 bits), answer (1), round (12, wrapping: replies never lag
/// thousands of rounds behind).
fn pack(node: u8, ok: bool, round: u16) -> u16 {
    u16::from(node & 7) | (u16::from(ok) << 3) | (round << 4)
}

/// Everything one run produced. Buffers are reused by [`Engine`] across runs.
#[derive(Clone, Debug, Default)]
pub struct Run {
    pub initial: i64,
    pub final_balance: i64,
    pub writes: Vec<WriteRecord>,
    pub trace: Vec<TraceEvent>,
    /// The lock service's truth: one record per grant.
    pub leases: Vec<crate::lock::LeaseRecord>,
    /// Each client's belief that it holds the lock, per grant (`tag` = token).
    pub beliefs: Vec<Span>,
    /// Pauses (`tag` unused).
    pub pauses: Vec<Span>,
    /// Writes held by the network (`tag` = value).
    pub held: Vec<Span>,
    /// Redlock: the clients that came to hold live keys on a majority of nodes, in order (the truth
    /// the ideal guard follows).
    pub majorities: Vec<u8>,
    /// Time of the last event.
    pub end: SimTime,
    pub events: u32,
    /// The path's signature (see [`crate::sig`]): the same path gives the same value. Computed only by
    /// engines in sweep mode ([`Engine::set_fast`]); 0 otherwise.
    pub sig: u64,
}

/// A polling client's denied retries, skipped in one jump (sweeps only, see [`Engine::set_fast`]).
///
/// The client was just denied; its next `polls` attempts — a `Step` at `first + j·period`, the request
/// reaching the lock `lat` later and the refusal coming back `lat` after that — would all be denied too,
/// as the lock cannot become free before `free_at` without an event that touches it. So only the
/// attempt after them, at `last`, is scheduled. The jump is exact while nothing else happens at any of
/// the skipped instants (a tie whose order the skipped events would have decided) and nothing touches
/// the lock or the client meanwhile; otherwise the run is thrown away and run again event by event.
#[derive(Clone, Copy, Debug)]
struct Skip {
    client: u8,
    first: u64,
    period: u64,
    lat: u64,
    polls: u64,
    last: u64,
}

impl Skip {
    /// Whether something at `u` would coincide with one of the skipped events or the landing step.
    fn on_chain(&self, u: u64) -> bool {
        if u < self.first || u > self.last {
            return false;
        }
        if u == self.last {
            return true;
        }
        let d = (u - self.first) % self.period;
        d == 0 || d == self.lat || d == 2 * self.lat
    }
}

/// A reusable engine: run as many configurations as you like without allocating after the first.
#[derive(Default)]
pub struct Engine {
    /// Pending events in ascending `(time, sequence)` order. Runs keep a handful pending at a time and
    /// new events mostly land at the back, so a sorted deque beats a heap here.
    queue: VecDeque<Queued>,
    /// Events scheduled for the current instant while handling it (zero-latency messages, zero waits).
    /// They come after every queue entry at this instant (those were scheduled earlier, so have lower
    /// sequence numbers) and among themselves in scheduling order: a FIFO, with no search.
    now_fifo: VecDeque<Queued>,
    mail: Vec<Mailbox>,
    clients: Vec<ClientState>,
    /// The lock servers: one, or Redlock's nodes.
    locks: Vec<LeaseService>,
    /// Redlock: the client holding live keys on a majority of nodes most recently.
    majority: Option<u8>,
    seed: u64,
    store: GuardedStore,
    seq: u32,
    now: SimTime,
    trace_on: bool,
    /// Sweep mode (see [`Engine::set_fast`]).
    fast: bool,
    /// `fast` for this run (off when traced, or when re-running after a bail).
    fast_now: bool,
    skip: Option<Skip>,
    /// The fast run met something it cannot skip exactly: run again event by event.
    bail: bool,
    sig: u64,
    pub run: Run,
}

struct Ctx<'a> {
    sc: &'a Scenario,
    policy: Policy,
    params: &'a [u64],
    retries: u32,
    // Resolved once per run: the hot loop reads them on every event.
    /// `u64::MAX` for a session lock (no TTL).
    ttl: u64,
    idle: u64,
    lock_latency: u64,
    store_latency: u64,
    redlock: bool,
    naive: bool,
    timeout: u64,
    jitter: u64,
    /// Redlock's drift allowance for this TTL.
    drift: u64,
}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Folds a word into the run's signature (sweep engines only: others skip the arithmetic).
    #[inline(always)]
    fn mix(&mut self, w: u64) {
        if self.fast {
            crate::sig::mix(&mut self.sig, w);
        }
    }

    /// Folds a yes/no choice into the run's signature (sweep engines only).
    #[inline(always)]
    fn bit(&mut self, b: bool) {
        if self.fast {
            crate::sig::bit(&mut self.sig, b);
        }
    }

    /// Sweep mode: every run computes its path signature (`Run::sig`, see [`crate::sig`]), and untraced
    /// runs skip a polling client's denied retries in one jump (see `Skip`). The run's writes, leases,
    /// grants, final balance and event count are the same as event by event (tested). Sweeps turn it on.
    pub fn set_fast(&mut self, on: bool) {
        self.fast = on;
    }

    /// Runs `sc` under `cfg`; the result is in `self.run`.
    pub fn run(&mut self, sc: &Scenario, cfg: &Config) -> Result<&Run, Error> {
        self.run_with(
            sc,
            cfg.policy,
            &cfg.params,
            cfg.retries,
            cfg.trace,
            cfg.seed,
            cfg.naive,
        )
    }

    /// As [`Engine::run`], with the configuration spelled out (no `Config` to build in hot loops).
    #[allow(clippy::too_many_arguments)]
    pub fn run_with(
        &mut self,
        sc: &Scenario,
        policy: Policy,
        params: &[u64],
        retries: u32,
        trace: bool,
        seed: u64,
        naive: bool,
    ) -> Result<&Run, Error> {
        if params.len() != sc.params.len() {
            return Err(Error::BadValue {
                what: "parameters".into(),
                why: format!(
                    "scenario {} takes {} values, got {}",
                    sc.id,
                    sc.params.len(),
                    params.len()
                ),
            });
        }
        if retries > RETRIES_MAX {
            return Err(Error::BadValue {
                what: "retries".into(),
                why: format!("expected 0 to {RETRIES_MAX}"),
            });
        }
        let svc = &sc.service;
        let ttl = match svc.kind {
            ServiceKind::Session => u64::MAX,
            _ => svc.ttl.resolve(params),
        };
        let ctx = Ctx {
            sc,
            policy,
            params,
            retries,
            ttl,
            idle: svc.idle.resolve(params),
            lock_latency: svc.lock_latency.resolve(params),
            store_latency: svc.store_latency.resolve(params),
            redlock: svc.kind == ServiceKind::Redlock,
            naive,
            timeout: svc.timeout.resolve(params),
            jitter: svc.jitter.resolve(params),
            drift: ServiceSpec::drift(ttl),
        };
        if !self.run_once(&ctx, trace, seed, self.fast && !trace)? {
            self.run_once(&ctx, trace, seed, false)?;
        }
        Ok(&self.run)
    }

    /// One run; `Ok(false)` if a fast run had to give up (see `Skip`).
    fn run_once(&mut self, ctx: &Ctx, trace: bool, seed: u64, fast: bool) -> Result<bool, Error> {
        let (sc, params) = (ctx.sc, ctx.params);
        self.reset(ctx, trace, seed);
        self.fast_now = fast;
        self.mix(ctx.drift); // a floor of the TTL
        for (i, spec) in sc.clients.iter().enumerate() {
            let start = spec.start.resolve(params);
            self.schedule(SimTime(start), Ev::Step(i as u8));
        }
        for (i, fault) in sc.faults.iter().enumerate() {
            self.schedule(SimTime(fault.at.resolve(params)), Ev::Fault(i as u8));
        }
        while let Some(q) = self.pop() {
            let at = q.at();
            if at.0 > SIM_TIME_US_MAX {
                return Err(Error::Limit {
                    what: format!("simulated time passed {} s", SIM_TIME_US_MAX / SEC),
                });
            }
            self.run.events += 1;
            if self.run.events > EVENTS_MAX {
                return Err(Error::Limit {
                    what: format!("more than {EVENTS_MAX} events"),
                });
            }
            debug_assert!(at >= self.now, "time never goes back");
            self.now = at;
            self.mix(q.identity());
            if let Some(sk) = self.skip {
                if q.client() == sk.client && q.tag() == 0 && at.0 == sk.last {
                    // The jump lands: count the skipped attempts' events as if they had run.
                    self.skip = None;
                    self.run.events += 3 * sk.polls as u32;
                    if self.run.events > EVENTS_MAX {
                        return Err(Error::Limit {
                            what: format!("more than {EVENTS_MAX} events"),
                        });
                    }
                } else if q.client() == sk.client
                    || !matches!(q.tag(), 0 | 1 | 3 | 4 | 5 | 6 | 7 | 10 | 14)
                {
                    // The polling client's own event, or one that touches the lock: not skippable.
                    return Ok(false);
                }
            }
            let ev = self.unpack(q);
            if self.deferred(ev) {
                continue;
            }
            self.handle(ctx, ev);
            if self.bail {
                return Ok(false);
            }
        }
        self.finish(ctx);
        for k in 0..self.locks.len() {
            self.mix(self.locks[k].sig);
        }
        self.run.sig = self.sig;
        Ok(true)
    }

    fn reset(&mut self, ctx: &Ctx, trace: bool, seed: u64) {
        let svc = &ctx.sc.service;
        let delay = svc.lock_delay.resolve(ctx.params);
        let nodes = usize::from(svc.nodes);
        self.locks.truncate(nodes);
        for k in 0..nodes {
            if k == self.locks.len() {
                self.locks
                    .push(LeaseService::new(ctx.ttl, delay, svc.tokens, seed));
            }
            let lock = &mut self.locks[k];
            lock.set_first_token(svc.first_token);
            lock.reset(ctx.ttl, delay, svc.tokens, seed);
            lock.node = k as u8;
            let clock = svc.node_clock(k);
            if lock.clock != *clock {
                lock.clock = clock.clone(); // borrowed data for built-in scenarios: no allocation
            }
        }
        self.majority = None;
        self.seed = seed;
        self.queue.clear();
        self.now_fifo.clear();
        self.clients.clear();
        self.clients
            .resize(ctx.sc.clients.len(), ClientState::default());
        for (st, spec) in self.clients.iter_mut().zip(ctx.sc.clients.iter()) {
            st.reach = spec.reach;
        }
        self.mail.clear();
        self.mail.resize(ctx.sc.clients.len(), Mailbox::default());
        self.store = GuardedStore::new(ctx.sc.balance);
        self.seq = 0;
        self.skip = None;
        self.bail = false;
        self.sig = 0;
        self.now = SimTime::ZERO;
        self.trace_on = trace;
        let r = &mut self.run;
        r.initial = ctx.sc.balance;
        r.final_balance = ctx.sc.balance;
        r.writes.clear();
        r.trace.clear();
        r.leases.clear();
        r.beliefs.clear();
        r.pauses.clear();
        r.held.clear();
        r.majorities.clear();
        r.end = SimTime::ZERO;
        r.events = 0;
        r.sig = 0;
    }

    fn lock(&mut self) -> &mut LeaseService {
        &mut self.locks[0]
    }

    /// The client the ideal guard lets write: the lock service's latest grantee, or for Redlock the
    /// latest client to hold live keys on a majority of the nodes.
    fn rightful(&self, ctx: &Ctx) -> Option<u8> {
        if ctx.redlock {
            self.majority
        } else {
            self.locks[0].latest_grantee()
        }
    }

    fn schedule(&mut self, at: SimTime, ev: Ev) {
        let c = ev.client();
        let (tag, payload) = match ev {
            Ev::Fault(_) => (11, 0),
            Ev::NodeAcquireAt(_, k, r) => (15, pack(k, false, r)),
            Ev::NodeAcquireReply(_, k, ok, r) => (16, pack(k, ok, r)),
            Ev::NodeReleaseAt(_, k, r) => (17, pack(k, false, r)),
            Ev::RoundTimeout(_, r) => (18, pack(0, false, r)),
            Ev::Restart(_) => (19, 0),
            _ => (0xff, 0),
        };
        if tag != 0xff {
            self.push(at, tag, c, payload);
            return;
        }
        let m = &mut self.mail[usize::from(c)];
        let tag = match ev {
            Ev::Step(_) => 0,
            Ev::Wake(_) => 1,
            Ev::AcquireAt(_) => 2,
            Ev::AcquireReply(_, g) => {
                m.grant = Some(g);
                3
            }
            Ev::ReadAt(_, cred) => {
                m.read_cred = cred;
                4
            }
            Ev::ReadReply(_, r) => {
                m.read_result = Some(r);
                5
            }
            Ev::WriteAt {
                cred,
                version_read,
                value,
                debit,
                snapshot,
                ..
            } => {
                m.write = (cred, version_read, value, debit, snapshot);
                6
            }
            Ev::WriteReply(_, ok) => {
                m.write_ok = ok;
                7
            }
            Ev::ReleaseAt(_, v) => {
                m.release = v;
                8
            }
            Ev::RenewAt(_, v) => {
                m.renew = v;
                9
            }
            Ev::RenewReply(_, r) => {
                m.renewed = r;
                10
            }
            Ev::SessionTimeout(_) => 12,
            Ev::Disconnect(_) => 13,
            Ev::Thaw(_) => 14,
            _ => unreachable!("handled above"),
        };
        self.push(at, tag, c, 0);
    }

    fn push(&mut self, at: SimTime, tag: u8, c: u8, payload: u16) {
        let q = Queued::new(at, self.seq, tag, c, payload);
        self.seq += 1;
        if let Some(sk) = self.skip {
            if sk.on_chain(at.0) {
                self.bail = true; // its order against a skipped event is unknown
            }
        }
        if at == self.now && self.run.events > 0 {
            self.now_fifo.push_back(q);
            return;
        }
        // Insert keeping the order: scan from the back, where new events usually belong.
        let mut i = self.queue.len();
        while i > 0 && self.queue[i - 1] > q {
            i -= 1;
        }
        if i == self.queue.len() {
            self.queue.push_back(q);
        } else {
            self.queue.insert(i, q);
        }
    }

    /// The next event in `(time, sequence)` order.
    fn pop(&mut self) -> Option<Queued> {
        match self.queue.front() {
            Some(front) if front.at() == self.now => self.queue.pop_front(),
            _ => self.now_fifo.pop_front().or_else(|| self.queue.pop_front()),
        }
    }

    /// The event a queue entry stands for, with its payload taken from the mailbox.
    fn unpack(&mut self, q: Queued) -> Ev {
        let c = q.client();
        let p = q.payload();
        let (node, ok, round) = ((p & 7) as u8, p & 8 != 0, p >> 4);
        match q.tag() {
            11 => return Ev::Fault(c),
            15 => return Ev::NodeAcquireAt(c, node, round),
            16 => return Ev::NodeAcquireReply(c, node, ok, round),
            17 => return Ev::NodeReleaseAt(c, node, round),
            18 => return Ev::RoundTimeout(c, round),
            19 => return Ev::Restart(c),
            _ => {}
        }
        let m = &mut self.mail[usize::from(c)];
        match q.tag() {
            0 => Ev::Step(c),
            1 => Ev::Wake(c),
            2 => Ev::AcquireAt(c),
            3 => Ev::AcquireReply(c, m.grant.take().expect("a grant waits in the mailbox")),
            4 => Ev::ReadAt(c, m.read_cred),
            5 => Ev::ReadReply(
                c,
                m.read_result
                    .take()
                    .expect("a read result waits in the mailbox"),
            ),
            6 => {
                let (cred, version_read, value, debit, snapshot) = m.write;
                Ev::WriteAt {
                    client: c,
                    cred,
                    version_read,
                    value,
                    debit,
                    snapshot,
                }
            }
            7 => Ev::WriteReply(c, m.write_ok),
            8 => Ev::ReleaseAt(c, m.release),
            9 => Ev::RenewAt(c, m.renew),
            10 => Ev::RenewReply(c, m.renewed),
            11 => Ev::Fault(c),
            12 => Ev::SessionTimeout(c),
            13 => Ev::Disconnect(c),
            _ => Ev::Thaw(c),
        }
    }

    fn record(
        &mut self,
        client: u8,
        kind: Kind,
        token: u64,
        value: i64,
        aux: u64,
        reason: Option<Refusal>,
    ) {
        self.record_on(0, client, kind, token, value, aux, reason);
    }

    #[allow(clippy::too_many_arguments)]
    fn record_on(
        &mut self,
        node: u8,
        client: u8,
        kind: Kind,
        token: u64,
        value: i64,
        aux: u64,
        reason: Option<Refusal>,
    ) {
        if self.trace_on {
            self.run.trace.push(TraceEvent {
                t: self.now,
                client,
                node,
                kind,
                token,
                value,
                aux,
                reason,
            });
        }
    }

    fn handle(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client();
        match ev {
            Ev::Step(_) => {
                if self.clients[usize::from(c)].phase == Phase::NotStarted {
                    self.record(c, Kind::Start, 0, 0, 0, None);
                }
                self.advance(ctx, c);
            }
            Ev::Wake(_) => {
                let st = &mut self.clients[usize::from(c)];
                st.phase = Phase::Waiting;
                st.woke = true;
                st.pc += 1;
                self.record(c, Kind::PauseEnd, 0, 0, 0, None);
                self.advance(ctx, c);
            }
            Ev::AcquireAt(_) => {
                let now = self.now;
                let dead = ctx.sc.service.kind == ServiceKind::Session
                    && self.clients[usize::from(c)].session_dead;
                let grant = if dead {
                    Grant::NoSession
                } else {
                    self.lock().acquire(c, now, None)
                };
                self.mix(grant_word(grant));
                match grant {
                    Grant::Granted {
                        token, expires_at, ..
                    } => self.record(c, Kind::Granted, token, 0, expires_at.0, None),
                    Grant::Denied { holder } => self.record(
                        c,
                        Kind::Denied,
                        0,
                        0,
                        holder.map_or(0, |h| u64::from(h) + 1),
                        None,
                    ),
                    Grant::NoSession => {
                        self.record(c, Kind::Denied, 0, 1, 0, Some(Refusal::SessionGone))
                    }
                }
                self.schedule(now.plus(ctx.lock_latency), Ev::AcquireReply(c, grant));
            }
            Ev::AcquireReply(_, grant) => self.on_acquire_reply(ctx, c, grant),
            Ev::NodeAcquireAt(_, k, round) => {
                let now = self.now;
                let value = self.lock_value(c, round);
                let node = &mut self.locks[usize::from(k)];
                if !node.up {
                    return; // a crashed node: the request is lost
                }
                let grant = node.acquire(c, now, Some(value));
                self.mix(grant_word(grant));
                match grant {
                    Grant::Granted { expires_at, .. } => {
                        self.record_on(k, c, Kind::Granted, 0, 0, expires_at.0, None);
                        let mut mask = 0u64;
                        for (i, l) in self.locks.iter().enumerate() {
                            mask |= u64::from(l.holds(c, now)) << i;
                        }
                        self.mix(mask); // each node's own expiry choice
                        let held = mask.count_ones() as usize;
                        if held >= usize::from(ctx.sc.service.quorum()) && self.majority != Some(c)
                        {
                            self.majority = Some(c);
                            self.run.majorities.push(c);
                        }
                    }
                    _ => {
                        let holder = match grant {
                            Grant::Denied { holder: Some(h) } => u64::from(h) + 1,
                            _ => 0,
                        };
                        self.record_on(k, c, Kind::Denied, 0, 0, holder, None);
                    }
                }
                if self.clients[usize::from(c)].reach & (1 << k) != 0 {
                    let ok = matches!(grant, Grant::Granted { .. });
                    let lat = ctx.sc.clients[usize::from(c)].link(k, ctx.lock_latency, ctx.params);
                    self.schedule(now.plus(lat), Ev::NodeAcquireReply(c, k, ok, round));
                }
            }
            Ev::NodeAcquireReply(_, k, ok, round) => {
                let st = &mut self.clients[usize::from(c)];
                if !st.round_open || round != st.round & 0xfff {
                    return; // a late reply to a round already counted
                }
                st.replied |= 1 << k;
                if ok {
                    st.granted |= 1 << k;
                }
                if st.replied.count_ones() == u32::from(ctx.sc.service.nodes) {
                    self.count_round(ctx, c);
                }
            }
            Ev::RoundTimeout(_, round) => {
                let st = &self.clients[usize::from(c)];
                if st.round_open && round == st.round & 0xfff {
                    self.count_round(ctx, c);
                }
            }
            Ev::NodeReleaseAt(_, k, round) => {
                let now = self.now;
                let value = self.lock_value(c, round);
                let node = &mut self.locks[usize::from(k)];
                if node.up {
                    let ended = node.release(value, now);
                    self.bit(ended);
                    self.record_on(k, c, Kind::Released, 0, 0, u64::from(ended), None);
                }
            }
            Ev::Restart(k) => {
                self.locks[usize::from(k)].up = true;
                self.record_on(k, 0, Kind::NodeRestarted, 0, 0, 0, None);
            }
            Ev::ReadAt(_, cred) => {
                let result = if cred.via_session && self.clients[usize::from(c)].session_dead {
                    Err(Refusal::SessionGone)
                } else {
                    self.store.read(ctx.policy, cred)
                };
                match result {
                    Ok((value, version)) => {
                        self.record(c, Kind::Read, cred.token.unwrap_or(0), value, version, None)
                    }
                    Err(why) => self.record(
                        c,
                        Kind::ReadRejected,
                        cred.token.unwrap_or(0),
                        0,
                        0,
                        Some(why),
                    ),
                }
                let at = self.now.plus(ctx.store_latency);
                self.schedule(at, Ev::ReadReply(c, result));
            }
            Ev::ReadReply(_, result) => match result {
                Ok(snapshot) => {
                    let st = &mut self.clients[usize::from(c)];
                    st.snapshot = Some(snapshot);
                    st.pc += 1;
                    self.advance(ctx, c);
                }
                Err(_) => self.abort(ctx, c),
            },
            Ev::WriteAt {
                client,
                cred,
                version_read,
                value,
                debit,
                snapshot,
            } => {
                let latest = self.rightful(ctx) == Some(client);
                let result = if cred.via_session && self.clients[usize::from(c)].session_dead {
                    Err(Refusal::SessionGone)
                } else {
                    self.store
                        .write(ctx.policy, cred, version_read, value, latest)
                };
                let token = cred.token.unwrap_or(0);
                let (accepted, reason) = match result {
                    Ok(()) => {
                        self.record(c, Kind::WriteAccepted, token, value, 0, None);
                        (true, None)
                    }
                    Err(why) => {
                        self.record(c, Kind::WriteRejected, token, value, 0, Some(why));
                        (false, Some(why))
                    }
                };
                self.run.writes.push(WriteRecord {
                    client,
                    token,
                    snapshot,
                    value,
                    debit,
                    t: self.now,
                    accepted,
                    reason,
                    stale: !latest,
                });
                let at = self.now.plus(ctx.store_latency);
                self.schedule(at, Ev::WriteReply(c, accepted));
            }
            Ev::WriteReply(_, accepted) => {
                if accepted {
                    let st = &mut self.clients[usize::from(c)];
                    st.pc += 1;
                    st.woke = false;
                    self.advance(ctx, c);
                } else {
                    self.abort(ctx, c);
                }
            }
            Ev::ReleaseAt(_, value) => {
                let now = self.now;
                let ended = self.lock().release(value, now);
                self.bit(ended);
                self.record(c, Kind::Released, 0, 0, u64::from(ended), None);
            }
            Ev::RenewAt(_, value) => {
                let now = self.now;
                let renewed = self.lock().renew(value, now);
                self.bit(renewed.is_some());
                match renewed {
                    Some(end) => self.record(c, Kind::Renewed, 0, 0, end.0, None),
                    None => self.record(c, Kind::RenewDenied, 0, 0, 0, None),
                }
                self.schedule(now.plus(ctx.lock_latency), Ev::RenewReply(c, renewed));
            }
            Ev::Fault(i) => match ctx.sc.faults[usize::from(i)].action {
                FaultAction::Terminate(x) => self.end_session(x, 0),
                FaultAction::Crash(k, restart) => {
                    let now = self.now;
                    let node = &mut self.locks[usize::from(k)];
                    let lost = node.crash(now, ctx.sc.service.persist);
                    if let Some(d) = restart {
                        // "Wait at least a TTL before restarting", timed by the node's own clock.
                        let h = &mut self.sig;
                        let local = node.clock.local_h(now, h).saturating_add(
                            i64::try_from(d.resolve(ctx.params)).unwrap_or(i64::MAX),
                        );
                        let at = node.clock.first_at_or_after_h(now, local, h);
                        self.schedule(at, Ev::Restart(k));
                    }
                    self.record_on(k, 0, Kind::NodeCrashed, 0, lost as i64, 0, None);
                }
                FaultAction::Restart(k) => {
                    if !self.locks[usize::from(k)].up {
                        self.handle(ctx, Ev::Restart(k));
                    }
                }
                FaultAction::Failover => {
                    let now = self.now;
                    let lag = ctx.sc.service.replica_lag.resolve(ctx.params);
                    let lost = self.lock().failover(now, lag);
                    self.record(0, Kind::Failover, 0, lost as i64, 0, None);
                }
                FaultAction::Partition(x, mask, cut) => {
                    let st = &mut self.clients[usize::from(x)];
                    st.reach = if cut {
                        st.reach & !mask
                    } else {
                        st.reach | mask
                    };
                    self.record(x, Kind::Partition, 0, i64::from(cut), u64::from(mask), None);
                }
                FaultAction::Freeze(x, d) => {
                    let d = d.resolve(ctx.params);
                    let now = self.now;
                    self.bit(now >= self.clients[usize::from(x)].frozen_until);
                    let st = &mut self.clients[usize::from(x)];
                    if st.phase != Phase::Done && now >= st.frozen_until {
                        st.frozen_until = now.plus(d);
                        self.begin_pause(x, d);
                        self.schedule(now.plus(d), Ev::Thaw(x));
                    }
                }
            },
            Ev::Thaw(_) => {
                self.clients[usize::from(c)].woke = true;
                self.record(c, Kind::PauseEnd, 0, 0, 0, None);
            }
            Ev::SessionTimeout(_) => {
                if self.clients[usize::from(c)].phase == Phase::Paused {
                    self.end_session(c, 1);
                }
            }
            Ev::Disconnect(_) => {
                if !self.clients[usize::from(c)].session_dead {
                    self.end_session(c, 2);
                }
            }
            Ev::RenewReply(_, renewed) => {
                let st = &mut self.clients[usize::from(c)];
                match (renewed, st.lease.as_mut()) {
                    (Some(_), Some(lease)) => {
                        // Conservative, like a real client: the new lease counts from when the renewal was
                        // sent, which the client remembered in `believed_end_local`'s place.
                        lease.believed_end_local = lease
                            .believed_end_local
                            .saturating_add(i64::try_from(ctx.ttl).unwrap_or(i64::MAX));
                        st.pc += 1;
                        self.advance(ctx, c);
                    }
                    _ => self.abort(ctx, c),
                }
            }
        }
    }

    /// A frozen client handles nothing of its own: its timers and the replies reaching it wait until
    /// it thaws, in the order they came (they are re-queued now, so their order is kept).
    fn deferred(&mut self, ev: Ev) -> bool {
        let own = matches!(
            ev,
            Ev::Step(_)
                | Ev::Wake(_)
                | Ev::AcquireReply(..)
                | Ev::ReadReply(..)
                | Ev::WriteReply(..)
                | Ev::RenewReply(..)
                | Ev::NodeAcquireReply(..)
                | Ev::RoundTimeout(..)
        );
        if !own {
            return false; // faults and restarts carry a fault or node index, not a client
        }
        let until = self.clients[usize::from(ev.client())].frozen_until;
        self.bit(self.now < until);
        if self.now < until {
            self.schedule(until, ev);
            return true;
        }
        false
    }

    /// The client's database session ends (`cause` 0: terminated by an admin, 1: keepalive timeout,
    /// 2: the client disconnected):
    /// a session lock it holds is freed, and accesses through the session fail from now on.
    fn end_session(&mut self, c: u8, cause: u64) {
        let now = self.now;
        let freed = self.lock().end_session(c, now);
        self.bit(freed);
        self.clients[usize::from(c)].session_dead = true;
        self.record(c, Kind::SessionEnded, 0, i64::from(freed), cause, None);
    }

    fn on_acquire_reply(&mut self, ctx: &Ctx, c: u8, grant: Grant) {
        let spec = &ctx.sc.clients[usize::from(c)];
        let now = self.now;
        let st = &mut self.clients[usize::from(c)];
        match grant {
            Grant::Granted {
                token, lock_value, ..
            } => {
                let cred = Credentials {
                    token: ctx.sc.service.tokens.then_some(token),
                    lock_value,
                    via_session: false,
                };
                // The lease counts from when the request was sent, by the client's own clock: the
                // careful reading (Redlock measures validity from the start of acquisition).
                let believed_end_local = st
                    .acquire_sent_local
                    .saturating_add(i64::try_from(ctx.ttl).unwrap_or(i64::MAX));
                st.lease = Some(HeldLease {
                    cred,
                    since: now,
                    believed_end_local,
                });
                st.belief_from = Some(now);
                st.pc += 1;
                self.advance(ctx, c);
            }
            Grant::NoSession => self.abort(ctx, c),
            Grant::Denied { .. } => {
                let Op::Acquire { every, tries } = spec.ops[st.pc] else {
                    unreachable!(
                        "an acquire reply arrives only while the client is at an acquire step"
                    )
                };
                if tries != 0 && st.tries >= tries {
                    st.phase = Phase::Done;
                    self.record(c, Kind::GaveUp, 0, 0, 0, None);
                } else {
                    let every = every.resolve(ctx.params);
                    let skip = if tries == 0 && self.fast_now {
                        self.plan_skip(ctx, c, every)
                    } else {
                        None
                    };
                    match skip {
                        Some(sk) => {
                            self.clients[usize::from(c)].tries += sk.polls as u32;
                            self.schedule(SimTime(sk.last), Ev::Step(c));
                            self.skip = Some(sk);
                        }
                        None => self.schedule(now.plus(every), Ev::Step(c)),
                    }
                }
            }
        }
    }

    /// Client `c` freezes now for `d` (a script's pause or a timed fault): the trace notes it with the
    /// token it holds and the value it read, and the timeline draws it.
    fn begin_pause(&mut self, c: u8, d: u64) {
        let now = self.now;
        let st = &self.clients[usize::from(c)];
        let (token, read) = (
            st.lease.and_then(|l| l.cred.token).unwrap_or(0),
            st.snapshot,
        );
        self.record(
            c,
            Kind::PauseStart,
            token,
            read.map_or(i64::MIN, |s| s.0),
            d,
            None,
        );
        self.run.pauses.push(Span {
            client: c,
            from: now,
            to: now.plus(d),
            tag: 0,
        });
    }

    /// Whether client `c`, just denied, can skip its next denied retries (see `Skip`), and how many.
    /// Folds each time comparison that decides into the signature, and the number skipped (a floor of
    /// times; 0 for no skip).
    fn plan_skip(&mut self, ctx: &Ctx, c: u8, every: u64) -> Option<Skip> {
        let skip = self.skippable(ctx, c, every);
        self.mix(skip.map_or(0, |k| k.polls));
        skip
    }

    fn skippable(&mut self, ctx: &Ctx, c: u8, every: u64) -> Option<Skip> {
        let st = &self.clients[usize::from(c)];
        let (now, lat) = (self.now.0, ctx.lock_latency);
        let (first, free) = (now.saturating_add(every), self.locks[0].free_at().0);
        let (frozen, late) = (st.frozen_until.0 > now, first >= SIM_TIME_US_MAX);
        // Attempt j (from 0) sends at first + j·period and reaches the lock lat later: denied while
        // that is before `free`.
        let free_first = first.saturating_add(lat) >= free;
        for b in [frozen, late, free_first] {
            self.bit(b); // each comparison on its own: their union is not one interval
        }
        let period = every.checked_add(2 * lat)?;
        let st = &self.clients[usize::from(c)];
        if self.skip.is_some()
            || period == 0
            || ctx.redlock
            || st.session_dead
            || frozen
            || late
            || free_first
        {
            return None;
        }
        let denied = (free - lat - 1 - first) / period + 1;
        // Stay clear of the run's limits: near them, event by event decides which error comes first.
        let by_time = (SIM_TIME_US_MAX - first) / period;
        let by_events = u64::from(EVENTS_MAX.saturating_sub(self.run.events + 10_000) / 3);
        let polls = denied.min(by_time).min(by_events);
        if polls == 0 {
            return None;
        }
        let sk = Skip {
            client: c,
            first,
            period,
            lat,
            polls,
            last: first + polls * period,
        };
        // Something already pending at one of those instants would be ordered against the skipped
        // events: don't jump.
        if self
            .queue
            .iter()
            .chain(self.now_fifo.iter())
            .any(|q| sk.on_chain(q.at().0))
        {
            return None;
        }
        Some(sk)
    }

    /// Runs the client's operations from its `pc` until one has to wait.
    fn advance(&mut self, ctx: &Ctx, c: u8) {
        let spec: &ClientSpec = &ctx.sc.clients[usize::from(c)];
        loop {
            let now = self.now;
            let st = &mut self.clients[usize::from(c)];
            st.phase = Phase::Waiting;
            let Some(&op) = spec.ops.get(st.pc) else {
                self.finish_client(ctx, c, Kind::Done);
                return;
            };
            match op {
                Op::Acquire { .. } => {
                    st.tries += 1;
                    st.acquire_sent_local = spec.clock.local_h(now, &mut self.sig);
                    self.record(c, Kind::AcquireSent, 0, 0, 0, None);
                    if ctx.redlock {
                        // SET key value NX PX ttl on every node, with one random value for the round.
                        let st = &mut self.clients[usize::from(c)];
                        st.round = st.round.wrapping_add(1) & 0xfff;
                        st.round_open = true;
                        st.replied = 0;
                        st.granted = 0;
                        let (round, reach) = (st.round, st.reach);
                        for k in 0..ctx.sc.service.nodes {
                            if reach & (1 << k) != 0 {
                                let lat = spec.link(k, ctx.lock_latency, ctx.params);
                                self.schedule(now.plus(lat), Ev::NodeAcquireAt(c, k, round));
                            }
                        }
                        self.schedule(now.plus(ctx.timeout), Ev::RoundTimeout(c, round));
                    } else {
                        self.schedule(now.plus(ctx.lock_latency), Ev::AcquireAt(c));
                    }
                    return;
                }
                Op::Read { via_session } => {
                    let cred = Credentials {
                        via_session,
                        ..st.lease.map(|l| l.cred).unwrap_or_default()
                    };
                    self.schedule(now.plus(ctx.store_latency), Ev::ReadAt(c, cred));
                    return;
                }
                Op::Work(d) => {
                    let d = d.resolve(ctx.params);
                    st.pc += 1;
                    self.bit(d > 0);
                    if d > 0 {
                        self.schedule(now.plus(d), Ev::Step(c));
                        return;
                    }
                }
                Op::Pause(d) => {
                    let d = d.resolve(ctx.params);
                    if st.attempt > 0 {
                        st.pc += 1;
                        continue;
                    }
                    st.phase = Phase::Paused;
                    self.begin_pause(c, d);
                    self.schedule(now.plus(d), Ev::Wake(c));
                    // Each comparison on its own: "off, or longer than the pause" is not one interval.
                    self.bit(ctx.idle > 0);
                    self.bit(d > ctx.idle);
                    if ctx.sc.service.kind == ServiceKind::Session && ctx.idle > 0 && d > ctx.idle {
                        // Frozen, it sends no keepalives: the server gives up on the session.
                        self.schedule(now.plus(ctx.idle), Ev::SessionTimeout(c));
                    }
                    return;
                }
                Op::Check(need) => {
                    let need = need.resolve(ctx.params);
                    let left = st.lease.map_or(i64::MIN, |l| {
                        l.believed_end_local - spec.clock.local_h(now, &mut self.sig)
                    });
                    let ok = left >= need as i64;
                    self.bit(ok);
                    self.record(
                        c,
                        if ok { Kind::CheckOk } else { Kind::CheckFailed },
                        0,
                        left,
                        need,
                        None,
                    );
                    if !ok {
                        self.abort(ctx, c);
                        return;
                    }
                    self.clients[usize::from(c)].pc += 1;
                }
                Op::Write {
                    debit,
                    delay,
                    via_session,
                } => {
                    let (snapshot, version_read) = st.snapshot.unwrap_or((0, 0));
                    let value = snapshot - debit;
                    let cred = Credentials {
                        via_session,
                        ..st.lease.map(|l| l.cred).unwrap_or_default()
                    };
                    let hold = if st.attempt == 0 {
                        delay.resolve(ctx.params)
                    } else {
                        0
                    };
                    self.record(
                        c,
                        Kind::WriteSent,
                        cred.token.unwrap_or(0),
                        value,
                        hold,
                        None,
                    );
                    if hold > 0 {
                        self.run.held.push(Span {
                            client: c,
                            from: now,
                            to: now.plus(hold),
                            tag: value,
                        });
                    }
                    let at = now.plus(ctx.store_latency).plus(hold);
                    self.schedule(
                        at,
                        Ev::WriteAt {
                            client: c,
                            cred,
                            version_read,
                            value,
                            debit,
                            snapshot,
                        },
                    );
                    return;
                }
                Op::Release => {
                    if let Some(lease) = st.lease {
                        self.end_belief(c, now); // while the lease (and its token) is still known
                        self.clients[usize::from(c)].lease = None;
                        self.send_release(ctx, c, lease.cred.lock_value);
                    }
                    self.clients[usize::from(c)].pc += 1;
                }
                Op::Idle => {
                    // Connected and silent: no more events of its own; its belief lasts to the end.
                    st.phase = Phase::Done;
                    self.record(c, Kind::Done, 0, 0, 0, None);
                    return;
                }
                Op::Renew => {
                    let Some(lease) = st.lease.as_mut() else {
                        self.abort(ctx, c);
                        return;
                    };
                    // Remember the send time: the renewed lease is believed to end a TTL after it.
                    lease.believed_end_local = spec.clock.local_h(now, &mut self.sig);
                    let value = lease.cred.lock_value;
                    self.schedule(now.plus(ctx.lock_latency), Ev::RenewAt(c, value));
                    return;
                }
            }
        }
    }

    /// The random value of a client's Redlock round: one per round, the same on every node, so an
    /// unlock deletes only that round's keys (a deterministic stand-in for a random generator).
    fn lock_value(&self, c: u8, round: u16) -> u64 {
        crate::rng::splitmix64(self.seed ^ (u64::from(c) + 1) << 40 ^ u64::from(round))
    }

    /// Value-checked release: to the lock service, or to every Redlock node the client can reach.
    fn send_release(&mut self, ctx: &Ctx, c: u8, value: u64) {
        let at = self.now.plus(ctx.lock_latency);
        if !ctx.redlock {
            self.schedule(at, Ev::ReleaseAt(c, value));
            return;
        }
        let st = &self.clients[usize::from(c)];
        let (round, reach) = (st.round, st.reach);
        let spec = &ctx.sc.clients[usize::from(c)];
        for k in 0..ctx.sc.service.nodes {
            if reach & (1 << k) != 0 {
                self.schedule(
                    self.now.plus(spec.link(k, ctx.lock_latency, ctx.params)),
                    Ev::NodeReleaseAt(c, k, round),
                );
            }
        }
    }

    /// Redlock, after the replies are in (or the wait timed out): the lock is held if a majority granted
    /// it and — unless the client is naive — validity = TTL − elapsed − drift is still positive, elapsed
    /// measured by the client's own clock from when it sent the requests. Otherwise it unlocks every
    /// node and tries again after `every` plus a seeded random share of `jitter`.
    fn count_round(&mut self, ctx: &Ctx, c: u8) {
        let spec = &ctx.sc.clients[usize::from(c)];
        let now = self.now;
        let st = &mut self.clients[usize::from(c)];
        st.round_open = false;
        let (granted, round, sent) = (st.granted.count_ones(), st.round, st.acquire_sent_local);
        let ttl = i64::try_from(ctx.ttl).unwrap_or(i64::MAX);
        let validity = ttl - (spec.clock.local_h(now, &mut self.sig) - sent) - ctx.drift as i64;
        let value = self.lock_value(c, round);
        self.bit(validity > 0);
        if granted >= u32::from(ctx.sc.service.quorum()) && (ctx.naive || validity > 0) {
            let st = &mut self.clients[usize::from(c)];
            let cred = Credentials {
                token: None,
                lock_value: value,
                via_session: false,
            };
            st.lease = Some(HeldLease {
                cred,
                since: now,
                believed_end_local: sent + ttl - ctx.drift as i64,
            });
            st.belief_from = Some(now);
            st.pc += 1;
            self.record(
                c,
                Kind::RedlockAcquired,
                0,
                validity,
                u64::from(granted),
                None,
            );
            self.advance(ctx, c);
            return;
        }
        self.record(
            c,
            Kind::RedlockFailed,
            0,
            validity,
            u64::from(granted),
            None,
        );
        self.send_release(ctx, c, value);
        let jitter = if ctx.jitter == 0 {
            0
        } else {
            let r = self.lock_value(c, round ^ 0x800);
            self.mix(r / (ctx.jitter + 1)); // a floor of the jitter parameter
            r % (ctx.jitter + 1)
        };
        let st = &mut self.clients[usize::from(c)];
        let Op::Acquire { every, tries } = spec.ops[st.pc] else {
            unreachable!("a round is counted only while the client is at an acquire step")
        };
        if tries != 0 && st.tries >= tries {
            st.phase = Phase::Done;
            self.record(c, Kind::GaveUp, 0, 0, 0, None);
            return;
        }
        self.schedule(
            now.plus(every.resolve(ctx.params)).plus(jitter),
            Ev::Step(c),
        );
    }

    fn end_belief(&mut self, c: u8, to: SimTime) {
        let st = &mut self.clients[usize::from(c)];
        if let Some(from) = st.belief_from.take() {
            let token = st.lease.and_then(|l| l.cred.token).unwrap_or(0);
            self.run.beliefs.push(Span {
                client: c,
                from,
                to,
                tag: token as i64,
            });
        }
    }

    /// The attempt failed (refused access, failed check, lost renewal): start over or give up.
    fn abort(&mut self, ctx: &Ctx, c: u8) {
        let now = self.now;
        // It has learned it lost the lock: its belief ends here.
        self.end_belief(c, now);
        let st = &mut self.clients[usize::from(c)];
        if st.attempt >= ctx.retries {
            st.phase = Phase::Done;
            st.lease = None;
            self.record(c, Kind::GaveUp, 0, 0, 0, None);
            return;
        }
        st.attempt += 1;
        st.tries = 0;
        st.session_dead = false; // starting over means a new connection
        st.snapshot = None;
        st.woke = false;
        st.pc = ctx.sc.clients[usize::from(c)].restart_pc();
        let attempt = st.attempt;
        if let Some(lease) = st.lease.take() {
            // Hand back whatever it may still hold before asking again (value-checked: harmless if gone).
            self.send_release(ctx, c, lease.cred.lock_value);
        }
        self.record(c, Kind::Retry, 0, 0, u64::from(attempt), None);
        self.advance(ctx, c);
    }

    fn finish_client(&mut self, ctx: &Ctx, c: u8, kind: Kind) {
        let now = self.now;
        let spec = &ctx.sc.clients[usize::from(c)];
        let st = &mut self.clients[usize::from(c)];
        st.phase = Phase::Done;
        if let (Some(from), Some(lease)) = (st.belief_from.take(), st.lease) {
            // Finished without releasing: it believes the lease is its own until it runs out by its clock.
            // (A session lock has no end of its own: the belief lasts as long as the script.)
            let to = if ctx.ttl == u64::MAX {
                now
            } else {
                spec.clock.true_time_of(lease.believed_end_local).max(now)
            };
            self.run.beliefs.push(Span {
                client: c,
                from,
                to,
                tag: lease.cred.token.unwrap_or(0) as i64,
            });
        }
        self.record(c, kind, 0, 0, 0, None);
        if ctx.sc.service.kind == ServiceKind::Session && !self.clients[usize::from(c)].session_dead
        {
            // Its script is over: the client disconnects, which ends its session (and frees a lock it
            // still holds, as PostgreSQL does at session end) — after the messages it already sent.
            self.schedule(now, Ev::Disconnect(c));
        }
    }

    fn finish(&mut self, ctx: &Ctx) {
        self.run.final_balance = self.store.balance;
        self.run.end = self.now;
        for c in 0..self.clients.len() {
            // Idle clients still holding on: their belief lasts to the end of the run.
            if self.clients[c].belief_from.is_some() {
                self.end_belief(c as u8, self.now);
            }
        }
        for lock in &self.locks {
            self.run.leases.extend_from_slice(&lock.leases);
        }
        if self.trace_on {
            // Lease expiries are facts of the lock service's clock, not events that change anything:
            // merge them into the trace (before other events at the same instant).
            for l in self.locks.iter().flat_map(|lock| &lock.leases) {
                if !l.released && !l.session_ended && !l.lost && l.ends_at <= self.now {
                    let at = self.run.trace.partition_point(|e| e.t < l.ends_at);
                    let ev = TraceEvent {
                        t: l.ends_at,
                        client: l.client,
                        node: l.node,
                        kind: Kind::LeaseExpired,
                        token: l.token,
                        value: 0,
                        aux: 0,
                        reason: None,
                    };
                    self.run.trace.insert(at, ev);
                }
            }
            // Clock steps, likewise: each server's (which move expiries) and each client's.
            let servers = self
                .locks
                .iter()
                .map(|l| (l.node, &l.clock, Kind::ServerClockStep));
            let clients = ctx
                .sc
                .clients
                .iter()
                .enumerate()
                .map(|(i, c)| (i as u8, &c.clock, Kind::ClockStep));
            for (c, clock, kind) in servers.chain(clients) {
                if clock.monotonic {
                    continue;
                }
                for &(at, by) in clock.steps.iter().filter(|s| s.0 <= self.now.0) {
                    let i = self.run.trace.partition_point(|e| e.t.0 < at);
                    // A server's step is on its lane (`node`); a client's on the client's.
                    let (client, node) = if kind == Kind::ServerClockStep {
                        (0, c)
                    } else {
                        (c, 0)
                    };
                    let ev = TraceEvent {
                        t: SimTime(at),
                        client,
                        node,
                        kind,
                        token: 0,
                        value: by,
                        aux: 0,
                        reason: None,
                    };
                    self.run.trace.insert(i, ev);
                }
            }
        }
    }
}

/// A lock's answer as one word for the signature: granted, refused (and by whom), or no session.
fn grant_word(g: Grant) -> u64 {
    match g {
        Grant::Granted { .. } => 1,
        Grant::Denied { holder } => 2 + (holder.map_or(0, |h| u64::from(h) + 1) << 8),
        Grant::NoSession => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Scenario {
        Scenario::parse(&format!("id: t\ntitle: t\nsummary: s\n{text}")).unwrap()
    }

    #[test]
    fn too_many_events_is_a_clear_error() {
        // B polls every microsecond against a one-hour lease: millions of attempts.
        let sc = parse("service: lease ttl=3600s\nclient A: acquire; read; write 1\nclient B: acquire every 1us; read; write 1\n");
        let err = Engine::new()
            .run(&sc, &Config::new(&sc, Policy::None))
            .unwrap_err();
        assert!(matches!(err, Error::Limit { .. }), "{err}");
        assert!(err.to_string().contains("events"), "{err}");
    }

    #[test]
    fn too_much_simulated_time_is_a_clear_error() {
        let sc = parse("client A: acquire; work 3600s; work 3600s; work 1s; read; write 1\n");
        let err = Engine::new()
            .run(&sc, &Config::new(&sc, Policy::None))
            .unwrap_err();
        assert!(err.to_string().contains("simulated time"), "{err}");
    }

    #[test]
    fn same_instant_events_run_in_scheduling_order() {
        // A's pause ends at 300 ms, scheduled at 0; B's attempt at 300 ms was scheduled at 250 ms. A goes
        // first: it writes under its (just expired) lease before B is granted, so nothing is lost.
        let sc = crate::catalogue::find("seed-gc-pause").unwrap();
        let mut cfg = Config::new(sc, Policy::None);
        sc.set_param(&mut cfg.params, "pause", 300_000).unwrap();
        let run = Engine::new().run(sc, &cfg).unwrap().clone();
        let order: Vec<(u8, Kind)> = run
            .trace
            .iter()
            .filter(|e| e.t.0 == 300_000)
            .map(|e| (e.client, e.kind))
            .collect();
        let a_write = order
            .iter()
            .position(|&(c, k)| c == 0 && k == Kind::WriteAccepted)
            .unwrap();
        let b_grant = order
            .iter()
            .position(|&(c, k)| c == 1 && k == Kind::Granted)
            .unwrap();
        assert!(a_write < b_grant, "{order:?}");
        assert_eq!(run.final_balance, 390);
    }

    #[test]
    fn a_frozen_client_sees_its_reply_only_when_it_thaws() {
        let sc = crate::catalogue::find("reply-in-flight").unwrap();
        let run = Engine::new()
            .run(sc, &Config::new(sc, Policy::None))
            .unwrap()
            .clone();
        let granted = run
            .trace
            .iter()
            .find(|e| e.kind == Kind::Granted && e.client == 0)
            .unwrap();
        assert_eq!(granted.t.0, 1_000, "the lock service grants at 1 ms");
        let a = run.beliefs.iter().find(|b| b.client == 0).unwrap();
        assert_eq!(
            a.from.0, 351_000,
            "A learns of it when it thaws, 350 ms later"
        );
        let read = run
            .trace
            .iter()
            .find(|e| e.kind == Kind::Read && e.client == 0)
            .unwrap();
        assert_eq!(read.t.0, 351_000);
    }

    #[test]
    fn a_released_belief_keeps_its_token() {
        let sc = crate::catalogue::find("gc-pause").unwrap();
        let run = Engine::new()
            .run(sc, &Config::new(sc, Policy::None))
            .unwrap()
            .clone();
        let b = run.beliefs.iter().find(|b| b.client == 1).unwrap();
        assert_eq!((b.from.0, b.to.0, b.tag), (310_000, 340_000, 2));
    }

    #[test]
    fn a_paused_client_keeps_its_belief() {
        let sc = crate::catalogue::find("seed-gc-pause").unwrap();
        let run = Engine::new()
            .run(sc, &Config::new(sc, Policy::None))
            .unwrap()
            .clone();
        let a = run.beliefs.iter().find(|b| b.client == 0).unwrap();
        assert_eq!(
            (a.from.0, a.to.0),
            (0, 600_000),
            "A believes it holds the lock through its pause"
        );
        let truth = run.leases[0];
        assert_eq!((truth.granted_at.0, truth.ends_at.0), (0, 300_000));
    }
}
