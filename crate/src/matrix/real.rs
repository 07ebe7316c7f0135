//! Which conformance rows (`make conformance`: the simulator against the real server) check a cell of
//! the table: a row plays a catalogue scenario under a policy against the real server; it checks the
//! cells of that scenario's service and policy, in the columns of the faults the scenario has.

use super::Fault;
use crate::client::{Dur, Op};
use crate::scenario::{FaultAction, Scenario};
use crate::store::Policy;

/// Every (scenario, policy) the conformance suite runs against a real server, in its order. The
/// suite's own list of cases is the truth: a conformance test checks this one equals it.
pub const CONFORMANCE: &[(&str, Policy)] = &[
    ("seed-advisory-lock", Policy::None),
    ("postgres-session", Policy::None),
    ("postgres-terminate", Policy::None),
    ("postgres-terminate-elsewhere", Policy::None),
    ("postgres-terminate-elsewhere", Policy::Token),
    ("postgres-terminate-elsewhere", Policy::Version),
    ("postgres-terminate-elsewhere", Policy::Owner),
    ("seed-gc-pause", Policy::None),
    ("seed-gc-pause", Policy::Token),
    ("seed-gc-pause", Policy::Version),
    ("seed-gc-pause", Policy::Owner),
    ("s3-etag-aba", Policy::Etag),
    ("s3-etag-aba", Policy::Version),
    ("check-then-write", Policy::None),
    ("check-then-write", Policy::Token),
    ("renewal-frozen", Policy::None),
    ("renewal-frozen", Policy::Token),
    ("reply-in-flight", Policy::None),
    ("reply-in-flight", Policy::Token),
    ("reply-in-flight", Policy::FirstTouch),
    ("reply-in-flight-checked", Policy::None),
    ("reply-in-flight-checked", Policy::Token),
    ("redis-clock-jump", Policy::None),
    ("redis-clock-jump", Policy::Version),
    ("clock-step-back", Policy::None),
    ("clock-step-back", Policy::Token),
    ("slow-clock", Policy::None),
    ("slow-clock", Policy::Token),
    ("slow-clock", Policy::FirstTouch),
    ("slow-clock", Policy::Version),
    ("delayed-write", Policy::None),
    ("delayed-write", Policy::Token),
    ("replica-failover", Policy::None),
    ("replica-failover", Policy::Token),
    ("replica-failover", Policy::Version),
    ("gc-pause", Policy::None),
    ("epoch-fencing", Policy::None),
    ("epoch-fencing", Policy::Token),
    ("write-only-gap", Policy::None),
    ("write-only-gap", Policy::Token),
    ("lock-delay", Policy::None),
    ("happy-path", Policy::None),
    ("table-lease", Policy::None),
    ("table-redis", Policy::None),
    ("redlock-clock-jump", Policy::None),
    ("redlock-clock-jump", Policy::Version),
    ("redlock-clock-jump-monotonic", Policy::None),
    ("redlock-restart-clock-jump", Policy::None),
    ("redlock-pause-after-check", Policy::None),
    ("redlock-pause-after-check", Policy::Version),
    ("redlock-pause-before-check", Policy::None),
    ("redlock-pause-before-check", Policy::Token),
    ("redlock-split-vote", Policy::None),
    ("table-redlock", Policy::None),
    ("redlock-crash-restart", Policy::None),
    ("redlock-crash-fsync", Policy::None),
    ("etcd-lease-pause", Policy::None),
    ("etcd-lease-pause", Policy::Token),
    ("etcd-contrib-lock", Policy::EqualToken),
    ("table-etcd", Policy::None),
    ("zk-session-expiry", Policy::None),
    ("zk-session-expiry", Policy::Token),
    ("table-zookeeper", Policy::None),
    ("curator-suspended", Policy::None),
    ("curator-suspended", Policy::Token),
    ("mysql-get-lock-pause", Policy::None),
    ("mysql-get-lock-pause", Policy::Token),
    ("dynamodb-heartbeat-pause", Policy::None),
    ("dynamodb-heartbeat-pause", Policy::Version),
    ("dynamodb-heartbeat-pause", Policy::Owner),
    ("table-dynamodb", Policy::None),
    ("table-dynamodb", Policy::Version),
];

/// The table's fault kinds that `sc` has in it: a pause (a script's or a timed freeze), a held write,
/// the lock server's (or one of its nodes') clock stepping, a client's clock stepping, the lock
/// service losing state (a node's crash, a redis failover).
pub fn faults_in(sc: &Scenario) -> Vec<Fault> {
    let ops = || sc.clients.iter().flat_map(|c| c.ops.iter());
    let paused = ops().any(|op| matches!(op, Op::Pause(_)))
        || sc
            .faults
            .iter()
            .any(|f| matches!(f.action, FaultAction::Freeze(..)));
    let held = ops().any(|op| matches!(op, Op::Write { delay, .. } if *delay != Dur::Lit(0)));
    let server = sc.service.clock.steps.len()
        + sc.service
            .node_clocks
            .iter()
            .map(|c| c.steps.len())
            .sum::<usize>();
    let client = sc.clients.iter().any(|c| !c.clock.steps.is_empty());
    let lost = sc
        .faults
        .iter()
        .any(|f| matches!(f.action, FaultAction::Crash(..) | FaultAction::Failover));
    let has = [
        (Fault::Pause, paused),
        (Fault::StoreDelay, held),
        (Fault::ServerClock, server > 0),
        (Fault::ClientClock, client),
        (Fault::Failover, lost),
    ];
    has.into_iter()
        .filter(|(_, yes)| *yes)
        .map(|(f, _)| f)
        .collect()
}

/// The conformance rows (`SCENARIO POLICY`) that check the cell of `service`'s row, `fault`'s column
/// and `policy`.
pub fn rows_for(
    service: crate::scenario::ServiceKind,
    fault: Fault,
    policy: Policy,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &(id, p) in CONFORMANCE {
        let Ok(sc) = crate::catalogue::find(id) else {
            continue;
        };
        let row = format!("{id} {}", p.name());
        if p == policy
            && sc.service.kind == service
            && faults_in(sc).contains(&fault)
            && !out.contains(&row)
        {
            out.push(row);
        }
    }
    out
}
