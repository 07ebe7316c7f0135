//! Golden transcripts: the CLI's output for the seed's two modes, line for line, with exit codes; and
//! the JSON of the seed's run, which the page and docs rely on. `UPDATE_GOLDEN=1` rewrites the JSON file
//! (never the transcripts: those are the seed's own lines).
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::Command;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

fn leaselab(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().expect("exited, not killed by a signal"),
    )
}

fn assert_lines(got: &str, file: &str) {
    let want = std::fs::read_to_string(golden(file)).unwrap();
    let (g, w): (Vec<_>, Vec<_>) = (got.lines().collect(), want.lines().collect());
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        assert_eq!(a, b, "{file}: line {} differs", i + 1);
    }
    assert_eq!(
        g.len(),
        w.len(),
        "{file}: line count differs\n--- got\n{got}"
    );
}

#[test]
fn seed_unfenced_transcript_and_exit_1() {
    let (out, err, code) = leaselab(&["run"]);
    assert_lines(&out, "seed-unfenced.txt");
    assert_eq!((code, err.as_str()), (1, ""));
    // The explicit mode and the long form say the same.
    assert_eq!(leaselab(&["run", "unfenced"]).0, out);
    assert_eq!(
        leaselab(&["run", "--fencing", "none", "--scenario", "seed-gc-pause"]).0,
        out
    );
}

#[test]
fn seed_fenced_transcript_and_exit_0() {
    let (out, err, code) = leaselab(&["run", "fenced"]);
    assert_lines(&out, "seed-fenced.txt");
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(leaselab(&["run", "--fencing=token"]).0, out);
}

#[test]
fn seed_lines_come_first_in_order() {
    // The contract's four seed lines, independent of the verdict line's wording.
    let (out, _, _) = leaselab(&["run"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..4],
        &[
            "A: tok=1, read=500, pause 0.6s...",
            "B: tok=2 → ACCEPTED",
            "A: woke, write 440 tok=1 → ACCEPTED",
            "final = 440  (expected: 450)"
        ]
    );
    assert!(lines[4].contains("LOST UPDATE"));
}

#[test]
fn seed_json_is_stable() {
    let (out, _, code) = leaselab(&["run", "--json"]);
    assert_eq!(code, 1);
    let path = golden("seed-unfenced.json");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &out).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        out, want,
        "JSON changed; if on purpose, rerun with UPDATE_GOLDEN=1 and update the docs"
    );
    for key in [
        "\"scenario\":",
        "\"fencing\":",
        "\"ttl_ms\":300",
        "\"pause_ms\":600",
        "\"final\":440",
        "\"expected\":450",
        "\"lost_update\":true",
        "\"stale_write_accepted\":true",
        "\"writes\":[",
        "\"events\":[",
    ] {
        assert!(out.contains(key), "missing {key}");
    }
}

#[test]
fn short_pause_passes_with_no_lost_update() {
    let (out, _, code) = leaselab(&["run", "--pause", "200ms"]);
    assert_eq!(code, 0);
    assert!(out.contains("final = 390  (expected: 390)"), "{out}");
    assert!(
        out.contains("PASS [unfenced] — [('A', 440), ('B', 390)]"),
        "{out}"
    );
}

#[test]
fn durations_in_seconds_and_bare_milliseconds_agree() {
    let a = leaselab(&["run", "--ttl", "0.3s", "--pause", "0.6s"]);
    let b = leaselab(&["run", "--ttl", "300", "--pause", "600ms"]);
    assert_eq!(a, b);
}

#[test]
fn scenarios_lists_every_id_with_a_summary() {
    let (out, _, code) = leaselab(&["scenarios"]);
    assert_eq!(code, 0);
    for sc in leaselab::catalogue::catalogue() {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&*sc.id));
        let line = line.unwrap_or_else(|| panic!("{} not listed", sc.id));
        assert!(line.len() > sc.id.len() + 10, "{line}");
    }
}
