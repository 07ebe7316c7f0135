//! The user-scenario texts both halves of the parser's native-vs-wasm check read (tests/user_json.rs
//! natively, tests/web.rs in headless Chromium): every catalogue file as written, and seeded mutations
//! of them (tests/common/mutate.rs: the fuzz's generator). The wasm cannot list a folder, so the files
//! are named here; tests/user_json.rs fails if this list and scenarios/index.txt part ways.
#![allow(dead_code)]

#[path = "../common/mutate.rs"]
mod mutate;

/// The catalogue's files, in index.txt's order.
pub const SOURCES: &[&str] = &[
    include_str!("../../scenarios/seed-gc-pause.txt"),
    include_str!("../../scenarios/seed-advisory-lock.txt"),
    include_str!("../../scenarios/happy-path.txt"),
    include_str!("../../scenarios/gc-pause.txt"),
    include_str!("../../scenarios/check-then-write.txt"),
    include_str!("../../scenarios/write-only-gap.txt"),
    include_str!("../../scenarios/reply-in-flight.txt"),
    include_str!("../../scenarios/reply-in-flight-checked.txt"),
    include_str!("../../scenarios/redlock-pause-before-check.txt"),
    include_str!("../../scenarios/redlock-pause-after-check.txt"),
    include_str!("../../scenarios/redlock-clock-jump.txt"),
    include_str!("../../scenarios/redlock-clock-jump-monotonic.txt"),
    include_str!("../../scenarios/redlock-crash-restart.txt"),
    include_str!("../../scenarios/redlock-crash-fsync.txt"),
    include_str!("../../scenarios/redlock-restart-clock-jump.txt"),
    include_str!("../../scenarios/postgres-session.txt"),
    include_str!("../../scenarios/postgres-terminate.txt"),
    include_str!("../../scenarios/postgres-terminate-elsewhere.txt"),
    include_str!("../../scenarios/delayed-write.txt"),
    include_str!("../../scenarios/redlock-split-vote.txt"),
    include_str!("../../scenarios/lock-delay.txt"),
    include_str!("../../scenarios/renewal-frozen.txt"),
    include_str!("../../scenarios/slow-clock.txt"),
    include_str!("../../scenarios/redis-clock-jump.txt"),
    include_str!("../../scenarios/clock-step-back.txt"),
    include_str!("../../scenarios/replica-failover.txt"),
    include_str!("../../scenarios/epoch-fencing.txt"),
    include_str!("../../scenarios/etcd-lease-pause.txt"),
    include_str!("../../scenarios/etcd-waiter-expired-lease.txt"),
    include_str!("../../scenarios/etcd-contrib-lock.txt"),
    include_str!("../../scenarios/zk-session-expiry.txt"),
    include_str!("../../scenarios/curator-suspended.txt"),
    include_str!("../../scenarios/s3-etag-aba.txt"),
    include_str!("../../scenarios/hazelcast-fenced-lock.txt"),
    include_str!("../../scenarios/k8s-lease-slow-renew.txt"),
    include_str!("../../scenarios/consul-lock-delay.txt"),
    include_str!("../../scenarios/consul-lock-delay-exceeded.txt"),
    include_str!("../../scenarios/dynamodb-heartbeat-pause.txt"),
    include_str!("../../scenarios/mysql-get-lock-pause.txt"),
    include_str!("../../scenarios/table-lease.txt"),
    include_str!("../../scenarios/table-session.txt"),
    include_str!("../../scenarios/table-mysql.txt"),
    include_str!("../../scenarios/table-redis.txt"),
    include_str!("../../scenarios/table-redlock.txt"),
    include_str!("../../scenarios/table-etcd.txt"),
    include_str!("../../scenarios/table-zookeeper.txt"),
    include_str!("../../scenarios/table-hazelcast.txt"),
    include_str!("../../scenarios/table-kubernetes.txt"),
    include_str!("../../scenarios/table-consul.txt"),
    include_str!("../../scenarios/table-dynamodb.txt"),
    include_str!("../../scenarios/kazoo-is-acquired.txt"),
    include_str!("../../scenarios/kazoo-listener-race.txt"),
    include_str!("../../scenarios/curator-listener-window.txt"),
    include_str!("../../scenarios/redis-py-owned-after-pause.txt"),
    include_str!("../../scenarios/redis-py-owned-before-pause.txt"),
    include_str!("../../scenarios/python-redis-lock-renewal-died.txt"),
    include_str!("../../scenarios/redisson-watchdog-frozen.txt"),
    include_str!("../../scenarios/pottery-release-raised.txt"),
    include_str!("../../scenarios/etcdctl-lock-rev.txt"),
    include_str!("../../scenarios/node-redlock-expiration-after-pause.txt"),
    include_str!("../../scenarios/node-redlock-clock-step-back.txt"),
];

/// How many of [`SOURCES`] the mutations draw from: the files up to etcd's concurrency package.
/// Scenarios added after them are not mutated, so that each older mutated text, and its golden line,
/// stays as it was (the mutations pick their source and donor modulo this count).
pub const MUTATED_SOURCES: u64 = 59;

/// How many mutated texts follow the catalogue's own (bounded: each runs its expectation lines).
pub const MUTATIONS: u64 = 40;

/// Every case's text: the catalogue's files, then [`MUTATIONS`] seeded mutations of them.
pub fn cases() -> Vec<String> {
    let n = MUTATED_SOURCES;
    let mut texts: Vec<String> = SOURCES.iter().map(|s| s.to_string()).collect();
    for seed in 0..MUTATIONS {
        let (i, donor) = ((seed * 7) % n, (seed * 13 + 5) % n);
        texts.push(mutate::mutate(
            SOURCES[i as usize],
            SOURCES[donor as usize],
            seed,
        ));
    }
    texts
}

/// Mutated and random texts for the wasm's own fuzz (no panic): `count` of them from `seed`, drawn
/// as the native fuzz draws its cases (tests/common/mutate.rs).
pub fn fuzz_texts(seed: u64, count: u64) -> Vec<String> {
    let mut rng = leaselab::rng::Rng::new(seed);
    (0..count)
        .map(|_| mutate::fuzz_case(&mut rng, SOURCES))
        .collect()
}
