//! Strategies shared by the property tests (`mod common;` in each test file that uses them).

use leaselab::catalogue;
use leaselab::time::MS;
use proptest::prelude::*;

/// A catalogue scenario and random values inside its parameter ranges, biased towards small values
/// (where the interesting interleavings are). With `ties`, two in five values are whole milliseconds,
/// which meet a polling client's retry instants and other events exactly (ties the event order decides).
pub fn scenario_and_params(ties: bool) -> impl Strategy<Value = (usize, Vec<u64>)> {
    let n = catalogue::catalogue().len();
    (0..n).prop_flat_map(move |i| {
        let sc = &catalogue::catalogue()[i];
        let ranges: Vec<_> = sc
            .params
            .iter()
            .map(|p| {
                let (lo, hi) = (p.min_us, p.max_us);
                let small_hi = hi.min(lo.max(3_000 * MS));
                if ties {
                    prop_oneof![2 => (lo / MS..=small_hi / MS).prop_map(|m| m * MS), 2 => lo..=small_hi, 1 => lo..=hi].boxed()
                } else {
                    prop_oneof![3 => lo..=small_hi, 1 => lo..=hi].boxed()
                }
            })
            .collect();
        (Just(i), ranges)
    })
}
