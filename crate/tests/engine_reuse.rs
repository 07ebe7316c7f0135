//! One engine runs any scenario after any other exactly as a new engine would: a run resets only the
//! state its own service keeps (and the last run's service's), so nothing a run on one service leaves
//! behind may reach a run on another (crate/src/services/mod.rs, `Services::reset`).

use leaselab::{catalogue, Config, Engine, Policy};

/// Everything a run produced, as text (`Run` has no `PartialEq`: its `Debug` shows every field).
fn run_text(engine: &mut Engine, sc: &leaselab::Scenario, policy: Policy) -> String {
    let run = engine
        .run(sc, &Config::new(sc, policy))
        .unwrap_or_else(|e| panic!("{}: {e}", sc.id));
    format!("{run:?}")
}

#[test]
fn a_run_after_any_other_equals_a_run_on_a_new_engine() {
    let all = catalogue::catalogue();
    let fresh: Vec<String> = all
        .iter()
        .map(|sc| run_text(&mut Engine::new(), sc, Policy::None))
        .collect();
    // Each scenario after each other one on a single engine, and after itself.
    let mut engine = Engine::new();
    for before in all {
        for (sc, expected) in all.iter().zip(&fresh) {
            run_text(&mut engine, before, Policy::Token);
            let again = run_text(&mut engine, sc, Policy::None);
            assert!(
                again == *expected,
                "{} after {} differs from {} on a new engine",
                sc.id,
                before.id,
                sc.id
            );
        }
    }
}
