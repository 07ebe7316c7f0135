//! The ITF export (`leaselab run --itf`, `search --itf PATH`) against the format's rules (ADR-015:
//! `#meta`, `vars`, `states`, each state with exactly the listed variables and its index; integers as
//! numbers within ±(2^53 − 1) or `{"#bigint"}`; records as objects; no nulls or fractions) and against
//! the run it came from: a state per trace event, at its time, the store's value and the lost-update
//! flag as the run says.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use leaselab::report::itf::ITF_VARS;
use leaselab::{catalogue, simulate, Config, Policy};
use serde_json::Value;

/// A value as ITF allows it: bool, string, safe integer or `#bigint`, list, record, `#tup`, variant.
fn check_value(v: &Value, at: &str) {
    match v {
        Value::Bool(_) | Value::String(_) => {}
        Value::Number(n) => {
            let i = n
                .as_i64()
                .unwrap_or_else(|| panic!("{at}: {n} is not an integer"));
            assert!(i.abs() < 1 << 53, "{at}: {i} should be a #bigint");
        }
        Value::Array(items) => items.iter().for_each(|x| check_value(x, at)),
        Value::Object(map) => {
            if let Some(b) = map.get("#bigint") {
                let digits = b.as_str().unwrap_or_else(|| panic!("{at}: #bigint {b}"));
                let digits = digits.strip_prefix('-').unwrap_or(digits);
                assert!(
                    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()),
                    "{at}"
                );
                assert_eq!(map.len(), 1, "{at}");
            }
            if map.contains_key("tag") {
                assert_eq!(map.len(), 2, "{at}: a variant has tag and value");
                assert!(map["tag"] == "Some" || map["tag"] == "None", "{at}");
            }
            map.iter()
                .for_each(|(k, x)| check_value(x, &format!("{at}.{k}")));
        }
        Value::Null => panic!("{at}: null is not an ITF value"),
    }
}

/// Checks `text` against the format and returns its states.
fn check_itf(text: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(text).expect("ITF is JSON");
    let meta = &doc["#meta"];
    assert_eq!(meta["format"], "ITF");
    assert_eq!(
        meta["format-description"],
        "https://apalache-mc.org/docs/adr/015adr-trace.html"
    );
    assert!(meta["description"].is_string() && meta["source"].is_string());
    let vars: Vec<&str> = doc["vars"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(vars, ITF_VARS);
    let states = doc["states"].as_array().unwrap().clone();
    assert!(!states.is_empty());
    for (i, s) in states.iter().enumerate() {
        let s = s.as_object().unwrap();
        assert_eq!(s["#meta"]["index"], i as u64, "state {i}");
        let mut keys: Vec<&str> = s
            .keys()
            .map(|k| k.as_str())
            .filter(|k| *k != "#meta")
            .collect();
        let mut want = vars.clone();
        keys.sort();
        want.sort();
        assert_eq!(keys, want, "state {i} has exactly the vars");
        check_value(&Value::Object(s.clone()), &format!("state {i}"));
    }
    states
}

#[test]
fn every_scenario_exports_a_valid_trace_that_matches_its_run() {
    for sc in catalogue::catalogue() {
        for policy in [Policy::None, Policy::Token] {
            let o = simulate(sc, &Config::new(sc, policy)).unwrap();
            let states = check_itf(&leaselab::report::itf(&o));
            let what = format!("{} {policy:?}", sc.id);
            assert_eq!(states.len(), o.run.trace.len() + 1, "{what}");
            for (s, e) in states[1..].iter().zip(&o.run.trace) {
                assert_eq!(s["t_us"], e.t.0, "{what}");
                assert_eq!(s["event"], e.kind().name(), "{what}");
                assert_eq!(s["actor"], sc.client_name(e.client).to_string(), "{what}");
            }
            let last = states.last().unwrap();
            assert_eq!(last["store"]["value"], o.run.final_balance, "{what}");
            assert_eq!(last["lost_update"], o.lost_update, "{what}");
            let accepted = o.run.writes.iter().filter(|w| w.accepted).count();
            assert_eq!(last["store"]["version"], accepted as u64, "{what}");
            // Nothing is lost before the first write, and clients are named as in the scenario.
            assert_eq!(states[0]["lost_update"], false, "{what}");
            assert_eq!(
                states[0]["clients"].as_object().unwrap().len(),
                sc.clients.len()
            );
        }
    }
}

#[test]
fn the_seed_run_tells_its_story() {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["run", "--itf"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let states = check_itf(&String::from_utf8(out.stdout).unwrap());
    // A is granted token 1 and freezes; B gets token 2 at 300 ms and writes 450; A wakes at 600 ms
    // and its write of 440 is accepted: from that state on, an update is lost.
    let at = |event: &str, actor: &str| {
        states
            .iter()
            .position(|s| s["event"] == event && s["actor"] == actor)
            .unwrap()
    };
    let granted_b = &states[at("granted", "B")];
    assert_eq!(granted_b["t_us"], 300_000);
    assert_eq!(granted_b["lock"]["token_granted"], 2);
    assert_eq!(granted_b["clients"]["A"]["frozen"], true);
    let a_writes = at("write-accepted", "A");
    assert_eq!(states[a_writes]["store"]["value"], 440);
    assert_eq!(states[a_writes]["store"]["last_token"], 2);
    assert_eq!(states[a_writes - 1]["lost_update"], false);
    assert_eq!(states[a_writes]["lost_update"], true);
}

#[test]
fn search_writes_the_counterexample_and_nothing_when_safe() {
    let dir = std::env::temp_dir().join(format!("leaselab-itf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cx.itf.json");
    let p = path.to_str().unwrap();
    let leaselab = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_leaselab"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = leaselab(&["search", "--vary", "pause=0..1s:100ms", "--itf", p]);
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&path).unwrap();
    check_itf(&text);
    // The same file as `run --itf` at the counterexample (pause 400 ms: at 300 ms A's write and B's
    // grant meet, and A's goes first).
    let run = leaselab(&["run", "--pause", "400ms", "--itf"]);
    assert!(
        text == String::from_utf8(run.stdout).unwrap(),
        "search --itf ≠ run --itf"
    );
    std::fs::remove_file(&path).unwrap();
    let out = leaselab(&["search", "--vary", "pause=0..200ms:100ms", "--itf", p]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!path.exists(), "a safe grid writes no trace");
    let bad = leaselab(&[
        "search",
        "--vary",
        "pause=0..1s:100ms",
        "--itf",
        "/nonexistent/dir/x",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let bad = leaselab(&["run", "--itf", "--json"]);
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
