//! Each node's own clock, apart from true time: `offset + rate·τ`, in microseconds.
//!
//! True time τ is the simulation's `SimTime`. A client reads its own clock to judge how much of its lease
//! is left; with a perfect clock the two agree. Rates are integer parts per million, so no float enters
//! the core and native and wasm agree to the microsecond.

use crate::time::SimTime;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Local reading at true time 0, in µs.
    pub offset_us: i64,
    /// Deviation from the true rate in parts per million: −100 000 runs 10 % slow.
    pub rate_ppm: i64,
}

impl Clock {
    pub const PERFECT: Clock = Clock { offset_us: 0, rate_ppm: 0 };

    /// The local reading at true time `t`.
    pub fn local(&self, t: SimTime) -> i64 {
        if self.rate_ppm == 0 {
            // The common case, without 128-bit division (it showed up at 10 % of a sweep's profile).
            return self.offset_us.saturating_add(t.0 as i64);
        }
        // i64 is enough: simulated time stays under 2 h (7.2e9 µs) and |rate| ≤ 5e5 ppm, so the
        // product stays under 4e15 (and 128-bit division would cost wasm size).
        let tau = t.0 as i64;
        let drift = (tau * self.rate_ppm).div_euclid(1_000_000); // floor, also when slow
        self.offset_us.saturating_add(tau + drift)
    }

    /// The first true time at which the local clock reads at least `local` (for drawing beliefs).
    pub fn true_time_of(&self, local: i64) -> SimTime {
        let rate = 1_000_000 + self.rate_ppm;
        let since = local.saturating_sub(self.offset_us);
        // Beyond any run's horizon (simulated time is capped at hours): no need to be exact.
        if rate <= 0 || since > 1_000_000_000_000 {
            return SimTime(u64::MAX);
        }
        if since <= 0 {
            return SimTime::ZERO;
        }
        // Smallest τ with τ·rate/1e6 ≥ since (ceiling division), then nudge for the floor in `local`.
        let mut tau = (since * 1_000_000 + rate - 1) / rate;
        while tau > 0 && self.local(SimTime(tau as u64 - 1)) >= local {
            tau -= 1;
        }
        while self.local(SimTime(tau as u64)) < local {
            tau += 1;
        }
        SimTime(tau as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_clock_reads_less_and_inverts() {
        let c = Clock { offset_us: 0, rate_ppm: -100_000 };
        assert_eq!(c.local(SimTime(1_000_000)), 900_000);
        assert_eq!(c.true_time_of(900_000), SimTime(1_000_000));
        assert_eq!(Clock::PERFECT.true_time_of(300), SimTime(300));
    }
}
