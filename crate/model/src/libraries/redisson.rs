//! Redisson's `RLock` (Java; service `redis`), from its source only: it is published on Maven Central,
//! which this workplace does not reach, so it is UNMEASURED here (docs/clients.md, "Libraries not run
//! here"); redisson/redisson's `Config.java` and `RedissonBaseLock.java`.
//!
//! - A lock taken without a lease time is kept by the watchdog: `lockWatchdogTimeout = 30 * 1000`
//!   (`Config.java`) is the lease, the scenario's TTL (30 s when it leaves it), and
//!   `renewExpiration` renews every `internalLockLeaseTime / 3`. It freezes with the JVM; a failed
//!   renewal logs "Can't update lock … expiration" and stops the watchdog — logged only.
//! - `owned` is `isHeldByCurrentThread()`: a round trip (`HEXISTS` on the lock's hash for this
//!   thread's id), the truth at the server.
//! - `unlock` throws `IllegalMonitorStateException` ("attempt to unlock lock, not locked by current
//!   thread by node id: …") when the lock was no longer the client's.

use super::LibraryFormat;
use crate::scenario::ServiceKind;

/// Redisson's facts.
pub struct Redisson;

impl LibraryFormat for Redisson {
    const NAME: &'static str = "redisson";
    const VERSION: &'static str = "unmeasured";
    const SPEAKS: ServiceKind = ServiceKind::Redis;
    const NO_OWNED: Option<&'static str> = None;
    const NO_LISTENER: Option<&'static str> = Some(
        "it has no listener, and its watchdog stops without telling the application: ask `owned`",
    );
    const RAISES: Option<&'static str> = Some("IllegalMonitorStateException");
    const RENEWS: bool = true;
}

/// The watchdog renews every lease / 3 (`RedissonBaseLock.renewExpiration`: `internalLockLeaseTime / 3`).
pub const WATCHDOG_DIV: u64 = 3;
