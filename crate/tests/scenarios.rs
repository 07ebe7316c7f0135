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
        let pinned = sc.expects.iter().any(|e| e.policy == p && !e.retry && e.overrides.is_empty() && e.final_balance.is_some());
        if !pinned {
            failures.push(format!("{id}: no expectation for policy {} at the defaults", p.name()));
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
}

#[test]
fn write_only_gap_token_loses_a_but_first_touch_and_version_do_not() {
    use leaselab::{simulate, Config, Lost};
    let sc = catalogue::find("write-only-gap").unwrap();
    let run = |p| simulate(sc, &Config::new(sc, p)).unwrap();
    let token = run(Policy::Token);
    assert!(token.lost_update && token.lost == Lost::Client(0), "token fencing misses the write-only gap");
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
    assert!(!leaselab::outcome::lost_update(run), "at 0.99 the check fails and A writes nothing");
    assert!(run.writes.iter().all(|w| w.client == 1));
    let _ = simulate;
}

/// Runs a modified copy of a catalogue scenario (not in the catalogue, so through the engine).
fn run_modified(id: &str, policy: Policy, retries: u32, change: impl FnOnce(&mut leaselab::Scenario)) -> leaselab::sim::Run {
    let mut sc = catalogue::find(id).unwrap().clone();
    change(&mut sc);
    let mut cfg = leaselab::Config::new(&sc, policy);
    cfg.retries = retries;
    leaselab::Engine::new().run(&sc, &cfg).unwrap().clone()
}

#[test]
fn a_monotonic_expiry_clock_ignores_the_jump() {
    let run = run_modified("redis-clock-jump", Policy::None, 0, |sc| sc.service.clock.monotonic = true);
    assert!(!leaselab::outcome::lost_update(&run));
    assert_eq!(run.final_balance, 390, "A writes inside its lease; B gets the lock only after it");
    assert_eq!(run.leases[0].ends_at.0, 300_000);
}

#[test]
fn a_monotonic_client_clock_stops_a_in_time() {
    let stop = run_modified("clock-step-back", Policy::None, 0, |sc| sc.clients.to_mut()[0].clock.monotonic = true);
    assert!(!leaselab::outcome::lost_update(&stop));
    assert!(stop.writes.iter().all(|w| w.client == 1), "A's own check fails: it writes nothing");
    let retry = run_modified("clock-step-back", Policy::None, 3, |sc| sc.clients.to_mut()[0].clock.monotonic = true);
    assert_eq!(retry.final_balance, 390, "A starts over after B and writes 390");
}
