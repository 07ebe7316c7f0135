//! A scenario from outside the catalogue — a user's file, or text a page embeds — read within limits,
//! parsed with every error located by line and column, and its expectation lines checked as the
//! catalogue's are (`crate/tests/scenarios.rs`). What `leaselab check` and `run --file` print.
//!
//! The text is untrusted: reading stops past [`TEXT_BYTES_MAX`], the parser refuses anything beyond
//! its limits (clients, operations, parameters, faults, expectations, clock steps), and every run
//! stops at the engine's limits ([`crate::sim::EVENTS_MAX`], [`crate::sim::SIM_TIME_US_MAX`]) with an
//! error naming the limit. Nothing here panics on any input; `tests/fuzz.rs` holds it to that.

use std::io::Read;

use crate::error::Error;
use crate::outcome::{check_expectation, Mismatch};
use crate::scenario::{Expectation, Scenario, TEXT_BYTES_MAX};
use crate::time::Millis;

/// One error in a scenario's text, where it is: `line` and `col` count from 1 (`col` in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl Diagnostic {
    /// An error of the file as a whole (a missing `id:`, no clients) points at its start.
    fn of(e: Error) -> Diagnostic {
        match e {
            Error::Scenario { line, col, why, .. } => Diagnostic {
                line: line.max(1),
                col: if line == 0 { 1 } else { col.max(1) },
                message: why,
            },
            other => Diagnostic {
                line: 1,
                col: 1,
                message: other.to_string(),
            },
        }
    }

    /// `PATH:LINE:COL: message`, the form editors and compilers use.
    pub fn located(&self, path: &str) -> String {
        format!("{path}:{}:{}: {}", self.line, self.col, self.message)
    }
}

/// Reads a scenario's text: at most [`TEXT_BYTES_MAX`] bytes (more is refused without reading it all),
/// and UTF-8 (the first byte that is not is located).
pub fn read_text(source: impl Read) -> Result<String, Diagnostic> {
    let mut bytes = Vec::new();
    let limit = TEXT_BYTES_MAX as u64 + 1;
    if let Err(e) = source.take(limit).read_to_end(&mut bytes) {
        return Err(Diagnostic::of(Error::BadValue {
            what: "scenario file".into(),
            why: e.to_string(),
        }));
    }
    if bytes.len() > TEXT_BYTES_MAX {
        return Err(Diagnostic {
            line: 1,
            col: 1,
            message: format!(
                "the file is longer than {TEXT_BYTES_MAX} bytes, the most a scenario may be"
            ),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let good = std::str::from_utf8(good).unwrap_or_default();
        let line_start = good.rfind('\n').map_or(0, |i| i + 1);
        Diagnostic {
            line: good.matches('\n').count() + 1,
            col: good[line_start..].chars().count() + 1,
            message: "not UTF-8 text".into(),
        }
    })
}

/// Parses a scenario's text, or locates every error in it (see [`Scenario::parse_all`]).
pub fn parse(text: &str) -> Result<Scenario, Vec<Diagnostic>> {
    Scenario::parse_all(text).map_err(|errors| errors.into_iter().map(Diagnostic::of).collect())
}

/// One expectation line, run.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The line of the `expect`.
    pub line: usize,
    /// Its policy and flags as written: `none +retry pause=200ms`.
    pub head: String,
    pub result: Result<(), Mismatch>,
}

impl Verdict {
    /// Whether the run itself failed (a limit), rather than differing from the expectation.
    pub fn is_error(&self) -> bool {
        matches!(self.result, Err(Mismatch::Run(_)))
    }

    /// What went wrong, located; `None` when the expectation holds.
    pub fn diagnostic(&self) -> Option<Diagnostic> {
        let why = match &self.result {
            Ok(()) => return None,
            Err(Mismatch::Run(e)) => e.to_string(),
            Err(Mismatch::Differs(diffs)) => {
                format!("does not hold: {}", crate::text::join(diffs, "; "))
            }
        };
        Some(Diagnostic {
            line: self.line,
            col: 1,
            message: format!("expect {}: {why}", self.head),
        })
    }
}

/// An expectation's policy and flags, as a file writes them.
fn head(sc: &Scenario, e: &Expectation) -> String {
    let mut head = e.policy.name().to_string();
    if e.retry {
        head.push_str(" +retry");
    }
    match e.naive {
        Some(true) => head.push_str(" +naive"),
        Some(false) => head.push_str(" -naive"),
        None => {}
    }
    for &(i, us) in e.overrides.iter() {
        let name = sc.params.get(usize::from(i)).map_or("?", |p| &*p.name);
        head.push_str(&format!(" {name}={}ms", Millis(us)));
    }
    head
}

/// Runs every expectation line of the scenario, in order.
pub fn check_expectations(sc: &Scenario) -> Vec<Verdict> {
    sc.expects
        .iter()
        .map(|e| Verdict {
            line: e.line,
            head: head(sc, e),
            result: check_expectation(sc, e).map(|_| ()),
        })
        .collect()
}

/// One line about a scenario that parsed: its id, service, clients, parameters, faults, and how many
/// expectation lines hold.
pub fn summary(sc: &Scenario, verdicts: &[Verdict]) -> String {
    let names = |n: usize, one: &str, many: &str, list: String| match n {
        0 => format!("no {many}"),
        1 => format!("1 {one} ({list})"),
        _ => format!("{n} {many} ({list})"),
    };
    let clients: Vec<String> = sc.clients.iter().map(|c| c.name.to_string()).collect();
    let params: Vec<&str> = sc.params.iter().map(|p| &*p.name).collect();
    let holding = verdicts.iter().filter(|v| v.result.is_ok()).count();
    let expectations = match verdicts.len() {
        0 => "no expectations".to_string(),
        n => format!("{holding} of {n} expectations hold"),
    };
    format!(
        "scenario \"{}\": service {}, {}, {}, {} fault{}; {expectations}",
        sc.id,
        sc.service.kind.name(),
        names(clients.len(), "client", "clients", clients.join(", ")),
        names(params.len(), "parameter", "parameters", params.join(", ")),
        sc.faults.len(),
        if sc.faults.len() == 1 { "" } else { "s" },
    )
}
