//! The lock service: the truth about who holds the lock.
//!
//! `lease`: a grant is live on `[granted_at, granted_at + ttl)` of the service's clock; acquire is denied
//! while a live lease exists; release and renew are checked against the grant's unique lock value;
//! fencing tokens start at 1 and grow by one per grant. An optional lock-delay (Chubby's, and the services that copied it) keeps the
//! lock ungrantable for a while after a lease ends without a release.
//!
//! `session` (a PostgreSQL advisory lock) is the same service with an unbounded TTL: the lock is held
//! until it is released or the holder's session ends ([`LeaseService::end_session`]).

use crate::clock::Clock;
use crate::time::SimTime;

/// One grant as the lock service saw it: the truth the timeline draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaseRecord {
    pub client: u8,
    /// Which lock server (a quorum service's node; 0 for a single server).
    pub node: u8,
    pub token: u64,
    pub lock_value: u64,
    pub granted_at: SimTime,
    /// When the lease stopped being live: its expiry, or the release that ended it early.
    /// `SimTime(u64::MAX)` for a session lock that is still held.
    pub ends_at: SimTime,
    pub released: bool,
    /// Ended because the holder's session ended (terminated or timed out), not by release or expiry.
    pub session_ended: bool,
    /// Erased by a crash (not persisted) or a failover (not replicated): the key is simply gone.
    pub lost: bool,
}

/// The answer to an acquire request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    Granted {
        token: u64,
        lock_value: u64,
        expires_at: SimTime,
    },
    /// Denied; `holder` is the client holding a live lease (`None` while a lock-delay runs).
    Denied { holder: Option<u8> },
    /// The request came over a database session that has ended: it fails without reaching the lock.
    NoSession,
}

#[derive(Clone, Debug)]
pub struct LeaseService {
    pub ttl_us: u64,
    pub lock_delay_us: u64,
    /// Whether grants carry fencing tokens (a counter). Off for services that hand out only random values.
    pub tokens: bool,
    /// Which lock server this is (a quorum service's node index).
    pub node: u8,
    /// Down after a crash, until it restarts: requests to it are lost.
    pub up: bool,
    first_token: u64,
    next_token: u64,
    next_value: u64,
    /// Index into `leases` of the current (possibly expired) grant.
    current: Option<usize>,
    /// The server's clock: a lease ends when this clock has advanced by the TTL (redis: the wall
    /// clock, so a step forward expires keys early).
    pub clock: Clock,
    pub leases: Vec<LeaseRecord>,
    /// The time-dependent choices this service made in the run (see [`crate::sig`]); reset per run.
    pub path: crate::sig::Path,
}

impl LeaseService {
    pub fn new(ttl_us: u64, lock_delay_us: u64, tokens: bool, value_seed: u64) -> LeaseService {
        LeaseService {
            ttl_us,
            lock_delay_us,
            tokens,
            node: 0,
            up: true,
            first_token: 1,
            next_token: 1,
            next_value: value_seed,
            current: None,
            clock: Clock::PERFECT,
            leases: Vec::new(),
            path: crate::sig::Path::default(),
        }
    }

    /// When a lease granted (or renewed) at `now` ends, in true time, by the server's clock.
    fn end_of_lease(&mut self, now: SimTime) -> SimTime {
        if self.ttl_us == u64::MAX {
            return SimTime(u64::MAX); // a session lock: no TTL
        }
        if self.clock == Clock::PERFECT {
            return now.plus(self.ttl_us);
        }
        let end_local = self
            .clock
            .local_h(now, &mut self.path)
            .saturating_add(i64::try_from(self.ttl_us).unwrap_or(i64::MAX));
        self.clock
            .first_at_or_after_h(now, end_local, &mut self.path)
    }

    /// Resets for a new run, keeping the allocation.
    pub fn reset(&mut self, ttl_us: u64, lock_delay_us: u64, tokens: bool, value_seed: u64) {
        self.ttl_us = ttl_us;
        self.lock_delay_us = lock_delay_us;
        self.tokens = tokens;
        self.up = true;
        self.next_token = self.first_token;
        self.next_value = value_seed;
        self.current = None;
        self.leases.clear();
        self.path = crate::sig::Path::default();
    }

    fn live(&self, now: SimTime) -> Option<&LeaseRecord> {
        let lease = &self.leases[self.current?];
        (now < lease.ends_at).then_some(lease)
    }

    /// The client of the latest grant, live or not: the ideal guard's notion of the rightful writer.
    pub fn latest_grantee(&self) -> Option<u8> {
        self.current.map(|i| self.leases[i].client)
    }

    /// Sets the first token a grant carries (before the first grant; kept across resets).
    pub fn set_first_token(&mut self, first: u64) {
        self.first_token = first;
        self.next_token = first;
    }

    /// The earliest time at which an acquire would not be denied, if nothing changes meanwhile: the end
    /// of the live lease, plus the lock-delay unless it was released.
    pub fn free_at(&self) -> SimTime {
        let Some(i) = self.current else {
            return SimTime::ZERO;
        };
        let l = &self.leases[i];
        if l.released {
            l.ends_at
        } else {
            l.ends_at.plus(self.lock_delay_us)
        }
    }

    /// Whether `client` holds a live lease here at `now`.
    pub fn holds(&self, client: u8, now: SimTime) -> bool {
        self.live(now).is_some_and(|l| l.client == client)
    }

    /// `SET key value NX PX ttl`: grants when free. `value` is the client's own random value (a quorum client's);
    /// `None` lets the service make one up (a lease service's unique lock value).
    // Inline: returned through memory, a `Grant` was written a byte at a time and then copied into the
    // mailbox a word at a time, a store-forwarding stall on every lock request in the wasm.
    #[inline(always)]
    pub fn acquire(&mut self, client: u8, now: SimTime, value: Option<u64>) -> Grant {
        if let Some(holder) = self.denies(now) {
            return Grant::Denied { holder };
        }
        let token = if self.tokens { self.next_token } else { 0 };
        self.next_token += 1;
        // A unique value per grant, as a client would generate with a random generator (splitmix64 step).
        let lock_value = value.unwrap_or_else(|| {
            self.next_value = crate::rng::splitmix64(self.next_value);
            self.next_value
        });
        let expires_at = self.end_of_lease(now);
        self.leases.push(LeaseRecord {
            client,
            node: self.node,
            token,
            lock_value,
            granted_at: now,
            ends_at: expires_at,
            released: false,
            session_ended: false,
            lost: false,
        });
        self.current = Some(self.leases.len() - 1);
        Grant::Granted {
            token,
            lock_value,
            expires_at,
        }
    }

    /// `Some(holder)` if a request at `now` is denied: the holder of the live lease, or `None` while a
    /// lock-delay runs after one that expired.
    #[inline(always)]
    pub fn denies(&self, now: SimTime) -> Option<Option<u8>> {
        if let Some(lease) = self.live(now) {
            return Some(Some(lease.client));
        }
        let last = &self.leases[self.current?];
        (!last.released && now < last.ends_at.plus(self.lock_delay_us)).then_some(None)
    }

    /// The current lease, if it is live at `now` and `owned` says it is the caller's.
    fn live_mut(
        &mut self,
        now: SimTime,
        owned: impl Fn(&LeaseRecord) -> bool,
    ) -> Option<&mut LeaseRecord> {
        let lease = &mut self.leases[self.current?];
        (now < lease.ends_at && owned(lease)).then_some(lease)
    }

    /// Value-checked release: only the live lease with this value is ended. Returns whether it was.
    pub fn release(&mut self, lock_value: u64, now: SimTime) -> bool {
        let Some(lease) = self.live_mut(now, |l| l.lock_value == lock_value) else {
            return false;
        };
        lease.ends_at = now;
        lease.released = true;
        true
    }

    /// The holder's session ended: a session lock it holds is released by that (PostgreSQL runs
    /// `pg_advisory_unlock_all` at session end). Returns whether a live lock was freed.
    pub fn end_session(&mut self, client: u8, now: SimTime) -> bool {
        let Some(lease) = self.live_mut(now, |l| l.client == client) else {
            return false;
        };
        lease.ends_at = now;
        lease.session_ended = true;
        true
    }

    /// The server crashes at `now`: it goes down, and a live key survives only if it was persisted —
    /// always with `appendfsync always`; with `everysec`, if a whole second of true time passed since it
    /// was set; never without persistence. Returns how many live keys were lost.
    pub fn crash(&mut self, now: SimTime, persist: crate::scenario::Persist) -> u64 {
        use crate::scenario::Persist;
        self.up = false;
        let mut lost = 0;
        let h = &mut self.path;
        for l in self.leases.iter_mut() {
            if !h.decide(now < l.ends_at) {
                continue;
            }
            let kept = match persist {
                Persist::Always => true,
                Persist::EverySec => {
                    // Floors: the choice is affine in the times only while both seconds stay the same.
                    let (set, at) = (l.granted_at.0 / crate::time::SEC, now.0 / crate::time::SEC);
                    h.floor(set);
                    h.floor(at);
                    set < at
                }
                Persist::None => false,
            };
            if !kept {
                l.ends_at = now;
                l.lost = true;
                lost += 1;
            }
        }
        lost
    }

    /// The master dies at `now` and its async replica, `lag` behind, takes over: grants from the last
    /// `lag` never reached it, and neither did the `INCR`s that made their tokens, so the counter goes
    /// back. Returns how many live grants were lost.
    pub fn failover(&mut self, now: SimTime, lag: u64) -> u64 {
        let mut lost = 0;
        let mut next = self.first_token;
        let h = &mut self.path;
        for l in self.leases.iter_mut() {
            let unreplicated = l.granted_at.0.saturating_add(lag) > now.0;
            let live = now < l.ends_at;
            if h.decide(unreplicated) {
                if h.decide(live) {
                    lost += 1;
                }
                l.ends_at = l.ends_at.min(now);
                l.lost = true;
            } else if self.tokens {
                next = next.max(l.token + 1);
            }
        }
        self.next_token = next;
        lost
    }

    /// Value-checked renewal: extends the live lease with this value to `now + ttl`.
    pub fn renew(&mut self, lock_value: u64, now: SimTime) -> Option<SimTime> {
        let i = self.current?;
        let lease = &self.leases[i];
        if lease.lock_value != lock_value || now >= lease.ends_at {
            return None;
        }
        let end = self.end_of_lease(now);
        let lease = &mut self.leases[i];
        lease.ends_at = end;
        Some(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::MS;

    fn t(ms: u64) -> SimTime {
        SimTime(ms * MS)
    }

    fn token_of(g: Grant) -> u64 {
        match g {
            Grant::Granted { token, .. } => token,
            Grant::Denied { .. } | Grant::NoSession => panic!("denied"),
        }
    }

    #[test]
    fn lease_is_half_open_and_tokens_increase() {
        let mut s = LeaseService::new(300 * MS, 0, true, 7);
        assert_eq!(token_of(s.acquire(0, t(0), None)), 1);
        assert_eq!(
            s.acquire(1, t(299), None),
            Grant::Denied { holder: Some(0) }
        );
        assert_eq!(
            token_of(s.acquire(1, t(300), None)),
            2,
            "live on [granted, granted + ttl)"
        );
        assert_eq!(s.latest_grantee(), Some(1));
    }

    #[test]
    fn release_and_renew_check_the_value() {
        let mut s = LeaseService::new(300 * MS, 0, true, 7);
        let Grant::Granted { lock_value, .. } = s.acquire(0, t(0), None) else {
            panic!()
        };
        assert!(!s.release(lock_value ^ 1, t(10)), "someone else's value");
        assert_eq!(s.renew(lock_value, t(100)), Some(t(400)));
        assert!(s.release(lock_value, t(150)));
        assert_eq!(s.leases[0].ends_at, t(150));
        assert_eq!(token_of(s.acquire(1, t(150), None)), 2);
        assert_eq!(
            s.renew(lock_value, t(160)),
            None,
            "an old holder cannot renew"
        );
    }

    #[test]
    fn crash_keeps_what_was_persisted() {
        use crate::scenario::Persist;
        for (persist, lost) in [
            (Persist::None, 2),
            (Persist::EverySec, 1),
            (Persist::Always, 0),
        ] {
            let mut s = LeaseService::new(3_000 * MS, 0, false, 7);
            s.acquire(0, t(0), Some(1));
            s.release(1, t(10));
            s.acquire(1, t(500), Some(2)); // set before the fsync at 1 s
            s.leases[1].ends_at = t(5_000);
            s.current = None;
            s.acquire(2, t(1_100), Some(3)); // set after it
            assert_eq!(s.crash(t(1_200), persist), lost, "{persist:?}");
            assert!(!s.up);
            assert!(!s.leases[0].lost, "a released key is not lost");
        }
    }

    #[test]
    fn failover_loses_unreplicated_grants_and_rolls_the_counter_back() {
        let mut s = LeaseService::new(300 * MS, 0, true, 7);
        assert_eq!(token_of(s.acquire(0, t(0), None)), 1);
        assert_eq!(
            s.failover(t(5), 10 * MS),
            1,
            "granted 5 ms ago, 10 ms of lag: never replicated"
        );
        assert!(s.leases[0].lost && s.leases[0].ends_at == t(5));
        assert_eq!(
            token_of(s.acquire(1, t(10), None)),
            1,
            "INCR rolled back: the same token again"
        );
        let mut s = LeaseService::new(300 * MS, 0, true, 7);
        s.acquire(0, t(0), None);
        assert_eq!(s.failover(t(50), 10 * MS), 0, "replicated");
        assert_eq!(s.acquire(1, t(60), None), Grant::Denied { holder: Some(0) });
    }

    #[test]
    fn lock_delay_holds_an_expired_lock() {
        let mut s = LeaseService::new(300 * MS, 500 * MS, true, 7);
        s.acquire(0, t(0), None);
        assert_eq!(s.acquire(1, t(310), None), Grant::Denied { holder: None });
        assert_eq!(token_of(s.acquire(1, t(800), None)), 2);
    }
}
