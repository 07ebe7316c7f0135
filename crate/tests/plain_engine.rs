//! The plain engine (`Engine::plain`: untraced, event by event, the trace's and the signature's code
//! compiled out), on which explore's every-cell sweep runs, gives every run exactly what the engine for
//! every kind of run gives it untraced: the same writes, final balance, end, events and so the same
//! summary. It keeps no spans and no lease records (a diagram's, which a sweep's summary never reads).
//! Only the build for speed has a plain engine: `make test-rust` runs this with `--features speed`.
#![cfg(feature = "speed")]

use leaselab::outcome::summarize;
use leaselab::sim::Run;
use leaselab::{catalogue, Config, Engine, Policy};

/// What a plain run keeps, as text: everything a summary of it reads, and the summary.
fn kept(run: &Run) -> String {
    let summary = summarize(run);
    format!(
        "{:?} {} {} {:?} {} {summary:?}",
        run.writes, run.initial, run.final_balance, run.end, run.events
    )
}

/// A plain run's spans and lease records: none.
fn dropped(run: &Run) -> usize {
    let spans = run.beliefs.len() + run.pauses.len() + run.held.len();
    spans + run.leases.len() + run.majorities.len() + run.trace.len()
}

#[test]
fn the_plain_engine_runs_every_scenario_as_the_other_does() {
    // One engine of each kind for everything: a run after any other, as a sweep runs them.
    let mut plain = Engine::plain();
    let mut other = Engine::new();
    let mut runs = 0;
    for sc in catalogue::catalogue() {
        for policy in Policy::ALL {
            let cfg = Config::new(sc, policy);
            // The defaults, then each parameter at half and at twice its default.
            let mut points = vec![cfg.params.clone()];
            for i in 0..cfg.params.len() {
                for value in [cfg.params[i] / 2, cfg.params[i] * 2] {
                    let mut at = cfg.params.clone();
                    at[i] = value;
                    points.push(at);
                }
            }
            for at in &points {
                let want = other.run_at(sc, &cfg, at).map(kept);
                let got = plain.run_at(sc, &cfg, at).map(|r| (dropped(r), kept(r)));
                let got = got.map(|(dropped, kept)| {
                    assert_eq!(dropped, 0, "{} keeps spans", sc.id);
                    kept
                });
                let (want, got) = (
                    want.map_err(|e| e.to_string()),
                    got.map_err(|e| e.to_string()),
                );
                assert_eq!(got, want, "{} {policy:?} at {at:?}", sc.id);
                runs += 1;
            }
        }
    }
    assert!(runs > 1000, "only {runs} runs compared");
}
