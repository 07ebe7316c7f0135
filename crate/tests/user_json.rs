//! Native half of the parser's native-vs-wasm check: each text of tests/user_cases (the catalogue's
//! files and seeded mutations) parsed and its expectation lines run, as the page's user-scenario wasm
//! reports them (report::user_json), compared with tests/golden/user-scenarios.txt; tests/web.rs runs the
//! same texts through the wasm and compares with the same file. `UPDATE_GOLDEN=1` rewrites it.
#![cfg(not(target_arch = "wasm32"))]

mod user_cases;

use leaselab::catalogue;
use leaselab::report::{user_expectations_json, user_scenario_json};

/// One line per case: the parse JSON, a tab, the expectations JSON (the writer escapes tabs in strings).
fn outputs() -> String {
    user_cases::cases()
        .iter()
        .map(|t| format!("{}\t{}\n", user_scenario_json(t), user_expectations_json(t)))
        .collect()
}

#[test]
fn the_case_list_is_the_catalogue() {
    assert_eq!(user_cases::SOURCES, catalogue::sources());
}

#[test]
fn native_parse_and_check_match_the_golden_file() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/user-scenarios.txt");
    let got = outputs();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        want == got,
        "user-scenarios.txt differs from the native run (UPDATE_GOLDEN=1 to rewrite on purpose)"
    );
}

#[test]
fn errors_are_located_data_and_a_catalogue_file_parses_in_the_catalogue_shape() {
    let bad = user_scenario_json("id: x\nclient A: acquire; fly\n");
    assert!(bad.starts_with(r#"{"errors":[{"line":2,"col":"#), "{bad}");
    let good = user_scenario_json(catalogue::sources()[0]);
    assert!(
        good.starts_with(r#"{"scenario":{"id":"seed-gc-pause""#),
        "{good}"
    );
    let checked = user_expectations_json(catalogue::sources()[0]);
    assert!(checked.contains(r#""head":"none","ok":true"#), "{checked}");
    assert!(!checked.contains(r#""ok":false"#), "{checked}");
}
