//! redis-py 8.2.0's `redis.lock.Lock` (service `redis`), as measured in docs/clients.md ("redis-py
//! 8.2.0") and read in the installed 8.2.0 wheel's `redis/lock.py`.
//!
//! - No notice at all until the application asks; no renewal thread (`extend()` is by hand).
//! - `owned` is `owned()` (lines 258–268): a GET of the key compared with the lock's token — one
//!   round trip, true iff the key holds the client's value when the GET arrives (measured: False ×5
//!   at 1 ms after waking from a pause past the timeout).
//! - `release()` runs `LUA_RELEASE_SCRIPT` (30–37, `do_release` 299–306), which deletes the key only
//!   if it holds the token, and raises `LockNotOwnedError` when it did not — one round trip after it
//!   is called, after any write the application made in between (measured 1.5 ms, 1.1–1.8).

use super::LibraryFormat;
use crate::scenario::ServiceKind;

/// redis-py's facts.
pub struct RedisPy;

impl LibraryFormat for RedisPy {
    const NAME: &'static str = "redis-py";
    const VERSION: &'static str = "8.2.0";
    const SPEAKS: ServiceKind = ServiceKind::Redis;
    const NO_OWNED: Option<&'static str> = None;
    const NO_LISTENER: Option<&'static str> =
        Some("it has no listener and tells the application nothing until asked: ask `owned`");
    const RAISES: Option<&'static str> = Some("LockNotOwnedError");
}
