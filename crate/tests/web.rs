//! The wasm half of the native-vs-wasm determinism check, run by `wasm-pack test --headless --chrome`:
//! the facade must produce byte-identical JSON (and sweep codes) to the native files that
//! tests/parity.rs checks.
#![cfg(target_arch = "wasm32")]

mod parity_cases;

use leaselab::wasm::{catalogue, default_scenario, policies, Simulation};
use parity_cases::{CASES, SWEEP};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const FILES: &[&str] = &[
    include_str!("golden/parity/0.json"),
    include_str!("golden/parity/1.json"),
    include_str!("golden/parity/2.json"),
    include_str!("golden/parity/3.json"),
    include_str!("golden/parity/4.json"),
    include_str!("golden/parity/5.json"),
    include_str!("golden/parity/6.json"),
    include_str!("golden/parity/7.json"),
    include_str!("golden/parity/8.json"),
    include_str!("golden/parity/9.json"),
    include_str!("golden/parity/10.json"),
    include_str!("golden/parity/11.json"),
    include_str!("golden/parity/12.json"),
    include_str!("golden/parity/13.json"),
    include_str!("golden/parity/14.json"),
    include_str!("golden/parity/15.json"),
    include_str!("golden/parity/16.json"),
    include_str!("golden/parity/17.json"),
    include_str!("golden/parity/18.json"),
    include_str!("golden/parity/19.json"),
    include_str!("golden/parity/20.json"),
    include_str!("golden/parity/21.json"),
    include_str!("golden/parity/22.json"),
    include_str!("golden/parity/23.json"),
    include_str!("golden/parity/24.json"),
    include_str!("golden/parity/25.json"),
    include_str!("golden/parity/26.json"),
    include_str!("golden/parity/27.json"),
    include_str!("golden/parity/28.json"),
    include_str!("golden/parity/29.json"),
    include_str!("golden/parity/30.json"),
    include_str!("golden/parity/31.json"),
    include_str!("golden/parity/32.json"),
    include_str!("golden/parity/33.json"),
    include_str!("golden/parity/34.json"),
    include_str!("golden/parity/35.json"),
];

#[wasm_bindgen_test]
fn facade_runs_equal_native_byte_for_byte() {
    assert_eq!(FILES.len(), CASES.len());
    for (case, want) in CASES.iter().zip(FILES) {
        let mut sim = Simulation::new(case.scenario).unwrap();
        sim.set_policy(case.policy).unwrap();
        for (name, ms) in case.params {
            sim.set_param(name, *ms as f64).unwrap();
        }
        sim.set_retries(case.retries).unwrap();
        sim.set_naive(case.naive);
        let got = sim.run_json().unwrap();
        assert!(
            &got == want,
            "{} {} differs from native:\n{got}",
            case.scenario,
            case.policy
        );
    }
}

#[wasm_bindgen_test]
fn the_seed_matches_the_cli_golden() {
    let sim = Simulation::new(&default_scenario()).unwrap();
    let want = include_str!("golden/seed-unfenced.json");
    assert_eq!(sim.run_json().unwrap() + "\n", want);
}

#[wasm_bindgen_test]
fn facade_sweep_equals_native() {
    let s = &SWEEP;
    let mut sim = Simulation::new(s.scenario).unwrap();
    sim.set_policy(s.policy).unwrap();
    // The bisecting sweep and every cell run event by event: both the native grid.
    for every_cell in [None, Some(true)] {
        let cells = sim
            .sweep(
                s.x.0,
                s.x.1 as f64,
                s.x.2 as f64,
                s.x.3 as u32,
                s.y.0,
                s.y.1 as f64,
                s.y.2 as f64,
                s.y.3 as u32,
                every_cell,
            )
            .unwrap();
        let codes: String = cells.iter().map(|c| char::from(b'0' + c)).collect();
        assert_eq!(
            codes,
            include_str!("golden/parity/sweep.txt"),
            "every_cell {every_cell:?}"
        );
    }
}

#[wasm_bindgen_test]
fn quick_agrees_with_the_full_run() {
    let mut sim = Simulation::new("seed-gc-pause").unwrap();
    assert_eq!(sim.quick().unwrap(), vec![440, 2, 0, 1]);
    sim.set_policy("token").unwrap();
    assert_eq!(sim.quick().unwrap(), vec![450, 0, 1, 0]);
}

#[wasm_bindgen_test]
fn bad_input_is_an_error_not_a_panic() {
    assert!(Simulation::new("nope").is_err());
    let mut sim = Simulation::new("seed-gc-pause").unwrap();
    assert!(sim.set_policy("magic").is_err());
    assert!(sim.set_param("ttl", f64::NAN).is_err());
    assert!(sim.set_param("ttl", -1.0).is_err());
    assert!(sim.set_param("ttl", 1e300).is_err());
    assert!(sim.set_param("ttl", 0.0).is_err(), "below the range");
    assert!(sim.set_param("nope", 5.0).is_err());
    assert!(sim.set_retries(11).is_err());
    assert!(sim
        .sweep("ttl", 10.0, 20.0, 0, "pause", 0.0, 1.0, 2, None)
        .is_err());
    assert!(
        sim.run_json().is_ok(),
        "the handle still works after refused settings"
    );
}

#[wasm_bindgen_test]
fn catalogue_and_policies_are_complete() {
    let cat = catalogue();
    assert!(
        cat.starts_with('[')
            && cat.contains("\"id\":\"seed-gc-pause\"")
            && !cat.contains("\"bn\":")
            && !cat.contains("\"summary\":"),
        "the wasm carries English titles only; the prose comes from scenarios.LANG.json"
    );
    assert_eq!(
        policies(),
        "none,token,first-touch,version,etag,owner,equal-token"
    );
}

#[wasm_bindgen_test]
fn facade_estimates_equal_native() {
    use leaselab::wasm::Estimator;
    let want = include_str!("golden/parity/estimate.txt");
    let mut got = String::new();
    for &(policy, ttl, retry, work, dist, a, b, rate, seed, ops) in parity_cases::ESTIMATES {
        let mut e = Estimator::new(policy, ttl, retry, work, dist, a, b, rate, seed).unwrap();
        // In uneven chunks, as a worker would: the numbers must not depend on them.
        let mut left = ops;
        let mut chunk = 7_919;
        while left > 0 {
            let n = chunk.min(left);
            e.step(n).unwrap();
            left -= n;
            chunk = chunk * 3 / 2;
        }
        got.push_str(&parity_cases::estimate_line(&e.result()));
        got.push('\n');
    }
    assert_eq!(got, want);
    assert!(Estimator::new("none", 300.0, 50.0, 0.0, "cauchy", 1.0, 1.0, 0.0, 1.0).is_err());
    assert!(Estimator::new("none", 300.0, 50.0, 0.0, "pareto", 50.0, 2.0, 0.0, 0.5).is_err());
    assert!(Estimator::new("none", f64::NAN, 50.0, 0.0, "pareto", 50.0, 2.0, 0.0, 1.0).is_err());
}

#[wasm_bindgen_test]
fn facade_estimate_form_equals_native() {
    // explore.html's form takes its presets, defaults and bounds from these two; parity.rs checks the
    // same file natively.
    use leaselab::wasm::{estimate_form, presets};
    let got = format!("{}\n{}\n", presets(), estimate_form().unwrap());
    assert_eq!(got, include_str!("golden/parity/estimate-form.txt"));
}

#[wasm_bindgen_test]
fn facade_searches_equal_native() {
    // tests/parity.rs writes the native search's numbers to the same file.
    let mut got = String::new();
    for &(id, policy, grid) in parity_cases::SEARCHES {
        let mut sim = Simulation::new(id).unwrap();
        sim.set_policy(policy).unwrap();
        let names: Vec<&str> = grid.iter().map(|d| d.0).collect();
        let col = |f: fn(&(&str, u64, u64, u64)) -> u64| -> Vec<f64> {
            grid.iter().map(|d| f(d) as f64).collect()
        };
        let (from, to, step) = (col(|d| d.1), col(|d| d.2), col(|d| d.3));
        let names = names.join(",");
        let n = sim.search_combinations(&names, &from, &to, &step).unwrap();
        let v = sim.search(&names, &from, &to, &step, None).unwrap();
        assert_eq!(n, v[0]);
        got.push_str(&parity_cases::search_line(&v));
        got.push('\n');
    }
    assert_eq!(got, include_str!("golden/parity/search.txt"));
    // Bounded (a worker's slice after a counterexample elsewhere): the seed's grid's least cost is 1.
    let mut sim = Simulation::new("seed-gc-pause").unwrap();
    sim.set_policy("none").unwrap();
    let (from, to, step) = ([100.0, 100.0], [900.0, 1000.0], [10.0, 10.0]);
    let bounded = |c| sim.search("ttl,pause", &from, &to, &step, c).unwrap();
    let none_at_0 = bounded(Some(0));
    // No counterexample of cost 0, and boxes left unvisited: no behaviour count (−1).
    assert_eq!(
        (none_at_0[0], none_at_0[2], none_at_0[3], none_at_0.len()),
        (7371.0, -1.0, -1.0, 4)
    );
    assert_eq!(bounded(Some(1))[2..], bounded(None)[2..]);
    // Bad grids are errors with a message, not panics.
    let sim = Simulation::new("seed-gc-pause").unwrap();
    let one = [100.0];
    assert!(sim.search("nope", &one, &one, &one, None).is_err());
    assert!(sim
        .search("ttl", &[200.0], &[100.0], &[10.0], None)
        .is_err());
    assert!(sim.search("ttl", &one, &[200.0], &[0.0], None).is_err());
    assert!(sim.search("ttl,pause", &one, &one, &one, None).is_err());
    assert!(sim
        .search_combinations(
            "ttl,pause",
            &[10.0, 0.0],
            &[60_000.0, 3_600_000.0],
            &[0.001, 0.001]
        )
        .is_err());
}

// ---------- A user's scenario (the `user-scenario` build: pages with a custom scenario)

#[cfg(feature = "user-scenario")]
mod user_cases;

/// The parser and the expectation check in wasm give native's answers, byte for byte, on every
/// catalogue file and on seeded mutations of them (tests/user_json.rs checks the same file natively).
#[cfg(feature = "user-scenario")]
#[wasm_bindgen_test]
fn user_scenarios_parse_and_check_as_natively() {
    use leaselab::wasm::{check_scenario, parse_scenario};
    let want: Vec<&str> = include_str!("golden/user-scenarios.txt").lines().collect();
    let texts = user_cases::cases();
    assert_eq!(texts.len(), want.len());
    for (i, (text, want)) in texts.iter().zip(want).enumerate() {
        let got = format!("{}\t{}", parse_scenario(text), check_scenario(text));
        assert!(got == want, "case {i} differs from native:\n{got}");
    }
}

/// The fuzz, bounded, in wasm: mutated and random texts parsed, checked and run at their defaults
/// under two policies — an error is fine, a panic (a trap here) fails the test.
#[cfg(feature = "user-scenario")]
#[wasm_bindgen_test]
fn user_scenario_fuzz_does_not_panic() {
    use leaselab::wasm::{check_scenario, parse_scenario};
    let (mut parsed, mut ran) = (0, 0);
    for text in user_cases::fuzz_texts(20_261_204, 150) {
        let json = parse_scenario(&text);
        assert!(
            json.starts_with(r#"{"scenario":"#) || json.starts_with(r#"{"errors":[{"line":"#),
            "{json}"
        );
        let checked = check_scenario(&text);
        assert!(checked.starts_with(r#"{"expects":["#) || checked.starts_with(r#"{"errors":"#));
        let Ok(mut sim) = Simulation::from_text(&text) else {
            continue;
        };
        parsed += 1;
        for policy in ["none", "token"] {
            sim.set_policy(policy).unwrap();
            ran += usize::from(sim.run_json().is_ok());
        }
    }
    assert!(
        parsed > 20 && ran > 20,
        "too few texts parse to test the runs: {parsed}, {ran}"
    );
}

/// A user's copy of a catalogue file runs exactly as the catalogue's scenario does.
#[cfg(feature = "user-scenario")]
#[wasm_bindgen_test]
fn a_user_text_runs_as_the_catalogue_scenario() {
    let mut own = Simulation::from_text(user_cases::SOURCES[0]).unwrap();
    let mut cat = Simulation::new("seed-gc-pause").unwrap();
    for sim in [&mut own, &mut cat] {
        sim.set_policy("token").unwrap();
        sim.set_param("pause", 450.0).unwrap();
    }
    assert_eq!(own.run_json().unwrap(), cat.run_json().unwrap());
    assert!(Simulation::from_text("id: x\nclient A: fly\n").is_err());
}
