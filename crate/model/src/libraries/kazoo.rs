//! kazoo 2.11.0 (Python): its lock recipe (`kazoo.recipe.lock.Lock`) and its connection
//! listener, as measured in docs/clients.md ("kazoo 2.11.0") and read in python-zk/kazoo at tag 2.11.0.
//!
//! - `owned` is `lock.is_acquired`: a plain attribute set by `acquire` (`kazoo/recipe/lock.py` line
//!   200) and cleared only by `_inner_release` (333–344): local, no round trip, true from the grant
//!   until the application's own release — also after the session and the node are gone (the trap:
//!   True ×5 at +1 s in docs/clients.md while the node was gone).
//! - `listener` is what `zk.add_listener` has heard since the grant: SUSPENDED or LOST lose the lock
//!   (with the service's `suspended=tolerate`, LOST only).
//! - After a pause past the session timeout the server has closed the socket: kazoo's first read
//!   meets EOF (`connection.py` `_read` line 265, caught at 651) → SUSPENDED within about a ms
//!   (measured 0.9 ms, 0.8–3.9); LOST after `KazooRetry`'s sleep and the reconnect's round trip
//!   (`client.py` 79–80 `delay=0.1`, `retry.py` 140–143 × U(0.6, 1.4): the model takes the delay
//!   itself; measured 119.7 ms, 77.1–144.7); CONNECTED with a new session after another sleep and
//!   round trip (measured 208.7 ms, 159.4–263.6).
//! - After a shorter pause, nothing: kazoo drops a connection only when a ping it SENT is unanswered
//!   at the next deadline (`connection.py` 617–629), and a frozen process sent none (measured: no
//!   event ×5 at 0.7 S).

use super::LibraryFormat;
use crate::scenario::ServiceKind;
use crate::time::MS;

/// kazoo's facts.
pub struct Kazoo;

impl LibraryFormat for Kazoo {
    const NAME: &'static str = "kazoo";
    const VERSION: &'static str = "2.11.0";
    const SPEAKS: ServiceKind = ServiceKind::Zookeeper;
    const NO_OWNED: Option<&'static str> = None;
    const NO_LISTENER: Option<&'static str> = None;
}

/// SUSPENDED after waking: the first read meets the socket the server closed (measured 0.9 ms).
pub const SUSPENDED_AFTER_WAKE_US: u64 = MS;
/// `KazooRetry`'s delay before the reconnect (`client.py` 79–80: `delay=0.1`; the real sleep is
/// this × U(0.6, 1.4), `retry.py` 140–143): the model takes the middle.
pub const RETRY_DELAY_US: u64 = 100 * MS;
