//! No scenario text makes leaselab panic: arbitrary text, lines of the grammar's words, and mutations
//! of every catalogue file are parsed (errors located, one line each) and, when they parse, checked
//! and run. Bounded so `cargo test` stays fast; `examples/fuzz_scenarios.rs` runs the same for as
//! long as it is given.
#![cfg(not(target_arch = "wasm32"))]

use leaselab::{catalogue, Policy};
use proptest::prelude::*;

#[path = "common/mutate.rs"]
mod mutate;

fn policy() -> impl Strategy<Value = Policy> {
    prop::sample::select(Policy::ALL.to_vec())
}

/// Lines built from the grammar's keys and words: closer to a scenario than arbitrary text.
fn wordy_text() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "id:", "title:", "summary:", "service:", "client", "A", "B:", "acquire;", "read;", "write",
        "50;", "release", "expect", "none:", "final=1", "param", "ttl", "=", "300ms", "in",
        "0..1s:", "$ttl", "at", "1ms:", "pause", "x", "lease", "redlock", "nodes=3", "n1",
    ]);
    prop::collection::vec(prop::collection::vec(word, 0..8), 0..12).prop_map(|lines| {
        lines
            .iter()
            .map(|l| l.join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        mutate::exercise(&text, Policy::None, 0);
    }

    #[test]
    fn lines_of_the_grammar_s_words_never_panic(text in wordy_text()) {
        mutate::exercise(&text, Policy::Token, 0);
    }
}

proptest! {
    // Each case near a real file, and run when it parses (about 0.1 ms each).
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_catalogue_files_never_panic(
        i in 0..catalogue::sources().len(),
        donor in 0..catalogue::sources().len(),
        seed in any::<u64>(),
        policy in policy(),
        retries in 0u32..=2,
    ) {
        let sources = catalogue::sources();
        let text = mutate::mutate(sources[i], sources[donor], seed);
        mutate::exercise(&text, policy, retries);
    }
}

/// Every catalogue file passes through untouched: the fuzz's starting points are all valid.
#[test]
fn every_catalogue_file_parses_and_its_expectations_hold() {
    for text in catalogue::sources() {
        let sc = leaselab::check::parse(text).unwrap();
        let failing: Vec<_> = leaselab::check::check_expectations(&sc)
            .into_iter()
            .filter_map(|v| v.diagnostic())
            .collect();
        assert!(failing.is_empty(), "{}: {failing:?}", sc.id);
    }
}
