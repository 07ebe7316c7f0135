//! Times the 256×256 (ttl, pause) sweep of the seed scenario: `cargo run --release --example sweep_timing`.
//! Prints the median of several sweeps as `sweep_native_ms: … ms` (the bisecting sweep), how many cells it
//! ran, the same grid with every cell run (`sweep_every_cell_native_ms`, whose cells per second are the
//! engine's runs per second), and the Monte Carlo
//! estimator's operations per second at the seed's ratio (50 ms Pareto pauses, 30 s TTL).

use std::time::Instant;

use leaselab::sweep::{sweep, sweep_every_cell, Axis};
use leaselab::time::MS;
use leaselab::{catalogue, Policy};

fn main() {
    let sc = catalogue::find("seed-gc-pause").unwrap();
    let x = Axis::new(sc, "ttl", 10 * MS, 2_000 * MS, 256).unwrap();
    let y = Axis::new(sc, "pause", 0, 3_000 * MS, 256).unwrap();
    let base = leaselab::Config::new(sc, Policy::None);
    let median = |f: &mut dyn FnMut() -> usize| {
        let mut times = Vec::new();
        let mut runs = 0;
        for _ in 0..11 {
            let t = Instant::now();
            runs = f();
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        (times[times.len() / 2], runs)
    };
    let mut cells = Vec::new();
    if std::env::args().any(|a| a == "--sweeps-only") {
        // For www/tests/bench.mjs, which alternates this with the same sweeps in wasm.
        let mut med = |reps: usize, every: bool| {
            let mut times: Vec<f64> = (0..reps)
                .map(|_| {
                    let t = Instant::now();
                    let f = if every { sweep_every_cell } else { sweep };
                    f(sc, &base, &x, &y, &mut cells).unwrap();
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            (times[times.len() / 2], times[0])
        };
        let (fast, fast_min) = med(21, false);
        let (every, every_min) = med(3, true);
        println!("sweep_native_ms: {fast:.3} ms");
        println!("sweep_native_min_ms: {fast_min:.3} ms");
        println!("sweep_every_cell_native_ms: {every:.3} ms");
        println!("sweep_every_cell_native_min_ms: {every_min:.3} ms");
        return;
    }
    let (fast_ms, runs) = median(&mut || sweep(sc, &base, &x, &y, &mut cells).unwrap());
    let fast = cells.clone();
    let (every_ms, all) = median(&mut || sweep_every_cell(sc, &base, &x, &y, &mut cells).unwrap());
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
