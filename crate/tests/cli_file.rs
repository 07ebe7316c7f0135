//! A user's scenario file on the command line: `run --file`, `sweep --file` and `check`, their output
//! and exit statuses, errors located as PATH:LINE:COL, every limit named, and a scenario that would run
//! forever stopped quickly.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

/// A file under the test's own temporary directory holding `text`; returns its path.
fn file(name: &str, text: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("leaselab-cli-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn leaselab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The header every test file shares.
const HEAD: &str =
    "id: my-job\ntitle: Our job runner\nsummary: A 10 s lease; the queue may hold a write 2 s\n";

#[path = "common/doc_scenarios.rs"]
mod doc_scenarios;

/// The job runner of issue 20, docs/scenario-format.md's first file: a 10 s lease, a write a queue
/// holds for 2 s, and three expect lines.
fn job() -> String {
    let (_, text) = doc_scenarios::examples(&doc_scenarios::page()).swap_remove(0);
    assert!(
        text.contains("\nid: my-job\n"),
        "the page's first file is the job runner:\n{text}"
    );
    text
}

/// The 1-based line of `text` that starts with `start`.
fn line_of(text: &str, start: &str) -> usize {
    1 + text.lines().position(|l| l.starts_with(start)).unwrap()
}

#[test]
fn run_file_runs_the_scenario_and_takes_its_parameters() {
    let path = file("job.txt", job().as_bytes());
    let out = leaselab(&["run", "--file", &path]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("final = 440"), "{stdout}");
    assert!(stdout.contains("LOST UPDATE"), "{stdout}");
    let out = leaselab(&["run", "--file", &path, "--set", "hold=500ms", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("\"final\":390"));
    let out = leaselab(&["run", "fenced", "--file", &path]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn check_summarises_a_good_file() {
    let path = file("good.txt", job().as_bytes());
    let out = leaselab(&["check", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("{path}: scenario \"my-job\": service lease, 2 clients (A, B), 2 parameters (ttl, hold), 0 faults; 3 of 3 expectations hold\n")
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn check_reports_each_failing_expectation_by_line_and_exits_1() {
    let job = job();
    let wrong = job.replace("expect token: final=450", "expect token: final=449");
    let path = file("wrong.txt", wrong.as_bytes());
    let out = leaselab(&["check", &path]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "{path}:{}:1: expect token: does not hold: final=450 (expected final=449)\n",
            line_of(&job, "expect token:")
        )
    );
    assert!(text(&out.stdout).contains("2 of 3 expectations hold"));
}

#[test]
fn check_locates_every_error_and_exits_2() {
    let bad = format!(
        "{HEAD}service: lease ttl=$nope\nclient A: acquire; read; fly; write 1\nexpect nonee: final=1\n"
    );
    let path = file("bad.txt", bad.as_bytes());
    let out = leaselab(&["check", &path]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        format!(
            "{path}:4:20: unknown parameter $nope (declare it with `param` first)\n\
             {path}:5:26: unknown operation \"fly\"\n\
             {path}:6:8: unknown fencing policy \"nonee\"; expected one of: none, token, first-touch, version, etag, owner, equal-token\n"
        )
    );
    // run --file prints the same, and runs nothing.
    let run = leaselab(&["run", "--file", &path]);
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(run.stderr, out.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn the_file_as_a_whole_is_located_at_its_start() {
    let path = file("empty.txt", b"# nothing here\n");
    let out = leaselab(&["check", &path]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr), format!("{path}:1:1: empty scenario\n"));
    let path = file("noclients.txt", HEAD.as_bytes());
    let out = leaselab(&["check", &path]);
    assert_eq!(text(&out.stderr), format!("{path}:1:1: no clients\n"));
}

#[test]
fn unreadable_files_are_one_clear_line() {
    let out = leaselab(&["check", "/nonexistent/x.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("leaselab: --file: cannot read \"/nonexistent/x.txt\""),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    let latin1 = file("latin1.txt", b"id: x\ntitle: caf\xe9\n");
    let out = leaselab(&["check", &latin1]);
    assert_eq!(
        text(&out.stderr),
        format!("{latin1}:2:11: not UTF-8 text\n")
    );
    let out = leaselab(&["check"]);
    assert_eq!(out.status.code(), Some(2));
    let out = leaselab(&["run", "--file", &latin1, "--scenario", "gc-pause"]);
    let err = text(&out.stderr);
    assert!(
        err.contains("'--file <PATH>' cannot be used with '--scenario <ID>'"),
        "{err}"
    );
}

#[test]
fn standard_input_is_a_file_too() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("<stdin>: scenario \"my-job\""));
}

#[test]
fn every_limit_is_named() {
    let clients: String = "ABCDEFGHI"
        .chars()
        .map(|c| format!("client {c}: acquire; read; write 1\n"))
        .collect();
    let ops = format!("client A: acquire{}\n", "; work 1ms".repeat(64));
    let params: String = (0..17)
        .map(|i| format!("param p{i} = 1ms in 0..1s: P\n"))
        .collect();
    let faults = format!(
        "client A: acquire; read; write 1\n{}",
        "at 1ms: pause A 1ms\n".repeat(33)
    );
    let expects = format!(
        "client A: acquire; read; write 1\n{}",
        "expect none: final=499\n".repeat(33)
    );
    let steps: Vec<String> = (1..=17).map(|i| format!("step=+1ms@{i}ms")).collect();
    let steps = format!("client A {}: acquire\n", steps.join(" "));
    for (body, limit) in [
        (clients, "at most 8"),
        (ops, "at most 64 operations"),
        (params, "at most 16"),
        (faults, "at most 32"),
        (expects, "at most 32"),
        (steps, "at most 16"),
    ] {
        let path = file("limit.txt", format!("{HEAD}{body}").as_bytes());
        let out = leaselab(&["check", &path]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(limit) && err.starts_with(&path),
            "{limit}: {err}"
        );
    }
    let huge = file("huge.txt", &vec![b'#'; 65 * 1024]);
    let out = leaselab(&["check", &huge]);
    assert!(text(&out.stderr).contains("longer than 65536 bytes"));
}

#[test]
fn a_scenario_that_would_run_forever_stops_at_the_event_limit() {
    // Seven clients retry every microsecond against an hour's lease on one Redlock node, each round
    // leaving a timeout pending: the worst case for the event queue. It stops by its count of events,
    // which the message names; how long that takes is the machine's (make bench), not a verdict.
    let mut body =
        String::from("service: redlock ttl=3600s nodes=1\nclient A: acquire; read; write 1\n");
    for c in "BCDEFGH".chars() {
        body.push_str(&format!("client {c}: acquire every 1us; read; write 1\n"));
    }
    body.push_str("expect none: final=499\n");
    let path = file("forever.txt", format!("{HEAD}{body}").as_bytes());
    for args in [
        vec!["run", "--file", &path, "--retries", "10"],
        vec!["check", &path],
    ] {
        let out = leaselab(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("more than 1000000 events"), "{err}");
    }
    let long = "client A: acquire; work 3600s; work 3600s; work 3600s; read; write 1\n";
    let path = file("long.txt", format!("{HEAD}{long}").as_bytes());
    let out = leaselab(&["run", "--file", &path]);
    assert!(text(&out.stderr).contains("simulated time passed 7200 s"));
}

#[test]
fn sweep_takes_a_file() {
    let path = file("sweep.txt", job().as_bytes());
    let out = leaselab(&[
        "sweep",
        "--file",
        &path,
        "--x",
        "ttl=5s..15s:3",
        "--y",
        "hold=0..4s:3",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    assert!(
        csv.starts_with("ttl_ms,hold_ms,final,lost_update,code\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 10);
}
