//! The configurations both halves of the parity check run (shared by tests/parity.rs and tests/web.rs).
#![allow(dead_code)]

pub struct Case {
    pub scenario: &'static str,
    pub policy: &'static str,
    /// Parameter overrides in whole milliseconds.
    pub params: &'static [(&'static str, u64)],
    pub retries: u32,
}

pub const CASES: &[Case] = &[
    Case { scenario: "seed-gc-pause", policy: "none", params: &[], retries: 0 },
    Case { scenario: "seed-gc-pause", policy: "token", params: &[], retries: 0 },
    Case { scenario: "seed-gc-pause", policy: "none", params: &[("pause", 200)], retries: 0 },
    Case { scenario: "seed-gc-pause", policy: "token", params: &[("ttl", 1234), ("pause", 2999), ("retry", 7), ("work", 13)], retries: 2 },
    Case { scenario: "gc-pause", policy: "first-touch", params: &[], retries: 3 },
    Case { scenario: "write-only-gap", policy: "token", params: &[], retries: 0 },
    Case { scenario: "write-only-gap", policy: "version", params: &[], retries: 3 },
    Case { scenario: "delayed-write", policy: "owner", params: &[], retries: 1 },
    Case { scenario: "slow-clock", policy: "version", params: &[], retries: 3 },
    Case { scenario: "lock-delay", policy: "none", params: &[("pause", 900)], retries: 0 },
    Case { scenario: "renewal-frozen", policy: "token", params: &[], retries: 0 },
    Case { scenario: "check-then-write", policy: "none", params: &[("ttl", 250)], retries: 2 },
    Case { scenario: "happy-path", policy: "owner", params: &[], retries: 0 },
];

pub struct SweepCase {
    pub scenario: &'static str,
    pub policy: &'static str,
    /// (parameter, from ms, to ms, steps)
    pub x: (&'static str, u64, u64, usize),
    pub y: (&'static str, u64, u64, usize),
}

pub const SWEEP: SweepCase = SweepCase {
    scenario: "write-only-gap",
    policy: "token",
    x: ("ttl", 10, 2000, 48),
    y: ("pause", 0, 3000, 48),
};
