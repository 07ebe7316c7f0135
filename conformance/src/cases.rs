//! The cases: which catalogue scenario, under which storage policy and parameters, the simulator's
//! prediction, and how a real run's outcome is put in the same words.

use leaselab::outcome::summarize;
use leaselab::scenario::{Lost, Scenario};
use leaselab::store::Policy;
use leaselab::trace::Kind;
use leaselab::{catalogue, simulate, Config, Outcome};

use crate::real::object_storage::Store;
use crate::real::RealRun;

/// One scripted case.
pub struct Case {
    /// The catalogue scenario whose scripts the real run plays.
    pub id: &'static str,
    pub policy: Policy,
    /// Parameter overrides, in ms of the scenario's own time scale.
    pub set: &'static [(&'static str, u64)],
    /// Every duration of the scenario (script, faults, parameters) multiplied by this for the real run
    /// and for the prediction alike, to widen margins that real scheduling could blur.
    pub scale: u64,
    /// The real session lock also hands out fencing tokens from a sequence (see `real::Setup`).
    pub fence_counter: bool,
    /// Compare with another scenario's prediction (its id and overrides) instead of `id`'s own.
    pub predict_with: Option<(&'static str, &'static [(&'static str, u64)])>,
    /// What the real run uses for the scenario's lock service and storage, in a few words.
    pub how: &'static str,
    /// How far (real ms) a run may fall behind the scenario's timeline and still be a fair test: half
    /// the smallest gap between two events whose order decides the outcome, so no one falling behind
    /// by less can swap them (nothing runs early: waits end on the timeline or later).
    pub tolerance_ms: u64,
    /// How many times the row runs: a row whose timing is near a tie agrees only if every run does.
    pub repeat: u32,
    /// Where the storage lives (PostgreSQL's row unless the row says an object store).
    pub store: Store,
    /// The scenario file with this text replaced by that one (a variant of the catalogue's story
    /// that its own notes tell: curator-suspended under Curator's default error policy), or none.
    /// The real run's agents play the same scripts; only the lock service's settings may differ.
    pub edit: Option<(&'static str, &'static str)>,
    /// Compare also the moments the clients' lock clients report (Curator's SUSPENDED and LOST) with
    /// the model's, within this many real ms (0: none compared). See moments.rs.
    pub moments_ms: u64,
}

/// The scripted cases, in the order the table lists them: the PostgreSQL and redis rows here, then
/// each real service's own (real/service.rs).
pub fn cases() -> Vec<Case> {
    let here = [
        postgres_cases(),
        seed_cases(),
        freeze_cases(),
        clock_cases(),
        network_cases(),
        story_cases(),
    ];
    let services = crate::real::service::SERVICES.iter().map(|s| s.cases());
    here.into_iter().chain(services).flatten().collect()
}

/// A case with a 100 ms tolerance, no fence counter and its own scenario's prediction.
pub(crate) fn case(
    id: &'static str,
    policy: Policy,
    set: &'static [(&'static str, u64)],
    scale: u64,
    how: &'static str,
) -> Case {
    Case {
        id,
        policy,
        set,
        scale,
        fence_counter: false,
        predict_with: None,
        how,
        tolerance_ms: 100,
        repeat: 1,
        store: Store::Postgres,
        edit: None,
        moments_ms: 0,
    }
}

/// PostgreSQL's advisory locks. Gaps that decide the outcomes: postgres-*: the termination (300 ms)
/// and B's write (330 ms) before A's write (630 ms), the keepalive end (320 ms) before A wakes
/// (620 ms); B's tries while A is paused change nothing (the real lock is held). seed-advisory-lock:
/// the kill (200 ms) before B's second try (400 ms). So 100 ms.
fn postgres_cases() -> Vec<Case> {
    let c = case;
    vec![
        c(
            "seed-advisory-lock",
            Policy::None,
            &[],
            1,
            "advisory lock; pg_terminate_backend at 200 ms",
        ),
        c(
            "postgres-session",
            Policy::None,
            &[],
            1,
            "advisory lock; A sleeps 600 ms holding it, connected",
        ),
        c(
            "postgres-session",
            Policy::None,
            &[("keepalive", 300)],
            1,
            "as above; idle_session_timeout 300 ms while A is frozen",
        ),
        c(
            "postgres-terminate",
            Policy::None,
            &[],
            1,
            "advisory lock; data through the same session",
        ),
        c(
            "postgres-terminate-elsewhere",
            Policy::None,
            &[],
            1,
            "data through another connection",
        ),
        c(
            "postgres-terminate-elsewhere",
            Policy::Token,
            &[],
            1,
            "token column, but an advisory lock gives no token",
        ),
        c(
            "postgres-terminate-elsewhere",
            Policy::Version,
            &[],
            1,
            "UPDATE … WHERE version = read",
        ),
        c(
            "postgres-terminate-elsewhere",
            Policy::Owner,
            &[],
            1,
            "reader stamps owner; UPDATE … WHERE owner = mine",
        ),
        Case {
            fence_counter: true,
            predict_with: Some(("gc-pause", &[("ttl", 300), ("pause", 600)])),
            ..c(
                "postgres-terminate-elsewhere",
                Policy::Token,
                &[],
                1,
                "token from a sequence at each grant; UPDATE … WHERE token <= $1",
            )
        },
    ]
}

/// The seed's redis lease. seed-gc-pause, TTL 400 ms: with pause 900 ms the lease ends 400 ms after
/// A's read and B's write (400–450 ms) comes 450 ms before A's (900 ms): 200 ms. With pause 200 ms A's
/// write comes 200 ms before the lease ends: 100 ms.
fn seed_cases() -> Vec<Case> {
    let seed = |policy, set, how, tolerance_ms| Case {
        tolerance_ms,
        ..case("seed-gc-pause", policy, set, 1, how)
    };
    let mut rows = vec![
        seed(
            Policy::None,
            &[("ttl", 400), ("pause", 900)],
            "redis SET NX PX + INCR token; A's pause: its process SIGSTOPped; PostgreSQL table",
            200,
        ),
        seed(
            Policy::Token,
            &[("ttl", 400), ("pause", 900)],
            "as above; UPDATE … WHERE token <= $1",
            200,
        ),
        seed(
            Policy::None,
            &[("ttl", 400), ("pause", 200)],
            "redis lease; PostgreSQL table",
            100,
        ),
        seed(
            Policy::Token,
            &[("ttl", 400), ("pause", 200)],
            "redis lease; token column",
            100,
        ),
        seed(
            Policy::Version,
            &[("ttl", 400), ("pause", 900)],
            "redis lease; version column",
            200,
        ),
        seed(
            Policy::Owner,
            &[("ttl", 400), ("pause", 900)],
            "redis lease; owner column",
            200,
        ),
    ];
    // A → B → A on the redis lease, its storage one object in an object store (S3's If-Match, GCS's
    // ifGenerationMatch): real/object_storage.rs.
    rows.extend(crate::real::object_storage::cases());
    rows
}

/// A pause as the stopped process, a timed freeze with the reply in flight, the client's own lease
/// check and the watchdog's renewal, on a single redis lease, each timeline ×10 (one scenario ms is
/// 10 real ms). Gaps that decide the outcomes, in real ms: check-then-write: the lease ends (3000) 100
/// before B's grant (3100), and A's check finds 300 left of the 100 it needs; renewal-frozen: the
/// renewed lease ends (4000) 100 before B's grant (4100). Both are near a tie on a busy machine: run
/// three times, tolerance 50. reply-in-flight(-checked): the lease ends (3000) 220 before B's grant
/// (3220), B's grant 290 before A wakes (3510), A's write (3610) 530 before B's (4140): tolerance 80,
/// run twice.
fn freeze_cases() -> Vec<Case> {
    let row = |id, policy, how, tolerance_ms, repeat| Case {
        tolerance_ms,
        repeat,
        ..case(id, policy, &[], 10, how)
    };
    vec![
        row(
            "check-then-write",
            Policy::None,
            "redis lease; A checks its lease by its own clock (300 ms left, needs 100), then its process is SIGSTOPped 6 s",
            50,
            3,
        ),
        row(
            "check-then-write",
            Policy::Token,
            "as above; UPDATE … WHERE token <= $1",
            50,
            3,
        ),
        row(
            "renewal-frozen",
            Policy::None,
            "redis lease; the watchdog's renewal (PEXPIRE if the key holds A's value, in Lua), then A's process SIGSTOPped 6 s",
            50,
            3,
        ),
        row(
            "renewal-frozen",
            Policy::Token,
            "as above; UPDATE … WHERE token <= $1",
            50,
            3,
        ),
        row(
            "reply-in-flight",
            Policy::None,
            "redis lease; A's process SIGSTOPped at 10 ms for 3.5 s with SET's reply unread in its socket",
            80,
            2,
        ),
        row(
            "reply-in-flight",
            Policy::Token,
            "as above; UPDATE … WHERE token <= $1 (no higher token written yet)",
            80,
            2,
        ),
        row(
            "reply-in-flight",
            Policy::FirstTouch,
            "as above; every access raises the token: B's read fences A",
            80,
            2,
        ),
        row(
            "reply-in-flight-checked",
            Policy::None,
            "as above; A checks the time acquiring took (its own clock) and gives the lock up",
            80,
            2,
        ),
        row(
            "reply-in-flight-checked",
            Policy::Token,
            "as above; token column",
            80,
            2,
        ),
    ]
}

/// Wall clocks that step or run fast or slow: a redis-server's (the lock server's, or a node's: see the nodes' service
/// file) or a client's, each process on a wall clock of its own (the LD_PRELOAD shim of
/// real/wallclock.rs) that the suite steps at the scenario's time, CLOCK_MONOTONIC untouched. Gaps that
/// decide the outcomes, in real ms: redis-clock-jump ×10: the step (500) 100 before B's try (600), B's
/// write (800) 1200 before A's; clock-step-back ×10: A's check finds 190 left of the 100 it needs (90
/// spare), B's write (3300) 1500 before A's: tolerance 50 (40 for the check's 90 spare). slow-clock
/// ×20: A's process's clock runs at 0.9 from t = 0 (the shim's rate); the lease ends (6000) 100 before
/// B's grant (6100), B's read (6120) 120 before A's write (6240), and A's check finds 384 left of the
/// 200 it needs: tolerance 50.
fn clock_cases() -> Vec<Case> {
    let row = |id, policy, scale, how, tolerance_ms| Case {
        tolerance_ms,
        // A's check has 90 ms to spare: near enough a tie to run twice.
        repeat: if id == "clock-step-back" { 2 } else { 1 },
        ..case(id, policy, &[], scale, how)
    };
    vec![
        row(
            "redis-clock-jump",
            Policy::None,
            10,
            "redis-server on a wall clock of its own, stepped +3 s at 500 ms: A's key expires at once",
            50,
        ),
        row(
            "redis-clock-jump",
            Policy::Version,
            10,
            "as above; version column",
            50,
        ),
        row(
            "clock-step-back",
            Policy::None,
            10,
            "redis lease; A's process on a wall clock of its own, stepped −2 s at 1 s; A checks its lease by it after its SIGSTOP",
            40,
        ),
        row(
            "clock-step-back",
            Policy::Token,
            10,
            "as above; UPDATE … WHERE token <= $1",
            40,
        ),
        row(
            "slow-clock",
            Policy::None,
            20,
            "redis lease; A's process on a wall clock running 10 % slow (−100000 ppm) from t = 0; A checks its lease by it",
            50,
        ),
        row("slow-clock", Policy::Token, 20, "as above; UPDATE … WHERE token <= $1", 50),
        row(
            "slow-clock",
            Policy::FirstTouch,
            20,
            "as above; every access raises the token: B's read fences A",
            50,
        ),
        row("slow-clock", Policy::Version, 20, "as above; version column", 50),
    ]
}

/// Faults of the network, made by the suite's proxy. delayed-write ×10: A's lease ends (3000) 100
/// before B's grant (3100), B's write (3300) long before A's held one arrives (6200): tolerance 50.
/// replica-failover ×20: A's grant (0) is 100 before the failover (100), which is 100 before the
/// replication of the grant would arrive (200) and before B's first try (200): tolerance 50.
fn network_cases() -> Vec<Case> {
    let delayed = |policy, how| Case {
        tolerance_ms: 50,
        ..case("delayed-write", policy, &[], 10, how)
    };
    let failover = |policy, set, how| Case {
        tolerance_ms: 50,
        ..case("replica-failover", policy, set, 20, how)
    };
    vec![
        delayed(
            Policy::None,
            "redis lease; each client's PostgreSQL connection through the suite's proxy, which holds A's write 6 s",
        ),
        delayed(Policy::Token, "as above; UPDATE … WHERE token <= $1"),
        failover(
            Policy::None,
            &[],
            "redis master + REPLICAOF replica, its link delayed 200 ms by the proxy; master SIGKILLed at 100 ms, replica promoted, clients through a front address",
        ),
        failover(Policy::Token, &[], "as above; INCR token column"),
        failover(Policy::Version, &[], "as above; version column"),
        failover(
            Policy::None,
            &[("lag", 0)],
            "as above, no lag: the replica saw A's grant",
        ),
    ]
}

/// More of the catalogue's stories on the redis lease, each at a scale that makes its closest gap at
/// least 100 real ms (tolerance 50). gc-pause and epoch-fencing ×10: the lease ends (3000) 100 before
/// B's grant (3100). write-only-gap ×20: B's read (6400) 100 before A's write (6500), 100 before B's
/// (6600). lock-delay ×10: the lock-delay ends (8000) 100 before B's grant (8100). happy-path,
/// table-lease and table-redis ×10: A's release (300) 100 before B's grant (400), or B's denied try at
/// 150 before it.
fn story_cases() -> Vec<Case> {
    let row = |id, policy, set, scale, how| Case {
        tolerance_ms: 50,
        ..case(id, policy, set, scale, how)
    };
    vec![
        row("gc-pause", Policy::None, &[], 10, "redis lease; A's process SIGSTOPped 6 s; PostgreSQL table"),
        row(
            "epoch-fencing",
            Policy::None,
            &[],
            10,
            "redis lease, the fence counter from 5 (the producer's epoch); A's process SIGSTOPped 6 s",
        ),
        row("epoch-fencing", Policy::Token, &[], 10, "as above; UPDATE … WHERE token <= $1 (the broker's epoch check)"),
        row("write-only-gap", Policy::None, &[], 20, "redis lease; A's process SIGSTOPped 5.9 s"),
        row("write-only-gap", Policy::Token, &[], 20, "as above; UPDATE … WHERE token <= $1 (no higher token written yet)"),
        row(
            "lock-delay",
            Policy::None,
            &[],
            10,
            "redis lease with a lock-delay key (stand-in: no redis has one) expiring 5 s after the lease unless released; A's process SIGSTOPped 6 s",
        ),
        row(
            "lock-delay",
            Policy::None,
            &[("pause", 900)],
            10,
            "as above, A stopped 9 s: the delay is not enough",
        ),
        row("happy-path", Policy::None, &[], 10, "redis lease; no fault"),
        row("table-lease", Policy::None, &[], 10, "redis lease; no fault (the safety table's base run)"),
        row("table-redis", Policy::None, &[], 10, "redis SET NX PX; no fault (the safety table's base run)"),
    ]
}

/// The scenario files the cases use, as compiled into leaselab (checked equal to the catalogue's): the
/// rows here, then each real service's own.
pub(crate) fn scenario_text(id: &str) -> Option<&'static str> {
    let services = crate::real::service::SERVICES.iter();
    own_scenario_text(id).or_else(|| services.filter_map(|s| s.scenario_text(id)).next())
}

fn own_scenario_text(id: &str) -> Option<&'static str> {
    Some(match id {
        "seed-advisory-lock" => include_str!("../../crate/scenarios/seed-advisory-lock.txt"),
        "postgres-session" => include_str!("../../crate/scenarios/postgres-session.txt"),
        "postgres-terminate" => include_str!("../../crate/scenarios/postgres-terminate.txt"),
        "postgres-terminate-elsewhere" => {
            include_str!("../../crate/scenarios/postgres-terminate-elsewhere.txt")
        }
        "seed-gc-pause" => include_str!("../../crate/scenarios/seed-gc-pause.txt"),
        "s3-etag-aba" => include_str!("../../crate/scenarios/s3-etag-aba.txt"),
        "check-then-write" => include_str!("../../crate/scenarios/check-then-write.txt"),
        "renewal-frozen" => include_str!("../../crate/scenarios/renewal-frozen.txt"),
        "reply-in-flight" => include_str!("../../crate/scenarios/reply-in-flight.txt"),
        "reply-in-flight-checked" => {
            include_str!("../../crate/scenarios/reply-in-flight-checked.txt")
        }
        "gc-pause" => include_str!("../../crate/scenarios/gc-pause.txt"),
        "redis-clock-jump" => include_str!("../../crate/scenarios/redis-clock-jump.txt"),
        "clock-step-back" => include_str!("../../crate/scenarios/clock-step-back.txt"),
        "delayed-write" => include_str!("../../crate/scenarios/delayed-write.txt"),
        "replica-failover" => include_str!("../../crate/scenarios/replica-failover.txt"),
        "slow-clock" => include_str!("../../crate/scenarios/slow-clock.txt"),
        "epoch-fencing" => include_str!("../../crate/scenarios/epoch-fencing.txt"),
        "write-only-gap" => include_str!("../../crate/scenarios/write-only-gap.txt"),
        "lock-delay" => include_str!("../../crate/scenarios/lock-delay.txt"),
        "happy-path" => include_str!("../../crate/scenarios/happy-path.txt"),
        "table-lease" => include_str!("../../crate/scenarios/table-lease.txt"),
        "table-redis" => include_str!("../../crate/scenarios/table-redis.txt"),
        _ => return None,
    })
}

/// Multiplies every duration in a scenario file by `k`: in service, client and fault lines, and in
/// the part of `param` and `expect` lines before the colon. Prose lines are left alone.
pub fn scale_text(text: &str, k: u64) -> String {
    let prose = [
        "#", "id:", "group:", "title", "summary", "source:", "derived:",
    ];
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.lines() {
        if k == 1 || prose.iter().any(|p| line.starts_with(p)) {
            out.push_str(line);
        } else if line.starts_with("param ") || line.starts_with("expect ") {
            match line.split_once(':') {
                Some((head, rest)) => {
                    out.push_str(&scale_durations(head, k));
                    out.push(':');
                    out.push_str(rest);
                }
                None => out.push_str(&scale_durations(line, k)),
            }
        } else if let Some(explicit) = explicit_defaults(line) {
            out.push_str(&scale_durations(&explicit, k));
        } else {
            out.push_str(&scale_durations(line, k));
        }
        out.push('\n');
    }
    out
}

/// A service line with the defaults its service's file says are durations made explicit, so that they
/// scale with the rest (real/service.rs).
fn explicit_defaults(line: &str) -> Option<String> {
    let services = crate::real::service::SERVICES.iter();
    services.filter_map(|s| s.explicit_defaults(line)).next()
}

/// `300ms` → `900ms`, `0.3s` → `900ms` (k = 3); bare numbers, `ppm`, names like `n3` unchanged.
fn scale_durations(s: &str, k: u64) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len() + 8);
    let mut i = 0;
    while i < b.len() {
        let starts_number = b[i].is_ascii_digit()
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric()
                    || (b[i - 1] == b'.' && i >= 2 && b[i - 2].is_ascii_digit())));
        if !starts_number {
            out.push(b[i] as char);
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        let number = &s[start..i];
        let unit_us = if s[i..].starts_with("ms") {
            Some((2, 1_000.0))
        } else if s[i..].starts_with('s') {
            Some((1, 1_000_000.0))
        } else {
            None
        };
        match unit_us {
            Some((len, per)) if !b.get(i + len).is_some_and(|c| c.is_ascii_alphanumeric()) => {
                let value: f64 = number.parse().unwrap_or(0.0);
                let us = (value * per).round() as u64 * k;
                if us.is_multiple_of(1000) {
                    out.push_str(&format!("{}ms", us / 1000));
                } else {
                    out.push_str(&format!("{}.{:03}ms", us / 1000, us % 1000));
                }
                i += len;
            }
            _ => out.push_str(number),
        }
    }
    out
}

/// The scenario a case runs, at the case's scale: parsed with leaselab's own parser from the file the
/// catalogue was compiled from (and checked to be that scenario), then scaled.
pub fn scenario(id: &str, scale: u64) -> Result<Scenario, String> {
    let compiled = catalogue::find(id).map_err(|e| e.to_string())?;
    let text = scenario_text(id).ok_or_else(|| format!("{id}: no scenario file included"))?;
    let parsed = Scenario::parse(text).map_err(|e| format!("{id}: {e}"))?;
    if &parsed != compiled {
        return Err(format!(
            "{id}: the scenario file differs from the compiled catalogue (rebuild leaselab)"
        ));
    }
    if scale == 1 {
        return Ok(compiled.clone()); // borrowed data: no allocation
    }
    Scenario::parse(&scale_text(text, scale)).map_err(|e| format!("{id} ×{scale}: {e}"))
}

/// The scenario `c` runs at `scale`: its id's, with the case's edit.
pub fn case_scenario(c: &Case, scale: u64) -> Result<Scenario, String> {
    let Some((from, to)) = c.edit else {
        return scenario(c.id, scale);
    };
    scenario(c.id, 1)?; // the file is the catalogue's
    let text = scenario_text(c.id).ok_or_else(|| format!("{}: no scenario file included", c.id))?;
    if !text.contains(from) {
        return Err(format!("{}: the edit's {from:?} is not in the file", c.id));
    }
    let edited = scale_text(&text.replacen(from, to, 1), scale);
    Scenario::parse(&edited).map_err(|e| format!("{} (edited): {e}", c.id))
}

/// Parameter values (µs) for a scenario at `scale`, with overrides given in ms of the unscaled time.
pub fn params(sc: &Scenario, set: &[(&str, u64)], scale: u64) -> Result<Vec<u64>, String> {
    let mut v = sc.defaults();
    for &(name, ms) in set {
        sc.set_param(&mut v, name, ms * 1000 * scale)
            .map_err(|e| e.to_string())?;
    }
    Ok(v)
}

/// The simulator's outcome for `sc` (made by [`scenario`] at `scale`) under `policy`.
pub fn predict<'s>(
    sc: &'s Scenario,
    policy: Policy,
    set: &[(&str, u64)],
    scale: u64,
) -> Result<Outcome<'s>, String> {
    let mut cfg = Config::new(sc, policy);
    cfg.params = params(sc, set, scale)?;
    simulate(sc, &cfg).map_err(|e| e.to_string())
}

/// An outcome in words: named facts, compared one by one (a moment within its tolerance is the same
/// fact: see moments.rs).
#[derive(Clone, Debug)]
pub struct Verdict(pub Vec<(&'static str, String)>);

impl PartialEq for Verdict {
    fn eq(&self, other: &Verdict) -> bool {
        self.diff(other).is_empty()
    }
}

impl Verdict {
    pub fn text(&self) -> String {
        self.0
            .iter()
            .map(|(k, v)| {
                if k.is_empty() {
                    v.clone()
                } else {
                    format!("{k} {v}")
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The facts that differ, as `key: sim ≠ real`.
    pub fn diff(&self, other: &Verdict) -> Vec<String> {
        let mut d = Vec::new();
        for ((k, a), (_, b)) in self.0.iter().zip(other.0.iter()) {
            if !crate::moments::same(a, b) {
                d.push(format!("{k}: {a} ≠ {b}"));
            }
        }
        if self.0.len() != other.0.len() {
            d.push("different facts".into());
        }
        d
    }
}

fn names(sc: &Scenario, clients: impl IntoIterator<Item = u8>) -> String {
    let mut seen: Vec<u8> = Vec::new();
    for c in clients {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    if seen.is_empty() {
        return "none".into();
    }
    seen.iter()
        .map(|&c| sc.client_name(c).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn in_order(sc: &Scenario, clients: impl IntoIterator<Item = u8>) -> String {
    let v: Vec<String> = clients
        .into_iter()
        .map(|c| sc.client_name(c).to_string())
        .collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(",")
    }
}

fn lost(sc: &Scenario, l: Lost) -> String {
    match l {
        Lost::Nobody => "none".into(),
        Lost::Client(c) => sc.client_name(c).to_string(),
    }
}

fn holders(overlap: bool) -> String {
    if overlap { "2" } else { "1" }.into()
}

/// Whether `sc`'s service grants by majority (who holds the lock is who holds a majority of its nodes).
fn majority_grants(sc: &Scenario) -> bool {
    crate::real::service::of(sc.service.kind).is_some_and(|s| s.majority_grants())
}

/// The simulator's outcome in the table's words.
pub fn sim_verdict(sc: &Scenario, o: &Outcome) -> Verdict {
    let grants: Vec<u8> = if majority_grants(sc) {
        o.run.majorities.clone()
    } else {
        o.run.leases.iter().map(|l| l.client).collect()
    };
    Verdict(vec![
        ("final", o.run.final_balance.to_string()),
        ("lost", lost(sc, o.lost)),
        (
            "refused",
            names(
                sc,
                o.run
                    .writes
                    .iter()
                    .filter(|w| !w.accepted)
                    .map(|w| w.client),
            ),
        ),
        ("granted", in_order(sc, grants)),
        ("max holders", holders(!o.overlaps.is_empty())),
    ])
}

/// A real run's outcome in the same words, judged by leaselab's own definitions.
pub fn real_verdict(sc: &Scenario, r: &RealRun) -> Verdict {
    let s = summarize(&r.as_sim_run());
    let mut grants = r.grants.clone();
    if majority_grants(sc) {
        // Who came to hold a majority, in turn: a client that gets its majority again while no
        // one else had one in between is no new holder (the model's list changes hands only).
        grants.dedup();
    }
    Verdict(vec![
        ("final", r.final_balance.to_string()),
        ("lost", lost(sc, s.lost)),
        (
            "refused",
            names(
                sc,
                r.writes.iter().filter(|w| !w.accepted).map(|w| w.client),
            ),
        ),
        ("granted", in_order(sc, grants)),
        ("max holders", holders(r.overlap())),
    ])
}

/// The seed's step 1 in the table's words, from the simulator's `seed-advisory-lock`: B's tries in
/// order, who got the lock, and whether A's session ended.
pub fn step1_sim() -> Result<Verdict, String> {
    let sc = scenario("seed-advisory-lock", 1)?;
    let o = predict(&sc, Policy::None, &[], 1)?;
    let tries: Vec<&str> = o
        .run
        .trace
        .iter()
        .filter(|e| e.client == 1 && matches!(e.kind(), Kind::Granted | Kind::Denied))
        .map(|e| if e.kind() == Kind::Granted { "t" } else { "f" })
        .collect();
    let ended = o
        .run
        .trace
        .iter()
        .any(|e| e.client == 0 && e.kind() == Kind::SessionEnded);
    Ok(Verdict(vec![
        ("B's tries", tries.join(" then ")),
        (
            "granted",
            in_order(&sc, o.run.leases.iter().map(|l| l.client)),
        ),
        ("A's session", if ended { "ended" } else { "alive" }.into()),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_multiplies_durations_only() {
        assert_eq!(
            scale_durations("at 50ms: crash n3 restart $restart", 3),
            "at 150ms: crash n3 restart $restart"
        );
        assert_eq!(
            scale_durations("param ttl = 300ms in 10ms..60s", 3),
            "param ttl = 900ms in 30ms..180000ms"
        );
        assert_eq!(
            scale_durations("client A reach=n1,n2,n3: work 0.3s; write 60", 2),
            "client A reach=n1,n2,n3: work 600ms; write 60"
        );
        assert_eq!(
            scale_durations("clock=-100000ppm step=-200ms@100ms", 2),
            "clock=-100000ppm step=-400ms@200ms"
        );
        assert_eq!(scale_durations("every 1.5ms", 3), "every 4.500ms");
    }

    #[test]
    fn every_case_has_its_scenario_and_a_prediction() {
        for c in cases() {
            let scaled = scenario(c.id, c.scale).unwrap();
            let o = predict(&scaled, c.policy, c.set, c.scale).unwrap();
            // The scaled timeline tells the same story as the catalogue's own.
            let sc = scenario(c.id, 1).unwrap();
            let base = predict(&sc, c.policy, c.set, 1).unwrap();
            assert_eq!(
                sim_verdict(&sc, &o),
                sim_verdict(&sc, &base),
                "{} ×{}",
                c.id,
                c.scale
            );
            if let Some((id, set)) = c.predict_with {
                predict(&scenario(id, 1).unwrap(), c.policy, set, 1).unwrap();
            }
        }
    }

    /// The safety table names the rows that check a cell (`leaselab matrix --json`'s `real`) from its
    /// own list of (scenario, policy): it must be this suite's, in order, each pair once.
    #[test]
    fn the_safety_tables_list_of_rows_is_this_suites() {
        let mut ours: Vec<(&str, Policy)> = Vec::new();
        for c in cases() {
            if !ours.contains(&(c.id, c.policy)) {
                ours.push((c.id, c.policy));
            }
        }
        let listed: Vec<String> = ours
            .iter()
            .map(|(id, p)| format!("(\"{id}\", Policy::{p:?}),"))
            .collect();
        assert_eq!(
            leaselab::matrix::real::CONFORMANCE,
            &ours[..],
            "crate/src/matrix/real.rs's CONFORMANCE should be:\n{}",
            listed.join("\n")
        );
    }

    #[test]
    fn predictions_match_the_catalogue_claims() {
        let sc = scenario("seed-gc-pause", 1).unwrap();
        let o = predict(&sc, Policy::None, &[("ttl", 400), ("pause", 900)], 1).unwrap();
        assert_eq!(
            sim_verdict(&sc, &o).text(),
            "final 440, lost B, refused none, granted A,B, max holders 2"
        );
        let o = predict(&sc, Policy::Token, &[("ttl", 400), ("pause", 900)], 1).unwrap();
        assert_eq!(
            sim_verdict(&sc, &o).text(),
            "final 450, lost none, refused A, granted A,B, max holders 2"
        );
        assert_eq!(
            step1_sim().unwrap().text(),
            "B's tries f then t, granted A,B, A's session ended"
        );
    }
}
