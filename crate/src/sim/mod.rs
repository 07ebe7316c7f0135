//! The discrete-event engine: a queue of events ordered by `(time, sequence)`, a clock that jumps to the
//! next event, and the actors that react to them.
//!
//! Ties: two events at the same microsecond run in the order they were scheduled (the sequence number),
//! so every run is exactly repeatable. A message with zero latency is still an event: it arrives after
//! everything already scheduled for that instant.
//!
//! The map (see also `docs/architecture.md`):
//! - here: the run loop and its limits, reset, the trace recorder, and the dispatcher (`Engine::handle`);
//! - `event`: the table of event kinds and the messages they carry; `queue`: the ordered queue;
//! - `skip`: sweeps' jump over a polling client's denied retries;
//! - actors: `script` (the client script interpreter), `storage` (the guarded store's side),
//!   `faults` (the fault injector), `link` (when a message between a client and the lock service
//!   arrives), `finish` (what a run leaves behind);
//! - the lock services, one file each, in [`crate::services`].
//!
//! Every choice that depends on a time goes through `Engine::decide` (and every floor of a time through
//! `Engine::floor`), so a sweep's path signature sees it (see [`crate::sig`]).

mod client;
mod event;
mod faults;
mod finish;
mod link;
mod queue;
mod script;
mod skip;
mod storage;

pub(crate) use event::{Ev, Msg, Tag, WriteMsg};

use crate::error::Error;
use crate::lock::LeaseService;
use crate::scenario::{Scenario, ServiceKind, ServiceSpec};
use crate::sig::Path;
use crate::store::{GuardedStore, Policy};
use crate::time::{SimTime, SEC};
use crate::trace::{Span, TraceEvent, What, WriteRecord};
pub(crate) use client::{ClientState, HeldLease, Phase};
use event::Mailbox;
use queue::{EventQueue, Queued};
use skip::Skip;

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
    /// The naive switch, for a service that has one ([`crate::scenario::ServiceKind::has_naive`]).
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
            naive: scenario.service.naive_default,
        }
    }
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
    /// A quorum service (`ServiceKind::quorum`): the clients that came to hold live keys on a
    /// majority of nodes, in order (the truth the ideal guard follows).
    pub majorities: Vec<u8>,
    /// Time of the last event.
    pub end: SimTime,
    pub events: u32,
    /// The path's signature (see [`crate::sig`]): the same path gives the same value. Computed only by
    /// engines in sweep mode ([`Engine::set_fast`]); 0 otherwise.
    pub sig: u64,
}

/// How an engine runs, fixed by its type: [`Dyn`] as each run's settings say (traced or not, in sweep
/// mode or not), [`Plain`] untraced and event by event only, with the trace's and the signature's code
/// compiled out. Only the build for speed (feature `speed`) has both: there `leaselab_macros::
/// engine_mode` makes `Engine` and its impls generic over the mode. Elsewhere the engine is the one
/// for every run, written as such (`type M = Dyn`): a generic engine, even with one mode in use, came out
/// 1.3 KB larger in the lab's full wasm (issue 18, CHANGELOG.md).
pub trait Mode: Default + 'static {
    /// Untraced, never in sweep mode: every test of those flags is a constant.
    const PLAIN: bool;
}

/// An engine for every kind of run (the default).
#[derive(Default)]
pub struct Dyn;

/// An engine for untraced runs event by event only ([`Engine::run_at`] without sweep mode): the
/// every-cell sweep in explore's build for speed runs on it (`crate::sweep::sweep_every_cell`), where
/// the flags' tests on every event and in every handler cost about 9 % (issue 18, CHANGELOG.md).
/// Its runs keep what a [`crate::outcome::Summary`] reads (writes, balances, end, events) and no
/// spans or lease records (`Engine::records_spans`). A second copy of the engine in the wasm: the
/// lab's builds, held to size budgets, leave it out.
#[derive(Default)]
pub struct Plain;

impl Mode for Dyn {
    const PLAIN: bool = false;
}

impl Mode for Plain {
    const PLAIN: bool = true;
}

/// The engine's mode where the engine is not generic (the lab's builds): the one for every run.
#[cfg(not(feature = "speed"))]
pub(crate) type M = Dyn;

/// A reusable engine: run as many configurations as you like without allocating after the first.
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
#[derive(Default)]
pub struct Engine {
    queue: EventQueue,
    mail: Mailbox,
    pub(crate) clients: Vec<ClientState>,
    /// The lock servers: one, or a quorum service's nodes.
    pub(crate) locks: Vec<LeaseService>,
    /// The lock services' own run state (each service's, in its own type).
    pub(crate) services: crate::services::Services,
    pub(crate) seed: u64,
    store: GuardedStore,
    pub(crate) now: SimTime,
    trace_on: bool,
    /// Sweep mode (see [`Engine::set_fast`]).
    fast: bool,
    /// `fast` for this run (off when traced, or when re-running after a bail).
    fast_now: bool,
    pub(crate) skip: Option<Skip>,
    /// The clients cut off from the lock service in this run (`FaultAction::Cut`), with when they
    /// heal; empty in nearly every run (`Engine::lock_hop`).
    pub(crate) cuts: Vec<link::Cut>,
    /// The fast run met something it cannot skip exactly: run again event by event.
    bail: bool,
    pub(crate) path: Path,
    pub run: Run,
}

/// One run's settings, resolved once: the hot loop reads them on every event.
pub(crate) struct Ctx<'a> {
    pub sc: &'a Scenario,
    pub service: ServiceKind,
    pub policy: Policy,
    pub params: &'a [u64],
    pub retries: u32,
    /// `u64::MAX` for a session lock (no TTL).
    pub ttl: u64,
    pub idle: u64,
    pub lock_latency: u64,
    pub store_latency: u64,
    // The next three are read by services only, and by none of the core's: a build of the core
    // alone resolves them unread.
    #[allow(dead_code)]
    pub naive: bool,
    #[allow(dead_code)]
    pub timeout: u64,
    #[allow(dead_code)]
    pub jitter: u64,
    /// A quorum client's drift allowance for this TTL.
    pub drift: u64,
}

impl<'a> Ctx<'a> {
    // Inline: every run resolves one, and with the plain engine beside the other it became a call.
    #[cfg_attr(feature = "speed", inline(always))]
    fn new(
        sc: &'a Scenario,
        policy: Policy,
        params: &'a [u64],
        retries: u32,
        naive: bool,
    ) -> Ctx<'a> {
        let svc = &sc.service;
        let ttl = match svc.kind.expires() {
            true => svc.ttl.resolve(params),
            false => u64::MAX,
        };
        Ctx {
            sc,
            service: svc.kind,
            policy,
            params,
            retries,
            ttl,
            idle: svc.idle.resolve(params),
            lock_latency: svc.lock_latency.resolve(params),
            store_latency: svc.store_latency.resolve(params),
            naive,
            timeout: svc.timeout.resolve(params),
            jitter: svc.jitter.resolve(params),
            drift: ServiceSpec::drift(ttl),
        }
    }

    /// The TTL as a signed count of local µs (saturating for a session lock's unbounded one).
    pub fn ttl_local(&self) -> i64 {
        i64::try_from(self.ttl).unwrap_or(i64::MAX)
    }
}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
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
        let ctx = Ctx::new(sc, policy, params, retries, naive);
        self.run_ctx(ctx, trace, seed)
    }
}

#[cfg(feature = "speed")]
impl Engine<Plain> {
    /// An engine for untraced runs event by event (see [`Plain`]): it has [`Engine::run_at`] only.
    pub fn plain() -> Engine<Plain> {
        Engine::default()
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// Whether this run records its trace.
    #[inline(always)]
    fn tracing(&self) -> bool {
        !M::PLAIN && self.trace_on
    }

    /// Whether the engine computes path signatures (sweep mode, see [`Engine::set_fast`]).
    #[inline(always)]
    fn sweeping(&self) -> bool {
        !M::PLAIN && self.fast
    }

    /// Whether this run skips a polling client's denied retries (sweep mode, untraced).
    #[inline(always)]
    pub(crate) fn skipping(&self) -> bool {
        !M::PLAIN && self.fast_now
    }

    /// Whether this run keeps its spans and lease records for a diagram and a reader (beliefs, pauses,
    /// writes held, majorities, grants): every engine's runs but a plain one's, whose only reader is a
    /// summary of the writes and the balance ([`crate::outcome::summarize`]).
    #[inline(always)]
    pub(crate) fn records_spans(&self) -> bool {
        !M::PLAIN
    }

    /// Records a choice that depends on a time, and returns it: `if self.decide(a < b)`. Sweep engines
    /// only fold it into the path signature; others skip the arithmetic.
    #[inline(always)]
    pub(crate) fn decide(&mut self, b: bool) -> bool {
        if self.sweeping() {
            self.path.decide(b);
        }
        b
    }

    /// Records a value that a floor of times produced (see [`crate::sig::Path::floor`]).
    #[inline(always)]
    pub(crate) fn floor(&mut self, w: u64) {
        if self.sweeping() {
            self.path.floor(w);
        }
    }

    /// `cfg` at `params` instead of its own, untraced: one point of a sweep or a search.
    pub fn run_at(&mut self, sc: &Scenario, cfg: &Config, params: &[u64]) -> Result<&Run, Error> {
        let ctx = Ctx::new(sc, cfg.policy, params, cfg.retries, cfg.naive);
        self.run_ctx(ctx, false, cfg.seed)
    }

    /// A run as `ctx` says, checked first; a sweep's fast run that gives up runs again event by event.
    fn run_ctx(&mut self, ctx: Ctx, trace: bool, seed: u64) -> Result<&Run, Error> {
        debug_assert!(!(M::PLAIN && trace), "a plain engine records no trace");
        check_config(ctx.sc, ctx.params, ctx.retries)?;
        if !self.run_once(&ctx, trace, seed, self.sweeping() && !trace)? {
            self.run_once(&ctx, trace, seed, false)?;
        }
        Ok(&self.run)
    }

    /// One run; `Ok(false)` if a fast run had to give up (see `Skip`).
    fn run_once(&mut self, ctx: &Ctx, trace: bool, seed: u64, fast: bool) -> Result<bool, Error> {
        let (sc, params) = (ctx.sc, ctx.params);
        self.reset(ctx, trace, seed);
        self.fast_now = fast;
        if sc.service.kind.quorum() {
            // A floor of the TTL that only a quorum's validity uses: other services' paths stay the
            // same along a TTL axis between their own choices, so sweeps and searches fill those cells.
            self.floor(ctx.drift);
        }
        for (i, spec) in sc.clients.iter().enumerate() {
            let start = spec.start.resolve(params);
            self.schedule(SimTime(start), Ev::bare(Tag::Step, i as u8));
        }
        for (i, fault) in sc.faults.iter().enumerate() {
            self.schedule(
                SimTime(fault.at.resolve(params)),
                Ev::bare(Tag::Fault, i as u8),
            );
        }
        while let Some(q) = self.queue.pop() {
            if !self.admit(q)? {
                return Ok(false);
            }
            let ev = q.ev();
            if self.deferred(ev) {
                continue;
            }
            self.handle(ctx, ev);
        }
        if self.bail {
            return Ok(false);
        }
        self.finish(ctx);
        for k in 0..self.locks.len() {
            self.floor(self.locks[k].path.digest());
        }
        self.run.sig = self.path.digest();
        Ok(true)
    }

    /// Moves the clock to the next event and counts it, within the run's limits; `Ok(false)` if a fast
    /// run must give up because the event would disturb a skip.
    fn admit(&mut self, q: Queued) -> Result<bool, Error> {
        let at = q.at();
        self.run.events += 1;
        // One branch for both limits, on every event; which one was passed only when one was.
        if (at.0 > SIM_TIME_US_MAX) | (self.run.events > EVENTS_MAX) {
            if self.bail {
                // A sweep's run that gave up on the event before: its run event by event decides.
                return Ok(false);
            }
            return Err(limit_passed(at));
        }
        debug_assert!(at >= self.now, "time never goes back");
        self.now = at;
        if !self.sweeping() {
            // No signature, and no skip: only a sweep's run plans one (`retry_acquire`). Checking
            // this first took 4 % off the every-cell sweep in wasm (issue 18, CHANGELOG.md).
            debug_assert!(self.skip.is_none());
            return Ok(true);
        }
        if self.bail {
            return Ok(false);
        }
        self.path.event(q.identity());
        let Some(sk) = self.skip else {
            return Ok(true);
        };
        if q.client() == sk.client && q.tag() == Tag::Step && at.0 == sk.last {
            // The jump lands: count the skipped attempts' events as if they had run.
            self.skip = None;
            self.count_events(3 * sk.polls as u32)?;
            return Ok(true);
        }
        // The polling client's own event, or one that touches the lock: not skippable.
        Ok(q.client() != sk.client && q.tag().props().lock_free)
    }

    fn count_events(&mut self, n: u32) -> Result<(), Error> {
        self.run.events += n;
        if self.run.events > EVENTS_MAX {
            return Err(events_limit());
        }
        Ok(())
    }

    fn reset(&mut self, ctx: &Ctx, trace: bool, seed: u64) {
        self.reset_locks(ctx, seed);
        self.services.reset(ctx.service, ctx.sc.clients.len());
        self.seed = seed;
        self.queue.clear();
        self.clients.clear();
        self.clients
            .resize(ctx.sc.clients.len(), ClientState::default());
        for (st, spec) in self.clients.iter_mut().zip(ctx.sc.clients.iter()) {
            st.reach = spec.reach;
            #[cfg(feature = "libraries")]
            {
                st.heard.library = spec.library.is_some();
                st.heard.renews = spec.library.is_some_and(|l| l.renews());
            }
        }
        self.mail.reset(ctx.sc.clients.len());
        self.store = GuardedStore::new(ctx.sc.balance);
        self.skip = None;
        self.cuts.clear();
        self.bail = false;
        self.path = Path::default();
        self.now = SimTime::ZERO;
        self.trace_on = trace;
        self.run.reset(ctx.sc.balance);
    }

    fn reset_locks(&mut self, ctx: &Ctx, seed: u64) {
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
    }

    /// Queues an event that carries nothing in the mailbox (see [`Engine::send`] for one that does).
    // Inline, as `send` and `retry_acquire`: nearly every handler ends by scheduling its follow-up, and
    // a call in V8's wasm costs the caller every value it keeps in a register. The three inline took the
    // every-cell sweep from 110 to 100 ms in wasm; `schedule` alone changed nothing, as `send` then
    // grew too big for rustc to inline on its own (issue 18, CHANGELOG.md).
    #[inline(always)]
    pub(crate) fn schedule(&mut self, at: SimTime, ev: Ev) {
        if let Some(sk) = self.skip {
            if sk.on_chain(at.0) {
                self.bail = true; // its order against a skipped event is unknown
            }
        }
        self.queue.push(at, ev);
    }

    /// Queues an event of a `Mailbox` kind; its message waits in the mailbox until it is handled.
    // Inline: see `Engine::schedule`.
    #[inline(always)]
    pub(crate) fn send(&mut self, at: SimTime, tag: Tag, client: u8, msg: Msg) {
        self.mail.put(tag, client, msg);
        self.schedule(at, Ev::bare(tag, client));
    }

    /// The message an event carries in the mailbox (`Msg::None` for one that carries none there).
    #[inline(always)]
    pub(crate) fn msg(&self, ev: Ev) -> Msg {
        self.mail.get(ev)
    }

    /// Adds an event to the trace (traced runs only).
    pub(crate) fn record(&mut self, client: u8, what: What) {
        self.record_on(0, client, what);
    }

    /// Adds an event of lock server `node` to the trace.
    pub(crate) fn record_on(&mut self, node: u8, client: u8, what: What) {
        if self.tracing() {
            let t = self.now;
            self.run.trace.push(TraceEvent {
                t,
                client,
                node,
                what,
            });
        }
    }

    /// Hands an event to the actor or lock service that owns its kind. The handlers are
    /// `#[inline(never)]`: inlined, they made the run loop one function so large (35,000 lines of wasm,
    /// with wasm-opt inlining the rest) that V8 compiled its hot path into register spills; apart, the
    /// every-cell sweep runs about 5 % faster in wasm (issue 18, CHANGELOG.md).
    fn handle(&mut self, ctx: &Ctx, ev: Ev) {
        let polls = ctx.service.polls_one_server();
        match ev.tag {
            // The three events of a polling client's round (its retry, its request at the server, the
            // answer) go straight to their handlers: through the interpreter and the services'
            // dispatch, the every-cell sweep took 8 % (the retry) and 6–8 % (the other two) longer
            // in wasm (issue 18, CHANGELOG.md).
            Tag::Step if polls && self.at_acquire_step(ctx, ev.client) => {
                self.on_poll_retry(ctx, ev.client)
            }
            Tag::Step | Tag::Wake => self.on_script_event(ctx, ev),
            Tag::AcquireAt if polls => self.on_poll_request(ctx, ev.client),
            Tag::AcquireReply if polls => self.on_poll_answer(ctx, ev),
            Tag::AcquireRefused if polls => self.on_poll_refused(ctx, ev.client),
            Tag::ReadAt | Tag::ReadReply | Tag::WriteAt | Tag::WriteReply => {
                self.on_storage_event(ctx, ev)
            }
            Tag::Fault | Tag::Thaw | Tag::Restart | Tag::Heal => self.on_fault_event(ctx, ev),
            #[cfg(feature = "libraries")]
            Tag::LibraryTimer => self.on_library_timer(ctx, ev),
            #[cfg(feature = "libraries")]
            Tag::LibraryAt => self.on_library_at(ctx, ev),
            _ => self.on_service_event(ctx, ev),
        }
    }

    /// A frozen client handles nothing of its own: its timers and the replies reaching it wait until
    /// it thaws, in the order they came (they are re-queued now, so their order is kept).
    fn deferred(&mut self, ev: Ev) -> bool {
        if !ev.tag.props().own {
            return false; // faults and restarts carry a fault or node index, not a client
        }
        let until = self.clients[usize::from(ev.client)].frozen_until;
        if self.decide(self.now < until) {
            self.schedule(until, ev);
            return true;
        }
        false
    }
}

/// Refuses settings the scenario cannot run with. Every run asks: in the build for speed the answer
/// inline and an error built out of line (with the plain engine beside the other, a call on every run
/// otherwise); the lab's builds leave both to the compiler, which inlines them (70–100 B smaller).
#[cfg_attr(feature = "speed", inline(always))]
fn check_config(sc: &Scenario, params: &[u64], retries: u32) -> Result<(), Error> {
    let fits = params.len() == sc.params.len() && retries <= RETRIES_MAX;
    let libraries_ok = !checks_libraries() || sc.clients.iter().all(|c| c.library.is_none());
    if fits && libraries_ok && crate::services::built_in(sc.service.kind) {
        return Ok(());
    }
    config_error(sc, params, retries)
}

/// Whether a run must check that no client calls a library: only natively, in a build without them
/// (whose catalogue, parsed by the build script, has their scenarios). A wasm without them has none:
/// its catalogue leaves them out (build.rs) and its parser refuses `library=`, so the check and its
/// message would cost the page's wasm bytes for nothing.
const fn checks_libraries() -> bool {
    !cfg!(feature = "libraries") && !cfg!(target_arch = "wasm32")
}

#[cfg_attr(feature = "speed", cold, inline(never))]
fn config_error(sc: &Scenario, params: &[u64], retries: u32) -> Result<(), Error> {
    crate::services::check_built_in(sc)?;
    if checks_libraries() {
        crate::libraries::check_built_in(sc)?;
    }
    if params.len() != sc.params.len() {
        let why = format!(
            "scenario {} takes {} values, got {}",
            sc.id,
            sc.params.len(),
            params.len()
        );
        return Err(Error::BadValue {
            what: "parameters".into(),
            why,
        });
    }
    if retries > RETRIES_MAX {
        return Err(Error::BadValue {
            what: "retries".into(),
            why: format!("expected 0 to {RETRIES_MAX}"),
        });
    }
    Ok(())
}

// The limits' errors are built out of line: the checks run on every event, the errors almost never.
#[cold]
#[inline(never)]
fn time_limit() -> Error {
    Error::Limit {
        what: format!("simulated time passed {} s", SIM_TIME_US_MAX / SEC),
    }
}

#[cold]
#[inline(never)]
fn limit_passed(at: SimTime) -> Error {
    if at.0 > SIM_TIME_US_MAX {
        time_limit()
    } else {
        events_limit()
    }
}

#[cold]
#[inline(never)]
fn events_limit() -> Error {
    Error::Limit {
        what: format!("more than {EVENTS_MAX} events"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Kind;

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

    /// A sweep's run that bailed gives up (`Ok(false)`) even when the next event passes a limit: the
    /// run event by event, which the sweep falls back to, decides whether the limit is really passed.
    /// (Reaching this from a scenario takes 10,000 events during one skip, which `plan_skip`'s margin
    /// prevents, so the state is set up by hand.)
    #[test]
    fn a_bail_outranks_a_limit_met_on_the_next_event() {
        let next_event = |bail: bool, at: SimTime, events: u32| {
            let mut e = Engine::new();
            e.set_fast(true);
            e.bail = bail;
            e.run.events = events;
            e.queue.push(at, Ev::bare(Tag::Step, 0));
            let q = e.queue.pop().unwrap();
            e.admit(q).map_err(|err| err.to_string())
        };
        let late = SimTime(SIM_TIME_US_MAX + 1);
        assert_eq!(next_event(true, SimTime(1), EVENTS_MAX), Ok(false));
        assert_eq!(next_event(true, late, 0), Ok(false));
        assert!(next_event(false, SimTime(1), EVENTS_MAX)
            .unwrap_err()
            .contains("events"));
        assert!(next_event(false, late, 0)
            .unwrap_err()
            .contains("simulated time"));
        assert_eq!(
            next_event(true, SimTime(1), 0),
            Ok(false),
            "a bail within the limits"
        );
        assert_eq!(next_event(false, SimTime(1), 0), Ok(true));
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
            .map(|e| (e.client, e.kind()))
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

    /// When client `c` sent its acquire requests, and whether it gave up.
    fn requests(run: &Run, c: u8) -> (Vec<u64>, bool) {
        let of = |k: Kind| {
            run.trace
                .iter()
                .filter(move |e| e.client == c && e.kind() == k)
        };
        let sent = of(Kind::AcquireSent).map(|e| e.t.0 / 1000).collect();
        (sent, of(Kind::GaveUp).next().is_some())
    }

    /// A run in which A takes a 100 ms lease and never lets go, and B, from 10 ms, polls as `acquire`
    /// says.
    fn polled(acquire: &str) -> Run {
        let sc = parse(&format!(
            "service: lease ttl=100ms\nclient A: acquire; read; write 1\nclient B: start 10ms; {acquire}; read; write 1\n"
        ));
        let cfg = Config::new(&sc, Policy::None);
        Engine::new().run(&sc, &cfg).unwrap().clone()
    }

    // A polling client's retries (which skip the interpreter: `Engine::on_poll_retry`): each counts
    // as a try, is traced, and is the moment a lease it wins counts from.
    #[test]
    fn a_polling_client_counts_each_retry_and_gives_up_after_its_tries() {
        let run = polled("acquire every 40ms tries 3");
        assert_eq!(requests(&run, 1), (vec![10, 50, 90], true));
    }

    #[test]
    fn a_lease_won_on_a_retry_counts_from_that_retry() {
        let run = polled("acquire every 40ms");
        assert_eq!(requests(&run, 1), (vec![10, 50, 90, 130], false));
        let b = run.beliefs.iter().find(|b| b.client == 1).unwrap();
        assert_eq!((b.from.0, b.to.0), (130_000, 230_000));
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
            .find(|e| e.kind() == Kind::Granted && e.client == 0)
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
            .find(|e| e.kind() == Kind::Read && e.client == 0)
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
