//! Redisson's `RLock` and its watchdog, the engine's half (its facts, from its source only, unmeasured
//! here: `crate/model/src/libraries/redisson.rs`).
//!
//! The watchdog renews (the service's value-checked renew) every third of the lease, freezes with the
//! JVM, and on waking renews at once; a refused renewal stops it, logged only (`renewal-died`).
//! `owned` is `isHeldByCurrentThread()`: a round trip, the truth. `unlock` throws
//! `IllegalMonitorStateException` when the lock was gone (`asked.rs`).

use super::{Ask, Library};
use crate::sim::{Ctx, Engine};
use leaselab_model::libraries::redisson::WATCHDOG_DIV;

/// Redisson (Redis, Java).
pub(crate) struct Redisson;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Library<Redisson> for Engine {
    fn on_grant(&mut self, ctx: &Ctx, c: u8) {
        self.lib_start_renewal(ctx, c);
    }

    fn owned(&mut self, ctx: &Ctx, c: u8) -> Ask {
        self.lib_ask_owned(ctx, c);
        Ask::Asked
    }

    fn server_owned(&mut self, ctx: &Ctx, c: u8) -> bool {
        <Self as Library<Redisson>>::truth(self, ctx, c)
    }

    fn truth(&mut self, _ctx: &Ctx, c: u8) -> bool {
        let holds = self.locks[0].holds(c, self.now);
        self.decide(holds)
    }

    fn renewal_every(&self, ctx: &Ctx) -> u64 {
        (ctx.ttl / WATCHDOG_DIV).max(1)
    }
}
