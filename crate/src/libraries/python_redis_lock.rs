//! python-redis-lock 4.0.1's `Lock` with auto-renewal, the engine's half (its facts, with their
//! sources: `crate/model/src/libraries/python_redis_lock.rs`; measured: docs/clients.md).
//!
//! Its renewal thread renews (the service's value-checked renew) every 2/3 of the TTL, freezes with
//! the process, and on waking renews at once; a refused renewal ends the thread with a note the
//! application never sees (`renewal-died`). `owned` is `locked()`: a round trip, true iff the key
//! exists, anyone's. `release` raises `NotAcquired` when the lock was gone (`asked.rs`).

use super::{Ask, Library};
use crate::sim::{Ctx, Engine};
use leaselab_model::libraries::python_redis_lock::{RENEWAL_DEN, RENEWAL_NUM};

/// python-redis-lock (Redis, Python).
pub(crate) struct PythonRedisLock;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Library<PythonRedisLock> for Engine {
    fn on_grant(&mut self, ctx: &Ctx, c: u8) {
        self.lib_start_renewal(ctx, c);
    }

    fn owned(&mut self, ctx: &Ctx, c: u8) -> Ask {
        self.lib_ask_owned(ctx, c);
        Ask::Asked
    }

    fn server_owned(&mut self, _ctx: &Ctx, _c: u8) -> bool {
        // `locked()`: EXISTS key — whoever holds it.
        let exists = matches!(self.locks[0].denies(self.now), Some(Some(_)));
        self.decide(exists)
    }

    fn truth(&mut self, _ctx: &Ctx, c: u8) -> bool {
        let holds = self.locks[0].holds(c, self.now);
        self.decide(holds)
    }

    fn renewal_every(&self, ctx: &Ctx) -> u64 {
        (ctx.ttl * RENEWAL_NUM / RENEWAL_DEN).max(1)
    }
}
