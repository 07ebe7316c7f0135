//! `cargo bench`: one seed run, and a 256×256 sweep of (ttl, pause). Prints criterion's figures;
//! targets (issue 2): one run ≤ 2 µs median, the 65,536-cell sweep ≤ 100 ms on one core (it runs only
//! the cells where the path changes; `cargo run --example sweep_timing` also times every cell run).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use leaselab::sweep::{sweep, Axis};
use leaselab::time::MS;
use leaselab::{catalogue, simulate, Config, Engine, Policy};

fn bench(c: &mut Criterion) {
    let sc = catalogue::find("seed-gc-pause").unwrap();
    let cfg = Config::new(sc, Policy::None);
    let mut engine = Engine::new();
    c.bench_function("seed_run_engine_no_trace", |b| {
        b.iter(|| {
            black_box(
                engine
                    .run_with(sc, Policy::None, black_box(&cfg.params), 0, false, 1, false)
                    .unwrap()
                    .final_balance,
            )
        })
    });
    c.bench_function("seed_run_engine_trace", |b| {
        b.iter(|| black_box(engine.run(sc, black_box(&cfg)).unwrap().final_balance))
    });
    c.bench_function("seed_simulate_full_outcome", |b| {
        b.iter(|| black_box(simulate(sc, black_box(&cfg)).unwrap().expected))
    });

    let x = Axis::new(sc, "ttl", 10 * MS, 2_000 * MS, 256).unwrap();
    let y = Axis::new(sc, "pause", 0, 3_000 * MS, 256).unwrap();
    let mut cells = Vec::new();
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.bench_function("seed_256x256_ttl_pause", |b| {
        b.iter(|| {
            sweep(sc, &cfg, &x, &y, &mut cells).unwrap();
            black_box(cells.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
