//! Apache Curator 5.4.0 (ZooKeeper, Java; ZooKeeper's client 3.8.0): `InterProcessMutex` and its
//! `ConnectionStateListener`, as measured in docs/clients.md ("Curator 5.4.0") and read in
//! apache/curator at apache-curator-5.4.0 and apache/zookeeper at release-3.8.0-1.
//!
//! - `owned` is `isAcquiredInThisProcess()` (`InterProcessMutex.java` 117–119: `threadData.size() >
//!   0`): local bookkeeping, no round trip, true from the grant until the application's own release,
//!   untouched by LOST (measured: True ×5 at +3 s with the node gone).
//! - `listener` is what the `ConnectionStateListener` has heard since the grant: SUSPENDED or LOST
//!   lose the lock (with the service's `suspended=tolerate`, LOST only).
//! - After a pause whose silence passed the read timeout 2/3 S (`ClientCnxn.java` 435, 1239–1250)
//!   the client's session times out and Curator says SUSPENDED about 100 ms after waking (measured
//!   104.5 ms, 102.9–116; the cause of the 100 ms is untraced). It reconnects after
//!   `StaticHostProvider.next(1000)`'s spin with one server (`StaticHostProvider.java` 334–362) and
//!   `startConnect`'s random 0–1000 ms (`ClientCnxn.java` 1131–1140: the model takes the middle),
//!   plus a round trip: LOST (then RECONNECTED with a new session at once) if the server expired the
//!   session by then (measured LOST 1480.2 ms, 1187.7–1963), else RECONNECTED with the same session.

use super::LibraryFormat;
use crate::scenario::ServiceKind;
use crate::time::MS;

/// Curator's facts.
pub struct Curator;

impl LibraryFormat for Curator {
    const NAME: &'static str = "curator";
    const VERSION: &'static str = "5.4.0";
    const SPEAKS: ServiceKind = ServiceKind::Zookeeper;
    const NO_OWNED: Option<&'static str> = None;
    const NO_LISTENER: Option<&'static str> = None;
}

/// SUSPENDED after waking (measured 104.5 ms, 102.9–116; cause untraced).
pub const SUSPENDED_AFTER_WAKE_US: u64 = 100 * MS;
/// `StaticHostProvider.next(1000)`: with one server it sleeps a second before the next connect.
pub const HOST_SPIN_US: u64 = 1000 * MS;
/// `startConnect`'s random 0–1000 ms before a reconnect: the model takes the middle.
pub const RECONNECT_WAIT_US: u64 = 500 * MS;
