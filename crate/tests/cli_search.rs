//! `leaselab search`: exit 1 with the smallest counterexample when an update can be lost, 0 when none
//! can, 2 with one clear line on bad input; the counterexample is what `leaselab run` prints there.
#![cfg(not(target_arch = "wasm32"))]

use std::process::{Command, Output};

fn leaselab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn bad(args: &[&str], must_mention: &[&str]) {
    let out = leaselab(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: printed to stdout");
    assert_eq!(err.lines().count(), 1, "{args:?}: want one line:\n{err}");
    assert!(
        err.starts_with("leaselab: ") && !err.contains("panicked"),
        "{err}"
    );
    for m in must_mention {
        assert!(err.contains(m), "{args:?}: {err:?} should mention {m:?}");
    }
}

#[test]
fn a_lost_update_exits_1_with_the_smallest_point_and_its_transcript() {
    let out = leaselab(&[
        "search",
        "--vary",
        "ttl=100ms..400ms:100ms",
        "--vary",
        "pause=0..1s:100ms",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let (summary, transcript) = text.split_once('\n').unwrap();
    let head = "lost update: the smallest of 44 combinations is ttl=100ms pause=200ms (cost 2; ";
    assert!(summary.starts_with(head), "{summary}");
    assert!(summary.ends_with(" engine runs)"), "{summary}");
    // The transcript is `leaselab run` at that point, word for word.
    let run = leaselab(&["run", "--ttl", "100ms", "--pause", "200ms"]);
    assert_eq!(transcript, stdout(&run));
}

#[test]
fn no_lost_update_exits_0() {
    let search = [
        "search",
        "--fencing",
        "first-touch",
        "--vary",
        "ttl=10ms..2s:10ms",
        "--vary=pause=0..3s:10ms",
    ];
    let out = leaselab(&search);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.starts_with("no lost update at any of the grid's 60200 combinations ("),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1);
    // The distinct behaviours among the runs: the same number in the text and in --json.
    let json = stdout(&leaselab(&[&search[..], &["--json"]].concat()));
    let number = |text: &str, after: &str, until: char| -> u64 {
        let from = text.find(after).unwrap_or_else(|| panic!("{text}")) + after.len();
        let len = text[from..].find(until).unwrap();
        text[from..from + len].parse().unwrap()
    };
    let behaviours = number(&json, "\"behaviours\":", ',');
    let runs = number(&json, "\"runs\":", ',');
    assert!(behaviours > 1 && behaviours <= runs, "{json}");
    assert_eq!(number(&text, "(at least ", ' '), behaviours, "{text}");
}

#[test]
fn json_has_the_issues_shape_and_the_run_of_the_point() {
    let out = leaselab(&[
        "search",
        "--scenario",
        "write-only-gap",
        "--fencing",
        "token",
        "--vary",
        "pause=250ms..350ms:1ms",
        "--vary",
        "ttl=100ms..700ms:10ms",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout(&out);
    let head = "{\"safe\":false,\"combinations\":6161,\"runs\":";
    assert!(json.starts_with(head), "{json}");
    // Unsafe: the search left boxes unvisited, so no count of behaviours.
    assert!(json.contains(",\"behaviours\":null,"), "{json}");
    let at = json
        .find(",\"counterexample\":{\"params\":{\"pause\":")
        .unwrap();
    let rest = &json[at..];
    let run_at = rest.find("\"run\":").unwrap() + "\"run\":".len();
    let run = &rest[run_at..rest.len() - 3]; // the run object, without `}}` and the newline
                                             // The values of the point, then `leaselab run --json` there must be the same object.
    let params = &rest[..run_at];
    let value = |name: &str| {
        let from = params.find(&format!("\"{name}\":")).unwrap() + name.len() + 3;
        let len = params[from..].find([',', '}']).unwrap();
        format!("{}ms", &params[from..from + len])
    };
    let (pause, ttl) = (value("pause"), value("ttl"));
    let direct = leaselab(&[
        "run",
        "--scenario",
        "write-only-gap",
        "--fencing",
        "token",
        "--pause",
        &pause,
        "--ttl",
        &ttl,
        "--json",
    ]);
    assert_eq!(direct.status.code(), Some(1));
    assert_eq!(format!("{run}\n"), stdout(&direct));

    let safe = leaselab(&["search", "--vary", "pause=0..200ms:10ms", "--json"]);
    assert_eq!(safe.status.code(), Some(0));
    let json = stdout(&safe);
    assert!(
        json.starts_with("{\"safe\":true,\"combinations\":21,\"runs\":"),
        "{json}"
    );
    assert!(json.ends_with(",\"counterexample\":null}\n"), "{json}");
}

#[test]
fn bad_grids() {
    bad(&["search"], &["--vary"]);
    bad(
        &["search", "--vary", "nope=0..1s:10ms"],
        &["--vary", "nope", "ttl, pause"],
    );
    bad(
        &["search", "--vary", "pause=1s..0:10ms"],
        &["--vary", "pause", "empty"],
    );
    bad(
        &["search", "--vary", "pause=0..1s:0"],
        &["--vary", "pause", "step", "0"],
    );
    bad(
        &["search", "--vary", "pause=0..1s"],
        &["--vary", "NAME=FROM..TO:STEP"],
    );
    bad(
        &["search", "--vary", "pause=0..1x:1ms"],
        &["--vary", "\"1x\""],
    );
    bad(
        &["search", "--vary", "ttl=0..1s:10ms"],
        &["--vary", "ttl", "out of range"],
    );
    bad(
        &[
            "search",
            "--vary",
            "pause=0..1s:1ms",
            "--vary",
            "pause=0..2s:1ms",
        ],
        &["pause", "twice"],
    );
    bad(
        &["search", "--vary", "pause=0..1s:1ms", "--set", "pause=5ms"],
        &["--set", "pause", "varied"],
    );
    bad(
        &[
            "search",
            "--vary=pause=0..3000s:1us",
            "--vary=ttl=10ms..60s:1ms",
        ],
        &["combinations", "over the limit of 100000000"],
    );
    bad(
        &["search", "--vary", "pause=0..1s:1ms", "--frobnicate"],
        &["--frobnicate"],
    );
    bad(
        &["search", "--scenario", "nope", "--vary", "pause=0..1s:1ms"],
        &["--scenario", "nope"],
    );
    bad(
        &["search", "--fencing", "tokn", "--vary", "pause=0..1s:1ms"],
        &["--fencing", "tokn"],
    );
}

#[test]
fn injected_faults_are_dimensions_and_run_reproduces_the_point() {
    // The seed with A's own pause 0 is safe; an injected freeze of A that outlasts the lease is not.
    let args = [
        "search",
        "--set",
        "pause=0",
        "--inject",
        "freeze:A,at=0..400ms:100ms,for=0..900ms:100ms",
        "--vary",
        "ttl=100ms..300ms:100ms",
        "--json",
    ];
    let out = leaselab(&args);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout(&out);
    let head = "{\"safe\":false,\"combinations\":150,\"runs\":";
    assert!(json.starts_with(head), "{json}");
    // The injected parameters come first (their flag came first), then ttl.
    let params = "\"counterexample\":{\"params\":{\"freeze_A_at\":0,\"freeze_A_for\":100,\"ttl\":100},\"cost\":1,";
    assert!(json.contains(params), "{json}");
    let run = &json[json.find("\"run\":").unwrap() + 6..json.len() - 3];
    let direct = leaselab(&[
        "run",
        "--pause",
        "0",
        "--ttl",
        "100ms",
        "--inject",
        "freeze:A,at=0,for=100ms",
        "--json",
    ]);
    assert_eq!(direct.status.code(), Some(1));
    assert_eq!(format!("{run}\n"), stdout(&direct));

    // The same without the freeze: safe.
    let safe = leaselab(&[
        "search",
        "--set",
        "pause=0",
        "--vary",
        "ttl=100ms..300ms:100ms",
    ]);
    assert_eq!(safe.status.code(), Some(0));

    // A clock step and a link delay, in text: the summary names the injected parameters.
    let out = leaselab(&[
        "search",
        "--set",
        "pause=200ms",
        "--inject",
        "step:server,at=0..300ms:50ms,ahead=0..400ms:100ms",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.starts_with("lost update: the smallest of 35 combinations is step_server_at=50ms step_server_ahead=200ms"),
        "{text}"
    );
    let out = leaselab(&[
        "search",
        "--set",
        "pause=200ms",
        "--inject",
        "delay:A-store,by=0..1s:50ms",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains(" delay_A_store="), "{}", stdout(&out));
}

#[test]
fn a_cut_holds_a_grant_past_the_lease() {
    // gc-pause without its pause is safe. Cut off from the lease server from 0 for 300 ms (the TTL),
    // A's request reaches the server as the cut begins and is granted a 300 ms lease, but the grant
    // waits for the heal: A learns of it at 300 ms, as the lease runs out on the server. B's next poll
    // (310 ms) wins, both read 500, and B's write overwrites A's. The search finds this the smallest
    // cut that loses an update, and `run` reproduces it.
    let out = leaselab(&[
        "search",
        "--scenario",
        "gc-pause",
        "--set",
        "pause=0",
        "--inject",
        "cut:A,at=0..100ms:10ms,for=0..600ms:10ms",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let head =
        "lost update: the smallest of 671 combinations is cut_A_at=0ms cut_A_for=300ms (cost 30;";
    assert!(text.starts_with(head), "{text}");
    let run = |cut: &str| {
        let mut args = vec!["run", "--scenario", "gc-pause", "--set", "pause=0"];
        if !cut.is_empty() {
            args.extend(["--inject", cut]);
        }
        leaselab(&args)
    };
    let lost = run("cut:A,at=0,for=300ms");
    assert_eq!(lost.status.code(), Some(1));
    let lines = stdout(&lost);
    assert_eq!(
        text[text.find('\n').unwrap() + 1..],
        lines,
        "run reproduces the search's point"
    );
    for line in [
        "network: A cut off from the lock service",
        "network: A reconnected to the lock service",
        "LOST UPDATE [unfenced] — A's write (440) was acknowledged, then overwritten",
    ] {
        assert!(lines.contains(line), "{lines}");
    }
    let trace = stdout(&leaselab(&[
        "run",
        "--scenario",
        "gc-pause",
        "--set",
        "pause=0",
        "--inject",
        "cut:A,at=0,for=300ms",
        "--trace",
    ]));
    assert!(
        trace.contains("         0 ms  lock     A partition"),
        "{trace}"
    );
    assert!(
        trace.contains("       300 ms  lock     A partition"),
        "{trace}"
    );

    // A short cut (the grant held 50 ms) changes nothing but the cut's own lines.
    let short = run("cut:A,at=0,for=50ms");
    let uncut = run("");
    assert_eq!(short.status.code(), Some(0));
    let without_cut_lines = |out: &Output| -> String {
        stdout(out)
            .lines()
            .filter(|l| !l.starts_with("network: "))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    assert_eq!(without_cut_lines(&short), stdout(&uncut));
    assert_ne!(stdout(&short), stdout(&uncut));
}

#[test]
fn a_cut_longer_than_the_keepalive_timeout_ends_a_session() {
    // PostgreSQL's server hears no keepalives from a client cut off from it: past `idle` (100 ms
    // here) it ends the session and frees the lock, as for a frozen client; a shorter cut does not.
    let run = |length: &str| {
        let cut = format!("cut:A,at=15ms,for={length}");
        let args = [
            "run",
            "--scenario",
            "postgres-session",
            "--set",
            "pause=0",
            "--set",
            "keepalive=100ms",
            "--inject",
            &cut,
        ];
        stdout(&leaselab(&args))
    };
    let ended = "server: A sent no keepalives; its session ends, the lock is free";
    let long = run("200ms");
    assert!(long.contains(ended), "{long}");
    assert!(!long.contains("A: pg_advisory_unlock"), "{long}");
    let short = run("50ms");
    assert!(!short.contains(ended), "{short}");
    assert!(
        short.contains("A: pg_advisory_unlock(424242) → t"),
        "{short}"
    );
}

#[test]
fn bad_injections() {
    let search = |inject: &str, must: &[&str]| {
        bad(&["search", "--inject", inject], must);
    };
    search(
        "nope:A,at=1s",
        &[
            "--inject",
            "unknown kind \"nope\"",
            "freeze, cut, delay, step, crash or failover",
        ],
    );
    search("freeze", &["--inject", "KIND:TARGET,KEY=RANGE"]);
    search("freeze:Z,at=1s,for=1s", &["unknown client \"Z\"", "A, B"]);
    search("freeze:A,at=1s", &["expected the keys at, for"]);
    search("freeze:A,at=1s,at=2s,for=1s", &["at is given twice"]);
    search("freeze:A,at=2s..1s:1ms,for=1s", &["freeze_A_at", "empty"]);
    search("freeze:A,at=0..1s:0,for=1s", &["freeze_A_at", "step"]);
    search("freeze:A,at=0..1x:1ms,for=1s", &["at:", "\"1x\""]);
    search("freeze:A,at=0..1s,for=1s", &["FROM..TO:STEP"]);
    search(
        "delay:A-n1,by=1s",
        &["names a lock node", "redlock", "lease"],
    );
    search(
        "delay:A-moon,by=1s",
        &["unknown link \"A-moon\"", "CLIENT-store"],
    );
    search("delay:A-store,by=-1s", &["negative"]);
    search("step:A,at=1s,back=1s,ahead=1s", &["back=R or ahead=R"]);
    search("step:server,at=0..2h:1s,back=1s", &["2h"]);
    bad(
        &[
            "search",
            "--inject",
            "freeze:A,at=1s,for=1s",
            "--inject",
            "freeze:A,at=2s,for=1s",
        ],
        &["freeze_A_at", "twice"],
    );
    bad(
        &["search", "--inject", "freeze:A,at=0..1s:1ms,for=0..1s:1us"],
        &["combinations", "over the limit"],
    );
    bad(
        &[
            "search",
            "--inject",
            "freeze:A,at=0..1s:1ms,for=1s",
            "--set",
            "freeze_A_at=5ms",
        ],
        &["--set", "freeze_A_at", "varied"],
    );
    bad(
        &[
            "search",
            "--scenario",
            "redlock-clock-jump",
            "--inject",
            "step:n3,at=1s,back=1s",
        ],
        &["n3", "already steps"],
    );
    bad(
        &["run", "--inject", "freeze:A,at=0..1s:1ms,for=1s"],
        &["--inject", "freeze_A_at has 1001 values", "one"],
    );
    bad(
        &["run", "--inject", "freeze:Q,at=0,for=1s"],
        &["--inject", "\"Q\""],
    );
}

#[test]
fn bad_cuts() {
    let search = |inject: &str, must: &[&str]| {
        bad(&["search", "--inject", inject], must);
    };
    search("cut:Z,at=1s,for=1s", &["unknown client \"Z\"", "A, B"]);
    search("cut:A,for=1s", &["expected the keys at, for"]);
    search("cut:A,at=1s,for=1s,for=2s", &["for is given twice"]);
    search("cut:A,at=1s,for=1s,by=1s", &["expected the keys at, for"]);
    search("cut:A,at=0..1s:0,for=1s", &["cut_A_at", "step"]);
    bad(
        &[
            "search",
            "--inject",
            "cut:B,at=1s,for=1s",
            "--inject",
            "cut:B,at=2s,for=1s",
        ],
        &["cut_B_at", "twice"],
    );
    // A client whose script never asks for the lock has no link to cut.
    let file = std::env::temp_dir().join(format!("leaselab-cut-{}.txt", std::process::id()));
    std::fs::write(
        &file,
        "id: t\ntitle: t\nsummary: s\nservice: lease\nclient A: acquire; read; write 1\nclient B: read; write 1\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    bad(
        &[
            "search",
            "--file",
            path,
            "--inject",
            "cut:B,at=0..1s:10ms,for=1s",
        ],
        &["B never talks to the lock service", "no acquire"],
    );
    bad(
        &["run", "--file", path, "--inject", "cut:B,at=0,for=1s"],
        &["B never talks to the lock service"],
    );
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn bad_crashes() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "table-redlock",
            "crash:n9,at=1s",
            &["unknown node \"n9\"", "n1 to n5"],
        ),
        ("table-redlock", "crash:A,at=1s", &["unknown node \"A\""]),
        (
            "table-redlock",
            "crash:server,at=1s",
            &["redlock has nodes", "crash one of them"],
        ),
        (
            "table-etcd",
            "crash:server,at=1s",
            &["etcd has no crash in the model", "redlock"],
        ),
        (
            "table-redis",
            "crash:server,at=1s",
            &["redis has no crash", "failover:server"],
        ),
        (
            "table-redis",
            "crash:n1,at=1s",
            &["names a lock node", "redlock", "redis"],
        ),
        (
            "table-redlock",
            "crash:n1,restart=1s",
            &["expected the key at, and perhaps restart"],
        ),
        (
            "table-redlock",
            "crash:n1,at=1s,for=1s",
            &["expected the key at, and perhaps restart"],
        ),
        (
            "table-redlock",
            "crash:n1,at=1s,at=2s",
            &["at is given twice"],
        ),
        (
            "table-redlock",
            "crash:n1,at=0..1s:0",
            &["crash_n1_at", "step"],
        ),
    ];
    bad_on(cases, "crash:n2,at=1s");
    bad(
        &[
            "run",
            "--scenario",
            "table-redlock",
            "--inject",
            "crash:n1,at=0..1s:1ms",
        ],
        &["--inject", "crash_n1_at has 1001 values", "one"],
    );
}

#[test]
fn bad_failovers() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "table-redis",
            "failover:n1,at=1s",
            &["unknown target \"n1\"", "failover:server"],
        ),
        (
            "table-redis",
            "failover:server,lag=1s",
            &["expected the key at, and perhaps lag"],
        ),
        (
            "table-redis",
            "failover:server,at=1s,lag=1s,lag=2s",
            &["lag is given twice"],
        ),
        (
            "replica-failover",
            "failover:server,at=1s,lag=1s",
            &["replica-lag already", "vary it instead"],
        ),
        (
            "table-etcd",
            "failover:server,at=1s",
            &["etcd has no failover in the model", "redis"],
        ),
    ];
    bad_on(cases, "failover:server,at=1s");
}

/// Each `(scenario, injection, words)` is refused with those words; `twice`, injected twice on
/// the first case's scenario, is refused as such.
fn bad_on(cases: &[(&str, &str, &[&str])], twice: &str) {
    for (scenario, inject, must) in cases {
        bad(
            &["search", "--scenario", scenario, "--inject", inject],
            must,
        );
    }
    let scenario = cases[0].0;
    let args = [
        "search",
        "--scenario",
        scenario,
        "--inject",
        twice,
        "--inject",
        twice,
    ];
    bad(&args, &["_at", "injected twice"]);
}

/// An injected failover is the scenario's own `at D: failover` at the same moment, with the
/// replica's lag as `replica-lag`; an injected crash is the scenario's own `crash n3 restart D`: the
/// same run to the end, in a copy of the scenario without its own fault.
#[test]
fn an_injected_failover_or_crash_runs_as_the_scenarios_own() {
    // replica-failover: `replica-lag=$lag` (10 ms), `at 5ms: failover`.
    same_run_injected(
        "replica-failover",
        " replica-lag=$lag",
        "failover:server,at=5ms,lag=10ms",
    );
    // redlock-crash-restart: `at 50ms: crash n3 restart $restart` (10 ms).
    same_run_injected("redlock-crash-restart", "", "crash:n3,at=50ms,restart=10ms");
}

/// `leaselab run --scenario id` and the run of its file without its `at` lines (and without `strip`)
/// with `inject`: the same ending and exit status.
fn same_run_injected(id: &str, strip: &str, inject: &str) {
    let tail = |args: &[&str]| {
        let out = leaselab(args);
        let text = stdout(&out);
        let from = text
            .find("final =")
            .unwrap_or_else(|| panic!("{args:?}: {text}"));
        (out.status.code(), text[from..].to_string())
    };
    let own = tail(&["run", "--scenario", id]);
    let text =
        std::fs::read_to_string(format!("{}/scenarios/{id}.txt", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    assert!(text.contains("\nat ") && text.contains(strip), "{id}");
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("at ") && !l.starts_with("expect"))
        .map(|l| l.replace(strip, "") + "\n")
        .collect();
    let file = std::env::temp_dir().join(format!("leaselab-{id}-{}.txt", std::process::id()));
    std::fs::write(&file, without).unwrap();
    let injected = tail(&["run", "--file", file.to_str().unwrap(), "--inject", inject]);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(injected, own, "{id} {inject}");
    assert_eq!(own.0, Some(1), "{id}: {}", own.1);
}

/// A freeze from outside the script is a pause to the lock service too: a PostgreSQL session whose
/// keepalive timeout is shorter than it ends, and A's late write through it fails, as with the
/// script's own pause at the same moment (the server never saw the difference).
#[test]
fn an_injected_freeze_ends_a_session_as_the_scripts_pause_does() {
    let base = [
        "run",
        "--scenario",
        "postgres-session",
        "--set",
        "keepalive=300ms",
    ];
    let scripted = leaselab(&base);
    let mut injected_args = base.to_vec();
    injected_args.extend(["--pause", "0", "--inject", "freeze:A,at=20ms,for=600ms"]);
    let injected = leaselab(&injected_args);
    let tail = |out: &Output| {
        let text = stdout(out);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len() - 3..].join("\n")
    };
    assert!(
        tail(&scripted).contains("FAILED (the session is gone)"),
        "{}",
        tail(&scripted)
    );
    assert_eq!(tail(&injected), tail(&scripted));
    assert_eq!(injected.status.code(), scripted.status.code());
}
