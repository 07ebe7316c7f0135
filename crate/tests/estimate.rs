//! The Monte Carlo estimate: it converges to the catalogue's approximation where that is exact, it does
//! not depend on how it is chunked, and the operations it skips are ones the engine finds safe.
#![cfg(not(target_arch = "wasm32"))]

use leaselab::estimate::{analytic, Estimator, PauseDist, Spec, PRESETS};
use leaselab::time::MS;
use leaselab::{catalogue, Config, Engine, Policy, Scenario};
use proptest::prelude::*;

fn run(spec: Spec, ops: u64) -> leaselab::estimate::Estimate {
    let mut e = Estimator::new(spec).unwrap();
    e.step(ops).unwrap();
    e.result()
}

/// Contender always waiting, TTL a multiple of the retry interval: the approximation is exact.
#[test]
fn converges_to_the_exact_cases_within_the_interval() {
    let cases = [
        (
            Policy::None,
            PauseDist::Pareto {
                scale_us: 50_000.0,
                shape: 2.0,
            },
            300 * MS,
            0,
        ),
        (
            Policy::None,
            PauseDist::LogNormal {
                median_us: 200_000.0,
                sigma: 0.5,
            },
            300 * MS,
            20 * MS,
        ),
        (
            Policy::Token,
            PauseDist::Pareto {
                scale_us: 100_000.0,
                shape: 1.5,
            },
            300 * MS,
            40 * MS,
        ),
        (
            Policy::FirstTouch,
            PauseDist::Pareto {
                scale_us: 100_000.0,
                shape: 1.5,
            },
            300 * MS,
            40 * MS,
        ),
    ];
    for (policy, dist, ttl_us, work_us) in cases {
        let spec = Spec {
            policy,
            dist,
            ttl_us,
            retry_us: 50 * MS,
            work_us,
            rate_per_s: 0.0,
            seed: 7,
        };
        let r = run(spec, 400_000);
        let want = analytic(&spec);
        assert!(
            r.low <= want && want <= r.high,
            "{policy:?} {dist:?}: {want} outside [{}, {}] (p = {})",
            r.low,
            r.high,
            r.p
        );
        if want > 0.0 {
            assert!(
                r.high - r.low < want,
                "the interval should be informative: {r:?}"
            );
        } else {
            assert_eq!(r.lost, 0, "{policy:?} never loses here");
        }
    }
}

#[test]
fn the_seed_ratio_is_rare_not_never() {
    // 50 ms GC pauses (Pareto, shape 2) against a 30 s TTL: 2.8e-6 per operation.
    let r = run(Spec::new(Policy::None), 5_000_000);
    assert!(r.lost > 0 && r.lost < 40, "{r:?}");
    assert!(r.low <= r.analytic && r.analytic <= r.high, "{r:?}");
    assert!(
        r.simulated < 100,
        "almost every operation is provably safe: {r:?}"
    );
    let fenced = run(
        Spec {
            policy: Policy::FirstTouch,
            ..Spec::new(Policy::None)
        },
        5_000_000,
    );
    assert_eq!(fenced.lost, 0, "first-touch: zero at any ratio");
}

#[test]
fn chunking_and_seeds() {
    let spec = Spec {
        ttl_us: 300 * MS,
        rate_per_s: 4.0,
        ..Spec::new(Policy::None)
    };
    let whole = run(spec, 100_000);
    let mut e = Estimator::new(spec).unwrap();
    for _ in 0..10 {
        e.step(10_000).unwrap();
    }
    assert_eq!(e.result(), whole, "the same numbers whatever the chunks");
    assert_eq!(run(spec, 100_000), whole, "same seed, same numbers");
    assert_ne!(
        run(Spec { seed: 8, ..spec }, 100_000).lost,
        whole.lost,
        "another seed, other draws"
    );
}

#[test]
fn bad_settings_are_errors() {
    let base = Spec::new(Policy::None);
    for bad in [
        Spec {
            dist: PauseDist::Pareto {
                scale_us: 0.0,
                shape: 2.0,
            },
            ..base
        },
        Spec {
            dist: PauseDist::Pareto {
                scale_us: 50_000.0,
                shape: f64::NAN,
            },
            ..base
        },
        Spec {
            dist: PauseDist::LogNormal {
                median_us: 50_000.0,
                sigma: 0.0,
            },
            ..base
        },
        Spec {
            rate_per_s: -1.0,
            ..base
        },
        Spec { ttl_us: 0, ..base },
        Spec {
            retry_us: 0,
            ..base
        },
    ] {
        assert!(Estimator::new(bad).is_err(), "{bad:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// What the estimator skips without a run, the engine finds safe: a pause shorter than the TTL,
    /// or a contender that first asks after A has written.
    #[test]
    fn skipped_operations_are_safe(
        ttl in 10u64..=2_000, pause in 0u64..=5_000, retry in 1u64..=400, work in 0u64..=500,
        arrival in 0u64..=5_000, p in prop::sample::select(Policy::ALL.to_vec()),
    ) {
        prop_assume!(pause < ttl || arrival > pause);
        let sc = catalogue::find(leaselab::estimate::SCENARIO).unwrap();
        let mut cfg = Config::new(sc, p);
        for (name, v) in [("ttl", ttl), ("pause", pause), ("retry", retry), ("work", work), ("arrival", arrival)] {
            sc.set_param(&mut cfg.params, name, v * MS).unwrap();
        }
        let run = Engine::new().run(sc, &cfg).unwrap().clone();
        prop_assert!(!leaselab::outcome::lost_update(&run));
    }
}

// explore.html's form takes its presets, defaults and bounds from the wasm (`presets()` and
// `estimateForm()`, which return these two JSON texts); www/tests/explore.test.mjs checks the page
// against `leaselab estimate`. Here: the JSON says what the estimator does.

/// The numbers after `"key":` in `json` up to the next `]` or `,`/`}` (a number or a `[lo,hi]` pair).
fn numbers_at(json: &str, key: &str) -> Vec<f64> {
    let rest = json
        .split(&format!("\"{key}\":"))
        .nth(1)
        .unwrap_or_else(|| panic!("{key} in {json}"));
    let text = if rest.starts_with('[') {
        &rest[1..rest.find(']').unwrap()]
    } else {
        &rest[..rest.find([',', '}']).unwrap_or(rest.len())]
    };
    text.split(',').map(|v| v.parse().unwrap()).collect()
}

fn dist_of(name: &str, a: f64, b: f64) -> PauseDist {
    PauseDist::from_name_a_b(name, a, b).unwrap_or_else(|| panic!("dist {name}"))
}

#[test]
fn the_presets_json_is_the_clis_presets() {
    let json = leaselab::report::presets_json();
    let objs: Vec<&str> = json.trim_matches(['[', ']']).split("},{").collect();
    assert_eq!(objs.len(), PRESETS.len(), "{json}");
    for (o, p) in objs.iter().zip(PRESETS) {
        assert!(o.contains(&format!("\"id\":\"{}\"", p.id)), "{o}");
        let dist = if o.contains("\"dist\":\"pareto\"") {
            "pareto"
        } else {
            "lognormal"
        };
        let d = dist_of(dist, numbers_at(o, "a")[0], numbers_at(o, "b")[0]);
        assert_eq!(d, p.dist, "{}: the page's numbers are the CLI's", p.id);
        let mut spec = Spec::new(Policy::None);
        spec.dist = d;
        spec.check(catalogue::find(leaselab::estimate::SCENARIO).unwrap())
            .unwrap();
    }
}

#[test]
fn the_forms_defaults_are_the_clis_and_its_limits_are_what_the_estimator_checks() {
    let json = leaselab::report::estimate_form_json().unwrap();
    let sc = catalogue::find(leaselab::estimate::SCENARIO).unwrap();
    let cli = Spec::new(Policy::None);
    assert!(
        json.contains(&format!("\"scenario\":\"{}\"", sc.id)),
        "{json}"
    );
    form_default_is_the_clis(json.split("\"limits\"").next().unwrap(), cli);
    // Each limit: its ends pass Spec::check, and a step beyond either end fails it.
    let limits = json.split("\"limits\"").nth(1).unwrap();
    for key in [
        "pause_ms",
        "pareto",
        "lognormal",
        "rate_per_s",
        "ttl_ms",
        "retry_ms",
        "work_ms",
    ] {
        form_limit_is_the_estimators(limits, key, sc, cli);
    }
    assert_eq!(
        numbers_at(limits, "seed"),
        [0.0, leaselab::estimate::SEED_MAX_JS as f64]
    );
}

/// The form's default (`default`: its JSON before "limits") is what `leaselab estimate` runs without
/// flags (`cli`).
fn form_default_is_the_clis(default: &str, cli: Spec) {
    let preset = PRESETS.iter().find(|p| p.dist == cli.dist).unwrap();
    assert!(
        default.contains(&format!("\"preset\":\"{}\"", preset.id)),
        "{default}"
    );
    let dist = if default.contains("\"dist\":\"pareto\"") {
        "pareto"
    } else {
        "lognormal"
    };
    assert_eq!(
        dist_of(
            dist,
            numbers_at(default, "a")[0],
            numbers_at(default, "b")[0]
        ),
        cli.dist
    );
    for (key, want) in [
        ("ttl_ms", cli.ttl_us),
        ("retry_ms", cli.retry_us),
        ("work_ms", cli.work_us),
    ] {
        assert_eq!(numbers_at(default, key), [want as f64 / 1000.0], "{key}");
    }
    assert_eq!(numbers_at(default, "rate_per_s"), [cli.rate_per_s]);
    assert_eq!(numbers_at(default, "seed"), [cli.seed as f64]);
}

/// The form's limit `key` (from `limits`, its JSON after "limits"): both ends pass Spec::check, and a
/// step beyond either end fails it.
fn form_limit_is_the_estimators(limits: &str, key: &str, sc: &Scenario, cli: Spec) {
    let lh = numbers_at(limits, key);
    let (lo, hi) = (lh[0], lh[1]);
    assert!(
        spec_with(cli, key, lo).check(sc).is_ok() && spec_with(cli, key, hi).check(sc).is_ok(),
        "{key}: [{lo}, {hi}] allowed"
    );
    // A step beyond: 1 µs for durations, a relative step for the rest (a rate of 0 has no below).
    let step = |v: f64| {
        if key.ends_with("_ms") {
            0.001
        } else {
            v.abs() * 1e-6
        }
    };
    if lo > 0.0 {
        assert!(
            spec_with(cli, key, lo - step(lo)).check(sc).is_err(),
            "{key}: below {lo} refused"
        );
    }
    assert!(
        spec_with(cli, key, hi + step(hi)).check(sc).is_err(),
        "{key}: above {hi} refused"
    );
}

/// `cli` with the form's field `key` set to `v` (in the form's units).
fn spec_with(cli: Spec, key: &str, v: f64) -> Spec {
    let mut s = cli;
    let us = |ms: f64| (ms * 1000.0).round() as u64;
    match key {
        "pause_ms" => {
            s.dist = PauseDist::Pareto {
                scale_us: v * 1000.0,
                shape: 2.0,
            }
        }
        "pareto" => {
            s.dist = PauseDist::Pareto {
                scale_us: 50_000.0,
                shape: v,
            }
        }
        "lognormal" => {
            s.dist = PauseDist::LogNormal {
                median_us: 50_000.0,
                sigma: v,
            }
        }
        "rate_per_s" => s.rate_per_s = v,
        "ttl_ms" => s.ttl_us = us(v),
        "retry_ms" => s.retry_us = us(v),
        "work_ms" => s.work_us = us(v),
        _ => unreachable!(),
    }
    s
}

#[test]
fn a_distribution_by_name_round_trips_and_an_unknown_name_is_none() {
    for (name, a, b) in [("pareto", 50.0, 2.0), ("lognormal", 0.3, 0.5)] {
        let d = PauseDist::from_name_a_b(name, a, b).unwrap();
        assert_eq!(d.name_a_b(), (name, a, b));
    }
    assert!(PauseDist::from_name_a_b("weibull", 1.0, 1.0).is_none());
}
