//! No allocation per event in the hot loop: once an engine's buffers have grown, further runs with the
//! trace off (as in sweeps) allocate nothing at all.
#![cfg(not(target_arch = "wasm32"))]
// A counting global allocator is the one place that needs unsafe: it only forwards to the system one.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::Ordering;

use leaselab::sweep::{sweep, Axis};
use leaselab::time::MS;
use leaselab::{catalogue, Engine, Policy};

struct Counting;

thread_local! {
    // Only the test's own thread counts: the harness's threads may allocate while it runs.
    static MINE: Cell<usize> = const { Cell::new(0) };
}

/// Allocations made so far by the calling thread.
struct Allocs;
impl Allocs {
    fn load(&self, _: Ordering) -> usize {
        MINE.with(Cell::get)
    }
}
static ALLOCS: Allocs = Allocs;

fn count() {
    // `try_with`: during thread teardown the slot may be gone; those allocations are not ours.
    let _ = MINE.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

// Both checks run in one test, one after the other, on the test's thread.
#[test]
fn no_allocation_per_run_or_per_cell() {
    warmed_up_runs_allocate_nothing();
    a_sweep_allocates_a_bounded_amount_not_per_cell();
}

fn warmed_up_runs_allocate_nothing() {
    for (sc, fast) in catalogue::catalogue()
        .iter()
        .flat_map(|sc| [(sc, false), (sc, true)])
    {
        for p in Policy::ALL {
            let params = sc.defaults();
            let mut engine = Engine::new();
            engine.set_fast(fast); // as sweeps run it: skipping denied retries allocates nothing either
            engine.run_with(sc, p, &params, 2, false, 1, false).unwrap();
            let before = ALLOCS.load(Ordering::Relaxed);
            for _ in 0..100 {
                engine.run_with(sc, p, &params, 2, false, 1, false).unwrap();
            }
            assert_eq!(
                ALLOCS.load(Ordering::Relaxed) - before,
                0,
                "{} {:?} allocates per run",
                sc.id,
                p
            );
        }
    }
}

fn a_sweep_allocates_a_bounded_amount_not_per_cell() {
    let sc = catalogue::find("seed-gc-pause").unwrap();
    let base = leaselab::Config::new(sc, Policy::None);
    let small = (
        Axis::new(sc, "ttl", 10 * MS, 2_000 * MS, 8).unwrap(),
        Axis::new(sc, "pause", 0, 3_000 * MS, 8).unwrap(),
    );
    let big = (
        Axis::new(sc, "ttl", 10 * MS, 2_000 * MS, 128).unwrap(),
        Axis::new(sc, "pause", 0, 3_000 * MS, 128).unwrap(),
    );
    let mut cells = Vec::with_capacity(128 * 128);
    let count = |axes: &(Axis, Axis), cells: &mut Vec<_>| {
        let before = ALLOCS.load(Ordering::Relaxed);
        sweep(sc, &base, &axes.0, &axes.1, cells).unwrap();
        ALLOCS.load(Ordering::Relaxed) - before
    };
    let a = count(&small, &mut cells);
    let b = count(&big, &mut cells);
    // 64 cells vs 16,384 cells: the count may differ by buffer growth (a handful), never per cell.
    assert!(
        b <= a + 32,
        "allocations grew with the grid: {a} for 64 cells, {b} for 16384"
    );
}
