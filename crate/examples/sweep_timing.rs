//! Times the 256×256 (ttl, pause) sweep of the seed scenario: `cargo run --release --example sweep_timing`.
//! Prints the median of several sweeps as `sweep_native_ms: … ms` (the bisecting sweep), how many cells it
//! ran, the same grid with every cell run (`sweep_every_cell_native_ms`, whose cells per second are the
//! engine's runs per second, and their inverse the native cost of one run,
//! `every_cell_native_us_per_run`, beside `events_per_run`, the mean events one of those runs handles:
//! the grid's runs handle more events than the seed's defaults do), and the Monte Carlo
//! estimator's operations per second at the seed's ratio (50 ms Pareto pauses, 30 s TTL).
//! `--events-total` prints only the events the every-cell sweep's runs handle in all (`events_total`),
//! which www/tests/bench.mjs checks its minimal JS simulation of the same runs against.

use std::time::Instant;

use leaselab::sweep::{sweep, sweep_every_cell, Axis};
use leaselab::time::MS;
use leaselab::{catalogue, Policy};

fn main() {
    let sc = catalogue::find("seed-gc-pause").unwrap();
    let x = Axis::new(sc, "ttl", 10 * MS, 2_000 * MS, 256).unwrap();
    let y = Axis::new(sc, "pause", 0, 3_000 * MS, 256).unwrap();
    let base = leaselab::Config::new(sc, Policy::None);
    let mut cells = Vec::new();
    // (median ms, fastest ms, cells run) of `reps` sweeps, fast or with every cell run.
    let time = |reps: usize, every: bool, cells: &mut Vec<_>| {
        let f = if every { sweep_every_cell } else { sweep };
        let mut runs = 0;
        let mut times: Vec<f64> = (0..reps)
            .map(|_| {
                let t = Instant::now();
                runs = f(sc, &base, &x, &y, cells).unwrap();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        (times[times.len() / 2], times[0], runs)
    };
    if std::env::args().any(|a| a == "--events-total") {
        println!("events_total: {}", total_events(sc, &base, &x, &y));
        return;
    }
    if std::env::args().any(|a| a == "--sweeps-only") {
        // For www/tests/bench.mjs, which alternates this with the same sweeps in wasm.
        let (fast, fast_min, _) = time(21, false, &mut cells);
        let (every, every_min, _) = time(3, true, &mut cells);
        println!("sweep_native_ms: {fast:.3} ms");
        println!("sweep_native_min_ms: {fast_min:.3} ms");
        println!("sweep_every_cell_native_ms: {every:.3} ms");
        println!("sweep_every_cell_native_min_ms: {every_min:.3} ms");
        return;
    }
    let (fast_ms, _, runs) = time(11, false, &mut cells);
    let fast = cells.clone();
    let (every_ms, _, all) = time(11, true, &mut cells);
    assert_eq!(
        fast, cells,
        "the fast sweep and the every-cell sweep disagree"
    );
    let lost = cells.iter().filter(|c| c.lost_update).count();
    println!("sweep_native_ms: {fast_ms:.2} ms");
    println!("sweep_native_cells_run: {runs} of {all} cells");
    println!("sweep_every_cell_native_ms: {every_ms:.1} ms");
    println!(
        "runs_per_s_native: {:.0} runs/s",
        all as f64 / (every_ms / 1e3)
    );
    println!(
        "every_cell_native_us_per_run: {:.2} µs",
        every_ms * 1e3 / all as f64
    );
    println!(
        "events_per_run: {:.1} events (mean over the grid)",
        total_events(sc, &base, &x, &y) as f64 / (x.steps * y.steps) as f64
    );
    println!("(cells with a lost update: {lost} of {})", cells.len());

    let mut rates = Vec::new();
    for seed in 0..5 {
        let spec = leaselab::estimate::Spec {
            seed,
            ..leaselab::estimate::Spec::new(Policy::None)
        };
        let mut est = leaselab::estimate::Estimator::new(spec).unwrap();
        let t = Instant::now();
        est.step(5_000_000).unwrap();
        rates.push(5e6 / t.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "montecarlo_ops_per_s_native: {:.0} ops/s",
        rates[rates.len() / 2]
    );
}

/// The events the grid's runs handle in all (event by event, as the every-cell sweep runs them).
fn total_events(sc: &leaselab::Scenario, base: &leaselab::Config, x: &Axis, y: &Axis) -> u64 {
    let mut engine = leaselab::Engine::new();
    let mut params = base.params.clone();
    let mut events = 0u64;
    for yi in 0..y.steps {
        params[y.param] = y.value(yi);
        for xi in 0..x.steps {
            params[x.param] = x.value(xi);
            events += u64::from(engine.run_at(sc, base, &params).unwrap().events);
        }
    }
    events
}
