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
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/parity")
        .join(name)
}

fn check(name: &str, got: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path(name), got).unwrap();
    }
    let want = std::fs::read_to_string(path(name)).unwrap_or_default();
    assert!(
        want == got,
        "{name} differs from the native run (UPDATE_GOLDEN=1 to rewrite on purpose)"
    );
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
        check(
            &format!("{i}.json"),
            &report::json(&simulate(sc, &cfg).unwrap()),
        );
    }
}

/// `tests/web.rs` lists the parity files by hand (`include_str!` needs literals); a case added here
/// without its line there would leave the wasm half comparing fewer runs, so the two counts must agree.
#[test]
fn the_wasm_half_lists_every_parity_file() {
    let web = std::fs::read_to_string(path("../../web.rs")).unwrap();
    for i in 0..CASES.len() {
        let line = format!("include_str!(\"golden/parity/{i}.json\")");
        assert!(web.contains(&line), "tests/web.rs lacks {line}");
    }
    let listed = web
        .lines()
        .filter(|l| l.contains("include_str!(\"golden/parity/") && l.contains(".json\")"))
        .count();
    assert_eq!(
        listed,
        CASES.len(),
        "tests/web.rs lists {listed} parity files for {} cases",
        CASES.len()
    );
}

#[test]
fn native_sweep_matches_the_parity_file() {
    let s = &SWEEP;
    let sc = catalogue::find(s.scenario).unwrap();
    let x = Axis::new(sc, s.x.0, s.x.1 * 1000, s.x.2 * 1000, s.x.3).unwrap();
    let y = Axis::new(sc, s.y.0, s.y.1 * 1000, s.y.2 * 1000, s.y.3).unwrap();
    let mut cells = Vec::new();
    sweep(
        sc,
        &leaselab::Config::new(sc, Policy::parse(s.policy).unwrap()),
        &x,
        &y,
        &mut cells,
    )
    .unwrap();
    let codes: String = cells.iter().map(|c| char::from(b'0' + c.code())).collect();
    check("sweep.txt", &codes);
}

#[test]
fn native_estimates_match_the_parity_file() {
    use leaselab::estimate::{Estimator, PauseDist, Spec};
    let mut lines = String::new();
    for &(policy, ttl, retry, work, dist, a, b, rate, seed, ops) in parity_cases::ESTIMATES {
        let dist = match dist {
            "pareto" => PauseDist::Pareto {
                scale_us: a * 1000.0,
                shape: b,
            },
            _ => PauseDist::LogNormal {
                median_us: a * 1000.0,
                sigma: b,
            },
        };
        let ms = |v: f64| (v * 1000.0).round() as u64;
        let spec = Spec {
            policy: Policy::parse(policy).unwrap(),
            dist,
            ttl_us: ms(ttl),
            retry_us: ms(retry),
            work_us: ms(work),
            rate_per_s: rate,
            seed: seed as u64,
        };
        let mut e = Estimator::new(spec).unwrap();
        e.step(u64::from(ops)).unwrap();
        let r = e.result();
        let v = [
            r.ops as f64,
            r.lost as f64,
            r.simulated as f64,
            r.over_range as f64,
            r.p,
            r.low,
            r.high,
            r.analytic,
        ];
        lines.push_str(&parity_cases::estimate_line(&v));
        lines.push('\n');
    }
    check("estimate.txt", &lines);
}

#[test]
fn native_estimate_form_matches_the_parity_file() {
    // explore.html's presets, defaults and bounds, as the wasm's presets() and estimateForm() give them.
    let got = format!(
        "{}\n{}\n",
        report::presets_json(),
        report::estimate_form_json().unwrap()
    );
    check("estimate-form.txt", &got);
}

#[test]
fn native_searches_match_the_parity_file() {
    // The numbers the wasm's Simulation::search returns, from the library's search natively.
    use leaselab::search::{search, Dim};
    let mut lines = String::new();
    for &(id, policy, grid) in parity_cases::SEARCHES {
        let sc = catalogue::find(id).unwrap();
        let base = Config::new(sc, Policy::parse(policy).unwrap());
        let dims: Vec<Dim> = grid
            .iter()
            .map(|&(name, from, to, step)| Dim::new(sc, name, from * 1000, to * 1000, step * 1000))
            .collect::<Result<_, _>>()
            .unwrap();
        let found = search(sc, &base, &dims).unwrap();
        let v = found.numbers();
        lines.push_str(&parity_cases::search_line(&v));
        lines.push('\n');
    }
    check("search.txt", &lines);
}
