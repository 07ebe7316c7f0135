//! The configurations both halves of the parity check run (shared by tests/parity.rs and tests/web.rs).
#![allow(dead_code)]

pub struct Case {
    pub scenario: &'static str,
    pub policy: &'static str,
    /// Parameter overrides in whole milliseconds.
    pub params: &'static [(&'static str, u64)],
    pub retries: u32,
    /// The naive switch (Redlock clients skip the validity check; etcd 3.4's lock).
    pub naive: bool,
}

pub const CASES: &[Case] = &[
    Case {
        scenario: "seed-gc-pause",
        policy: "none",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "seed-gc-pause",
        policy: "token",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "seed-gc-pause",
        policy: "none",
        params: &[("pause", 200)],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "seed-gc-pause",
        policy: "token",
        params: &[("ttl", 1234), ("pause", 2999), ("retry", 7), ("work", 13)],
        retries: 2,
        naive: false,
    },
    Case {
        scenario: "gc-pause",
        policy: "first-touch",
        params: &[],
        retries: 3,
        naive: false,
    },
    Case {
        scenario: "write-only-gap",
        policy: "token",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "write-only-gap",
        policy: "version",
        params: &[],
        retries: 3,
        naive: false,
    },
    Case {
        scenario: "delayed-write",
        policy: "owner",
        params: &[],
        retries: 1,
        naive: false,
    },
    Case {
        scenario: "slow-clock",
        policy: "version",
        params: &[],
        retries: 3,
        naive: false,
    },
    Case {
        scenario: "lock-delay",
        policy: "none",
        params: &[("pause", 900)],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "renewal-frozen",
        policy: "token",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "check-then-write",
        policy: "none",
        params: &[("ttl", 250)],
        retries: 2,
        naive: false,
    },
    Case {
        scenario: "happy-path",
        policy: "owner",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "redlock-pause-before-check",
        policy: "none",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "redlock-pause-before-check",
        policy: "version",
        params: &[("pause", 420)],
        retries: 2,
        naive: true,
    },
    Case {
        scenario: "redlock-clock-jump",
        policy: "owner",
        params: &[],
        retries: 1,
        naive: false,
    },
    Case {
        scenario: "redlock-crash-restart",
        policy: "none",
        params: &[("restart", 300)],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "redlock-restart-clock-jump",
        policy: "token",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "replica-failover",
        policy: "token",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "postgres-terminate",
        policy: "none",
        params: &[],
        retries: 1,
        naive: false,
    },
    Case {
        scenario: "epoch-fencing",
        policy: "token",
        params: &[],
        retries: 3,
        naive: false,
    },
    Case {
        scenario: "etcd-lease-pause",
        policy: "token",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "etcd-waiter-expired-lease",
        policy: "version",
        params: &[],
        retries: 0,
        naive: true,
    },
    Case {
        scenario: "etcd-contrib-lock",
        policy: "equal-token",
        params: &[],
        retries: 1,
        naive: false,
    },
    Case {
        scenario: "curator-suspended",
        policy: "none",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "s3-etag-aba",
        policy: "etag",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "hazelcast-fenced-lock",
        policy: "token",
        params: &[],
        retries: 1,
        naive: false,
    },
    Case {
        scenario: "k8s-lease-slow-renew",
        policy: "none",
        params: &[],
        retries: 0,
        naive: true,
    },
    Case {
        scenario: "consul-lock-delay-exceeded",
        policy: "none",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "dynamodb-heartbeat-pause",
        policy: "token",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "dynamodb-heartbeat-pause",
        policy: "version",
        params: &[("heartbeat", 2000)],
        retries: 1,
        naive: false,
    },
    // The client libraries (issue 44): their notices and answers, byte for byte in the wasm.
    Case {
        scenario: "kazoo-is-acquired",
        policy: "none",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "curator-listener-window",
        policy: "token",
        params: &[("work", 2000)],
        retries: 1,
        naive: false,
    },
    Case {
        scenario: "redis-py-owned-before-pause",
        policy: "none",
        params: &[],
        retries: 0,
        naive: false,
    },
    Case {
        scenario: "python-redis-lock-renewal-died",
        policy: "none",
        params: &[("pause", 700)],
        retries: 1,
        naive: false,
    },
    Case {
        scenario: "etcdctl-lock-rev",
        policy: "token",
        params: &[],
        retries: 1,
        naive: false,
    },
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

/// One Monte Carlo setting: (policy, ttl ms, retry ms, work ms, dist, a, b, rate /s, seed, ops).
pub type EstimateCase = (
    &'static str,
    f64,
    f64,
    f64,
    &'static str,
    f64,
    f64,
    f64,
    f64,
    u32,
);

/// Monte Carlo settings both halves run.
pub const ESTIMATES: &[EstimateCase] = &[
    (
        "none", 300.0, 50.0, 0.0, "pareto", 50.0, 2.0, 0.0, 7.0, 200_000,
    ),
    (
        "token",
        300.0,
        50.0,
        30.0,
        "lognormal",
        150.0,
        0.7,
        3.0,
        123_456_789.0,
        200_000,
    ),
    (
        "none", 30_000.0, 50.0, 0.0, "pareto", 50.0, 2.0, 0.0, 125_534.0, 300_000,
    ),
];

/// One line per estimate: its result numbers in Rust's shortest round-trip form.
pub fn estimate_line(v: &[f64]) -> String {
    v.iter()
        .map(|x| format!("{x:?}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Search grids both halves run: (scenario, policy, [(parameter, from ms, to ms, step ms)]). A safe
/// grid, unsafe ones of two to four dimensions, a tie between two points of least cost.
pub type SearchCase = (
    &'static str,
    &'static str,
    &'static [(&'static str, u64, u64, u64)],
);
pub const SEARCHES: &[SearchCase] = &[
    (
        "seed-gc-pause",
        "none",
        &[("ttl", 100, 900, 10), ("pause", 100, 1000, 10)],
    ),
    (
        "seed-gc-pause",
        "token",
        &[("ttl", 100, 900, 10), ("pause", 100, 1000, 10)],
    ),
    (
        "seed-gc-pause",
        "none",
        &[
            ("pause", 0, 400, 25),
            ("ttl", 200, 500, 20),
            ("retry", 10, 100, 30),
            ("work", 0, 90, 30),
        ],
    ),
    (
        "write-only-gap",
        "token",
        &[("ttl", 10, 2000, 40), ("pause", 0, 3000, 60)],
    ),
];

/// One line per search: the facade's numbers (`Found::numbers`), space-separated.
pub fn search_line(v: &[f64]) -> String {
    v.iter()
        .map(|x| format!("{x}"))
        .collect::<Vec<_>>()
        .join(" ")
}
