//! A run's signature: a 64-bit digest of its path — every event in the order it ran, and the outcome of
//! every choice that depends on a time (is the lease live? did the check pass? which side of a clock
//! step?). Where the core takes a floor of a time (a clock's rate, a `ttl/100` drift allowance, a retry
//! count), the floor's value goes in too.
//!
//! Why: along a sweep axis every time in a run is an affine function of the swept value while the path
//! stays the same, and every choice compares two such times. The values that keep one path therefore
//! form an interval, so two cells of a column with the same signature bound a stretch of cells that all
//! run that same path, and share its outcome (`leaselab::sweep` fills them without running them).

/// A run's path so far, as a digest. Every choice that depends on a time goes through
/// [`Path::decide`], and every floor of a time through [`Path::floor`]: a branch that compares times
/// without them would let two different paths share a signature, and a sweep fill cells it never ran
/// (the exhaustive test in `tests/sweep_exact.rs` is what catches a forgotten one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Path(u64);

impl Path {
    /// Records a yes/no choice that depends on a time, and returns it: `if path.decide(a < b)`.
    #[cfg_attr(any(not(target_arch = "wasm32"), feature = "estimate"), inline(always))]
    pub fn decide(&mut self, b: bool) -> bool {
        bit(&mut self.0, b);
        b
    }

    /// Records a value derived from times by a floor (a rate's rounding, a count of periods, a drift
    /// allowance): the path stays affine in the swept value only while it does not change.
    #[cfg_attr(any(not(target_arch = "wasm32"), feature = "estimate"), inline(always))]
    pub fn floor(&mut self, w: u64) {
        mix(&mut self.0, w);
    }

    /// Records one handled event (its kind, client and payload).
    #[cfg_attr(any(not(target_arch = "wasm32"), feature = "estimate"), inline(always))]
    pub fn event(&mut self, identity: u64) {
        mix(&mut self.0, identity);
    }

    /// The digest so far.
    pub fn digest(self) -> u64 {
        self.0
    }
}

/// Folds one word into the digest. Each step is a bijection of the state (rotate, xor, odd multiply,
/// xor), so a change anywhere in the sequence, or its length, changes the digest.
// Inlined natively and in explore.html's wasm (speed); a call in the lab page's wasm, where it is
// smaller than the arithmetic at dozens of call sites (size budget).
#[cfg_attr(any(not(target_arch = "wasm32"), feature = "estimate"), inline(always))]
#[cfg_attr(all(target_arch = "wasm32", not(feature = "estimate")), inline(never))]
pub fn mix(h: &mut u64, w: u64) {
    *h = (h.rotate_left(26) ^ w).wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x9e37_79b9_7f4a_7c15;
}

/// Folds a yes/no choice.
#[cfg_attr(any(not(target_arch = "wasm32"), feature = "estimate"), inline(always))]
#[cfg_attr(all(target_arch = "wasm32", not(feature = "estimate")), inline(never))]
pub fn bit(h: &mut u64, b: bool) {
    mix(h, u64::from(b) | 0xb17_0000);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_length_and_zeros_all_count() {
        let digest = |ws: &[u64]| {
            let mut h = 0;
            for &w in ws {
                mix(&mut h, w);
            }
            h
        };
        assert_ne!(digest(&[0]), digest(&[0, 0]));
        assert_ne!(digest(&[1, 2]), digest(&[2, 1]));
        assert_ne!(digest(&[]), digest(&[0]));
        assert_eq!(digest(&[5, 7]), digest(&[5, 7]));
    }
}
