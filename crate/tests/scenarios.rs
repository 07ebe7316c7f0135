//! One named test per scenario: every expectation in its file, under every storage policy.
#![cfg(not(target_arch = "wasm32"))]

use leaselab::outcome::verify;
use leaselab::{catalogue, Policy};

fn check(id: &str) {
    let sc = catalogue::find(id).unwrap();
    let mut failures = Vec::new();
    for e in sc.expects.iter() {
        if let Err(why) = verify(sc, e) {
            failures.push(why);
        }
    }
    // Every policy must be pinned at the scenario's defaults, not just the interesting ones.
    for p in Policy::ALL {
        let pinned = sc.expects.iter().any(|e| {
            e.policy == p
                && !e.retry
                && e.naive.is_none()
                && e.overrides.is_empty()
                && e.final_balance.is_some()
        });
        if !pinned {
            failures.push(format!(
                "{id}: no expectation for policy {} at the defaults",
                p.name()
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

macro_rules! scenario_tests {
    ($($name:ident => $id:literal,)*) => {
        $(#[test] fn $name() { check($id); })*

        #[test]
        fn every_catalogue_scenario_has_a_named_test() {
            let named = [$($id),*];
            for sc in catalogue::catalogue() {
                assert!(named.contains(&&*sc.id), "add a named test for {}", sc.id);
            }
        }
    };
}

scenario_tests! {
    seed_gc_pause => "seed-gc-pause",
    happy_path => "happy-path",
    gc_pause => "gc-pause",
    check_then_write => "check-then-write",
    delayed_write => "delayed-write",
    write_only_gap => "write-only-gap",
    lock_delay => "lock-delay",
    renewal_frozen => "renewal-frozen",
    slow_clock => "slow-clock",
    seed_advisory_lock => "seed-advisory-lock",
    postgres_session => "postgres-session",
    postgres_terminate => "postgres-terminate",
    postgres_terminate_elsewhere => "postgres-terminate-elsewhere",
    redis_clock_jump => "redis-clock-jump",
    reply_in_flight => "reply-in-flight",
    reply_in_flight_checked => "reply-in-flight-checked",
    clock_step_back => "clock-step-back",
    redlock_pause_before_check => "redlock-pause-before-check",
    redlock_pause_after_check => "redlock-pause-after-check",
    redlock_clock_jump => "redlock-clock-jump",
    redlock_clock_jump_monotonic => "redlock-clock-jump-monotonic",
    redlock_crash_restart => "redlock-crash-restart",
    redlock_crash_fsync => "redlock-crash-fsync",
    redlock_restart_clock_jump => "redlock-restart-clock-jump",
    redlock_split_vote => "redlock-split-vote",
    replica_failover => "replica-failover",
    epoch_fencing => "epoch-fencing",
    etcd_lease_pause => "etcd-lease-pause",
    etcd_waiter_expired_lease => "etcd-waiter-expired-lease",
    etcd_contrib_lock => "etcd-contrib-lock",
    zk_session_expiry => "zk-session-expiry",
    s3_etag_aba => "s3-etag-aba",
    curator_suspended => "curator-suspended",
    hazelcast_fenced_lock => "hazelcast-fenced-lock",
    k8s_lease_slow_renew => "k8s-lease-slow-renew",
    consul_lock_delay => "consul-lock-delay",
    consul_lock_delay_exceeded => "consul-lock-delay-exceeded",
    dynamodb_heartbeat_pause => "dynamodb-heartbeat-pause",
    mysql_get_lock_pause => "mysql-get-lock-pause",
    table_lease => "table-lease",
    table_session => "table-session",
    table_mysql => "table-mysql",
    table_redis => "table-redis",
    table_redlock => "table-redlock",
    table_etcd => "table-etcd",
    table_zookeeper => "table-zookeeper",
    table_hazelcast => "table-hazelcast",
    table_kubernetes => "table-kubernetes",
    table_consul => "table-consul",
    table_dynamodb => "table-dynamodb",
    kazoo_is_acquired => "kazoo-is-acquired",
    kazoo_listener_race => "kazoo-listener-race",
    curator_listener_window => "curator-listener-window",
    redis_py_owned_after_pause => "redis-py-owned-after-pause",
    redis_py_owned_before_pause => "redis-py-owned-before-pause",
    python_redis_lock_renewal_died => "python-redis-lock-renewal-died",
    redisson_watchdog_frozen => "redisson-watchdog-frozen",
    pottery_release_raised => "pottery-release-raised",
    etcdctl_lock_rev => "etcdctl-lock-rev",
    node_redlock_expiration_after_pause => "node-redlock-expiration-after-pause",
    node_redlock_clock_step_back => "node-redlock-clock-step-back",
}

/// The safety table (issue 39) runs from one base scenario per lock service, `table-NAME`, and injects
/// every fault itself: so each is on its own service, in the `table` group, with two clients A then
/// B, no fault of its own (no timed fault, no pause, no write delay, no clock step), and the
/// service's time constant — its TTL, or for a lock without one what ends a holder's session — as its
/// first parameter, the one the table scales its bounds by. The kinds come from the model's list, so
/// a new service without a base scenario fails here.
#[test]
fn every_service_kind_has_a_fault_free_table_scenario() {
    use leaselab::client::{Dur, Op};
    use leaselab::scenario::ServiceKind;
    for kind in ServiceKind::ALL {
        let id = format!("table-{}", kind.name());
        let sc = catalogue::find(&id)
            .unwrap_or_else(|_| panic!("service {} has no table scenario {id}", kind.name()));
        let svc = &sc.service;
        assert_eq!((&*sc.group, svc.kind), ("table", kind), "{id}");
        let names: Vec<char> = sc.clients.iter().map(|c| c.name).collect();
        assert_eq!(names, ['A', 'B'], "{id}: clients A and B");
        let d = sc.defaults();
        assert!(
            sc.clients[0].start.resolve(&d) < sc.clients[1].start.resolve(&d),
            "{id}: A starts first"
        );
        assert!(sc.faults.is_empty(), "{id}: the table injects the faults");
        let clocks = std::iter::once(&svc.clock)
            .chain(svc.node_clocks.iter())
            .chain(sc.clients.iter().map(|c| &c.clock));
        for clock in clocks {
            assert!(clock.steps.is_empty(), "{id}: a clock step");
        }
        for op in sc.clients.iter().flat_map(|c| c.ops.iter()) {
            let fault = match op {
                Op::Pause(_) => true,
                Op::Write { delay, .. } => delay.resolve(&d) > 0,
                _ => false,
            };
            assert!(!fault, "{id}: a fault in a script ({op:?})");
        }
        let first = Dur::Param(0);
        assert!(
            !sc.params.is_empty() && sc.params[0].default_us > 0,
            "{id}: its first parameter is the time constant, above zero"
        );
        assert!(
            svc.ttl == first || svc.idle == first,
            "{id}: the first parameter sets the service's TTL or session timeout"
        );
    }
    let tables = catalogue::catalogue()
        .iter()
        .filter(|sc| &*sc.group == "table")
        .count();
    assert_eq!(
        tables,
        ServiceKind::ALL.len(),
        "one table scenario a service"
    );
}

#[test]
fn write_only_gap_token_loses_a_but_first_touch_and_version_do_not() {
    use leaselab::{simulate, Config, Lost};
    let sc = catalogue::find("write-only-gap").unwrap();
    let run = |p| simulate(sc, &Config::new(sc, p)).unwrap();
    let token = run(Policy::Token);
    assert!(
        token.lost_update && token.lost == Lost::Client(0),
        "token fencing misses the write-only gap"
    );
    assert!(token.run.writes.iter().all(|w| w.accepted));
    for p in [Policy::FirstTouch, Policy::Version, Policy::Owner] {
        let o = run(p);
        assert!(!o.lost_update, "{} must not lose an update", p.name());
        assert_eq!(o.run.writes.iter().filter(|w| !w.accepted).count(), 1);
    }
}

#[test]
fn slow_clock_at_one_percent_stops_in_time() {
    use leaselab::{simulate, Config};
    let base = catalogue::find("slow-clock").unwrap();
    let mut sc = base.clone();
    sc.clients.to_mut()[0].clock.rate_ppm = -10_000; // 0.99
    let sc: &'static _ = Box::leak(Box::new(sc));
    // `simulate` takes catalogue scenarios by id for rendering; the run itself needs only the data.
    let mut engine = leaselab::Engine::new();
    let run = engine.run(sc, &Config::new(sc, Policy::None)).unwrap();
    assert!(
        !leaselab::outcome::lost_update(run),
        "at 0.99 the check fails and A writes nothing"
    );
    assert!(run.writes.iter().all(|w| w.client == 1));
    let _ = simulate;
}

/// Runs a modified copy of a catalogue scenario (not in the catalogue, so through the engine).
fn run_modified(
    id: &str,
    policy: Policy,
    retries: u32,
    change: impl FnOnce(&mut leaselab::Scenario),
) -> leaselab::sim::Run {
    let mut sc = catalogue::find(id).unwrap().clone();
    change(&mut sc);
    let mut cfg = leaselab::Config::new(&sc, policy);
    cfg.retries = retries;
    leaselab::Engine::new().run(&sc, &cfg).unwrap().clone()
}

#[test]
fn a_monotonic_expiry_clock_ignores_the_jump() {
    let run = run_modified("redis-clock-jump", Policy::None, 0, |sc| {
        sc.service.clock.monotonic = true
    });
    assert!(!leaselab::outcome::lost_update(&run));
    assert_eq!(
        run.final_balance, 390,
        "A writes inside its lease; B gets the lock only after it"
    );
    assert_eq!(run.leases[0].ends_at.0, 300_000);
}

#[test]
fn a_monotonic_client_clock_stops_a_in_time() {
    let stop = run_modified("clock-step-back", Policy::None, 0, |sc| {
        sc.clients.to_mut()[0].clock.monotonic = true
    });
    assert!(!leaselab::outcome::lost_update(&stop));
    assert!(
        stop.writes.iter().all(|w| w.client == 1),
        "A's own check fails: it writes nothing"
    );
    let retry = run_modified("clock-step-back", Policy::None, 3, |sc| {
        sc.clients.to_mut()[0].clock.monotonic = true
    });
    assert_eq!(
        retry.final_balance, 390,
        "A starts over after B and writes 390"
    );
}

/// Clients that believe they hold the lock at true time `t_us`.
fn holders_at(run: &leaselab::sim::Run, t_us: u64) -> Vec<u8> {
    let mut who: Vec<u8> = run
        .beliefs
        .iter()
        .filter(|b| b.from.0 <= t_us && t_us < b.to.0)
        .map(|b| b.client)
        .collect();
    who.sort_unstable();
    who.dedup();
    who
}

#[test]
fn redlock_clock_jump_two_holders_and_one_with_monotonic_expiry() {
    // Predict-then-reveal 7: how many clients think they hold the lock? 2; with monotonic expiry, 1.
    let jump = run_modified("redlock-clock-jump", Policy::None, 0, |_| {});
    assert_eq!(holders_at(&jump, 70_000), vec![0, 1]);
    let mono = run_modified("redlock-clock-jump-monotonic", Policy::None, 0, |_| {});
    assert_eq!(holders_at(&mono, 70_000), vec![0]);
    for t in (0..400_000).step_by(1_000) {
        assert!(
            holders_at(&mono, t).len() <= 1,
            "two holders at {t} µs with monotonic expiry"
        );
    }
}

#[test]
fn redlock_validity_is_ttl_minus_elapsed_minus_drift() {
    use leaselab::trace::{Kind, What};
    assert_eq!(
        leaselab::scenario::ServiceSpec::drift(300_000),
        5_000,
        "1 % of 300 ms + 2 ms"
    );
    assert_eq!(leaselab::scenario::ServiceSpec::drift(30_000_000), 302_000);
    let run = run_modified("redlock-pause-after-check", Policy::None, 0, |_| {});
    let (t, granted, validity) = run
        .trace
        .iter()
        .find_map(|e| match e.what {
            What::Round {
                acquired: true,
                granted_nodes,
                validity_us,
            } if e.client == 0 => Some((e.t.0, u64::from(granted_nodes), validity_us)),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        (t, granted, validity),
        (2_000, 5, 293_000),
        "5/5 at 2 ms: 300 − 2 − 5"
    );
    // Frozen past the TTL: negative validity, so a compliant client does not use the lock.
    let run = run_modified("redlock-pause-before-check", Policy::None, 0, |_| {});
    let a = run
        .trace
        .iter()
        .find(|e| e.client == 0 && matches!(e.kind(), Kind::RedlockAcquired | Kind::RedlockFailed))
        .unwrap();
    let What::Round { validity_us, .. } = a.what else {
        unreachable!()
    };
    assert_eq!(
        (a.kind(), a.t.0, validity_us),
        (Kind::RedlockFailed, 351_000, -56_000)
    );
}

#[test]
fn redlock_backoff_is_seeded_random_and_repeatable() {
    use leaselab::trace::Kind;
    let mut sc = catalogue::find("redlock-pause-before-check")
        .unwrap()
        .clone();
    sc.service.jitter = leaselab::client::Dur::Lit(40_000);
    let attempts = |seed: u64| {
        let mut cfg = leaselab::Config::new(&sc, Policy::None);
        cfg.seed = seed;
        let run = leaselab::Engine::new().run(&sc, &cfg).unwrap().clone();
        run.trace
            .iter()
            .filter(|e| e.client == 1 && e.kind() == Kind::AcquireSent)
            .map(|e| e.t.0)
            .collect::<Vec<_>>()
    };
    let a = attempts(1);
    assert_eq!(a, attempts(1), "same seed, same schedule");
    assert_ne!(a, attempts(2), "another seed, another schedule");
    for w in a.windows(2) {
        let gap = w[1] - w[0];
        // A failed round: 2 ms for the replies, then 50 ms plus up to 40 ms of jitter.
        assert!((52_000..=92_000).contains(&gap), "gap {gap}");
    }
    assert!(
        a.windows(2).any(|w| w[1] - w[0] != 52_000),
        "the jitter is used"
    );
}

#[test]
fn a_partition_can_be_cut_and_healed_mid_run() {
    use leaselab::trace::What;
    let mut sc = catalogue::find("redlock-clock-jump-monotonic")
        .unwrap()
        .clone();
    // B cannot reach anything from 0 to 150 ms: its rounds time out with no OKs at all.
    sc.faults.to_mut().push(leaselab::scenario::Fault {
        at: leaselab::client::Dur::Lit(0),
        action: leaselab::scenario::FaultAction::Partition(1, 0b11111, true),
    });
    sc.faults.to_mut().push(leaselab::scenario::Fault {
        at: leaselab::client::Dur::Lit(150_000),
        action: leaselab::scenario::FaultAction::Partition(1, 0b11100, false),
    });
    let run = leaselab::Engine::new()
        .run(&sc, &leaselab::Config::new(&sc, Policy::None))
        .unwrap()
        .clone();
    let rounds: Vec<(u64, u64)> = run
        .trace
        .iter()
        .filter_map(|e| match e.what {
            What::Round {
                acquired: false,
                granted_nodes,
                ..
            } if e.client == 1 => Some((e.t.0, u64::from(granted_nodes))),
            _ => None,
        })
        .collect();
    assert!(
        rounds.iter().filter(|r| r.0 < 150_000).all(|r| r.1 == 0),
        "{rounds:?}"
    );
    assert!(
        rounds.iter().any(|r| r.0 > 150_000 && r.1 == 2),
        "healed: n4 and n5 answer again: {rounds:?}"
    );
    assert_eq!(run.final_balance, 390);
}
