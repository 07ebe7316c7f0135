//! Property tests over random settings: safety of the strong guards, the seed's exact lost-update rule,
//! strictly increasing tokens, determinism, and no panics anywhere in (or just outside) the accepted
//! ranges.
#![cfg(not(target_arch = "wasm32"))]

use leaselab::outcome::{lost_update, summarize};
use leaselab::scenario::ServiceKind;
use leaselab::sweep::{sweep, Axis};
use leaselab::time::{parse_duration, MS};
use leaselab::trace::What;
use leaselab::{catalogue, report, simulate, Config, Engine, Error, Lost, Policy};
use proptest::prelude::*;

mod common;

fn policy() -> impl Strategy<Value = Policy> {
    prop::sample::select(Policy::ALL.to_vec())
}

/// The scenario fails a redis over to a replica (whose INCR counter may lag).
fn failover(sc: &leaselab::Scenario) -> bool {
    sc.faults
        .iter()
        .any(|f| f.action == leaselab::scenario::FaultAction::Failover)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn first_touch_and_version_never_lose_an_update(
        (i, params) in common::scenario_and_params(false),
        strong in prop::sample::select(vec![Policy::FirstTouch, Policy::Version]),
        retries in 0u32..=3,
    ) {
        let sc = &catalogue::catalogue()[i];
        let mut cfg = Config::new(sc, strong);
        cfg.params = params;
        cfg.retries = retries;
        // Without tokens (session locks), first-touch has nothing to compare: only version is a guard.
        prop_assume!(sc.service.tokens || strong == Policy::Version);
        // A failover rolls INCR tokens back (replica-failover): first-touch is only as good as its tokens.
        prop_assume!(!failover(sc) || strong == Policy::Version);
        let o = simulate(sc, &cfg).unwrap();
        prop_assert!(!o.lost_update, "{} {:?} lost an update: {:?}", sc.id, strong, o.run.writes);
    }

    #[test]
    fn the_ideal_guard_never_loses_an_update((i, params) in common::scenario_and_params(false), retries in 0u32..=3) {
        let sc = &catalogue::catalogue()[i];
        let mut engine = Engine::new();
        let run = engine.run_with(sc, Policy::Ideal, &params, retries, false, 1, false).unwrap();
        prop_assert!(!lost_update(run));
    }

    /// The seed unfenced: an update is lost exactly when B has read before A's write lands, i.e. when
    /// B's acquisition instant (the first retry tick at or after the lease's end) comes before A wakes.
    /// Whose update: B's when A lands after B's write, A's when A lands between B's read and write.
    #[test]
    fn seed_unfenced_loses_exactly_when_a_lands_after_b_read(
        ttl in 10u64..=2_000, pause in 0u64..=3_000, retry in 1u64..=400, work in 0u64..=500,
    ) {
        let sc = catalogue::find("seed-gc-pause").unwrap();
        let t_b = ttl.div_ceil(retry) * retry; // B's attempts run at 0, retry, 2·retry, …
        prop_assume!(pause != t_b && pause != t_b + work); // exact ties resolve by schedule order
        let mut cfg = Config::new(sc, Policy::None);
        for (name, v) in [("ttl", ttl), ("pause", pause), ("retry", retry), ("work", work)] {
            sc.set_param(&mut cfg.params, name, v * MS).unwrap();
        }
        let o = simulate(sc, &cfg).unwrap();
        let want = if pause < t_b { Lost::Nobody } else if pause < t_b + work { Lost::Client(0) } else { Lost::Client(1) };
        prop_assert_eq!(o.lost, want);
        prop_assert_eq!(o.lost_update, want != Lost::Nobody);
        // Fenced by token, B's update can never be the one lost.
        cfg.policy = Policy::Token;
        let f = simulate(sc, &cfg).unwrap();
        prop_assert_ne!(f.lost, Lost::Client(1));
    }

    #[test]
    fn tokens_strictly_increase_and_runs_repeat_exactly(
        (i, params) in common::scenario_and_params(false), p in policy(), retries in 0u32..=3,
    ) {
        let sc = &catalogue::catalogue()[i];
        let mut cfg = Config::new(sc, p);
        cfg.params = params;
        cfg.retries = retries;
        let a = simulate(sc, &cfg).unwrap();
        let granted: Vec<u64> = a.run.trace.iter().filter_map(|e| match e.what { What::Granted { token, .. } => Some(token), _ => None }).collect();
        prop_assert!(!granted.is_empty());
        if sc.service.tokens && failover(sc) {
            // INCR on a redis that failed over: tokens can repeat (replica-failover's expectations say so).
        } else if sc.service.tokens && sc.service.kind == ServiceKind::Dynamodb {
            // DynamoDB's RVNs are random GUIDs (32 bits here): no order, never 0, a new one per put.
            prop_assert!(granted.iter().all(|&t| t > 0 && t <= u64::from(u32::MAX)), "{:?}", granted);
            prop_assert!(granted.windows(2).all(|w| w[0] != w[1]), "{:?}", granted);
        } else if sc.service.tokens && sc.service.own.token_in_hex() {
            // contrib/lock's lease IDs: one per lease, so a client that locks twice on one lease repeats it.
            prop_assert!(granted.windows(2).all(|w| w[0] <= w[1]), "{:?}", granted);
        } else if sc.service.tokens {
            if matches!(sc.service.kind, ServiceKind::Etcd | ServiceKind::Zookeeper | ServiceKind::Hazelcast) {
                // etcd revisions (a fresh cluster is at 1) and ZooKeeper zxids (a session's creation
                // takes one): the first lock key or node is 2 at the earliest.
                prop_assert!(granted[0] >= 2, "{:?}", granted);
            } else {
                prop_assert_eq!(granted[0], sc.service.first_token);
            }
            prop_assert!(granted.windows(2).all(|w| w[0] < w[1]), "{:?}", granted);
        } else {
            prop_assert!(granted.iter().all(|&t| t == 0), "no tokens: {:?}", granted);
        }
        prop_assert!(a.run.trace.windows(2).all(|w| w[0].t <= w[1].t), "trace out of time order");
        let b = simulate(sc, &cfg).unwrap();
        prop_assert_eq!(report::json(&a), report::json(&b));
        // The bookkeeping identity behind `lost_update`.
        let debits: i64 = a.run.writes.iter().filter(|w| w.accepted).map(|w| w.debit).sum();
        prop_assert_eq!(a.lost_update, a.run.final_balance != a.run.initial - debits);
    }

    #[test]
    fn out_of_range_values_are_clear_errors((i, _) in common::scenario_and_params(false), extra in 1u64..=1_000_000_000) {
        let sc = &catalogue::catalogue()[i];
        let mut values = sc.defaults();
        for p in sc.params.iter() {
            let err = sc.set_param(&mut values, &p.name, p.max_us + extra).unwrap_err();
            let is_range = matches!(err, Error::ParamOutOfRange { .. });
            prop_assert!(is_range);
            prop_assert!(err.to_string().contains(&*p.name));
        }
        let unknown = matches!(sc.set_param(&mut values, "no-such-param", 1), Err(Error::UnknownParam { .. }));
        prop_assert!(unknown);
    }

    #[test]
    fn parse_duration_never_panics(s in ".{0,24}") {
        let _ = parse_duration(&s);
    }

    #[test]
    fn parse_duration_round_trips_milliseconds(ms in 0u64..=3_600_000) {
        prop_assert_eq!(parse_duration(&format!("{ms}ms")).unwrap(), ms * MS);
        prop_assert_eq!(parse_duration(&ms.to_string()).unwrap(), ms * MS);
    }
}

#[test]
fn every_sweep_cell_equals_the_single_run() {
    for sc in catalogue::catalogue() {
        let (Some(_), Some(_)) = (sc.param_index("ttl"), sc.param_index("pause")) else {
            continue;
        };
        for p in Policy::ALL {
            let ttl_min = sc.params[sc.param_index("ttl").unwrap()].min_us;
            // 10 ms to 700 ms for most; etcd's TTLs start at a second.
            let x = Axis::new(sc, "ttl", ttl_min, ttl_min.max(10 * MS) + 690 * MS, 13).unwrap();
            let y = Axis::new(sc, "pause", 0, 1_000 * MS, 17).unwrap();
            let mut cells = Vec::new();
            sweep(sc, &Config::new(sc, p), &x, &y, &mut cells).unwrap();
            for yi in 0..y.steps {
                for xi in 0..x.steps {
                    let mut cfg = Config::new(sc, p);
                    cfg.params[x.param] = x.value(xi);
                    cfg.params[y.param] = y.value(yi);
                    let one = simulate(sc, &cfg).unwrap();
                    let s = cells[yi * x.steps + xi];
                    assert_eq!(
                        s,
                        summarize(&one.run),
                        "{} {:?} cell ({xi}, {yi})",
                        sc.id,
                        p
                    );
                    assert_eq!(
                        (s.final_balance, s.lost_update, s.lost),
                        (one.run.final_balance, one.lost_update, one.lost)
                    );
                }
            }
        }
    }
}

#[test]
fn trace_on_or_off_gives_the_same_outcome() {
    for sc in catalogue::catalogue() {
        for p in Policy::ALL {
            let cfg = Config::new(sc, p);
            let mut e = Engine::new();
            let with = summarize(e.run(sc, &cfg).unwrap());
            let without = summarize(
                e.run_with(sc, p, &cfg.params, 0, false, cfg.seed, cfg.naive)
                    .unwrap(),
            );
            assert_eq!(with, without, "{}", sc.id);
        }
    }
}
