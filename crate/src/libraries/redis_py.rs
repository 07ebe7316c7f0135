//! redis-py 8.2.0's `Lock`, the engine's half (its facts, with their sources:
//! `crate/model/src/libraries/redis_py.rs`; measured: docs/clients.md).
//!
//! Nothing until asked: `owned` is a GET round trip, true iff the key holds the client's value when
//! it arrives; `release` raises `LockNotOwnedError` a round trip after it is called when the lock was
//! no longer the client's (`asked.rs`).

use super::{Ask, Library};
use crate::sim::{Ctx, Engine};

/// redis-py (Redis, Python).
pub(crate) struct RedisPy;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Library<RedisPy> for Engine {
    fn owned(&mut self, ctx: &Ctx, c: u8) -> Ask {
        self.lib_ask_owned(ctx, c);
        Ask::Asked
    }

    fn server_owned(&mut self, ctx: &Ctx, c: u8) -> bool {
        <Self as Library<RedisPy>>::truth(self, ctx, c) // GET key == our token
    }

    fn truth(&mut self, _ctx: &Ctx, c: u8) -> bool {
        let holds = self.locks[0].holds(c, self.now);
        self.decide(holds)
    }
}
