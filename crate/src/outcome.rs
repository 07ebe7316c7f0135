//! The verdict of a run (docs/model.md, "Outcome"): `final`, `expected`, `lost_update`,
//! `stale_write_accepted`, whose update was lost, and where two clients believed at once that they held
//! the lock.

use crate::error::Error;
use crate::scenario::{Lost, Scenario};
use crate::sim::{Config, Engine, Run};
use crate::store::Policy;
use crate::time::SimTime;

/// A run and what it means.
#[derive(Clone, Debug)]
pub struct Outcome<'s> {
    /// The scenario run.
    pub scenario: &'s Scenario,
    pub policy: Policy,
    pub params: Vec<u64>,
    pub retries: u32,
    /// The naive switch was on (for a service that has one).
    pub naive: bool,
    pub run: Run,
    /// The final balance of the same schedule under the ideal guard (knows the lock service's truth).
    pub expected: i64,
    /// A write the storage acknowledged is missing from the final balance.
    pub lost_update: bool,
    /// The storage accepted a write from a client that was no longer the latest grantee.
    pub stale_write_accepted: bool,
    /// Whose acknowledged update is missing.
    pub lost: Lost,
    /// The first client whose write the storage refused while it was the lock's rightful holder (a
    /// failure of liveness: the guard locked out the client the lock had chosen).
    pub locked_out: Lost,
    /// Windows of true time in which two clients each believed they held the lock.
    pub overlaps: Vec<(SimTime, SimTime)>,
}

/// The figures a sweep needs, without a trace or allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub final_balance: i64,
    pub lost_update: bool,
    pub stale_write_accepted: bool,
    pub lost: Lost,
    /// Some write was refused by the storage.
    pub rejected: bool,
    pub locked_out: Lost,
}

impl Summary {
    /// One byte per outcome class, as sweeps report it: 0 safe, 1 safe with a write refused,
    /// 2 + i the update of client i lost.
    pub fn code(&self) -> u8 {
        match (self.lost, self.rejected) {
            (Lost::Client(i), _) => 2 + i,
            (Lost::Nobody, true) => 1,
            (Lost::Nobody, false) => 0,
        }
    }
}

/// `final != initial − Σ debits of accepted writes`.
pub fn lost_update(run: &Run) -> bool {
    let debits: i64 = run
        .writes
        .iter()
        .filter(|w| w.accepted)
        .map(|w| w.debit)
        .sum();
    run.final_balance != run.initial - debits
}

/// The first accepted write that a later accepted write overwrote without having read it.
pub fn victim(run: &Run) -> Lost {
    let mut accepted = run.writes.iter().filter(|w| w.accepted);
    let Some(mut prev) = accepted.next() else {
        return Lost::Nobody;
    };
    for next in accepted {
        if next.snapshot != prev.value {
            return Lost::Client(prev.client);
        }
        prev = next;
    }
    Lost::Nobody
}

pub fn summarize(run: &Run) -> Summary {
    let lost_update = lost_update(run);
    Summary {
        final_balance: run.final_balance,
        lost_update,
        stale_write_accepted: run.writes.iter().any(|w| w.accepted && w.stale),
        lost: if lost_update {
            victim(run)
        } else {
            Lost::Nobody
        },
        rejected: run.writes.iter().any(|w| !w.accepted),
        locked_out: locked_out(run),
    }
}

/// The first client refused by the storage while it was the rightful writer.
pub fn locked_out(run: &Run) -> Lost {
    run.writes
        .iter()
        .find(|w| !w.accepted && !w.stale)
        .map_or(Lost::Nobody, |w| Lost::Client(w.client))
}

/// Runs `sc` under `cfg` and under the ideal guard, and judges the result.
pub fn simulate<'s>(sc: &'s Scenario, cfg: &Config) -> Result<Outcome<'s>, Error> {
    let mut engine = Engine::new();
    let expected = engine
        .run_with(
            sc,
            Policy::Ideal,
            &cfg.params,
            cfg.retries,
            false,
            cfg.seed,
            cfg.naive,
        )?
        .final_balance;
    let run = engine.run(sc, cfg)?.clone();
    let s = summarize(&run);
    let overlaps = overlaps(&run);
    Ok(Outcome {
        scenario: sc,
        policy: cfg.policy,
        params: cfg.params.clone(),
        retries: cfg.retries,
        naive: cfg.naive,
        expected,
        lost_update: s.lost_update,
        stale_write_accepted: s.stale_write_accepted,
        lost: s.lost,
        locked_out: s.locked_out,
        overlaps,
        run,
    })
}

/// Where two beliefs intersect. Operations take no time in the model, so a client that is granted the
/// lock, reads, writes and lets go at one instant holds it for an instant: inside another client's
/// belief, that instant is two holders (a window of zero length). Beliefs that only touch — one ends
/// when the other begins — are a hand-over, not an overlap.
fn intersection(a: (SimTime, SimTime), b: (SimTime, SimTime)) -> Option<(SimTime, SimTime)> {
    let (from, to) = (a.0.max(b.0), a.1.min(b.1));
    let inside = |t: SimTime, w: (SimTime, SimTime)| w.0 < t && t < w.1;
    let instant_inside = (a.0 == a.1 && inside(a.0, b)) || (b.0 == b.1 && inside(b.0, a));
    (from < to || instant_inside).then_some((from, to))
}

/// Where the beliefs of two different clients intersect, merged into disjoint windows.
pub fn overlaps(run: &Run) -> Vec<(SimTime, SimTime)> {
    let mut windows = Vec::new();
    for (i, a) in run.beliefs.iter().enumerate() {
        for b in &run.beliefs[i + 1..] {
            if a.client != b.client {
                windows.extend(intersection((a.from, a.to), (b.from, b.to)));
            }
        }
    }
    // Insertion sort: a handful of windows, and the std sorts cost kilobytes of wasm.
    for i in 1..windows.len() {
        let mut j = i;
        while j > 0 && windows[j - 1] > windows[j] {
            windows.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut merged: Vec<(SimTime, SimTime)> = Vec::new();
    for (from, to) in windows {
        match merged.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => merged.push((from, to)),
        }
    }
    merged
}

/// How many retries `+retry` in an expectation stands for: enough for every catalogue scenario to settle.
pub const EXPECT_RETRIES: u32 = 3;

/// Why an expectation does not hold.
#[derive(Clone, Debug)]
pub enum Mismatch {
    /// The run itself failed (a limit, or settings the scenario cannot run with).
    Run(Error),
    /// The run differs from the expectation: one phrase per figure.
    Differs(Vec<String>),
}

/// Runs one of a scenario's expectations and compares.
pub fn check_expectation<'s>(
    sc: &'s Scenario,
    e: &crate::scenario::Expectation,
) -> Result<Outcome<'s>, Mismatch> {
    let mut cfg = Config::new(sc, e.policy);
    for &(i, v) in e.overrides.iter() {
        cfg.params[usize::from(i)] = v;
    }
    if e.retry {
        cfg.retries = EXPECT_RETRIES;
    }
    if let Some(naive) = e.naive {
        cfg.naive = naive;
    }
    let o = simulate(sc, &cfg).map_err(Mismatch::Run)?;
    let diffs = differences(sc, e, &o);
    if diffs.is_empty() {
        Ok(o)
    } else {
        Err(Mismatch::Differs(diffs))
    }
}

/// Runs one of a scenario's expectations and compares. `Err` says what differed, in words.
pub fn verify<'s>(
    sc: &'s Scenario,
    e: &crate::scenario::Expectation,
) -> Result<Outcome<'s>, String> {
    check_expectation(sc, e).map_err(|m| match m {
        Mismatch::Run(err) => format!("{}: line {}: {err}", sc.id, e.line),
        Mismatch::Differs(diffs) => format!(
            "{} line {} ({}{}{}): {}",
            sc.id,
            e.line,
            e.policy.name(),
            if e.retry { " +retry" } else { "" },
            match e.naive {
                Some(true) => " +naive",
                Some(false) => " -naive",
                None => "",
            },
            crate::text::join(&diffs, "; ")
        ),
    })
}

/// A client, or nobody, as a scenario file writes it: `B`, `none`.
fn who(sc: &Scenario, lost: Lost) -> String {
    match lost {
        Lost::Nobody => "none".into(),
        Lost::Client(i) => sc.client_name(i).into(),
    }
}

/// Clients as a scenario file lists them: `A,B`, `none`.
fn names(sc: &Scenario, clients: &[u8]) -> String {
    if clients.is_empty() {
        return "none".into();
    }
    let names = clients.iter().map(|&i| String::from(sc.client_name(i)));
    crate::text::join(names, ",")
}

/// What in the outcome differs from the expectation, one phrase each, in the file's own words:
/// `lost=none (expected lost=B)`.
fn differences(sc: &Scenario, e: &crate::scenario::Expectation, o: &Outcome) -> Vec<String> {
    let mut diffs = Vec::new();
    let mut differ = |key: &str, got: String, want: String| {
        if got != want {
            diffs.push(format!("{key}={got} (expected {key}={want})"));
        }
    };
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    if let Some(f) = e.final_balance {
        differ("final", o.run.final_balance.to_string(), f.to_string());
    }
    if let Some(x) = e.expected {
        differ("expected", o.expected.to_string(), x.to_string());
    }
    if let Some(lost) = e.lost {
        differ("lost", who(sc, o.lost), who(sc, lost));
    }
    if let Some(rej) = &e.rejected {
        let mut got: Vec<u8> = o
            .run
            .writes
            .iter()
            .filter(|w| !w.accepted)
            .map(|w| w.client)
            .collect();
        got.dedup();
        differ("rejected", names(sc, &got), names(sc, rej));
    }
    if let Some(grants) = &e.grants {
        // A quorum service: the clients that came to hold a majority; otherwise the lock service's
        // grants.
        let got: Vec<u8> = if sc.service.kind.quorum() {
            o.run.majorities.clone()
        } else {
            o.run.leases.iter().map(|l| l.client).collect()
        };
        differ("grants", names(sc, &got), names(sc, grants));
    }
    if let Some(locked) = e.locked_out {
        differ("locked-out", who(sc, o.locked_out), who(sc, locked));
    }
    if let Some(stale) = e.stale {
        differ("stale", yes_no(o.stale_write_accepted), yes_no(stale));
    }
    diffs
}

#[cfg(test)]
mod tests {
    use super::intersection;
    use crate::time::SimTime;

    fn w(a: u64, b: u64) -> (SimTime, SimTime) {
        (SimTime(a), SimTime(b))
    }

    #[test]
    fn an_instant_hold_inside_another_belief_is_an_overlap() {
        assert_eq!(intersection(w(0, 10), w(8, 8)), Some(w(8, 8)));
        assert_eq!(intersection(w(8, 8), w(0, 10)), Some(w(8, 8)));
        assert_eq!(intersection(w(0, 10), w(5, 12)), Some(w(5, 10)));
    }

    #[test]
    fn beliefs_that_only_touch_are_a_hand_over() {
        assert_eq!(intersection(w(0, 8), w(8, 8)), None);
        assert_eq!(intersection(w(0, 8), w(8, 12)), None);
        assert_eq!(intersection(w(8, 8), w(8, 12)), None);
        assert_eq!(intersection(w(0, 4), w(6, 9)), None);
    }
}
