//! The fast sweep (bisection over path signatures, skipped retries) against the slow one (every cell
//! run event by event): they must agree on every cell of every catalogue scenario, over every pair of
//! its parameters, under every policy — and a fast run must equal the event-by-event run in everything
//! but its signature.
#![cfg(not(target_arch = "wasm32"))]

use leaselab::sweep::{sweep, sweep_every_cell, Axis};
use leaselab::time::MS;
use leaselab::{catalogue, Config, Engine, Policy};
use proptest::prelude::*;

mod common;

/// A range for a swept parameter: from its minimum to a span where things happen (a few seconds),
/// or its whole range (`wide`).
fn range(sc: &leaselab::Scenario, i: usize, wide: bool) -> (u64, u64) {
    let p = &sc.params[i];
    let hi = if wide {
        p.max_us
    } else {
        p.max_us.min(p.min_us.max(p.default_us * 3).max(1_500 * MS))
    };
    (p.min_us, hi)
}

fn compare(sc: &'static leaselab::Scenario, cfg: &Config, x: &Axis, y: &Axis) {
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    let a = sweep(sc, cfg, x, y, &mut fast);
    let b = sweep_every_cell(sc, cfg, x, y, &mut slow);
    match (a, b) {
        (Ok(_), Ok(_)) => {
            for (i, (f, s)) in fast.iter().zip(&slow).enumerate() {
                assert_eq!(
                    f,
                    s,
                    "{} {:?} retries={} naive={} x={:?} y={:?}: cell ({}, {})",
                    sc.id,
                    cfg.policy,
                    cfg.retries,
                    cfg.naive,
                    x,
                    y,
                    i % x.steps,
                    i / x.steps
                );
            }
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "{} {:?}: fast {:?}, every cell {:?}",
            sc.id,
            cfg.policy,
            a.err(),
            b.err()
        ),
    }
}

#[test]
fn the_fast_sweep_equals_running_every_cell_on_every_scenario() {
    let mut grids = 0;
    for sc in catalogue::catalogue() {
        let n = sc.params.len();
        for xi in 0..n {
            for yi in 0..n {
                if xi == yi {
                    continue;
                }
                for (k, p) in Policy::ALL.into_iter().enumerate() {
                    let mut cfg = Config::new(sc, p);
                    cfg.trace = false;
                    cfg.retries = if k % 2 == 0 { 0 } else { 3 };
                    cfg.naive = k % 3 == 1;
                    let wide = k == 2;
                    let (x0, x1) = range(sc, xi, wide);
                    let (y0, y1) = range(sc, yi, wide);
                    let x = Axis::new(sc, &sc.params[xi].name, x0, x1, 41).unwrap();
                    let y = Axis::new(sc, &sc.params[yi].name, y0, y1, 23).unwrap();
                    compare(sc, &cfg, &x, &y);
                    grids += 1;
                }
            }
        }
    }
    assert!(grids > 300, "{grids} grids");
}

#[test]
fn the_benchmark_grid_is_exact() {
    // The 256 × 256 (ttl, pause) grid of the seed that `make bench` times, under every policy.
    let sc = catalogue::find("seed-gc-pause").unwrap();
    let x = Axis::new(sc, "ttl", 10 * MS, 2_000 * MS, 256).unwrap();
    let y = Axis::new(sc, "pause", 0, 3_000 * MS, 256).unwrap();
    for p in Policy::ALL {
        compare(sc, &Config::new(sc, p), &x, &y);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn a_fast_run_equals_the_event_by_event_run(
        (i, params) in common::scenario_and_params(true),
        p in prop::sample::select(Policy::ALL.to_vec()),
        retries in 0u32..=3,
        seed in any::<u64>(),
        naive in any::<bool>(),
    ) {
        let sc = &catalogue::catalogue()[i];
        let mut slow = Engine::new();
        let mut fast = Engine::new();
        fast.set_fast(true);
        let a = slow.run_with(sc, p, &params, retries, false, seed, naive).map(|r| { let mut r = r.clone(); r.sig = 0; format!("{r:?}") });
        let b = fast.run_with(sc, p, &params, retries, false, seed, naive).map(|r| { let mut r = r.clone(); r.sig = 0; format!("{r:?}") });
        match (a, b) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "{} {:?}", sc.id, params),
            (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            (a, b) => prop_assert!(false, "{}: {:?} vs {:?}", sc.id, a.err(), b.err()),
        }
    }
}

#[test]
fn the_fast_sweep_is_exact_on_millisecond_grids() {
    // Every cell on a whole 10 ms: the values where a pause ends exactly as a retry is sent, a lease
    // expires exactly as a request lands — the ties the event order decides.
    for sc in catalogue::catalogue() {
        let n = sc.params.len();
        for xi in 0..n {
            for yi in 0..n {
                if xi == yi {
                    continue;
                }
                let (px, py) = (&sc.params[xi], &sc.params[yi]);
                let x0 = px.min_us.div_ceil(10 * MS) * 10 * MS;
                let y0 = py.min_us.div_ceil(10 * MS) * 10 * MS;
                let xs = ((px.max_us.min(x0 + 900 * MS) - x0) / (10 * MS)) as usize + 1;
                let ys = ((py.max_us.min(y0 + 600 * MS) - y0) / (10 * MS)) as usize + 1;
                let x = Axis::new(sc, &px.name, x0, x0 + (xs as u64 - 1) * 10 * MS, xs).unwrap();
                let y = Axis::new(sc, &py.name, y0, y0 + (ys as u64 - 1) * 10 * MS, ys).unwrap();
                for p in [Policy::None, Policy::Token] {
                    compare(sc, &Config::new(sc, p), &x, &y);
                }
            }
        }
    }
}

fn axis(min: u64, max: u64) -> impl Strategy<Value = (u64, u64, usize)> {
    let hi = max.min(min + 4_000 * MS);
    (min / MS..=hi / MS, min / MS..=hi / MS, 2usize..40).prop_map(move |(a, b, s)| {
        let (a, b) = (a.min(b) * MS, a.max(b) * MS);
        (a.max(min), b.max(min), s)
    })
}

/// A scenario, two of its parameters, and a (from, to, steps) range for each.
type RandomGrid = (usize, usize, usize, (u64, u64, usize), (u64, u64, usize));

fn random_grid() -> impl Strategy<Value = RandomGrid> {
    let n = catalogue::catalogue().len();
    (0..n).prop_flat_map(|i| {
        let sc = &catalogue::catalogue()[i];
        let k = sc.params.len();
        (0..k, 0..k).prop_flat_map(move |(a, b)| {
            let sc = &catalogue::catalogue()[i];
            (
                Just(i),
                Just(a),
                Just(b),
                axis(sc.params[a].min_us, sc.params[a].max_us),
                axis(sc.params[b].min_us, sc.params[b].max_us),
            )
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_fast_sweep_equals_running_every_cell_on_random_grids(
        (i, a, b, (x0, x1, xs), (y0, y1, ys)) in random_grid(),
        p in prop::sample::select(Policy::ALL.to_vec()),
        retries in 0u32..=3,
        seed in any::<u64>(),
        naive in any::<bool>(),
    ) {
        let sc = &catalogue::catalogue()[i];
        prop_assume!(a != b);
        let mut cfg = Config::new(sc, p);
        cfg.retries = retries;
        cfg.seed = seed;
        cfg.naive = naive;
        let x = Axis::new(sc, &sc.params[a].name, x0, x1, xs).unwrap();
        let y = Axis::new(sc, &sc.params[b].name, y0, y1, ys).unwrap();
        compare(sc, &cfg, &x, &y);
    }
}
