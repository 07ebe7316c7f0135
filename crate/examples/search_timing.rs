//! The search's figures for `make bench`: `cargo run --release --example search_timing`. A 4-D grid of
//! the seed scenario, TTL × pause × B's retry × B's work (32⁴ = 1,048,576 points), searched under
//! first-touch fencing, where no point loses an update, so every point must be decided. Prints
//! `search_runs_ratio` (engine runs ÷ combinations) and `search_1m_native_ms` (median of a few), then
//! the same figures for the coarser grid the tests use and under token fencing (which stops early).

use std::time::Instant;

use leaselab::search::{search, Dim, Found};
use leaselab::time::MS;
use leaselab::{catalogue, Config, Policy, Scenario};

/// `(name, from_ms, to_ms, step_ms)` for each dimension.
type Grid = [(&'static str, u64, u64, u64); 4];

/// The bench's grid: 32 values along each of the four dimensions.
const GRID_1M: Grid = [
    ("ttl", 10, 10 + 31 * 64, 64),
    ("pause", 0, 31 * 96, 96),
    ("retry", 1, 1 + 31 * 16, 16),
    ("work", 0, 31 * 32, 32),
];

/// tests/search_exact.rs's four-dimensional grid (33 × 32 × 32 × 33).
const GRID_TEST: Grid = [
    ("ttl", 10, 2_000, 62),
    ("pause", 0, 3_000, 95),
    ("retry", 1, 500, 16),
    ("work", 0, 1_000, 31),
];

fn dims(sc: &Scenario, grid: &Grid) -> Vec<Dim> {
    grid.iter()
        .map(|&(name, from, to, step)| Dim::new(sc, name, from * MS, to * MS, step * MS).unwrap())
        .collect()
}

/// The search's answer and the median of `reps` timings, in ms.
fn timed(sc: &Scenario, policy: Policy, grid: &Grid, reps: usize) -> (Found, f64) {
    let base = Config::new(sc, policy);
    let dims = dims(sc, grid);
    let mut found = None;
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            found = Some(search(sc, &base, &dims).unwrap());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (found.unwrap(), times[times.len() / 2])
}

fn main() {
    let sc = catalogue::find("seed-gc-pause").unwrap();
    let (found, ms) = timed(sc, Policy::FirstTouch, &GRID_1M, 3);
    assert!(found.counterexample.is_none(), "first-touch is safe here");
    let ratio = found.runs as f64 / found.combinations as f64;
    println!("search_runs_ratio: {ratio:.4}");
    println!(
        "search_1m_native_ms: {ms:.0} ms ({} engine runs for {} combinations)",
        found.runs, found.combinations
    );
    let (found, ms) = timed(sc, Policy::FirstTouch, &GRID_TEST, 3);
    println!(
        "search_test_grid_runs_ratio: {:.4} ({} runs for {} combinations, {ms:.0} ms)",
        found.runs as f64 / found.combinations as f64,
        found.runs,
        found.combinations
    );
    let (found, ms) = timed(sc, Policy::Token, &GRID_1M, 3);
    let cost = found.counterexample.map(|c| c.cost);
    println!(
        "search_1m_token_runs: {} (counterexample of cost {cost:?}, {ms:.1} ms)",
        found.runs
    );
}
