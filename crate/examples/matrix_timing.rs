//! The safety table's figure for `make bench`: `cargo run --release --example matrix_timing`. The whole
//! default table (every service × fault × policy, as `leaselab matrix` computes it), timed a few
//! times; prints `matrix_native_ms` (the median; target ≤ 1,500 ms, issue 39) with the table's
//! counts: cells by verdict, points searched and engine runs.

use std::time::Instant;

use leaselab::matrix::{table, Fault, Table, Verdict};
use leaselab::scenario::ServiceKind;
use leaselab::Policy;

fn main() {
    let mut last: Option<Table> = None;
    let mut times: Vec<f64> = (0..3)
        .map(|_| {
            let t = Instant::now();
            last = Some(table(&ServiceKind::ALL, &Fault::ALL, &Policy::ALL).unwrap());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let t = last.unwrap();
    let count = |v: Verdict| t.cells.iter().filter(|c| c.verdict == v).count();
    let points: u64 = t.cells.iter().map(|c| c.combinations).sum();
    let runs: u64 = t.cells.iter().map(|c| c.runs).sum();
    println!("matrix_native_ms {:.0}", times[times.len() / 2]);
    println!(
        "matrix_cells {} (unsafe {}, safe {}, n/a {}); {points} points searched in {runs} engine runs",
        t.cells.len(),
        count(Verdict::Unsafe),
        count(Verdict::Safe),
        count(Verdict::NotApplicable)
    );
}
