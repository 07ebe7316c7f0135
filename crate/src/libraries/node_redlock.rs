//! npm `redlock` 4.2.0's lock on a quorum of masters, the engine's half (its facts, with their
//! sources: `crate/model/src/libraries/node_redlock.rs`; measured: docs/clients.md).
//!
//! Nothing until asked, as pottery; but its `owned`, `lock.expiration > Date.now()`, asks nothing: it
//! compares the expiration the library computed at the grant (`start + ttl - drift`, on the client's
//! clock when it sent the lock requests) with the client's clock now. So the answer is the client's
//! clock reading's, not the masters': the note's `truth` (a quorum still holds its value) can differ.
//! Its `release` rejects with `LockError` when no quorum held its value, as pottery's raises
//! (`asked.rs`), and the truth is pottery's.

use super::pottery::Pottery;
use super::{Ask, Library};
use crate::sim::{Ctx, Engine};
use leaselab_model::libraries::node_redlock::{drift_us, expiration_us, owned_at};

/// node-redlock (Node.js).
pub(crate) struct NodeRedlock;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Library<NodeRedlock> for Engine {
    fn owned(&mut self, ctx: &Ctx, c: u8) -> Ask {
        let Some(lease) = self.clients[usize::from(c)].lease else {
            return Ask::Now(false); // (unlock() set expiration to 0)
        };
        // The service's belief is `sent + ttl - drift` with its own drift: `sent` back from it.
        let sent = lease.believed_end_local - ctx.ttl_local() + ctx.drift as i64;
        self.floor(sent.div_euclid(1_000) as u64); // Date.now(): the ms
        self.floor(drift_us(ctx.ttl)); // Math.round: a whole ms
        let expiration = expiration_us(sent, ctx.ttl);
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let now = clock.local_h(self.now, &mut self.path);
        Ask::Now(self.decide(owned_at(expiration, now)))
    }

    fn truth(&mut self, ctx: &Ctx, c: u8) -> bool {
        <Self as Library<Pottery>>::truth(self, ctx, c)
    }
}
