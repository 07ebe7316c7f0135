//! `search_within`, the bounded search the page's Web Workers run on slices of a grid: for every cost
//! bound it finds exactly the counterexample `search` finds when that one costs no more than the
//! bound, and nothing otherwise — on random grids of two to four parameters over several scenarios
//! and policies, including the bounds just below, at and above the least cost.
#![cfg(not(target_arch = "wasm32"))]

use leaselab::rng::Rng;
use leaselab::search::{search, search_within, Dim};
use leaselab::time::MS;
use leaselab::{catalogue, Config, Policy};

#[test]
fn search_within_a_bound_is_search_cut_at_the_bound() {
    let mut rng = Rng::new(0x5eac_4b0d);
    let mut checked = (0, 0); // (grids with a counterexample, grids without)
    for id in [
        "seed-gc-pause",
        "write-only-gap",
        "redlock-clock-jump",
        "delayed-write",
        "etcd-lease-pause",
    ] {
        let sc = catalogue::find(id).unwrap();
        for policy in [Policy::None, Policy::Token, Policy::Version] {
            let base = Config::new(sc, policy);
            for _ in 0..6 {
                let d = rng.range_inclusive(2, 4.min(sc.params.len() as u64)) as usize;
                let dims: Vec<Dim> = (0..d)
                    .map(|p| {
                        let spec = &sc.params[p];
                        let step = rng.range_inclusive(1, 40) * 10 * MS;
                        let count = rng.range_inclusive(2, 12);
                        let from = spec
                            .min_us
                            .max(spec.default_us.saturating_sub(count / 2 * step));
                        let to = spec.max_us.min(from + (count - 1) * step);
                        Dim::new(sc, &spec.name, from, to, step).unwrap()
                    })
                    .collect();
                let full = search(sc, &base, &dims).unwrap();
                let least = full.counterexample.as_ref().map(|c| c.cost);
                let mut bounds = vec![0, 1, 3, 1000];
                if let Some(c) = least {
                    bounds.extend([c.saturating_sub(1), c, c + 1]);
                    checked.0 += 1;
                } else {
                    checked.1 += 1;
                }
                for bound in bounds {
                    let got = search_within(sc, &base, &dims, bound).unwrap();
                    let want = full.counterexample.clone().filter(|c| c.cost <= bound);
                    assert_eq!(got.combinations, full.combinations);
                    assert_eq!(
                        got.counterexample, want,
                        "{id} {policy:?} {dims:?} cost_max {bound}"
                    );
                }
            }
        }
    }
    assert!(
        checked.0 >= 5 && checked.1 >= 1,
        "grids with and without a counterexample: {checked:?}"
    );
}
