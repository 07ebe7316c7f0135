//! kazoo 2.11.0's lock recipe and connection listener, the engine's half (its facts and timings, with
//! their sources: `crate/model/src/libraries/kazoo.rs`; measured: docs/clients.md).
//!
//! On waking from a pause after which its lock is gone (the server expired the session while it was
//! frozen, and closed the socket), the listener hears SUSPENDED a ms after waking, LOST after the
//! retry's delay and the reconnect's round trip, and CONNECTED with a new session after another delay
//! and round trip (the trace's `reconnected`). After a pause the session survived: nothing at all.
//! `owned` is `lock.is_acquired`: local, true from the grant to the application's own release.

use super::{Ask, Library};
use crate::sim::{Ctx, Engine};
use crate::trace::Connection;
use leaselab_model::libraries::kazoo::{RETRY_DELAY_US, SUSPENDED_AFTER_WAKE_US};

/// kazoo (Python).
pub(crate) struct Kazoo;

/// Its timers, in order.
const SUSPENDED: u16 = 0;
const LOST: u16 = 1;
const CONNECTED: u16 = 2;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Library<Kazoo> for Engine {
    fn on_wake(&mut self, ctx: &Ctx, c: u8, _paused_us: u64) {
        // The server closed the socket when it expired the session: the first read meets EOF. A
        // holder's session is gone exactly when its lock node is (an ephemeral node dies with it).
        let held = self.clients[usize::from(c)].lease.is_some();
        if held && self.rightful(ctx) != Some(c) {
            self.lib_timer(c, SUSPENDED_AFTER_WAKE_US, SUSPENDED);
        }
    }

    fn on_timer(&mut self, ctx: &Ctx, c: u8, step: u16) {
        let retry = RETRY_DELAY_US + 2 * ctx.lock_latency; // the retry's sleep, then a round trip
        match step {
            SUSPENDED => {
                self.lib_hears(c, Connection::Suspended);
                self.lib_timer(c, retry, LOST);
            }
            LOST => {
                // The reconnect offered the old session; the server said it expired.
                self.lib_hears(c, Connection::Lost);
                self.lib_timer(c, retry, CONNECTED);
            }
            _ => self.lib_hears(c, Connection::Reconnected),
        }
    }

    fn owned(&mut self, _ctx: &Ctx, c: u8) -> Ask {
        // `is_acquired`: set by acquire, cleared only by the application's own release.
        Ask::Now(self.clients[usize::from(c)].lease.is_some())
    }

    fn listener_loses(&self, ctx: &Ctx) -> u8 {
        super::lost_unless_tolerated(ctx)
    }

    fn truth(&mut self, ctx: &Ctx, c: u8) -> bool {
        self.rightful(ctx) == Some(c) // its node is the lowest: its session lives
    }
}
