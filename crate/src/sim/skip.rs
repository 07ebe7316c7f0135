//! Sweeps only: a polling client's denied retries, skipped in one jump (see [`Engine::set_fast`]).

use super::{Ctx, Engine, EVENTS_MAX, SIM_TIME_US_MAX};

/// The client was just denied; its next `polls` attempts — a `Step` at `first + j·period`, the request
/// reaching the lock `lat` later and the refusal coming back `lat` after that — would all be denied too,
/// as the lock cannot become free before `free_at` without an event that touches it. So only the
/// attempt after them, at `last`, is scheduled. The jump is exact while nothing else happens at any of
/// the skipped instants (a tie whose order the skipped events would have decided) and nothing touches
/// the lock or the client meanwhile; otherwise the run is thrown away and run again event by event.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Skip {
    pub client: u8,
    first: u64,
    period: u64,
    lat: u64,
    pub polls: u64,
    pub last: u64,
}

impl Skip {
    /// Whether something at `u` would coincide with one of the skipped events or the landing step.
    pub fn on_chain(&self, u: u64) -> bool {
        if u < self.first || u > self.last {
            return false;
        }
        if u == self.last {
            return true;
        }
        let d = (u - self.first) % self.period;
        d == 0 || d == self.lat || d == 2 * self.lat
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// Whether client `c`, just denied, can skip its next denied retries, and how many. Records each
    /// time comparison that decides, and the number skipped (a floor of times; 0 for no skip).
    pub(crate) fn plan_skip(&mut self, ctx: &Ctx, c: u8, every: u64) -> Option<Skip> {
        let skip = self.skippable(ctx, c, every);
        self.floor(skip.map_or(0, |k| k.polls));
        skip
    }

    fn skippable(&mut self, ctx: &Ctx, c: u8, every: u64) -> Option<Skip> {
        // Its one server is `locks[0]` (the caller, `retry_acquire`, asks only for such a client).
        debug_assert!(ctx.service.polls_one_server());
        let st = &self.clients[usize::from(c)];
        let (now, lat) = (self.now.0, ctx.lock_latency);
        let (first, free) = (now.saturating_add(every), self.locks[0].free_at().0);
        let (frozen, late) = (st.frozen_until.0 > now, first >= SIM_TIME_US_MAX);
        // Attempt j (from 0) sends at first + j·period and reaches the lock lat later: denied while
        // that is before `free`.
        let free_first = first.saturating_add(lat) >= free;
        // Each comparison on its own: their union is not one interval.
        let (frozen, late, free_first) = (
            self.decide(frozen),
            self.decide(late),
            self.decide(free_first),
        );
        // Cut off, its next request waits for the heal (`Engine::lock_hop`): not one of a chain.
        let cut = self.cut_off(c).is_some();
        let period = every.checked_add(2 * lat)?;
        let st = &self.clients[usize::from(c)];
        if self.skip.is_some()
            || period == 0
            || st.session_dead
            || frozen
            || late
            || free_first
            || cut
        {
            return None;
        }
        let denied = (free - lat - 1 - first) / period + 1;
        // Stay clear of the run's limits: near them, event by event decides which error comes first.
        let by_time = (SIM_TIME_US_MAX - first) / period;
        let by_events = u64::from(EVENTS_MAX.saturating_sub(self.run.events + 10_000) / 3);
        let polls = denied.min(by_time).min(by_events);
        if polls == 0 {
            return None;
        }
        let sk = Skip {
            client: c,
            first,
            period,
            lat,
            polls,
            last: first + polls * period,
        };
        // Something already pending at one of those instants would be ordered against the skipped
        // events: don't jump.
        if self.queue.any_at(|u| sk.on_chain(u)) {
            return None;
        }
        Some(sk)
    }
}
