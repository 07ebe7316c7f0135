//! The moments a row compares besides its verdict, when its case asks (`Case::moments_ms`): when a
//! client's connection went SUSPENDED and LOST, as the model's trace has them and as the real lock
//! client reported them (Curator's `ConnectionStateListener`, real/curator_lock.rs).
//!
//! Each is a fact of the verdict in words: the simulator's `A SUSPENDED at 6.00 s ±1.00 s`, the real
//! run's `A SUSPENDED at 6.21 s`. Two such facts are the same when they name the same client and state
//! and the real moment is within the tolerance the simulator's states; every other fact is compared
//! as text ([`same`]).

use leaselab::scenario::Scenario;
use leaselab::trace::Kind;
use leaselab::Outcome;

use crate::cases::Verdict;
use crate::real::RealRun;

/// The states compared: the model's trace kind and the name Curator gives it.
const STATES: [(Kind, &str); 2] = [(Kind::Suspended, "SUSPENDED"), (Kind::Lost, "LOST")];

fn secs(us: u64) -> String {
    format!("{:.2} s", us as f64 / 1e6)
}

/// The model's moments of `o`, in time order, each with the tolerance (ms); none when it is 0.
pub fn predicted(sc: &Scenario, o: &Outcome, within_ms: u64) -> Vec<(&'static str, String)> {
    if within_ms == 0 {
        return Vec::new();
    }
    let mut facts = Vec::new();
    for e in o.run.trace.iter() {
        let Some(&(_, state)) = STATES.iter().find(|s| s.0 == e.kind()) else {
            continue;
        };
        let who = sc.client_name(e.client);
        let at = secs(e.t.0);
        let within = secs(within_ms * 1000);
        facts.push(("", format!("{who} {state} at {at} ±{within}")));
    }
    facts
}

/// The real run's moments, one for each of the simulator's (`sim`'s moment facts) in their order —
/// the first time that client reported that state, or `never` — then any state the model did not
/// predict.
pub fn measured(sc: &Scenario, sim: &Verdict, run: &RealRun) -> Vec<(&'static str, String)> {
    let mut used = vec![false; run.moments.len()];
    let mut facts = Vec::new();
    for (_, text) in &sim.0 {
        let Some((label, _)) = text.split_once(" at ").filter(|_| text.contains(" ±")) else {
            continue;
        };
        let found = run.moments.iter().enumerate().find(|(i, (c, state, _))| {
            !used[*i] && label == format!("{} {state}", sc.client_name(*c))
        });
        facts.push(match found {
            Some((i, (_, _, t))) => {
                used[i] = true;
                ("", format!("{label} at {}", secs(*t)))
            }
            None => ("", format!("{label} never")),
        });
    }
    for (i, (c, state, t)) in run.moments.iter().enumerate() {
        if !used[i] && STATES.iter().any(|s| s.1 == state) {
            let who = sc.client_name(*c);
            facts.push(("", format!("{who} {state} at {} (not predicted)", secs(*t))));
        }
    }
    facts
}

/// `LABEL at X s ±Y s` and `LABEL at Z s`: the label and the numbers.
fn moment(text: &str) -> Option<(&str, f64, Option<f64>)> {
    let (label, rest) = text.split_once(" at ")?;
    let num = |s: &str| s.trim().strip_suffix(" s")?.trim().parse::<f64>().ok();
    match rest.split_once(" ±") {
        Some((at, within)) => Some((label, num(at)?, Some(num(within)?))),
        None => Some((label, num(rest)?, None)),
    }
}

/// Whether two facts of a verdict are the same: equal text, or the same moment within the tolerance
/// one of them states.
pub fn same(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (moment(a), moment(b)) {
        (Some((la, ta, wa)), Some((lb, tb, wb))) if la == lb => {
            wa.or(wb).is_some_and(|w| (ta - tb).abs() <= w + 1e-9)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_is_the_same_within_its_tolerance_and_only_then() {
        let sim = "A SUSPENDED at 6.00 s ±1.00 s";
        assert!(same(sim, "A SUSPENDED at 6.21 s"));
        assert!(same("A LOST at 12.90 s", "A LOST at 12.00 s ±1.00 s"));
        assert!(!same(sim, "A SUSPENDED at 7.01 s"), "beyond the tolerance");
        assert!(!same(sim, "A LOST at 6.00 s"), "another state");
        assert!(!same(sim, "B SUSPENDED at 6.00 s"), "another client");
        assert!(!same(sim, "A SUSPENDED never"));
        assert!(
            !same("A SUSPENDED at 6.00 s", "A SUSPENDED at 6.10 s"),
            "no tolerance stated"
        );
        assert!(same("final 440", "final 440"));
        assert!(!same("final 440", "final 450"));
    }

    #[test]
    fn the_real_moments_follow_the_models_order_and_say_what_is_missing_or_extra() {
        let sc = crate::cases::scenario("zk-session-expiry", 1).unwrap(); // clients A and B
        let sim = Verdict(vec![
            ("final", "440".into()),
            ("", "A SUSPENDED at 6.00 s ±1.00 s".into()),
            ("", "A LOST at 12.00 s ±1.00 s".into()),
        ]);
        let run = RealRun {
            moments: vec![
                (1, "SUSPENDED".into(), 500_000),
                (0, "SUSPENDED".into(), 6_210_000),
                (0, "CONNECTED".into(), 100),
            ],
            ..RealRun::default()
        };
        let facts: Vec<String> = measured(&sc, &sim, &run).into_iter().map(|f| f.1).collect();
        assert_eq!(
            facts,
            [
                "A SUSPENDED at 6.21 s",
                "A LOST never",
                "B SUSPENDED at 0.50 s (not predicted)"
            ]
        );
    }
}
