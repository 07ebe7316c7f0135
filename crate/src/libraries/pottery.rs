//! pottery 3.0.1's lock on a quorum of masters, the engine's half (its facts, with their sources:
//! `crate/model/src/libraries/pottery.rs`; measured: docs/clients.md).
//!
//! Nothing until asked: `owned` is `locked() > 0`, a round trip to the masters, yes iff a quorum of
//! them still holds the client's value with time left; `release` raises `ReleaseUnlockedLock` when a
//! quorum no longer held it (`asked.rs`). The round trip is counted at the service's `lock-latency`.

use super::{Ask, Library};
use crate::sim::{Ctx, Engine};

/// pottery (Python).
pub(crate) struct Pottery;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Library<Pottery> for Engine {
    fn owned(&mut self, ctx: &Ctx, c: u8) -> Ask {
        self.lib_ask_owned(ctx, c);
        Ask::Asked
    }

    fn server_owned(&mut self, ctx: &Ctx, c: u8) -> bool {
        <Self as Library<Pottery>>::truth(self, ctx, c)
    }

    fn truth(&mut self, ctx: &Ctx, c: u8) -> bool {
        let now = self.now;
        let holding = self.locks.iter().filter(|l| l.holds(c, now)).count();
        self.floor(holding as u64); // a count of nodes' live leases: each a comparison of times
        self.decide(holding >= usize::from(ctx.sc.service.quorum()))
    }
}
