//! etcd 3.4.23's concurrency package (`etcdctl lock`), the engine's half (its facts, with their
//! sources: `crate/model/src/libraries/etcd_concurrency.rs`; measured: docs/clients.md).
//!
//! After a pause past the lease's TTL the session's `Done()` closes 3 ms after waking (note
//! `session-done`), and `listener` finds it closed from then on. It offers no `owned`. Its token is
//! the grant's response revision: the service's grant gives it (`Engine::lib_grant_revision`).

use super::{Ask, Library};
use crate::sim::{Ctx, Engine};
use crate::trace::{Note, What};
use leaselab_model::libraries::etcd_concurrency::SESSION_DONE_AFTER_WAKE_US;

/// etcd's clientv3 concurrency (Go).
pub(crate) struct EtcdConcurrency;

/// Its one timer: the session's `Done()` closes.
const SESSION_DONE: u16 = 0;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Library<EtcdConcurrency> for Engine {
    fn on_wake(&mut self, ctx: &Ctx, c: u8, paused_us: u64) {
        // The keep-alive deadline (the last answer + TTL) passed during the pause: the deadline
        // loop (or the first keep-alive's TTL ≤ 0) closes the channel on waking. Taken as a pause
        // of at least the TTL; a shorter one whose deadline passed is left out.
        if self.decide(paused_us >= ctx.ttl) {
            self.lib_timer(c, SESSION_DONE_AFTER_WAKE_US, SESSION_DONE);
        }
    }

    fn on_timer(&mut self, _ctx: &Ctx, c: u8, _step: u16) {
        self.clients[usize::from(c)].heard.states |= super::LOST;
        let note = Note::SessionDone;
        self.record(c, What::Notice { note });
    }

    fn owned(&mut self, _ctx: &Ctx, _c: u8) -> Ask {
        // Unreachable: the parser refuses `owned` for this library (IsOwner() is a compare, not a
        // question).
        unreachable!()
    }

    fn truth(&mut self, ctx: &Ctx, c: u8) -> bool {
        self.rightful(ctx) == Some(c)
    }
}
