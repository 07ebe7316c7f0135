//! What a lock service is to the engine: the two halves of the one interface between them.
//!
//! A service is a unit type in its own file (`lease::Lease`, `consul::Consul`, …) that implements
//! [`LockService`] — the facts the engine, the sweeps and the search ask about, its run state, its
//! words in the transcript — and, on the engine, [`Serve`] for that type: what the engine calls when
//! a client asks for the lock, lets it go, pauses or ends its script, and when one of the service's
//! own events comes due. The registry (`mod.rs`) lists each service once and generates the dispatch
//! from that list; the engine calls only the dispatch, never a service by name.

use crate::lock::LeaseRecord;
use crate::scenario::Scenario;
use crate::sim::{Ctx, Ev};
use crate::trace::TraceEvent;

/// A lock service's facts and state. Each fact has the default most services share; a service says
/// only where it differs.
pub(crate) trait LockService {
    /// Its own state during a run (`()` for one whose state is the engine's lock servers).
    type State: Default;

    /// A client asks one lock server and, when denied, asks it again after a while: the engine takes
    /// such a client's requests and answers on a fast path, and sweeps may skip its denied retries.
    const POLLS_ONE_SERVER: bool = false;

    /// A client holds the lock when a majority of independent nodes granted it within its validity
    /// (Redlock): its grants are the majorities, injections may name its nodes, and its validity's
    /// drift allowance is a floor of the TTL in a run's signature.
    const QUORUM: bool = false;

    /// A hold ends by itself after the TTL; `false` for a lock held by a session (no TTL).
    const EXPIRES: bool = true;

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

/// How a service words one of its trace events in the transcript.
pub enum Said {
    Line(String),
    /// Its own event, with no line (a plain disconnect at the end of a script).
    Nothing,
}
