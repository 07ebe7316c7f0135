//! What a lock service is to the engine: the two halves of the one interface between them.
//!
//! A service is a unit type in its own file (`lease::Lease`, `redis::Redis`, …) that implements
//! [`LockService`] — its run state, its words in the transcript (its facts are its model home's) — and, on the engine, [`Serve`] for that type: what the engine calls when
//! a client asks for the lock, lets it go, pauses or ends its script, and when one of the service's
//! own events comes due. The registry (`mod.rs`) lists each service once and generates the dispatch
//! from that list; the engine calls only the dispatch, never a service by name.

use crate::lock::LeaseRecord;
use crate::scenario::Scenario;
use crate::sim::{Ctx, Ev};
use crate::trace::TraceEvent;

/// A lock service's run state and words. (Its facts — whether it polls one server, is held by a
/// quorum, expires — are its model home's `Facts`, asked as `ServiceKind::quorum()` and the like.)
pub(crate) trait LockService {
    /// Its own state during a run (`()` for one whose state is the engine's lock servers).
    type State: Default;

    /// Ready for a run with `clients` clients, keeping its allocations.
    fn reset(_state: &mut Self::State, _clients: usize) {}

    /// The grants it keeps itself (the others' are in the engine's lock servers).
    fn grants(_state: &Self::State) -> &[LeaseRecord] {
        &[]
    }

    /// The transcript's wording of one of its own events; `None` for events the clients' and the
    /// storage's wording covers ([`crate::report::transcript()`]).
    fn say(_sc: &Scenario, _e: &TraceEvent, _who: char) -> Option<Said> {
        None
    }
}

/// The engine's half of a service `S`: implemented on the engine in `S`'s own file.
pub(crate) trait Serve<S: LockService> {
    /// One of the service's own events.
    fn on_event(&mut self, ctx: &Ctx, ev: Ev);

    /// The client asks for the lock (its acquire step).
    fn acquire(&mut self, ctx: &Ctx, c: u8);

    /// The client lets go of the lock it was granted with `value`.
    fn release(&mut self, ctx: &Ctx, c: u8, value: u64);

    /// The client the ideal guard lets write: the one the service last made the holder.
    fn rightful(&self, ctx: &Ctx) -> Option<u8>;

    /// The client has just frozen for `d` (a script's pause).
    fn on_pause(&mut self, _ctx: &Ctx, _c: u8, _d: u64) {}

    /// The client has just been cut off from the service for `d` (an injected `cut`): what the
    /// network does to its messages is the engine's (`Engine::lock_hop`, `Engine::reach`); this is for
    /// what the server concludes from hearing nothing (a session's keepalive timeout).
    fn on_cut(&mut self, _ctx: &Ctx, _c: u8, _d: u64) {}

    /// The client's script is over.
    fn on_script_end(&mut self, _ctx: &Ctx, _c: u8) {}

    /// An admin ends the client's session or connection (a `terminate` fault, which the scenario
    /// format allows only where the service has one).
    fn on_terminate(&mut self, _ctx: &Ctx, _c: u8) {}

    /// Whether the service refuses the client's request without reaching the lock.
    fn refuses_request(&self, _ctx: &Ctx, _c: u8) -> bool {
        false
    }
}

/// What the page's diagram draws for a service beyond what every service has, as data: its own marks
/// and named capabilities, so that the page has no code per service (its own words are the
/// dictionaries', `ownWords.SERVICE`, as its lane name and its events' words are). Each service's
/// file holds its own, `DIAGRAM`, after its `LockService` impl (the registry reads it: a service
/// without one is a build error); the run JSON writes it as `diagram` (docs/run-json.md). A set of
/// flags, one bit per name in [`Diagram::NAMES`], joined with [`Diagram::and`]: a byte per service
/// in the wasm, where lists of strings cost the full build 240 B gzipped.
#[derive(Clone, Copy)]
pub struct Diagram(u8);

impl Diagram {
    /// Nothing beyond the lease bars.
    pub const PLAIN: Diagram = Diagram(0);
    /// Mark: keepalive ticks (keepalives, pings, heartbeats, renewals) on the clients' lanes.
    pub const KA: Diagram = Diagram(1);
    /// Mark: the queue of waiters, noted on the lock lane.
    pub const QUEUE: Diagram = Diagram(2);
    /// Mark: connection-state bands (Curator's SUSPENDED, LOST).
    pub const CONN: Diagram = Diagram(4);
    /// Expiry judged by each candidate's observation of one record.
    pub const OBSERVES: Diagram = Diagram(8);
    /// An invalidated session releases the key under a lock-delay.
    pub const LOCK_DELAY: Diagram = Diagram(16);
    /// The TTL is a session's, not a lease's.
    pub const SESSION_TTL: Diagram = Diagram(32);
    /// Its tokens are random, not ordered.
    pub const RANDOM_TOKENS: Diagram = Diagram(64);
    /// Its events are worded by their kinds alone, never `SERVICE-KIND`.
    pub const GENERIC_WORDS: Diagram = Diagram(128);
    /// Each bit's name in the run JSON, from the lowest: the first [`Diagram::MARKS`] are marks
    /// (`diagram.marks`), the others capabilities (`diagram.has`).
    pub const NAMES: [&'static str; 8] = [
        "ka",
        "queue",
        "conn",
        "observes",
        "lock-delay",
        "session-ttl",
        "random-tokens",
        "generic-words",
    ];
    /// How many of [`Diagram::NAMES`] are marks.
    pub const MARKS: usize = 3;

    /// Both sets.
    pub const fn and(self, other: Diagram) -> Diagram {
        Diagram(self.0 | other.0)
    }

    /// Whether the set has the `k`th of [`Diagram::NAMES`].
    pub fn has(self, k: usize) -> bool {
        self.0 >> k & 1 != 0
    }
}

/// How a service words one of its trace events in the transcript.
pub enum Said {
    Line(String),
    /// Its own event, with no line (a plain disconnect at the end of a script).
    Nothing,
}
