//! npm `redlock` 4.2.0 (mike-marcacci/node-redlock, its `latest` tag) on a quorum of masters (the
//! service below), as measured in docs/clients.md ("node-redlock 4.2.0", one master) and read in the
//! package's only source file, `redlock.js` (line numbers below are that file's).
//!
//! - No notice until asked; no listener and no renewal timer (`extend()` by hand, 294–313).
//! - `lock(resource, ttl)` resolves a `Lock` whose `expiration` is `start + ttl - drift` (415–416):
//!   `start = Date.now()` when the attempt sent its requests (397), `drift = Math.round(driftFactor ×
//!   ttl) + 2` ms (415, `driftFactor` 0.01 by default, 59). Computed once, on the client's wall clock.
//! - `owned` is `lock.expiration > Date.now()` — the test `extend()` makes before it asks anything
//!   (298) and the one the library makes on its own grant (419): **local**, no round trip, read off
//!   the client's own wall clock. So it follows the client's clock, not the masters': a clock stepped
//!   back (or running slow) says yes after the keys have expired.
//! - `unlock()` (232–288) sets `expiration = 0` at once (241), runs the unlock script on every master
//!   and rejects with `LockError('Unable to fully release the lock on resource "…".')` (282) unless a
//!   quorum deleted its value: a round trip after it is called (measured: docs/clients.md).
//! - Its value is `crypto.randomBytes(16)` in hex (448–450): no fencing token.

use super::LibraryFormat;
use crate::scenario::ServiceKind;

/// node-redlock's facts.
pub struct NodeRedlock;

impl LibraryFormat for NodeRedlock {
    const NAME: &'static str = "node-redlock";
    const VERSION: &'static str = "4.2.0";
    const SPEAKS: ServiceKind = ServiceKind::Redlock;
    const NO_OWNED: Option<&'static str> = None;
    const NO_LISTENER: Option<&'static str> =
        Some("it has no listener and tells the application nothing until asked: ask `owned`");
    const RAISES: Option<&'static str> = Some("LockError");
}

/// redlock.js's drift allowance for a TTL of `ttl_us`, in µs: `Math.round(0.01 × ttl) + 2` ms (415),
/// the 1 % rounded half up to a whole ms (the service's own allowance, [`super::super::scenario`]'s
/// `drift`, keeps the 1 % to the µs: the two agree when the TTL is a multiple of 100 ms).
pub fn drift_us(ttl_us: u64) -> u64 {
    (ttl_us.saturating_add(50_000) / 100_000) * 1_000 + 2_000
}

/// The `Lock`'s `expiration` (416) in the client's local µs, for an attempt sent at local `sent_us`
/// with a TTL of `ttl_us`: `start` is `Date.now()`, the local time truncated to the ms.
pub fn expiration_us(sent_us: i64, ttl_us: u64) -> i64 {
    let start = sent_us.div_euclid(1_000) * 1_000;
    let ttl = i64::try_from(ttl_us).unwrap_or(i64::MAX / 2);
    start + ttl - drift_us(ttl_us) as i64
}

/// `lock.expiration > Date.now()` at local `now_us`: `Date.now()` is `now_us` truncated to the ms and
/// `expiration` a whole ms, so the test is `now_us < expiration_us` exactly.
pub fn owned_at(expiration_us: i64, now_us: i64) -> bool {
    now_us < expiration_us
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drift_is_one_percent_rounded_to_the_ms_plus_two() {
        assert_eq!(drift_us(1_000_000), 12_000); // 10 + 2 ms
        assert_eq!(drift_us(150_000), 4_000); // round(1.5) = 2, + 2
        assert_eq!(drift_us(149_000), 3_000); // round(1.49) = 1, + 2
        assert_eq!(drift_us(30_000_000), 302_000);
    }

    #[test]
    fn the_expiration_starts_from_the_ms_date_now_read() {
        // Sent at local 1.0009 ms: Date.now() says 1; a 1 s TTL ends at 1 + 1000 − 12 = 989 ms.
        assert_eq!(expiration_us(1_900, 1_000_000), 989_000);
        assert_eq!(expiration_us(-1, 1_000_000), 987_000); // a clock before its epoch floors down
    }

    #[test]
    fn owned_is_yes_up_to_the_last_microsecond_before_the_expiration() {
        // Date.now() = 988 at 988.999 ms: 989 > 988, yes; at 989.000 ms: 989 > 989, no.
        assert!(owned_at(989_000, 988_999));
        assert!(!owned_at(989_000, 989_000));
    }
}
