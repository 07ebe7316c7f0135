//! python-redis-lock 4.0.1's `redis_lock.Lock` with `auto_renewal=True` (service `redis`), as
//! measured in docs/clients.md ("python-redis-lock 4.0.1") and read in ionelmc/python-redis-lock at
//! v4.0.1, `src/redis_lock/__init__.py`.
//!
//! - A renewal thread extends the key every `expire × 2/3` (line 168; `expire` is the service's TTL):
//!   `_lock_renewer` (273–286) loops on `stop.wait(timeout=interval)` and calls `extend` with no
//!   `try`. It freezes with the process; on waking its overdue wait returns at once, the extend finds
//!   another id and raises `NotAcquired` (264–266), and the thread dies — the application hears
//!   NOTHING (measured: died at 1.5 ms, 1–2, after waking; not alive at +1 s).
//! - `owned` is `locked()`: a round trip, true iff the key EXISTS — anyone's (a trap: after another
//!   client took the lock it says yes).
//! - `release()` (337–354) raises `NotAcquired` when the unlock script finds another id (measured:
//!   `NotAcquired: Lock(lock:KEY) is not acquired or it already expired.` ×5).

use super::LibraryFormat;
use crate::scenario::ServiceKind;

/// python-redis-lock's facts.
pub struct PythonRedisLock;

impl LibraryFormat for PythonRedisLock {
    const NAME: &'static str = "python-redis-lock";
    const VERSION: &'static str = "4.0.1";
    const SPEAKS: ServiceKind = ServiceKind::Redis;
    const NO_OWNED: Option<&'static str> = None;
    const NO_LISTENER: Option<&'static str> = Some(
        "it has no listener, and its renewal thread dies without telling the application: ask `owned`",
    );
    const RAISES: Option<&'static str> = Some("NotAcquired");
    const RENEWS: bool = true;
}

/// The renewal period as a fraction of `expire` (line 168: `float(expire) * 2 / 3`).
pub const RENEWAL_NUM: u64 = 2;
pub const RENEWAL_DEN: u64 = 3;
