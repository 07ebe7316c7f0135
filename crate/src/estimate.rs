//! How often, at my TTL and my GC pauses? A Monte Carlo estimate of P(lost update) per operation.
//!
//! One operation is the seed's run (`seed-gc-pause`): A takes the lock, reads, pauses for a time drawn
//! from a heavy-tailed distribution, then writes; a contender B first asks for the lock at a time drawn
//! from a Poisson arrival process (or is always already waiting), retries every `retry` and, once
//! granted, reads, works and writes. Every operation that could go wrong is run by the event engine
//! itself; only the ones that provably cannot are skipped without it:
//! - the pause is shorter than the TTL: A writes while its lease is live, so nobody else can have been
//!   granted the lock (grants start at the TTL at the earliest);
//! - B first asks after A has written (strictly later: at a tie B's attempt comes first).
//!
//! That keeps the estimate exact for the model and fast where it matters (short pauses, long TTLs).
//! Random numbers come from one seeded splitmix64 stream and the `libm` crate (not the platform's
//! maths library), so the same seed gives the same numbers natively and in wasm, whatever the chunking.

use crate::catalogue;
use crate::error::Error;
use crate::outcome::lost_update;
use crate::rng::Rng;
use crate::scenario::Scenario;
use crate::sim::Engine;
use crate::store::Policy;
use crate::time::{MS, SEC};

/// The scenario an operation is.
pub const SCENARIO: &str = "seed-gc-pause";
/// Pauses longer than the scenario allows (an hour) are not simulated: they count as lost updates
/// (the conservative reading) and are reported apart.
pub const PAUSE_MAX_US: u64 = 3_600 * SEC;

// The ranges [`Spec::check`] allows, the one definition: explore.html's form takes its bounds from
// them (`report::estimate_form_json`, through the wasm), so the page refuses what the estimator would.
/// A Pareto scale or a log-normal median: 1 µs to an hour.
pub const PAUSE_SCALE_US: (f64, f64) = (1.0, PAUSE_MAX_US as f64);
/// A Pareto shape.
pub const PARETO_SHAPE: (f64, f64) = (0.1, 20.0);
/// A log-normal sigma.
pub const LOGNORMAL_SIGMA: (f64, f64) = (0.01, 5.0);
/// Contenders per second; 0 is one always waiting.
pub const RATE_PER_S: (f64, f64) = (0.0, 1e6);
/// The largest seed the page can pass: a JS number is a whole number exactly only up to 2^53 − 1.
pub const SEED_MAX_JS: u64 = (1 << 53) - 1;

/// Whether `v` is a number within `[lo, hi]`.
pub fn within(v: f64, (lo, hi): (f64, f64)) -> bool {
    v.is_finite() && (lo..=hi).contains(&v)
}

/// Where pauses come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PauseDist {
    /// `P(pause > x) = (scale / x)^shape` for `x ≥ scale`.
    Pareto { scale_us: f64, shape: f64 },
    /// `ln(pause)` is normal with mean `ln(median)` and standard deviation `sigma`.
    LogNormal { median_us: f64, sigma: f64 },
}

impl PauseDist {
    /// As the page and the CLI's flags write it: `("pareto", scale ms, shape)` or
    /// `("lognormal", median ms, sigma)`.
    pub fn name_a_b(&self) -> (&'static str, f64, f64) {
        match *self {
            PauseDist::Pareto { scale_us, shape } => ("pareto", scale_us / 1000.0, shape),
            PauseDist::LogNormal { median_us, sigma } => ("lognormal", median_us / 1000.0, sigma),
        }
    }

    /// The inverse of [`PauseDist::name_a_b`]: `None` for a name other than `pareto` or `lognormal`.
    pub fn from_name_a_b(name: &str, a_ms: f64, b: f64) -> Option<PauseDist> {
        match name {
            "pareto" => Some(PauseDist::Pareto {
                scale_us: a_ms * 1000.0,
                shape: b,
            }),
            "lognormal" => Some(PauseDist::LogNormal {
                median_us: a_ms * 1000.0,
                sigma: b,
            }),
            _ => None,
        }
    }

    /// `P(pause > x)`.
    pub fn tail(&self, x_us: f64) -> f64 {
        match *self {
            PauseDist::Pareto { scale_us, shape } => {
                if x_us <= scale_us {
                    1.0
                } else {
                    libm::exp(shape * libm::log(scale_us / x_us))
                }
            }
            PauseDist::LogNormal { median_us, sigma } => {
                if x_us <= 0.0 {
                    return 1.0;
                }
                0.5 * libm::erfc(libm::log(x_us / median_us) / (sigma * core::f64::consts::SQRT_2))
            }
        }
    }

    fn sample(&self, rng: &mut Rng) -> f64 {
        match *self {
            PauseDist::Pareto { scale_us, shape } => {
                scale_us * libm::exp(-libm::log(unit(rng)) / shape)
            }
            PauseDist::LogNormal { median_us, sigma } => {
                // Marsaglia's polar method, one of the pair (no trigonometry: kilobytes less wasm).
                let z = loop {
                    let x = 2.0 * unit(rng) - 1.0;
                    let y = 2.0 * unit(rng) - 1.0;
                    let s = x * x + y * y;
                    if s > 0.0 && s < 1.0 {
                        break x * (-2.0 * libm::log(s) / s).sqrt();
                    }
                };
                median_us * libm::exp(sigma * z)
            }
        }
    }
}

/// A uniform draw in (0, 1].
fn unit(rng: &mut Rng) -> f64 {
    ((rng.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A named set of pause settings with where its numbers come from.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub id: &'static str,
    pub dist: PauseDist,
    pub source: &'static str,
}

/// Presets from the catalogue's quantities. The sources give a scale; the shapes are the lab's choice
/// (*derived*), stated with each.
pub const PRESETS: &[Preset] = &[
    Preset {
        id: "g1",
        dist: PauseDist::LogNormal { median_us: 50_000.0, sigma: 0.6 },
        source: "G1's default pause goal is 200 ms (-XX:MaxGCPauseMillis; a goal, not a bound). Derived: log-normal, median 50 ms, σ 0.6, so about 1 pause in 100 exceeds 200 ms.",
    },
    Preset {
        id: "cms-full",
        dist: PauseDist::Pareto { scale_us: 1_000_000.0, shape: 1.5 },
        source: "CMS-era full GCs: 8–10 s per GB of heap, stop-the-world pauses of minutes reported. Derived: Pareto from 1 s with shape 1.5.",
    },
    Preset {
        id: "zgc",
        dist: PauseDist::LogNormal { median_us: 300.0, sigma: 0.5 },
        source: "ZGC: sub-millisecond pauses. Derived: log-normal, median 0.3 ms, σ 0.5.",
    },
    Preset {
        id: "seed-ratio",
        dist: PauseDist::Pareto { scale_us: 50_000.0, shape: 2.0 },
        source: "The seed's third lesson: a 50 ms GC against a 30 s TTL. Derived: Pareto from 50 ms with shape 2 (scenarios catalogue).",
    },
];

/// The preset a spec's pauses are, if any (the CLI's and the page's default is one).
pub fn preset_of(dist: &PauseDist) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.dist == *dist)
}

/// What to estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    pub policy: Policy,
    pub dist: PauseDist,
    pub ttl_us: u64,
    pub retry_us: u64,
    /// B's read-to-write time.
    pub work_us: u64,
    /// Contenders per second (Poisson); 0 means a contender is always already waiting at the start.
    pub rate_per_s: f64,
    pub seed: u64,
}

impl Spec {
    /// The seed's third lesson: 50 ms Pareto pauses against a 30 s TTL, a contender always waiting.
    pub fn new(policy: Policy) -> Spec {
        Spec {
            policy,
            dist: PRESETS[3].dist,
            ttl_us: 30 * SEC,
            retry_us: 50 * MS,
            work_us: 0,
            rate_per_s: 0.0,
            seed: 0x1ea5e,
        }
    }

    /// Checks the numbers against the scenario's ranges and the distributions' domains.
    pub fn check(&self, sc: &Scenario) -> Result<(), Error> {
        let bad = |what: &str, why: &str| {
            Err(Error::BadValue {
                what: what.into(),
                why: why.into(),
            })
        };
        match self.dist {
            PauseDist::Pareto { scale_us, shape } => {
                if !within(scale_us, PAUSE_SCALE_US) {
                    return bad("pause scale", "expected 1 µs to 1 h");
                }
                if !within(shape, PARETO_SHAPE) {
                    return bad("pause shape", "expected a Pareto shape from 0.1 to 20");
                }
            }
            PauseDist::LogNormal { median_us, sigma } => {
                if !within(median_us, PAUSE_SCALE_US) {
                    return bad("pause median", "expected 1 µs to 1 h");
                }
                if !within(sigma, LOGNORMAL_SIGMA) {
                    return bad("pause sigma", "expected a log-normal sigma from 0.01 to 5");
                }
            }
        }
        if !within(self.rate_per_s, RATE_PER_S) {
            return bad(
                "contender rate",
                "expected 0 (always waiting) to 1e6 per second",
            );
        }
        let mut params = sc.defaults();
        sc.set_param(&mut params, "ttl", self.ttl_us)?;
        sc.set_param(&mut params, "retry", self.retry_us)?;
        sc.set_param(&mut params, "work", self.work_us)?;
        Ok(())
    }
}

/// The estimate so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub ops: u64,
    pub lost: u64,
    /// Operations whose pause passed an hour, counted as lost without a run.
    pub over_range: u64,
    /// Operations the engine ran (the rest were provably safe).
    pub simulated: u64,
    pub p: f64,
    /// A 95 % Wilson score interval for `p`.
    pub low: f64,
    pub high: f64,
    /// The catalogue's approximation (*derived*): see [`analytic`].
    pub analytic: f64,
}

/// The 95 % Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    let low = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    (low, (centre + half).min(1.0))
}

/// The catalogue's approximation (*derived*): a lost update needs a pause past B's grant, at the first
/// retry tick at or after the TTL (`t_B`), and a contender that turned up while A was frozen:
/// `P(pause > t_B) · (1 − e^(−λ·t_B))`, with the second factor 1 when a contender is always waiting.
/// With `none` and B's work time 0 it is exact for an always-waiting contender; fencing policies that
/// reject A's late write (`first-touch`, `version`, `owner`) make it 0; `token` loses only the
/// write-only gap, `P(t_B ≤ pause ≤ t_B + work)`.
pub fn analytic(spec: &Spec) -> f64 {
    let ticks = spec.ttl_us.div_ceil(spec.retry_us.max(1));
    let t_b = (ticks * spec.retry_us) as f64;
    let arrive = if spec.rate_per_s == 0.0 {
        1.0
    } else {
        1.0 - libm::exp(-spec.rate_per_s * t_b / SEC as f64)
    };
    let d = &spec.dist;
    let within = match spec.policy {
        Policy::None => d.tail(t_b),
        Policy::Token => d.tail(t_b) - d.tail(t_b + spec.work_us as f64),
        _ => 0.0,
    };
    within * arrive
}

/// A Monte Carlo run that can be advanced in chunks (a Web Worker reports progress between them and
/// stops when cancelled); the numbers depend only on the spec and the total count, not the chunking.
pub struct Estimator {
    spec: Spec,
    sc: &'static Scenario,
    rng: Rng,
    engine: Engine,
    params: Vec<u64>,
    idx: [usize; 2],
    ops: u64,
    lost: u64,
    over_range: u64,
    simulated: u64,
}

impl Estimator {
    pub fn new(spec: Spec) -> Result<Estimator, Error> {
        let sc = catalogue::find(SCENARIO)?;
        spec.check(sc)?;
        let mut params = sc.defaults();
        sc.set_param(&mut params, "ttl", spec.ttl_us)?;
        sc.set_param(&mut params, "retry", spec.retry_us)?;
        sc.set_param(&mut params, "work", spec.work_us)?;
        let idx = [sc.param_index("pause"), sc.param_index("arrival")];
        let [Some(pause), Some(arrival)] = idx else {
            return Err(Error::BadValue {
                what: "scenario".into(),
                why: format!("{SCENARIO} needs pause and arrival"),
            });
        };
        Ok(Estimator {
            spec,
            sc,
            rng: Rng::new(spec.seed),
            engine: Engine::new(),
            params,
            idx: [pause, arrival],
            ops: 0,
            lost: 0,
            over_range: 0,
            simulated: 0,
        })
    }

    /// Runs `n` more operations.
    pub fn step(&mut self, n: u64) -> Result<(), Error> {
        let ttl = self.spec.ttl_us;
        let rate_per_us = self.spec.rate_per_s / SEC as f64;
        for _ in 0..n {
            self.ops += 1;
            let pause = self.spec.dist.sample(&mut self.rng);
            if pause < ttl as f64 {
                continue; // A writes while its lease is live
            }
            if pause >= PAUSE_MAX_US as f64 {
                self.over_range += 1;
                self.lost += 1;
                continue;
            }
            let pause = pause as u64;
            let arrival = if rate_per_us == 0.0 {
                0.0
            } else {
                -libm::log(unit(&mut self.rng)) / rate_per_us
            };
            if arrival > pause as f64 {
                continue; // B first asks after A has written
            }
            self.params[self.idx[0]] = pause;
            self.params[self.idx[1]] = arrival as u64;
            self.simulated += 1;
            let run = self.engine.run_with(
                self.sc,
                self.spec.policy,
                &self.params,
                0,
                false,
                self.spec.seed,
                false,
            )?;
            if lost_update(run) {
                self.lost += 1;
            }
        }
        Ok(())
    }

    pub fn ops(&self) -> u64 {
        self.ops
    }

    pub fn result(&self) -> Estimate {
        let (low, high) = wilson(self.lost, self.ops);
        Estimate {
            ops: self.ops,
            lost: self.lost,
            over_range: self.over_range,
            simulated: self.simulated,
            p: if self.ops == 0 {
                0.0
            } else {
                self.lost as f64 / self.ops as f64
            },
            low,
            high,
            analytic: analytic(&self.spec),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_brackets_the_rate() {
        let (lo, hi) = wilson(50, 1000);
        assert!(lo < 0.05 && 0.05 < hi && hi - lo < 0.03, "{lo} {hi}");
        let (lo, hi) = wilson(0, 1000);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.004, "{hi}");
    }

    #[test]
    fn pareto_tail_matches_the_catalogue() {
        // x_m = 50 ms, m = 30 s, α = 2: 2.8·10⁻⁶ per pause.
        let p = PauseDist::Pareto {
            scale_us: 50_000.0,
            shape: 2.0,
        }
        .tail(30_000_000.0);
        assert!((p - 2.777_777e-6).abs() < 1e-11, "{p}");
    }
}
