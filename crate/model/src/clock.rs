//! Each node's own clock, apart from true time: `offset + rate·τ + Σ steps`, in microseconds.
//!
//! True time τ is the simulation's `SimTime`. A client reads its own clock to judge how much of its lease
//! is left; a lock server reads its own to decide when a lease has expired. With a perfect clock the
//! two agree. Rates are integer parts per million, so no float enters the core and native and wasm agree
//! to the microsecond. A *wall* clock takes steps (an NTP jump, an admin's `date`); a *monotonic* one
//! ignores them (the rate still applies).

use std::borrow::Cow;

use crate::sig::Path;
use crate::time::SimTime;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Local reading at true time 0, in µs.
    pub offset_us: i64,
    /// Deviation from the true rate in parts per million: −100 000 runs 10 % slow.
    pub rate_ppm: i64,
    /// Steps `(at true µs, by µs)`, in time order: at that instant the reading jumps by that much.
    pub steps: Cow<'static, [(u64, i64)]>,
    /// Ignores the steps (CLOCK_MONOTONIC rather than the wall clock).
    pub monotonic: bool,
}

impl Clock {
    pub const PERFECT: Clock = Clock {
        offset_us: 0,
        rate_ppm: 0,
        steps: Cow::Borrowed(&[]),
        monotonic: false,
    };

    fn stepped(&self) -> bool {
        !self.monotonic && !self.steps.is_empty()
    }

    /// The sum of the steps taken by true time `t` (none for a monotonic clock). Folds how many into
    /// `h` (see [`crate::sig`]).
    fn steps_by(&self, t: SimTime, h: &mut Path) -> i64 {
        if !self.stepped() {
            return 0;
        }
        let (mut taken, mut sum) = (0u64, 0i64);
        for &(at, by) in self.steps.iter() {
            if at <= t.0 {
                taken += 1;
                sum += by;
            }
        }
        h.floor(taken);
        sum
    }

    /// The reading without steps: `offset + τ + ⌊τ·rate⌋`.
    fn smooth(&self, t: SimTime, h: &mut Path) -> i64 {
        if self.rate_ppm == 0 {
            // The common case, without a division (it showed up at 10 % of a sweep's profile).
            return self.offset_us.saturating_add(t.0 as i64);
        }
        // i64 is enough: simulated time stays under 2 h (7.2e9 µs) and |rate| ≤ 5e5 ppm, so the
        // product stays under 4e15 (and 128-bit division would cost wasm size).
        let tau = t.0 as i64;
        let drift = (tau * self.rate_ppm).div_euclid(1_000_000); // floor, also when slow
        h.floor(drift as u64); // a floor: the reading is affine in τ only while it holds
        self.offset_us.saturating_add(tau + drift)
    }

    /// The local reading at true time `t`.
    pub fn local(&self, t: SimTime) -> i64 {
        self.local_h(t, &mut Path::default())
    }

    /// [`Clock::local`], folding the reading's piecewise choices into the run's signature `h`.
    #[inline]
    pub fn local_h(&self, t: SimTime, h: &mut Path) -> i64 {
        if self.rate_ppm == 0 && !self.stepped() {
            // Most clocks (every one of the seed's): an offset, inline, where a script reads its clock.
            return self.offset_us.saturating_add(t.0 as i64);
        }
        self.local_slow(t, h)
    }

    #[inline(never)]
    fn local_slow(&self, t: SimTime, h: &mut Path) -> i64 {
        self.smooth(t, h).saturating_add(self.steps_by(t, h))
    }

    /// The first true time at which the local clock reads at least `local` (for drawing beliefs).
    // Inline: every run ends each belief with it, and a clock that only has an offset (every one of the
    // seed's) is a subtraction here.
    #[inline]
    pub fn true_time_of(&self, local: i64) -> SimTime {
        if self.rate_ppm == 0 && !self.stepped() {
            // Most clocks (every one of the seed's): the reading is offset + τ, inverted inline, as
            // `smooth_first` would (its choices go to no signature here). Every run ends each belief
            // this way.
            let since = local.saturating_sub(self.offset_us);
            return match since {
                ..=0 => SimTime::ZERO,
                BEYOND_US.. => SimTime(u64::MAX),
                _ => SimTime(since as u64),
            };
        }
        self.first_at_or_after(SimTime::ZERO, local)
    }

    /// The first true time `τ ≥ from` at which the clock reads at least `local`.
    pub fn first_at_or_after(&self, from: SimTime, local: i64) -> SimTime {
        self.first_at_or_after_h(from, local, &mut Path::default())
    }

    /// [`Clock::first_at_or_after`], folding its choices into `h`. With steps the reading is piecewise
    /// smooth: search each piece in turn.
    pub fn first_at_or_after_h(&self, from: SimTime, local: i64, h: &mut Path) -> SimTime {
        if !self.stepped() {
            let t = self.smooth_first(local, h);
            h.decide(t < from);
            return t.max(from);
        }
        // Steps are in time order (the parser checks), so the pieces come in order too.
        let mut start = from;
        let ends = self
            .steps
            .iter()
            .map(|&(at, _)| at)
            .filter(|&at| at > from.0)
            .chain(std::iter::once(u64::MAX));
        for end in ends {
            let shift = self.steps_by(start, h);
            let t = self.smooth_first(local.saturating_sub(shift), h);
            h.decide(t < start);
            let t = t.max(start);
            if h.decide(t.0 < end) {
                return t;
            }
            start = SimTime(end);
        }
        SimTime(u64::MAX)
    }

    /// The first true time at which the reading without steps is at least `local`.
    fn smooth_first(&self, local: i64, h: &mut Path) -> SimTime {
        let rate = 1_000_000 + self.rate_ppm;
        let since = local.saturating_sub(self.offset_us);
        // Beyond any run's horizon (simulated time is capped at hours): no need to be exact.
        let beyond = rate <= 0 || since >= BEYOND_US;
        if h.decide(beyond) {
            return SimTime(u64::MAX);
        }
        if h.decide(since <= 0) {
            return SimTime::ZERO;
        }
        if self.rate_ppm == 0 {
            return SimTime(since as u64); // exact: the reading is offset + τ
        }
        // Smallest τ with τ·rate/1e6 ≥ since (ceiling division), then nudge for the floor in `smooth`.
        let mut tau = (since * 1_000_000 + rate - 1) / rate;
        let mut scratch = Path::default();
        while tau > 0 && self.smooth(SimTime(tau as u64 - 1), &mut scratch) >= local {
            tau -= 1;
        }
        while self.smooth(SimTime(tau as u64), &mut scratch) < local {
            tau += 1;
        }
        // τ = local − offset − ⌊τ·rate⌋ + overshoot: affine in `local` while both stay the same.
        let reading = self.smooth(SimTime(tau as u64), h);
        h.floor((reading - local) as u64);
        SimTime(tau as u64)
    }
}

/// A reading this far past the clock's offset (µs) is beyond any run's horizon (simulated time is
/// capped at hours): its true time is taken as never.
const BEYOND_US: i64 = 1_000_000_000_001;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unskewed_clock_inverts_inline_as_the_general_search_does() {
        // `true_time_of`'s shortcut against `first_at_or_after`'s `smooth_first`, around each edge:
        // zero, the offset, and the horizon.
        for offset_us in [0, 250_000, -40_000, i64::MIN / 2] {
            let c = Clock {
                offset_us,
                ..Clock::PERFECT
            };
            let edges = [
                0,
                1,
                offset_us,
                BEYOND_US - 1,
                BEYOND_US,
                i64::MAX,
                i64::MIN,
            ];
            for edge in edges {
                for d in -2..=2 {
                    let local = edge.saturating_add(offset_us).saturating_add(d);
                    let general = c.first_at_or_after_h(SimTime::ZERO, local, &mut Path::default());
                    assert_eq!(
                        c.true_time_of(local),
                        general,
                        "offset {offset_us}, local {local}"
                    );
                }
            }
        }
    }

    #[test]
    fn slow_clock_reads_less_and_inverts() {
        let c = Clock {
            rate_ppm: -100_000,
            ..Clock::PERFECT
        };
        assert_eq!(c.local(SimTime(1_000_000)), 900_000);
        assert_eq!(c.true_time_of(900_000), SimTime(1_000_000));
        assert_eq!(Clock::PERFECT.true_time_of(300), SimTime(300));
    }

    #[test]
    fn a_forward_step_brings_expiry_closer_and_monotonic_ignores_it() {
        static STEP: [(u64, i64); 1] = [(50_000, 300_000)];
        let wall = Clock {
            steps: Cow::Borrowed(&STEP),
            ..Clock::PERFECT
        };
        assert_eq!(wall.local(SimTime(49_999)), 49_999);
        assert_eq!(wall.local(SimTime(50_000)), 350_000);
        // A lease granted at 0 for 300 ms ends when the server clock reads 300 000: at the jump.
        assert_eq!(
            wall.first_at_or_after(SimTime::ZERO, 300_000),
            SimTime(50_000)
        );
        let mono = Clock {
            monotonic: true,
            ..wall.clone()
        };
        assert_eq!(
            mono.first_at_or_after(SimTime::ZERO, 300_000),
            SimTime(300_000)
        );
    }

    #[test]
    fn a_backward_step_delays_the_reading() {
        static STEP: [(u64, i64); 1] = [(100_000, -200_000)];
        let c = Clock {
            steps: Cow::Borrowed(&STEP),
            ..Clock::PERFECT
        };
        assert_eq!(c.local(SimTime(481_000)), 281_000);
        // It read 300 000 once before the step? No: it jumped back at 100 000 from 100 000 to -100 000.
        assert_eq!(
            c.first_at_or_after(SimTime::ZERO, 300_000),
            SimTime(500_000)
        );
        assert_eq!(c.first_at_or_after(SimTime::ZERO, 50_000), SimTime(50_000));
    }
}
