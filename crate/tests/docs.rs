//! The docs that are generated or checked against the code: `docs/scenarios.md` must equal what
//! `leaselab scenarios --markdown` prints, and `docs/run-json.md` must document exactly the keys that
//! the golden runs (`tests/golden/`) contain.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::Command;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

#[test]
fn scenarios_page_is_what_the_cli_generates() {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["scenarios", "--markdown"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let generated = String::from_utf8(out.stdout).unwrap();
    assert_eq!(generated, leaselab::markdown::scenarios());
    let on_disk = std::fs::read_to_string(repo("docs/scenarios.md")).unwrap_or_default();
    if on_disk != generated {
        let line = on_disk
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "at the end".to_string(),
                |i| format!("from line {}", i + 1),
            );
        panic!(
            "docs/scenarios.md is out of date ({line}); regenerate it from the repository root with\n    {}",
            leaselab::markdown::SCENARIOS_COMMAND
        );
    }
}

#[test]
fn scenarios_page_has_every_scenario_and_expectation() {
    let page = leaselab::markdown::scenarios();
    for sc in leaselab::catalogue::catalogue() {
        assert!(page.contains(&format!("\n## {}\n", sc.id)), "{} missing", sc.id);
    }
    let rows = page.lines().filter(|l| l.starts_with("| `")).count();
    let expects: usize = leaselab::catalogue::catalogue()
        .iter()
        .map(|sc| sc.expects.len() + sc.params.len())
        .sum();
    assert_eq!(rows, expects, "one table row per parameter and per expectation");
}
