//! A single redis as a lock: `SET key value NX PX ttl` on the server's wall clock, a value-checked
//! release, and tokens only from `INCR` on the same redis (the client protocol is [`super::lease`]'s).
//! What is redis's own is failover: the master dies and its async replica, which never saw the latest
//! grants, takes over.
//!
//! An injected cut holds its messages as the lease server's protocol does ([`super::lease`]).

use super::{LockService, Said, Serve};
use crate::scenario::Scenario;
use crate::sim::{Ctx, Engine, Ev};
use crate::trace::{TraceEvent, What};

/// A single redis (see the module's note).
pub(crate) struct Redis;

impl LockService for Redis {
    /// Its state is the engine's lock server (`Engine::locks`).
    type State = ();

    fn say(_sc: &Scenario, e: &TraceEvent, _who: char) -> Option<Said> {
        say(e)
    }
}

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). The lease bars alone; its
/// events worded by their kinds.
pub(super) const DIAGRAM: super::Diagram = super::Diagram::GENERIC_WORDS;

/// The protocol is the lease service's.
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Redis> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        self.on_lease_event(ctx, ev);
    }

    fn acquire(&mut self, ctx: &Ctx, c: u8) {
        self.lease_acquire(ctx, c);
    }

    fn release(&mut self, ctx: &Ctx, c: u8, value: u64) {
        self.lease_release(ctx, c, value);
    }

    fn rightful(&self, _ctx: &Ctx) -> Option<u8> {
        self.locks[0].latest_grantee()
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// The master dies now; its replica, `replica_lag` behind, takes over (see
    /// [`crate::lock::LeaseService::failover`]).
    pub(crate) fn failover(&mut self, ctx: &Ctx) {
        let lag = ctx.sc.service.replica_lag.resolve(ctx.params);
        let lost = self.locks[0].failover(self.now, lag);
        self.record(0, What::Failover { grants_lost: lost });
    }
}

/// The failover, in the transcript.
fn say(e: &TraceEvent) -> Option<Said> {
    let What::Failover { grants_lost } = e.what else {
        return None;
    };
    Some(Said::Line(format!(
        "redis: the master dies; the replica takes over without {grants_lost} grant(s) and their INCR"
    )))
}
