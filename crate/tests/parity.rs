//! Native half of the native-vs-wasm determinism check. Each configuration below is run natively and
//! compared with `tests/golden/parity/N.json`; `tests/web.rs` runs the same configurations through the
//! wasm facade in headless Chromium and compares with the same files. Equal files ⇒ equal bytes.
//! `UPDATE_GOLDEN=1` rewrites the files from the native run.
#![cfg(not(target_arch = "wasm32"))]

mod parity_cases;

use leaselab::sweep::{sweep, Axis};
use leaselab::{catalogue, report, simulate, Config, Policy};
use parity_cases::{CASES, SWEEP};

fn path(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/parity").join(name)
}

fn check(name: &str, got: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path(name), got).unwrap();
    }
    let want = std::fs::read_to_string(path(name)).unwrap_or_default();
    assert!(want == got, "{name} differs from the native run (UPDATE_GOLDEN=1 to rewrite on purpose)");
}

#[test]
fn native_runs_match_the_parity_files() {
    for (i, case) in CASES.iter().enumerate() {
        let sc = catalogue::find(case.scenario).unwrap();
        let mut cfg = Config::new(sc, Policy::parse(case.policy).unwrap());
        for (name, ms) in case.params {
            sc.set_param(&mut cfg.params, name, ms * 1000).unwrap();
        }
        cfg.retries = case.retries;
        cfg.naive = case.naive;
        check(&format!("{i}.json"), &report::json(&simulate(sc, &cfg).unwrap()));
    }
}

#[test]
fn native_sweep_matches_the_parity_file() {
    let s = &SWEEP;
    let sc = catalogue::find(s.scenario).unwrap();
    let x = Axis::new(sc, s.x.0, s.x.1 * 1000, s.x.2 * 1000, s.x.3).unwrap();
    let y = Axis::new(sc, s.y.0, s.y.1 * 1000, s.y.2 * 1000, s.y.3).unwrap();
    let mut cells = Vec::new();
    sweep(sc, &leaselab::Config::new(sc, Policy::parse(s.policy).unwrap()), &x, &y, &mut cells).unwrap();
    let codes: String = cells.iter().map(|c| char::from(b'0' + c.code())).collect();
    check("sweep.txt", &codes);
}
