//! The library rows (issue 44): each runs **the client library itself** — kazoo, Curator, redis-py,
//! python-redis-lock, pottery, `etcdctl lock` — in a process of its own against the real server,
//! freezes it with SIGSTOP for as long as its scenario's pause, and compares what the library told the
//! application (listener events, `owned()`'s answer, the error at release, the renewal thread's
//! death, the token) with the model's run JSON, within a tolerance per moment (library_facts.rs).
//!
//! The real side is conformance/clients/ (the harness docs/clients.md measured with): its holders and
//! contenders, its conductor, its cases, driven by `rows.py` with each row's settings taken from the
//! model's run (the pause, the session or lease). One `rows.py` runs every wanted row against servers
//! it starts once (only the servers the wanted rows need), in `WORK/clients`; it dies with
//! the suite (PR_SET_PDEATHSIG through `setpriv`) and stops what it started in its `finally`; its pid
//! files are where conformance/run.sh's backstop looks.
//!
//! A row whose scenario is not in the catalogue (the model's library scenarios come with issue 44's
//! model step) is left out with a line on stderr, not failed: the list below is what is checked once
//! it is there.

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};

use leaselab::client::{ClientSpec, Op};
use leaselab::store::Policy;
use leaselab::Scenario;
use serde_json::Value;

use crate::cases::Verdict;
use crate::coverage::{not_run, real, Component, Entry};
use crate::library_facts::{measured, modelled, Fact, Model};
use crate::servers::Res;
use crate::Row;

/// One library row.
pub struct LibraryRow {
    pub scenario: &'static str,
    pub policy: Policy,
    /// conformance/clients/cases.py's case the real run plays.
    pub case: &'static str,
    pub on: &'static Component,
    /// The real setting the model's run gives besides the pause: (rows.py's key, the run JSON's
    /// number in ms: a `params` entry or a top-level one such as `ttl_ms`).
    pub length: (&'static str, &'static str),
    pub facts: &'static [Fact],
    /// Where the real run differs from the scenario, and why that does not change what is compared.
    pub differs: &'static str,
}

const PYPI: &str = "PyPI, pinned in conformance/clients/requirements.txt, in target/clients-venv";
pub const KAZOO: Component = Component {
    name: "kazoo",
    version: "2.11.0",
    from: PYPI,
};
pub const CURATOR: Component = Component {
    name: "Apache Curator",
    version: "5.4.0",
    from: "Debian 12 `libcurator-recipes-java`, in a JVM of its own",
};
pub const REDIS_PY: Component = Component {
    name: "redis-py",
    version: "8.2.0",
    from: PYPI,
};
pub const PYTHON_REDIS_LOCK: Component = Component {
    name: "python-redis-lock",
    version: "4.0.1",
    from: PYPI,
};
pub const POTTERY: Component = Component {
    name: "pottery",
    version: "3.0.1",
    from: PYPI,
};
pub const NODE_REDLOCK: Component = Component {
    name: "node-redlock",
    version: "4.2.0",
    from: "npm (mike-marcacci/node-redlock), pinned in conformance/clients/package-lock.json, in target/clients-node",
};
pub const ETCDCTL: Component = Component {
    name: "etcdctl lock",
    version: "3.4.23",
    from: "Debian 12 `etcd-client`",
};

/// kazoo's connection listener's moments. Tolerances from the measured spreads (docs/clients.md, and
/// this suite's runs beside other work, load average up to 9 on 2 cores): SUSPENDED 0.8–24 ms after
/// waking (±50 ms: a loaded machine's scheduling, and still half of Curator's 100 ms, so the two are
/// told apart); LOST 64–196 ms, where the model says 101 (kazoo's retry sleep, 0.1 s × U(0.6, 1.4),
/// is ±40 ms alone; the reconnect's round trip to a busy server the rest): ±100 ms, which still tells
/// it from a LOST at the instant of waking; the new session 159–311 ms against 201 (two such
/// sleeps and round trips): ±150 ms.
const KAZOO_LISTENER: [Fact; 3] = [
    at("SUSPENDED", "suspended", None, "listener SUSPENDED", 50),
    at("LOST", "lost", None, "listener LOST", 100),
    at(
        "reconnected",
        "reconnected",
        None,
        "listener CONNECTED",
        150,
    ),
];

/// Curator's: SUSPENDED 103–116 ms where the model says 100 (±50 ms, as kazoo's; a run whose JVM
/// noticed its SIGCONT over 30 ms late is discarded by rows.py: once here, 71 ms late, its SUSPENDED
/// came at 233 ms); LOST and RECONNECTED 1188–1963 ms, where the model takes the middle of ClientCnxn's
/// random 0–1000 ms wait (1.6 s): ±500 ms, +100 ms of scheduling: ±600 ms.
const CURATOR_LISTENER: [Fact; 3] = [
    at("SUSPENDED", "suspended", None, "listener SUSPENDED", 50),
    at("LOST", "lost", None, "listener LOST", 600),
    at(
        "reconnected",
        "reconnected",
        None,
        "listener RECONNECTED",
        600,
    ),
];

/// A row that writes (policy `none`): its holder and contender do their scenario's read-modify-write
/// on a plain key of the row's redis-server (conformance/clients/store.py), and the row compares the
/// final balance and whose update was lost with the model's run. kazoo-listener-race's does not: its
/// check right at waking races kazoo's SUSPENDED (0.8–24 ms later), the race of a millisecond the
/// scenario is about, so the real write goes either way (seen both ways in two runs).
const WRITES: [Fact; 2] = [
    Fact::Final {
        real: "final balance",
    },
    Fact::Lost,
];

const fn at(
    label: &'static str,
    kind: &'static str,
    note: Option<&'static str>,
    real: &'static str,
    within_ms: u64,
) -> Fact {
    Fact::At {
        label,
        kind,
        note,
        real,
        within_ms,
    }
}

const fn said(
    label: &'static str,
    note: &'static str,
    real: &'static str,
    yes: &'static str,
) -> Fact {
    Fact::Said {
        label,
        note,
        real,
        real_yes: yes,
    }
}

/// The rows, one per library scenario that runs here (redisson's does not: its line in [`COVERAGE`]). One round
/// trip on loopback is well under a millisecond: the answers' moments (redis-py 0.7–1.8 ms, pottery
/// 1.4–2.9 ms and 14–35 ms under load, python-redis-lock's renewal 1–2 ms, `etcdctl lock`'s session 2.4–3.2 ms)
/// are compared within ±50 ms, the scheduling of a loaded machine.
pub static ROWS: &[LibraryRow] = &[
    LibraryRow {
        scenario: "kazoo-is-acquired",
        policy: Policy::None,
        case: "kazoo",
        on: &KAZOO,
        length: ("session_s", "session_ms"),
        facts: &[
            KAZOO_LISTENER[0],
            KAZOO_LISTENER[1],
            KAZOO_LISTENER[2],
            said(
                "is_acquired said yes after the pause",
                "owned-yes",
                "lock.is_acquired at +1 s",
                "true",
            ),
            WRITES[0],
            WRITES[1],
        ],
        differs: "",
    },
    LibraryRow {
        scenario: "kazoo-listener-race",
        policy: Policy::None,
        case: "kazoo",
        on: &KAZOO,
        length: ("session_s", "session_ms"),
        facts: &KAZOO_LISTENER,
        differs: "",
    },
    LibraryRow {
        scenario: "curator-listener-window",
        policy: Policy::None,
        case: "curator",
        on: &CURATOR,
        length: ("session_s", "session_ms"),
        // Its check comes after a second of work, and LOST 1188–1963 ms after waking (ClientCnxn's
        // 1 s spin with one server first): the real write lands before LOST, as the model's.
        facts: &[
            CURATOR_LISTENER[0],
            CURATOR_LISTENER[1],
            CURATOR_LISTENER[2],
            WRITES[0],
            WRITES[1],
        ],
        differs: "",
    },
    LibraryRow {
        scenario: "redis-py-owned-after-pause",
        policy: Policy::None,
        case: "redis-py",
        on: &REDIS_PY,
        length: ("lease_s", "ttl_ms"),
        facts: &[
            at(
                "owned() said no",
                "notice",
                Some("owned-no"),
                "owned: answered",
                50,
            ),
            said(
                "owned() said no",
                "owned-no",
                "owned: outcome",
                "returned False",
            ),
            WRITES[0],
            WRITES[1],
        ],
        differs: "",
    },
    LibraryRow {
        scenario: "redis-py-owned-before-pause",
        policy: Policy::None,
        case: "redis-py",
        on: &REDIS_PY,
        length: ("lease_s", "ttl_ms"),
        facts: &[
            said(
                "owned() said yes before the pause",
                "owned-yes",
                "owned() before the pause",
                "true",
            ),
            said(
                "release raised",
                "release-raised",
                "release: outcome",
                "raised LockNotOwnedError",
            ),
            WRITES[0],
            WRITES[1],
        ],
        differs: "",
    },
    LibraryRow {
        scenario: "python-redis-lock-renewal-died",
        policy: Policy::None,
        case: "python-redis-lock",
        on: &PYTHON_REDIS_LOCK,
        length: ("lease_s", "ttl_ms"),
        facts: &[
            at(
                "renewal thread died",
                "notice",
                Some("renewal-died"),
                "renewal thread died",
                50,
            ),
            said(
                "release raised",
                "release-raised",
                "release: outcome",
                "raised NotAcquired",
            ),
            WRITES[0],
            WRITES[1],
        ],
        differs: "",
    },
    LibraryRow {
        scenario: "pottery-release-raised",
        policy: Policy::None,
        case: "pottery",
        on: &POTTERY,
        length: ("lease_s", "ttl_ms"),
        facts: &[
            said(
                "release raised",
                "release-raised",
                "release: outcome",
                "raised ReleaseUnlockedLock",
            ),
            // A round trip to the masters after the write, where the model says 1 ms; on three
            // masters 3.1–10.5 ms here (pottery's thread pool, and its `locked()` first).
            at(
                "release raised",
                "notice",
                Some("release-raised"),
                "release: answered",
                50,
            ),
            WRITES[0],
            WRITES[1],
        ],
        differs: "",
    },
    // node-redlock's `owned` is local (`lock.expiration > Date.now()`): answered at once on waking in
    // the model, 0.5–3.2 ms after SIGCONT in the real runs (docs/clients.md, "node-redlock 4.2.0");
    // `unlock()` rejected a round trip after it is called, 1 ms in the model, 1.6–6.9 ms measured:
    // each within ±50 ms, a loaded machine's scheduling, as the other rows' round trips.
    LibraryRow {
        scenario: "node-redlock-expiration-after-pause",
        policy: Policy::None,
        case: "node-redlock",
        on: &NODE_REDLOCK,
        length: ("lease_s", "ttl_ms"),
        facts: &[
            at(
                "lock.expiration > Date.now() said no",
                "notice",
                Some("owned-no"),
                "owned: answered",
                50,
            ),
            said(
                "lock.expiration > Date.now() said no",
                "owned-no",
                "owned: outcome",
                "returned false",
            ),
            WRITES[0],
            WRITES[1],
        ],
        differs: "",
    },
    LibraryRow {
        scenario: "node-redlock-clock-step-back",
        policy: Policy::None,
        case: "node-redlock step back",
        on: &NODE_REDLOCK,
        length: ("lease_s", "ttl_ms"),
        facts: &[
            said(
                "lock.expiration > Date.now() said yes after the pause",
                "owned-yes",
                "owned: outcome",
                "returned true",
            ),
            at(
                "unlock() rejected",
                "notice",
                Some("release-raised"),
                "release: answered",
                50,
            ),
            said(
                "unlock() rejected",
                "release-raised",
                "release: outcome",
                "raised LockError",
            ),
            WRITES[0],
            WRITES[1],
        ],
        differs: "the holder steps its own Date.now() back 2 s as it wakes (the machine's clock is everyone's), where the scenario's NTP steps A's clock at 1.5 s, while A is frozen: the same reading at the check",
    },
    LibraryRow {
        scenario: "etcdctl-lock-rev",
        policy: Policy::Token,
        case: "etcdctl lock NAME cmd",
        on: &ETCDCTL,
        length: ("ttl_s", "ttl_ms"),
        facts: &[Fact::TokenGrows {
            real: "waiter's ETCD_LOCK_REV > holder's",
        }],
        differs: "",
    },
    // The session's end, which the scenario's command is never told: etcdctl without a command exits
    // on it (`Error: session expired`), 2.4 ms (2.4–3.2) after waking where the model says 3 ms
    // (docs/clients.md). ±50 ms as the other answers' moments: a loaded machine's scheduling (the
    // conductor sees the exit by polling every 2 ms), and still far from "never" or from the TTL.
    LibraryRow {
        scenario: "etcdctl-lock-rev",
        policy: Policy::Token,
        case: "etcdctl lock NAME",
        on: &ETCDCTL,
        length: ("ttl_s", "ttl_ms"),
        facts: &[at(
            "session's Done() closed",
            "notice",
            Some("session-done"),
            "etcdctl exited",
            50,
        )],
        differs: "no command: etcdctl's own exit is the session's Done(), which the scenario's command is never told",
    },
];

const HOW: &str =
    "the library itself in a process of its own on the real server, SIGSTOPped; its notices compared";
/// A row that writes ([`WRITES`]) compares the store too: its line says so.
const HOW_WRITES: &str = "the library itself in a process of its own on the real server, SIGSTOPped; its notices compared, and the store's final balance and whose update was lost (a plain redis key its holder and contender write)";

/// The coverage table's lines for the library scenarios, one per row and Redisson's (no row).
static COVERAGE: [Entry; 11] = [
    real("kazoo-is-acquired", &KAZOO, HOW_WRITES),
    real("kazoo-listener-race", &KAZOO, HOW),
    real("curator-listener-window", &CURATOR, HOW_WRITES),
    real("redis-py-owned-after-pause", &REDIS_PY, HOW_WRITES),
    real("redis-py-owned-before-pause", &REDIS_PY, HOW_WRITES),
    real("python-redis-lock-renewal-died", &PYTHON_REDIS_LOCK, HOW_WRITES),
    real("pottery-release-raised", &POTTERY, HOW_WRITES),
    real("etcdctl-lock-rev", &ETCDCTL, HOW),
    not_run(
        "redisson-watchdog-frozen",
        "Redisson is published on Maven Central only, which this workplace cannot reach (it reaches crates.io, PyPI, Debian and npm); its watchdog is modelled from its source (docs/clients.md)",
    ),
    real("node-redlock-expiration-after-pause", &NODE_REDLOCK, HOW_WRITES),
    real("node-redlock-clock-step-back", &NODE_REDLOCK, HOW_WRITES),
];

fn in_catalogue(id: &str) -> bool {
    leaselab::catalogue::catalogue()
        .iter()
        .any(|sc| sc.id.as_ref() == id)
}

/// How many library rows play `id` (0 until its scenario is in the catalogue).
pub fn rows_of(id: &str) -> usize {
    ROWS.iter()
        .filter(|r| r.scenario == id && in_catalogue(id))
        .count()
}

/// Whether the library rows give `id` its coverage entry (a row, or why it has none).
pub fn lists(id: &str) -> bool {
    COVERAGE.iter().any(|e| e.scenario == id)
}

/// The coverage entries of the library scenarios that are in the catalogue.
pub fn coverage() -> impl Iterator<Item = &'static Entry> {
    COVERAGE.iter().filter(|e| in_catalogue(e.scenario))
}

/// A row's name for rows.py, unique where two rows play one scenario: the scenario and the case.
fn row_key(r: &LibraryRow) -> String {
    format!("{}/{}", r.scenario, r.case.replace(' ', "-"))
}

/// The model's side of a row: its run JSON under the row's policy, and its verdict's facts.
struct Predicted {
    model: Model,
    sim: Verdict,
}

fn predict(r: &LibraryRow) -> Res<Predicted> {
    // The catalogue's own compiled scenario: a library row plays it at its own timeline (no scale).
    let sc = leaselab::catalogue::find(r.scenario).map_err(|e| e.to_string())?;
    let o = crate::cases::predict(sc, r.policy, &[], 1)?;
    let holder = sc.client_name(0).to_string();
    let model = Model::parse(&leaselab::report::run_json::json(&o), &holder)?;
    let mut sim = Verdict(Vec::new());
    for f in r.facts {
        sim.0.push(("", modelled(f, &model)?));
    }
    Ok(Predicted { model, sim })
}

/// rows.py's spec of one row: the case, the pause and the length the model's run has.
fn spec(r: &LibraryRow, m: &Model) -> Res<Value> {
    let (from, to) = m.pause_ms()?;
    let (key, name) = r.length;
    let ms = m
        .number(name)
        .ok_or_else(|| format!("the model's run has no {name}"))?;
    let mut s =
        serde_json::json!({ "id": row_key(r), "case": r.case, "pause_s": (to - from) / 1000.0 });
    s[key] = serde_json::json!(ms / 1000.0);
    if r.facts
        .iter()
        .any(|f| matches!(f, Fact::Final { .. } | Fact::Lost))
    {
        let sc = leaselab::catalogue::find(r.scenario).map_err(|e| e.to_string())?;
        s["store"] = store_spec(sc)?;
    }
    Ok(s)
}

/// A writing row's storage for rows.py (conformance/clients/store.py), from its scenario's script:
/// the balance, each client's debit, and the holder's check after its pause (`owned`, `listener`, or
/// none) with the work before it.
fn store_spec(sc: &Scenario) -> Res<Value> {
    let (Some(holder), Some(contender)) = (sc.clients.first(), sc.clients.get(1)) else {
        return Err(format!("{}: a writing row needs two clients", sc.id));
    };
    let debit = |c: &ClientSpec| {
        c.ops.iter().find_map(|o| match o {
            Op::Write { debit, .. } => Some(*debit),
            _ => None,
        })
    };
    let (Some(a), Some(b)) = (debit(holder), debit(contender)) else {
        return Err(format!(
            "{}: a writing row needs both clients to write",
            sc.id
        ));
    };
    let params: Vec<u64> = sc.params.iter().map(|p| p.default_us).collect();
    let after_pause = holder.ops.iter().skip_while(|o| !matches!(o, Op::Pause(_)));
    let (mut work_us, mut check) = (0, Value::Null);
    for op in after_pause.skip(1) {
        match op {
            Op::Work(d) => work_us += d.resolve(&params),
            Op::Owned => check = "owned".into(),
            Op::Listener => check = "listener".into(),
            _ => {}
        }
        if !check.is_null() || matches!(op, Op::Write { .. }) {
            break;
        }
    }
    let names = [sc.client_name(0).to_string(), sc.client_name(1).to_string()];
    Ok(serde_json::json!({
        "balance": sc.balance,
        "names": names,
        "holder": { "debit": a, "check": check, "check_after_s": work_us as f64 / 1e6 },
        "contender": { "debit": b },
    }))
}

fn describe(r: &LibraryRow, spec: &Value) -> String {
    let differs = if r.differs.is_empty() {
        String::new()
    } else {
        format!("; {}", r.differs)
    };
    format!(
        "{} — {} {} in a process of its own, SIGSTOPped {} s ({} {} s){differs}",
        r.policy.name(),
        r.on.name,
        r.on.version,
        spec["pause_s"],
        r.length.0,
        spec[r.length.0]
    )
}

/// The library rows `wanted` keeps, predicted, and their real runs under way in one rows.py.
pub struct Started {
    rows: Vec<Row>,
    /// Each predicted row: its index in `rows`, the row, its prediction.
    specs: Vec<(usize, &'static LibraryRow, Predicted)>,
    real: Res<Pending>,
    started: Instant,
}

/// Predicts the library rows `wanted` keeps and starts their real runs, which go on while the suite
/// plays its other rows: they are a few seconds each of a process that mostly sleeps (frozen), their
/// tolerances are tens of ms and more, and the other rows discard an attempt that falls behind its
/// timeline; [`Started::finish`] collects and judges them.
pub fn start(work: &Path, wanted: impl Fn(&str) -> bool) -> Started {
    let mut rows = Vec::new();
    let mut specs = Vec::new();
    let mut json = Vec::new();
    for r in ROWS.iter().filter(|r| wanted(r.scenario)) {
        if !in_catalogue(r.scenario) {
            eprintln!(
                "conformance: {} (library row) left out: not in the catalogue",
                r.scenario
            );
            continue;
        }
        let mut row = Row::blank(
            r.scenario,
            format!("{} — {} {}", r.policy.name(), r.on.name, r.on.version),
        );
        match predict(r).and_then(|p| Ok((spec(r, &p.model)?, p))) {
            Ok((s, p)) => {
                row.params = describe(r, &s);
                row.sim = p.sim.text();
                json.push(s);
                specs.push((rows.len(), r, p));
            }
            Err(e) => row.detail.push(format!("simulator: {e}")),
        }
        rows.push(row);
    }
    let real = if json.is_empty() {
        Ok(Pending::none())
    } else {
        Pending::start(work, &json)
    };
    Started {
        rows,
        specs,
        real,
        started: Instant::now(),
    }
}

impl Started {
    /// The rows, each judged against its real run (waiting for those still under way).
    pub fn finish(self, verbose: bool) -> Vec<Row> {
        let Started {
            mut rows,
            specs,
            real,
            started,
        } = self;
        if specs.is_empty() {
            return rows;
        }
        let results = real.and_then(Pending::collect);
        for (i, r, p) in &specs {
            judge(&mut rows[*i], r, p, &results, verbose);
        }
        eprintln!(
            "conformance: {} library rows done {:.1} s after they started (beside the other rows)",
            specs.len(),
            started.elapsed().as_secs_f64()
        );
        rows
    }
}

/// Fills `row`'s real side from rows.py's `results` (or its failure).
fn judge(
    row: &mut Row,
    r: &LibraryRow,
    p: &Predicted,
    results: &Res<Vec<(String, Value)>>,
    verbose: bool,
) {
    let got = match results {
        Ok(v) => v.iter().find(|(id, _)| *id == row_key(r)).map(|x| &x.1),
        Err(e) => {
            row.detail.push(format!("real run failed: {e}"));
            return;
        }
    };
    let Some(got) = got.filter(|g| g.get("failed").is_none()) else {
        let why = got
            .and_then(|g| g["failed"].as_str())
            .unwrap_or("no result from rows.py");
        row.detail.push(format!("real run failed: {why}"));
        return;
    };
    let real = Verdict(
        r.facts
            .iter()
            .map(|f| ("", measured(f, got, &p.model.holder)))
            .collect(),
    );
    row.real = real.text();
    row.agree = Some(p.sim == real);
    // rows.py's attempts: a run whose holder was woken late is discarded and run again.
    row.attempt = got["attempt"].as_u64().map_or(1, |a| a as u32);
    let discarded = got["discarded"].as_array().into_iter().flatten();
    row.detail.extend(
        discarded
            .filter_map(|d| d.as_str())
            .map(|d| format!("{d} (discarded)")),
    );
    if p.sim != real || verbose {
        row.detail.extend(p.sim.diff(&real));
        row.detail
            .push(format!("the library's run (ms after its SIGCONT): {got}"));
    }
    eprintln!(
        "conformance: {} (library row) — {}",
        row_key(r),
        if p.sim == real { "agree" } else { "DISAGREE" }
    );
}

/// Where setup.sh makes the clients' venv (as tool_server.rs finds the API tools' target directory).
fn venv_python() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    );
    target.join("clients-venv/bin/python")
}

/// rows.py in its directory, killed (TERM, then KILL) if it is still running when dropped; then
/// whatever its pid files still name (a rows.py killed outright leaves its `finally` undone).
struct Runner(Child, PathBuf);

impl Drop for Runner {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            // rows.py leads a process group of its own (its servers and holders lead their own).
            crate::real::sys::signal_group(self.0.id() as i32, libc::SIGTERM);
            if !crate::servers::wait_exit(&mut self.0, Duration::from_secs(10)) {
                let _ = self.0.kill();
            }
        }
        let _ = self.0.wait();
        // The holders' and contenders' pid files, and each server's in its directory (servers.py).
        let dirs = std::fs::read_dir(&self.1).into_iter().flatten().flatten();
        for sub in dirs.filter(|d| d.path().is_dir()) {
            let files = std::fs::read_dir(sub.path()).into_iter().flatten();
            for f in files
                .flatten()
                .filter(|f| f.path().extension().is_some_and(|e| e == "pid"))
            {
                let pid = std::fs::read_to_string(f.path()).unwrap_or_default();
                if let Ok(pid) = pid.trim().parse::<i32>() {
                    // Each leads a group of its own (start_new_session); a frozen holder is continued
                    // so that it dies. A group that is gone already is no error.
                    crate::real::sys::signal_group(pid, libc::SIGCONT);
                    crate::real::sys::signal_group(pid, libc::SIGKILL);
                }
            }
        }
    }
}

/// rows.py's command line: under `setpriv --pdeathsig TERM` (it dies with the suite), in a process
/// group of its own, its stdout piped. Without bytecode files: Python would otherwise leave
/// conformance/clients/__pycache__/ in the source tree after every run (rows.py's imports, and every
/// holder and contender, which inherit the setting).
fn rows_py(python: &Path, dir: &Path, specs: &[Value]) -> Command {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("clients/rows.py");
    let mut c = Command::new("setpriv");
    c.args(["--pdeathsig", "TERM", "--"])
        .arg(python)
        .arg(script)
        .arg(dir)
        .arg(Value::from(specs.to_vec()).to_string())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .process_group(0);
    c
}

/// One rows.py under way: its lines as they come, how many rows it was given.
pub struct Pending {
    runner: Option<Runner>,
    lines: std::sync::mpsc::Receiver<String>,
    count: usize,
    dir: PathBuf,
}

impl Pending {
    fn none() -> Pending {
        Pending {
            runner: None,
            lines: channel().1,
            count: 0,
            dir: PathBuf::new(),
        }
    }

    /// Starts one rows.py for every spec, in `work/clients`.
    fn start(work: &Path, specs: &[Value]) -> Res<Pending> {
        let python = venv_python();
        if !python.is_file() {
            let shown = python.display();
            return Err(format!("{shown} is missing: run conformance/setup.sh"));
        }
        let dir = work.join("clients");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let log = std::fs::File::create(dir.join("rows.log")).map_err(|e| e.to_string())?;
        let mut child = rows_py(&python, &dir, specs)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("start rows.py (setpriv, {}): {e}", python.display()))?;
        // Where conformance/run.sh's backstop finds it (with its holders' and servers' pid files).
        std::fs::write(dir.join("rows.pid"), child.id().to_string()).map_err(|e| e.to_string())?;
        let stdout = child.stdout.take().ok_or("rows.py: no stdout")?;
        let runner = Runner(child, dir.clone());
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let runner = Some(runner);
        Ok(Pending {
            runner,
            lines,
            count: specs.len(),
            dir,
        })
    }

    /// Each row's `row ID {json}` line, waiting for them; then rows.py's end.
    fn collect(mut self) -> Res<Vec<(String, Value)>> {
        // A run takes seconds (docs/clients.md); a minute each, and one for the servers, is a hang.
        let end = Instant::now() + Duration::from_secs(60 * (self.count as u64 + 1));
        let mut got = Vec::new();
        while got.len() < self.count {
            match self
                .lines
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                Ok(l) => {
                    let Some((id, json)) = l.strip_prefix("row ").and_then(|r| r.split_once(' '))
                    else {
                        continue;
                    };
                    let v = serde_json::from_str(json)
                        .map_err(|e| format!("rows.py said {l:?}: {e}"))?;
                    got.push((id.to_string(), v));
                }
                Err(RecvTimeoutError::Timeout) => return Err("rows.py: no answer in time".into()),
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        let runner = self.runner.as_mut().ok_or("rows.py was not started")?;
        let status = runner.0.wait().map_err(|e| e.to_string())?;
        if got.len() < self.count {
            let tail = crate::servers::tail(&self.dir.join("rows.log"), 2000);
            let (n, of) = (got.len(), self.count);
            return Err(format!(
                "rows.py ended ({status}) after {n} of {of} rows:\n{tail}"
            ));
        }
        Ok(got)
    }
}

/// `[--workdir DIR] library-measure` (after conformance/run.sh's `--workdir DIR`, so that its backstop
/// is tried on it too): [`measure_main`]'s exit code, or `None` for any other command line.
pub fn measure_subcommand(argv: &[String]) -> Option<std::process::ExitCode> {
    let i = argv.iter().position(|a| a == "library-measure")?;
    let dir = argv[..i].windows(2).find(|w| w[0] == "--workdir");
    Some(measure_main(dir.map(|w| PathBuf::from(&w[1]))))
}

/// The real side alone, for every row (scenario or not): `leaselab-conformance library-measure`
/// prints what each library told the application, with the settings given, as rows.py's lines.
pub fn measure_main(dir: Option<PathBuf>) -> std::process::ExitCode {
    let work = match crate::servers::WorkDir::new(dir) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("library-measure: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let specs: Vec<Value> = ROWS
        .iter()
        .map(|r| {
            // A 1 s session, lease or TTL, frozen 2.5 times as long: past it, as every row's pause is.
            let mut s = serde_json::json!({ "id": row_key(r), "case": r.case, "pause_s": 2.5 });
            s[r.length.0] = serde_json::json!(1.0);
            s
        })
        .collect();
    match Pending::start(&work.path, &specs).and_then(Pending::collect) {
        Ok(v) => {
            for (id, json) in v {
                println!("{id}: {json}");
            }
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("library-measure: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_has_its_coverage_line_on_its_library_and_redisson_says_why_not() {
        for r in ROWS {
            let e = COVERAGE.iter().find(|e| e.scenario == r.scenario);
            let e = e.unwrap_or_else(|| panic!("{}: no coverage line", r.scenario));
            assert!(
                std::ptr::eq(e.on.expect("a component"), r.on),
                "{}",
                r.scenario
            );
        }
        let rows = |id: &str| ROWS.iter().filter(|r| r.scenario == id).count();
        for e in &COVERAGE {
            let not_run = e.faithful == crate::coverage::Faithful::NotRun;
            assert_eq!(rows(e.scenario) == 0, not_run, "{}", e.scenario);
        }
        assert!(COVERAGE[8].note.contains("Maven"));
    }

    /// rows.py and the holders and contenders it starts write no bytecode into the source tree.
    #[test]
    fn rows_py_leaves_no_pycache_in_the_tree() {
        let c = rows_py(Path::new("python"), Path::new("/tmp/x"), &[]);
        let env: Vec<_> = c.get_envs().collect();
        let set = env
            .iter()
            .any(|(k, v)| *k == "PYTHONDONTWRITEBYTECODE" && v.is_some_and(|v| v == "1"));
        assert!(set, "{env:?}");
    }

    /// A coverage line says the store's balance is compared exactly when a row of its scenario
    /// compares it (the facts `Final` and `Lost`).
    #[test]
    fn a_writing_rows_coverage_line_says_the_balance_is_compared() {
        let writes = |id: &str| {
            let facts = ROWS
                .iter()
                .filter(|r| r.scenario == id)
                .flat_map(|r| r.facts);
            facts.into_iter().any(|f| matches!(f, Fact::Final { .. }))
        };
        for e in COVERAGE.iter().filter(|e| e.on.is_some()) {
            let says = e.note.contains("final balance");
            assert_eq!(says, writes(e.scenario), "{}: {}", e.scenario, e.note);
        }
    }

    #[test]
    fn every_row_names_a_case_and_moments_the_harness_reports() {
        let cases_py = include_str!("../clients/cases.py");
        for r in ROWS {
            assert!(
                cases_py.contains(&format!("\"{}\"", r.case)),
                "{}: no case {:?} in conformance/clients/cases.py",
                r.scenario,
                r.case
            );
            assert!(["session_s", "lease_s", "ttl_s"].contains(&r.length.0));
            for f in r.facts {
                let name = match f {
                    Fact::At { real, .. }
                    | Fact::Said { real, .. }
                    | Fact::TokenGrows { real }
                    | Fact::Final { real } => real,
                    Fact::Lost => "writes",
                };
                // cases.py builds some names from parts (`f"{name}: outcome"`, `f"listener {state}"`).
                let stem = name.split([':', ' ']).next().unwrap_or(name);
                assert!(
                    cases_py.contains(stem),
                    "{}: {name:?} is not a moment of cases.py",
                    r.scenario
                );
            }
        }
    }

    /// A row whose scenario's service has several nodes (`redlock nodes=3`) runs on as many real
    /// masters: its case is on rows.py's "redlock" family, which starts REDLOCK_MASTERS of them; a
    /// single-server row is not.
    #[test]
    fn a_row_on_several_nodes_runs_on_as_many_masters() {
        let rows_py = include_str!("../clients/rows.py");
        for r in ROWS.iter().filter(|r| in_catalogue(r.scenario)) {
            let nodes = leaselab::catalogue::find(r.scenario).unwrap().service.nodes;
            let word = r.case.split(' ').next().unwrap_or(r.case);
            let on_masters = rows_py.contains(&format!("\"{word}\": \"redlock\""));
            assert_eq!(nodes > 1, on_masters, "{}: {nodes} nodes", row_key(r));
            if on_masters {
                let masters = format!("REDLOCK_MASTERS = {nodes}\n");
                assert!(rows_py.contains(&masters), "{}: not {masters}", row_key(r));
            }
        }
    }

    #[test]
    fn each_row_has_a_name_of_its_own_for_rows_py() {
        let mut keys: Vec<String> = ROWS.iter().map(row_key).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(
            keys.len(),
            ROWS.len(),
            "two rows share a scenario and a case"
        );
        // rows.py's `row ID {json}` line is split at the first space.
        assert!(keys.iter().all(|k| !k.contains(' ')), "{keys:?}");
    }

    #[test]
    fn a_row_without_its_scenario_is_left_out_not_failed() {
        let absent: Vec<&str> = ROWS
            .iter()
            .map(|r| r.scenario)
            .filter(|id| !in_catalogue(id))
            .collect();
        let rows = start(Path::new("/nonexistent"), |id| absent.contains(&id)).finish(false);
        assert!(rows.is_empty(), "rows for scenarios the catalogue lacks");
        for id in absent {
            assert_eq!(rows_of(id), 0);
            assert!(coverage().all(|e| e.scenario != id));
        }
    }

    /// A model run JSON with the timings issue 44's model takes from docs/clients.md (ms after a
    /// wake-up at 4000): kazoo's SUSPENDED at +1, LOST +100 and a round trip later, the new session
    /// as long again; Curator's SUSPENDED at +100, LOST and RECONNECTED 1.5 s and a round trip after.
    fn model(events: &str, tokens: (u32, u32)) -> Model {
        model_with(events, tokens, "")
    }

    /// As [`model`], with the run's outcome (`"final":…,"lost":…,`) for a row that writes.
    fn model_with(events: &str, tokens: (u32, u32), outcome: &str) -> Model {
        let text = format!(
            r#"{{{outcome}"params":{{"session_ms":1000}},"ttl_ms":1000,
            "pauses":[{{"client":"A","from_ms":1500,"to_ms":4000}}],
            "leases":[{{"client":"A","token":{},"granted_ms":0}},{{"client":"B","token":{},"granted_ms":2600}}],
            "events":[{events}]}}"#,
            tokens.0, tokens.1
        );
        Model::parse(&text, "A").unwrap()
    }

    fn ev(t: u32, kind: &str, note: &str) -> String {
        let note = if note.is_empty() {
            String::new()
        } else {
            format!(r#","note":"{note}""#)
        };
        format!(r#"{{"t_ms":{t},"actor":"A","kind":"{kind}","lane":"client"{note}}}"#)
    }

    /// A row by its key (rows.py's name), or by its scenario (its first row).
    fn row_of(id: &str) -> &'static LibraryRow {
        let found = ROWS.iter().find(|r| row_key(r) == id || r.scenario == id);
        found.unwrap_or_else(|| panic!("no row {id}"))
    }

    fn verdicts(id: &str, m: &Model, real: &str) -> (Verdict, Verdict) {
        let r = row_of(id);
        let real: Value = serde_json::from_str(real).unwrap();
        let sim = Verdict(
            r.facts
                .iter()
                .map(|f| ("", modelled(f, m).unwrap()))
                .collect(),
        );
        let got = Verdict(
            r.facts
                .iter()
                .map(|f| ("", measured(f, &real, "A")))
                .collect(),
        );
        (sim, got)
    }

    /// Each row against a real run of its library on this machine (`library-measure`, 2026-12-07:
    /// 1 s session, lease or TTL, 2.5 s pause): the model's timings agree within the tolerances, and
    /// a model that said otherwise would not.
    /// Real runs of each library on this machine (`library-measure`, 2026-12-07).
    const KAZOO_RUN: &str = r#"{"listener SUSPENDED":1.0,"listener LOST":90.0,"listener CONNECTED":173.0,"lock.is_acquired at +1 s":true,
        "initial balance":500,"final balance":440,"writes":[{"client":"B","snapshot":500,"value":450,"at":-1897.1},{"client":"A","snapshot":500,"value":440,"at":1002.5}]}"#;
    /// Its holder writing after a second of work (rows.py, 2026-12-07: session 2 s, pause 4 s).
    const CURATOR_RUN: &str = r#"{"listener SUSPENDED":103.3,"listener LOST":1460.5,"listener RECONNECTED":1468.7,
        "initial balance":500,"final balance":440,"writes":[{"client":"B","snapshot":500,"value":450,"at":-1887.8},{"client":"A","snapshot":500,"value":440,"at":1008.1}]}"#;
    const REDIS_PY_RUN: &str = r#"{"owned() before the pause":true,"owned: answered":0.8,"owned: outcome":"returned False","release: outcome":"raised LockNotOwnedError: Cannot release a lock that's no longer owned",
        "initial balance":500,"final balance":450,"writes":[{"client":"B","snapshot":500,"value":450,"at":-1434.8}]}"#;
    /// redis-py-owned-before-pause's holder writes whatever `owned()` says after the pause.
    const REDIS_PY_BEFORE_RUN: &str = r#"{"owned() before the pause":true,"owned: answered":0.6,"owned: outcome":"returned False","release: outcome":"raised LockNotOwnedError: Cannot release a lock that's no longer owned",
        "initial balance":500,"final balance":440,"writes":[{"client":"B","snapshot":500,"value":450,"at":-1495.0},{"client":"A","snapshot":500,"value":440,"at":0.7}]}"#;
    const PRL_RUN: &str = r#"{"renewal thread died":4.9,"release: outcome":"raised NotAcquired: Lock(lock:KEY) is not acquired or it already expired.",
        "initial balance":500,"final balance":440,"writes":[{"client":"B","snapshot":500,"value":450,"at":-1346.2},{"client":"A","snapshot":500,"value":440,"at":6.5}]}"#;
    /// On three masters.
    const POTTERY_RUN: &str = r#"{"release: outcome":"raised ReleaseUnlockedLock: (KEY, the masters)","release: answered":10.5,
        "initial balance":500,"final balance":440,"writes":[{"client":"B","snapshot":500,"value":450,"at":-1484.2},{"client":"A","snapshot":500,"value":440,"at":6.2}]}"#;
    const ETCD_RUN: &str = r#"{"waiter's ETCD_LOCK_REV > holder's":true}"#;
    /// npm redlock's, on three masters, its holder and contender writing (`conformance/run.sh … --only
    /// node-redlock --verbose`, 2026-12-07: 1 s TTL, 2.5 s pause).
    const NODE_REDLOCK_RUN: &str = r#"{"owned: answered":0.9,"owned: outcome":"returned false","release: answered":2.5,"release: outcome":"raised LockError: Unable to fully release the lock on resource \"KEY\".",
        "initial balance":500,"final balance":450,"writes":[{"client":"B","snapshot":500,"value":450,"at":-1497.7}]}"#;
    const NODE_REDLOCK_STEP_RUN: &str = r#"{"owned: answered":0.6,"owned: outcome":"returned true","release: answered":2.4,"release: outcome":"raised LockError: Unable to fully release the lock on resource \"KEY\".",
        "initial balance":500,"final balance":440,"writes":[{"client":"B","snapshot":500,"value":450,"at":-1499.2},{"client":"A","snapshot":500,"value":440,"at":1.3}]}"#;
    const ETCD_NO_CMD_RUN: &str =
        r#"{"etcdctl exited":2.3,"etcdctl exit":"rc=1 Error: session expired"}"#;

    /// The outcome a writing row's model has: A's stale write over B's, or B's alone.
    const STALE: &str = r#""final":440,"lost":"B","#;
    const SAVED: &str = r#""final":450,"lost":null,"#;

    /// A ZooKeeper library's model: its listener's moments, `owned` said yes at +1 s or not.
    fn zk_with(s: u32, l: u32, r: u32, owned: bool, outcome: &str) -> Model {
        let mut e = vec![
            ev(s, "suspended", ""),
            ev(l, "lost", ""),
            ev(r, "reconnected", ""),
        ];
        if owned {
            e.push(ev(5000, "notice", "owned-yes"));
        }
        model_with(&e.join(","), (1, 2), outcome)
    }

    /// For each row: a model that agrees, one that does not, and the real run.
    fn recorded() -> Vec<(&'static str, Model, Model, &'static str)> {
        let zk = |s: u32, l: u32, r: u32, owned: bool| zk_with(s, l, r, owned, "");
        vec![
            (
                "kazoo-is-acquired",
                zk_with(4001, 4102, 4203, true, STALE),
                zk_with(4001, 4102, 4203, false, STALE),
                KAZOO_RUN,
            ),
            (
                "kazoo-listener-race",
                zk(4001, 4102, 4203, false),
                zk(4100, 4102, 4203, false),
                KAZOO_RUN,
            ),
            (
                "curator-listener-window",
                zk_with(4100, 5601, 5601, false, STALE),
                zk_with(4001, 4102, 4203, false, STALE),
                CURATOR_RUN,
            ),
            (
                "redis-py-owned-after-pause",
                model_with(&ev(4001, "notice", "owned-no"), (1, 2), SAVED),
                model_with(&ev(4001, "notice", "owned-yes"), (1, 2), SAVED),
                REDIS_PY_RUN,
            ),
            (
                "redis-py-owned-before-pause",
                model_with(
                    &[
                        ev(100, "notice", "owned-yes"),
                        ev(4060, "notice", "release-raised"),
                    ]
                    .join(","),
                    (1, 2),
                    STALE,
                ),
                model_with(&ev(100, "notice", "owned-yes"), (1, 2), STALE),
                REDIS_PY_BEFORE_RUN,
            ),
            (
                "python-redis-lock-renewal-died",
                model_with(
                    &[
                        ev(4001, "notice", "renewal-died"),
                        ev(4100, "notice", "release-raised"),
                    ]
                    .join(","),
                    (1, 2),
                    STALE,
                ),
                model_with(&ev(4100, "notice", "release-raised"), (1, 2), STALE),
                PRL_RUN,
            ),
            (
                "pottery-release-raised",
                model_with(&ev(4001, "notice", "release-raised"), (1, 2), STALE),
                model_with("", (1, 2), STALE),
                POTTERY_RUN,
            ),
            (
                "etcdctl-lock-rev",
                model("", (3, 5)),
                model("", (5, 3)),
                ETCD_RUN,
            ),
            // The session's Done() 3 ms after waking; a model whose session ended only a TTL later
            // (1 s here) or never would not agree.
            (
                "etcdctl-lock-rev/etcdctl-lock-NAME",
                model(&ev(4003, "notice", "session-done"), (3, 5)),
                model(&ev(5000, "notice", "session-done"), (3, 5)),
                ETCD_NO_CMD_RUN,
            ),
        ]
        .into_iter()
        .chain(node_redlock_recorded())
        .collect()
    }

    /// node-redlock's rows: a model that agrees, one that does not, and the real run.
    fn node_redlock_recorded() -> Vec<(&'static str, Model, Model, &'static str)> {
        let step_back = [
            ev(4000, "notice", "owned-yes"),
            ev(4002, "notice", "release-raised"),
        ];
        vec![
            (
                "node-redlock-expiration-after-pause",
                model_with(&ev(4000, "notice", "owned-no"), (1, 2), SAVED),
                model_with(&ev(4000, "notice", "owned-yes"), (1, 2), SAVED),
                NODE_REDLOCK_RUN,
            ),
            (
                "node-redlock-clock-step-back",
                model_with(&step_back.join(","), (1, 2), STALE),
                model_with(&ev(4000, "notice", "owned-no"), (1, 2), STALE),
                NODE_REDLOCK_STEP_RUN,
            ),
        ]
    }

    #[test]
    fn each_rows_facts_agree_with_a_real_run_and_catch_a_wrong_model() {
        let cases = recorded();
        assert_eq!(cases.len(), ROWS.len(), "a case for every row");
        for r in ROWS {
            let played = cases.iter().any(|c| std::ptr::eq(row_of(c.0), r));
            assert!(played, "{}: no recorded case", row_key(r));
        }
        for (id, right, wrong, real) in &cases {
            let (sim, got) = verdicts(id, right, real);
            assert!(sim == got, "{id}: {} against {}", sim.text(), got.text());
            let (sim, got) = verdicts(id, wrong, real);
            assert!(sim != got, "{id}: a wrong model agreed: {}", sim.text());
        }
    }

    /// Each writing row against its recorded real run: its model's outcome agrees, and the other
    /// outcome (A's stale write over B's where B's stood, or the reverse) would not.
    #[test]
    fn each_writing_rows_outcome_is_the_real_stores() {
        let writes = |r: &LibraryRow| r.facts.iter().any(|f| matches!(f, Fact::Lost));
        let writing: Vec<&str> = ROWS
            .iter()
            .filter(|r| writes(r))
            .map(|r| r.scenario)
            .collect();
        assert_eq!(writing.len(), 8, "{writing:?}");
        for (id, mut right, _, real) in recorded() {
            let r = row_of(id);
            if !writes(r) {
                continue;
            }
            let (sim, got) = verdicts(id, &right, real);
            assert!(sim == got, "{id}: {} against {}", sim.text(), got.text());
            let stale = right.number("final") == Some(440.0);
            right.set_outcome(if stale { 450 } else { 440 }, (!stale).then_some("B"));
            let (sim, got) = verdicts(id, &right, real);
            assert!(sim != got, "{id}: a wrong outcome agreed: {}", sim.text());
        }
    }
}
