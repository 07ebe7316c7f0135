//! The 256×256 (ttl, pause) sweep of the seed scenario with every cell run, once: a fixed workload for
//! instruction counts, which unlike times are repeatable on a shared machine. `tools/instructions.sh`
//! (run by `make bench`) counts them with callgrind and prints the instructions per run: the total ÷
//! the 65,536 runs (the setup is a few thousand instructions).

use leaselab::sweep::{sweep_every_cell, Axis};
use leaselab::time::MS;
use leaselab::{catalogue, Config, Policy};

fn main() {
    let sc = catalogue::find("seed-gc-pause").expect("the seed scenario is built in");
    let x = Axis::new(sc, "ttl", 10 * MS, 2_000 * MS, 256).expect("a valid ttl axis");
    let y = Axis::new(sc, "pause", 0, 3_000 * MS, 256).expect("a valid pause axis");
    let base = Config::new(sc, Policy::None);
    let mut cells = Vec::new();
    let runs = sweep_every_cell(sc, &base, &x, &y, &mut cells).expect("the seed sweep runs");
    let lost = cells.iter().filter(|c| c.lost_update).count();
    println!("every_cell_runs: {runs} runs ({lost} with a lost update)");
}
