//! Curator 5.4.0's `InterProcessMutex` and `ConnectionStateListener`, the engine's half (its facts and
//! timings, with their sources: `crate/model/src/libraries/curator.rs`; measured: docs/clients.md).
//!
//! On waking from a pause whose silence passed the read timeout (2/3 of the session timeout), the
//! Java client has timed its session out: its connection is down (no pings) and Curator says
//! SUSPENDED about 100 ms later. It reconnects a second and a half later (one server's spin, the
//! middle of the random wait): the reconnect offers the session, and a round trip later hears LOST
//! then RECONNECTED (a new session) if the server expired it by then, else RECONNECTED.
//! `owned` is `isAcquiredInThisProcess()`: local, true from the grant to the application's own release.
//!
//! The silence is taken as the pause: the last answer came before it, so the silence is at least
//! the pause; a shorter pause after a long unanswered stretch is left out.

use super::{Ask, Library};
use crate::sim::{Ctx, Engine, Ev, Tag};
use crate::trace::Connection;
use leaselab_model::libraries::curator::{
    HOST_SPIN_US, RECONNECT_WAIT_US, SUSPENDED_AFTER_WAKE_US,
};

/// Curator (ZooKeeper, Java).
pub(crate) struct Curator;

/// Its timers, in order.
const SUSPENDED: u16 = 0;
const RECONNECT: u16 = 1;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Library<Curator> for Engine {
    fn on_wake(&mut self, ctx: &Ctx, c: u8, paused_us: u64) {
        let third = ctx.ttl / 3;
        self.floor(third); // a floor of the session timeout, as the service's own read timeout
        if self.decide(paused_us >= 2 * third) {
            self.clients[usize::from(c)].heard.down = true;
            self.lib_timer(c, SUSPENDED_AFTER_WAKE_US, SUSPENDED);
        }
    }

    fn on_timer(&mut self, ctx: &Ctx, c: u8, step: u16) {
        if step == SUSPENDED {
            self.lib_hears(c, Connection::Suspended);
            let wait = HOST_SPIN_US + RECONNECT_WAIT_US + 2 * ctx.lock_latency;
            self.lib_timer(c, wait, RECONNECT);
            return;
        }
        // The reconnect offers the session, as a ping does: its answer says whether it lives
        // (`Engine::lib_on_session_answer`: LOST and a new session, or RECONNECTED).
        let heard = &mut self.clients[usize::from(c)].heard;
        heard.down = false;
        heard.reconnecting = true;
        let at = self.now.plus(ctx.lock_latency);
        self.schedule(at, Ev::bare(Tag::HeartbeatAt, c));
    }

    fn owned(&mut self, _ctx: &Ctx, c: u8) -> Ask {
        // `isAcquiredInThisProcess()`: its own bookkeeping, cleared only by its own release.
        Ask::Now(self.clients[usize::from(c)].lease.is_some())
    }

    fn listener_loses(&self, ctx: &Ctx) -> u8 {
        super::lost_unless_tolerated(ctx)
    }

    fn truth(&mut self, ctx: &Ctx, c: u8) -> bool {
        self.rightful(ctx) == Some(c) // its node is the lowest: its session lives
    }
}
