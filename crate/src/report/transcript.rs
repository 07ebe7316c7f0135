//! The transcript: the seed's lines for the seed's events, a few more for the catalogue's extra steps,
//! then `final = …  (expected: …)` and the verdict line. A lock service words its own events
//! ([`crate::services::say`]); this file words the clients' and the storage's.

use super::{scenario_of, tok, verdict_line};
use crate::outcome::Outcome;
use crate::scenario::{Scenario, CLIENTS_MAX};
use crate::services::Said;
use crate::store::Refusal;
use crate::time::{Millis, PySeconds};
use crate::trace::{Kind, TraceEvent};

/// The transcript of an outcome, one line per entry.
pub fn transcript(o: &Outcome) -> Vec<String> {
    let sc = scenario_of(o);
    let mut scribe = Scribe {
        sc,
        lines: Vec::new(),
        woke: [false; CLIENTS_MAX],
        held: [false; CLIENTS_MAX],
        refused: [false; CLIENTS_MAX],
    };
    for e in &o.run.trace {
        if e.kind == Kind::RedlockFailed {
            // What it writes next follows a fresh acquisition, not the pause.
            scribe.woke[usize::from(e.client)] = false;
        }
        match crate::services::say(sc, e) {
            Some(Said::Line(line)) => scribe.lines.push(line),
            Some(Said::Nothing) => {}
            None => scribe.client_event(e),
        }
    }
    let mut lines = collapse(scribe.lines);
    lines.push(format!(
        "final = {}  (expected: {})",
        o.run.final_balance, o.expected
    ));
    lines.push(verdict_line(o));
    lines
}

/// Runs of the same line (a contender polling a held lock) collapse into one, with a count.
fn collapse(lines: Vec<String>) -> Vec<String> {
    let mut runs: Vec<(String, u32)> = Vec::with_capacity(lines.len());
    for line in lines {
        match runs.last_mut() {
            Some((last, n)) if *last == line => *n += 1,
            _ => runs.push((line, 1)),
        }
    }
    runs.into_iter()
        .map(|(line, n)| {
            if n > 1 {
                format!("{line} (×{n})")
            } else {
                line
            }
        })
        .collect()
}

/// Writes the lines, remembering per client what the next write line should say.
struct Scribe<'a> {
    sc: &'a Scenario,
    lines: Vec<String>,
    /// A pause ended since the client's last write: its write line says "woke".
    woke: [bool; CLIENTS_MAX],
    /// The network held its write: the line says "arrives".
    held: [bool; CLIENTS_MAX],
    /// Its last access was refused: a give-up right after needs no line of its own.
    refused: [bool; CLIENTS_MAX],
}

impl Scribe<'_> {
    fn client_event(&mut self, e: &TraceEvent) {
        let who = self.sc.client_name(e.client);
        let i = usize::from(e.client);
        match e.kind {
            Kind::PauseStart => self.pause(e),
            Kind::PauseEnd => self.woke[i] = true,
            Kind::WriteSent if e.aux > 0 => {
                self.held[i] = true;
                let (value, t, d) = (e.value, tok(self.sc, e.token), PySeconds(e.aux));
                self.lines.push(format!(
                    "{who}: write {value}{t} sent; the network holds it {d}s..."
                ));
            }
            Kind::WriteAccepted | Kind::WriteRejected => self.write(e),
            Kind::ReadRejected => {
                let verdict = refusal_word(e.reason);
                self.lines
                    .push(format!("{who}: read{} → {verdict}", tok(self.sc, e.token)));
                self.refused[i] = true;
            }
            Kind::CheckOk | Kind::CheckFailed => self.check(e),
            Kind::RenewDenied => self
                .lines
                .push(format!("{who}: renewal refused: the lease is gone")),
            Kind::ServerClockStep | Kind::ClockStep => {
                let whose = if e.kind == Kind::ClockStep {
                    who.to_string()
                } else {
                    "server".to_string()
                };
                self.lines.push(clock_step_line(&whose, e.value));
            }
            Kind::Retry => {
                self.woke[i] = false;
                self.held[i] = false;
                self.lines.push(format!(
                    "{who}: retry {}: acquire, read and work again",
                    e.aux
                ));
            }
            Kind::GaveUp if !self.refused[i] => self.lines.push(format!("{who}: gives up")),
            _ => {}
        }
    }

    fn pause(&mut self, e: &TraceEvent) {
        let who = self.sc.client_name(e.client);
        let d = PySeconds(e.aux);
        if e.token == 0 && e.value == i64::MIN && self.sc.service.tokens {
            // Frozen before it holds anything (its grant may be on the way).
            self.lines.push(format!("{who}: pause {d}s..."));
            return;
        }
        let mut what: Vec<String> = Vec::new();
        if self.sc.service.tokens {
            what.push(format!("tok={}", e.token));
        }
        if e.value != i64::MIN {
            what.push(format!("read={}", e.value));
        }
        what.push(format!("pause {d}s..."));
        self.lines.push(format!("{who}: {}", what.join(", ")));
    }

    fn write(&mut self, e: &TraceEvent) {
        let who = self.sc.client_name(e.client);
        let i = usize::from(e.client);
        let verdict = if e.kind == Kind::WriteAccepted {
            "ACCEPTED"
        } else {
            refusal_word(e.reason)
        };
        let t = tok(self.sc, e.token);
        let line = if self.woke[i] {
            format!("{who}: woke, write {}{t} → {verdict}", e.value)
        } else if self.held[i] {
            format!("{who}: write {}{t} arrives → {verdict}", e.value)
        } else if self.sc.service.tokens {
            format!("{who}:{t} → {verdict}") // the seed's "B: tok=2 → ACCEPTED"
        } else {
            format!("{who}: write {} → {verdict}", e.value)
        };
        self.lines.push(line);
        self.woke[i] = false;
        self.held[i] = false;
        self.refused[i] = e.kind == Kind::WriteRejected;
    }

    fn check(&mut self, e: &TraceEvent) {
        let who = self.sc.client_name(e.client);
        let left = if e.value < 0 {
            format!("-{}", Millis(e.value.unsigned_abs()))
        } else {
            Millis(e.value as u64).to_string()
        };
        let (cmp, then) = if e.kind == Kind::CheckOk {
            ("≥", "go on")
        } else {
            ("<", "give up this attempt")
        };
        self.lines.push(format!(
            "{who}: check: {left} ms left {cmp} {} ms needed → {then}",
            Millis(e.aux)
        ));
    }
}

/// How a refused access reads: a failed session, or a guard's rejection.
fn refusal_word(reason: Option<Refusal>) -> &'static str {
    if reason == Some(Refusal::SessionGone) {
        "FAILED (the session is gone)"
    } else {
        "REJECTED"
    }
}

/// `n2: wall clock steps +300 ms`.
pub(crate) fn clock_step_line(whose: &str, by_us: i64) -> String {
    let sign = if by_us < 0 { "-" } else { "+" };
    format!(
        "{whose}: wall clock steps {sign}{} ms",
        Millis(by_us.unsigned_abs())
    )
}
