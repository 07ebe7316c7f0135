//! Times the 256×256 (ttl, pause) sweep of the seed scenario: `cargo run --release --example sweep_timing`.
//! Prints the median of several runs as `sweep_native_ms: … ms` and runs per second, and the Monte Carlo
//! estimator's operations per second at the seed's ratio (50 ms Pareto pauses, 30 s TTL).

use std::time::Instant;

use leaselab::sweep::{sweep, Axis};
use leaselab::time::MS;
use leaselab::{catalogue, Policy};

fn main() {
    let sc = catalogue::find("seed-gc-pause").unwrap();
    let x = Axis::new(sc, "ttl", 10 * MS, 2_000 * MS, 256).unwrap();
    let y = Axis::new(sc, "pause", 0, 3_000 * MS, 256).unwrap();
    let mut cells = Vec::new();
    let mut times = Vec::new();
    let base = leaselab::Config::new(sc, Policy::None);
    for _ in 0..11 {
        let t = Instant::now();
        sweep(sc, &base, &x, &y, &mut cells).unwrap();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let lost = cells.iter().filter(|c| c.lost_update).count();
    println!("sweep_native_ms: {median:.1} ms");
    println!(
        "runs_per_s_native: {:.0} runs/s",
        cells.len() as f64 / (median / 1e3)
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
