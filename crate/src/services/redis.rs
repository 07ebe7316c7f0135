//! A single redis as a lock: `SET key value NX PX ttl` on the server's wall clock, a value-checked
//! release, and tokens only from `INCR` on the same redis (the client protocol is [`super::lease`]'s).
//! What is redis's own is failover: the master dies and its async replica, which never saw the latest
//! grants, takes over.

use super::Said;
use crate::sim::{Ctx, Engine};
use crate::trace::{TraceEvent, What};

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
pub(super) fn say(e: &TraceEvent) -> Option<Said> {
    let What::Failover { grants_lost } = e.what else {
        return None;
    };
    Some(Said::Line(format!(
        "redis: the master dies; the replica takes over without {grants_lost} grant(s) and their INCR"
    )))
}
