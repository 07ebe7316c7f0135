//! Bad input: exit status 2, one clear line on stderr naming the argument, nothing on stdout, no panic.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

fn bad(args: &[&str], must_mention: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: printed to stdout");
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?}: want one line, got:\n{err}"
    );
    assert!(err.starts_with("leaselab: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for m in must_mention {
        assert!(err.contains(m), "{args:?}: {err:?} should mention {m:?}");
    }
}

#[test]
fn malformed_durations() {
    bad(&["run", "--ttl", "abc"], &["--ttl", "\"abc\"", "ms or s"]);
    bad(&["run", "--pause", "5 minutes"], &["--pause"]);
    bad(&["run", "--ttl", "1e3"], &["--ttl"]);
    bad(&["run", "--ttl", ""], &["--ttl", "empty"]);
    bad(&["run", "--ttl", "0.0001ms"], &["--ttl", "microsecond"]);
}

#[test]
fn negative_and_overflowing_durations() {
    bad(&["run", "--pause", "-5ms"], &["--pause", "negative"]);
    bad(&["run", "--ttl=-1s"], &["--ttl", "negative"]);
    bad(
        &["run", "--ttl", "99999999999999999999999999s"],
        &["--ttl", "limit"],
    );
    bad(
        &["run", "--pause", "18446744073709551616"],
        &["--pause", "limit"],
    );
}

#[test]
fn out_of_range_parameters() {
    bad(
        &["run", "--ttl", "0"],
        &["--ttl", "ttl", "out of range", "10 ms"],
    );
    bad(&["run", "--pause", "2h"], &["--pause"]);
    bad(&["run", "--pause", "3601s"], &["--pause", "limit"]);
    bad(
        &["run", "--scenario", "gc-pause", "--pause", "61s"],
        &["--pause", "out of range"],
    );
    bad(
        &["run", "--scenario", "happy-path", "--pause", "100ms"],
        &["--pause", "no parameter", "ttl"],
    );
    bad(&["run", "--set", "nope=1ms"], &["--set", "nope"]);
    bad(&["run", "--set", "ttl"], &["--set", "NAME=DUR"]);
}

#[test]
fn unknown_flags_scenarios_and_policies() {
    bad(&["run", "--frobnicate"], &["--frobnicate"]);
    bad(
        &["run", "--scenario", "nope"],
        &["--scenario", "nope", "seed-gc-pause"],
    );
    bad(
        &["run", "--fencing", "magic"],
        &["--fencing", "magic", "first-touch"],
    );
    bad(&["run", "--fencing", "ideal"], &["--fencing", "ideal"]);
    bad(&["run", "sideways"], &["sideways"]);
    bad(&["frobnicate"], &["frobnicate"]);
    bad(&["scenarios", "--fast"], &["--fast"]);
    bad(&["scenarios", "--lang", "fr"], &["--lang", "fr", "bn"]);
    bad(
        &["scenarios", "--lang"],
        &["--lang", "a value is required", "bn"],
    );
    bad(&["run", "--retries", "99"], &["--retries"]);
    bad(&["run", "--retries", "-1"], &["--retries"]);
}

#[test]
fn missing_values_and_conflicts() {
    bad(&["run", "--ttl"], &["--ttl", "a value is required"]);
    bad(&["run", "--scenario"], &["--scenario"]);
    bad(
        &["run", "fenced", "unfenced"],
        &["fenced", "unfenced", "conflict"],
    );
    bad(&["run", "unfenced", "fenced"], &["conflict"]);
    bad(
        &["run", "fenced", "--fencing", "none"],
        &["fenced", "--fencing", "conflicts"],
    );
    bad(&["run", "--json", "--trace"], &["--json", "--trace"]);
}

#[test]
fn bengali_scenario_texts_cover_the_catalogue() {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["scenarios", "--json", "--lang", "bn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for sc in leaselab::catalogue::catalogue() {
        let key = format!("\"{}\":{{\"title\":\"{}\"", sc.id, sc.title_bn);
        assert!(text.contains(&key), "{} missing or untranslated", sc.id);
        assert!(
            !sc.title_bn.is_empty() && !sc.summary_bn.is_empty(),
            "{} has no Bengali text",
            sc.id
        );
        for p in sc.params.iter() {
            assert!(
                text.contains(&format!("\"{}\":\"{}\"", p.name, p.label_bn)),
                "{}: param {}",
                sc.id,
                p.name
            );
        }
    }
    let en = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["scenarios", "--json", "--lang", "en"])
        .output()
        .unwrap();
    let en = String::from_utf8(en.stdout).unwrap();
    for sc in leaselab::catalogue::catalogue() {
        assert!(
            en.contains(&format!(
                "\"{}\":{{\"title\":\"{}\",\"summary\":",
                sc.id, sc.title_en
            )),
            "{}",
            sc.id
        );
        assert!(
            !sc.summary_en.is_empty() && !sc.source.is_empty(),
            "{} needs a summary and a source",
            sc.id
        );
    }
    let list = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["scenarios", "--lang", "bn"])
        .output()
        .unwrap();
    let list = String::from_utf8(list.stdout).unwrap();
    assert!(list
        .lines()
        .next()
        .unwrap()
        .contains(&*leaselab::catalogue::catalogue()[0].title_bn));
}

#[test]
fn consistent_mode_and_policy_are_fine() {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["run", "fenced", "--fencing", "token"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn runs_hitting_a_limit_are_errors_not_hangs() {
    // 1 ms retries against a 60 s lease with a 60 s pause: well within limits (about 240 000 events).
    let ok = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args([
            "run",
            "--ttl",
            "60s",
            "--pause",
            "60s",
            "--set",
            "retry=1ms",
        ])
        .output()
        .unwrap();
    assert!(
        matches!(ok.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

#[test]
fn sweep_bad_input() {
    bad(&["sweep", "--x", "ttl=10ms..2s"], &["--x", "STEPS"]);
    bad(&["sweep", "--x", "ttl=10ms..2s:0"], &["--x", "STEPS"]);
    bad(&["sweep", "--x", "ttl=10ms..2s:5000"], &["--x", "1024"]);
    bad(&["sweep", "--x", "nope=1ms..2ms:3"], &["--x", "nope"]);
    bad(
        &["sweep", "--x", "ttl=2s..1s:3"],
        &["--x", "from must not exceed to"],
    );
    bad(&["sweep", "--x", "ttl=0..1s:3"], &["--x", "out of range"]);
    bad(
        &["sweep", "--x", "pause=0..1s:3"],
        &["different parameters"],
    );
    bad(
        &["sweep", "--format", "xml"],
        &["--format", "xml", "csv, json"],
    );
    bad(
        &["sweep", "--scenario", "happy-path"],
        &["no parameter pause"],
    );
    bad(&["sweep", "--wat"], &["--wat"]);
}

#[test]
fn every_cell_gives_the_same_grid_as_the_default_sweep() {
    let sweep = |extra: &[&str]| {
        let mut args = vec![
            "sweep",
            "--x",
            "ttl=10ms..2s:97",
            "--y",
            "pause=0..3s:89",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let fast = sweep(&[]);
    assert!(fast.contains("\"lost_update\":true") && fast.contains("\"lost_update\":false"));
    assert_eq!(fast, sweep(&["--every-cell"]));
}

#[test]
fn every_sweep_row_is_the_single_run() {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args([
            "sweep",
            "--fencing",
            "token",
            "--x",
            "ttl=100ms..700ms:4",
            "--y",
            "pause=0..1s:3",
            "--scenario",
            "write-only-gap",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("ttl_ms,pause_ms,final,lost_update,code"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 12);
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        let run = Command::new(env!("CARGO_BIN_EXE_leaselab"))
            .args([
                "run",
                "--scenario",
                "write-only-gap",
                "--fencing",
                "token",
                "--ttl",
                f[0],
                "--pause",
                f[1],
                "--json",
            ])
            .output()
            .unwrap();
        let json = String::from_utf8(run.stdout).unwrap();
        assert!(
            json.contains(&format!("\"final\":{},", f[2])),
            "{row}: {json}"
        );
        assert!(
            json.contains(&format!("\"lost_update\":{},", f[3])),
            "{row}"
        );
    }
}

#[test]
fn estimate_bad_input_and_a_good_run() {
    bad(
        &["estimate", "--preset", "parallel"],
        &["--preset", "parallel", "g1"],
    );
    bad(
        &["estimate", "--pareto", "50ms"],
        &["--pareto", "DUR:NUMBER"],
    );
    bad(&["estimate", "--pareto", "50ms:-2"], &["--pareto"]);
    bad(&["estimate", "--pareto", "0ms:2"], &["pause scale"]);
    bad(&["estimate", "--lognormal", "50ms:0"], &["sigma"]);
    bad(&["estimate", "--rate", "0"], &["--rate"]);
    bad(&["estimate", "--rate", "lots"], &["--rate"]);
    bad(&["estimate", "--ops", "0"], &["--ops"]);
    bad(&["estimate", "--ttl", "0"], &["ttl"]);
    bad(&["estimate", "--seed", "x"], &["--seed"]);
    bad(&["estimate", "--frobnicate"], &["--frobnicate"]);
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args([
            "estimate", "--ttl", "300ms", "--ops", "100000", "--json", "--seed", "0x2a",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\"ops\":100000")
            && text.contains("\"seed\":42")
            && text.contains("\"analytic\":0.0277"),
        "{text}"
    );
}
