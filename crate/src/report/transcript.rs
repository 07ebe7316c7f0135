//! The transcript: the seed's lines for the seed's events, a few more for the catalogue's extra steps,
//! then `final = …  (expected: …)` and the verdict line. A lock service words its own events
//! ([`crate::services::say`]); this file words the clients' and the storage's.

use super::{scenario_of, tok, verdict_line};
use crate::outcome::Outcome;
use crate::scenario::{Lost, Scenario, CLIENTS_MAX};
use crate::services::Said;
use crate::store::Refusal;
use crate::time::{Millis, PySeconds};
use crate::trace::{TraceEvent, What};

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
        if let What::Round {
            acquired: false, ..
        } = e.what
        {
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
    if let Lost::Client(c) = o.locked_out {
        let who = sc.client_name(c);
        lines.push(format!(
            "LOCKED OUT: the storage refused {who}'s write while {who} held the lock by right"
        ));
    }
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
        match e.what {
            What::PauseStart {
                token,
                read,
                dur_us,
            } => self.pause(who, token, read, dur_us),
            What::PauseEnd => self.woke[i] = true,
            What::WriteSent {
                token,
                value,
                held_us,
            } if held_us > 0 => {
                self.held[i] = true;
                let (t, d) = (tok(self.sc, token), PySeconds(held_us));
                self.lines.push(format!(
                    "{who}: write {value}{t} sent; the network holds it {d}s..."
                ));
            }
            What::WriteAccepted { token, value } => self.write(e.client, token, value, None),
            What::WriteRejected {
                token,
                value,
                reason,
            } => self.write(e.client, token, value, Some(reason)),
            What::ReadRejected { token, reason } => {
                let verdict = refusal_word(reason);
                self.lines
                    .push(format!("{who}: read{} → {verdict}", tok(self.sc, token)));
                self.refused[i] = true;
            }
            What::Check {
                ok,
                left_us,
                need_us,
            } => self.check(who, ok, left_us, need_us),
            What::RenewDenied => self
                .lines
                .push(format!("{who}: renewal refused: the lease is gone")),
            What::ServerClockStep { by_us } => self.lines.push(clock_step_line("server", by_us)),
            What::ClockStep { by_us } => self.lines.push(clock_step_line(&who.to_string(), by_us)),
            What::Retry { attempt } => {
                self.woke[i] = false;
                self.held[i] = false;
                self.lines.push(format!(
                    "{who}: retry {attempt}: acquire, read and work again"
                ));
            }
            // An injected cut, on a service that does not word it (one that names its servers does).
            What::Partition { cut, .. } => self.lines.push(if cut {
                format!("network: {who} cut off from the lock service (what it and the service send waits)")
            } else {
                format!("network: {who} reconnected to the lock service")
            }),
            What::GaveUp if !self.refused[i] => self.lines.push(format!("{who}: gives up")),
            #[cfg(feature = "libraries")]
            What::Notice { note } => {
                let line = notice_line(self.sc, who, e.client, note);
                self.lines.push(line);
            }
            _ => {}
        }
    }

    fn pause(&mut self, who: char, token: u64, read: Option<i64>, dur_us: u64) {
        let d = PySeconds(dur_us);
        if token == 0 && read.is_none() && self.sc.service.tokens {
            // Frozen before it holds anything (its grant may be on the way).
            self.lines.push(format!("{who}: pause {d}s..."));
            return;
        }
        let mut what: Vec<String> = Vec::new();
        if self.sc.service.tokens {
            what.push(tok(self.sc, token).trim_start().to_string());
        }
        if let Some(read) = read {
            what.push(format!("read={read}"));
        }
        what.push(format!("pause {d}s..."));
        self.lines
            .push(format!("{who}: {}", crate::text::join(&what, ", ")));
    }

    /// A write reached the storage: accepted (`refused` none) or refused.
    fn write(&mut self, c: u8, token: u64, value: i64, refused: Option<Refusal>) {
        let who = self.sc.client_name(c);
        let i = usize::from(c);
        let verdict = match refused {
            None => "ACCEPTED",
            Some(reason) => refusal_word(reason),
        };
        let t = tok(self.sc, token);
        let line = if self.woke[i] {
            format!("{who}: woke, write {value}{t} → {verdict}")
        } else if self.held[i] {
            format!("{who}: write {value}{t} arrives → {verdict}")
        } else if self.sc.service.tokens {
            format!("{who}:{t} → {verdict}") // the seed's "B: tok=2 → ACCEPTED"
        } else {
            format!("{who}: write {value} → {verdict}")
        };
        self.lines.push(line);
        self.woke[i] = false;
        self.held[i] = false;
        self.refused[i] = refused.is_some();
    }

    fn check(&mut self, who: char, ok: bool, left_us: Option<i64>, need_us: u64) {
        let need = Millis(need_us);
        let Some(left) = left_us else {
            self.lines.push(format!(
                "{who}: check: no lease, {need} ms needed → give up this attempt"
            ));
            return;
        };
        if left >= i64::MAX / 2 {
            // A lock without a TTL (a session's): no end by the client's own reckoning.
            self.lines.push(format!(
                "{who}: check: it still holds the lock, with no end in sight → go on"
            ));
            return;
        }
        let left = if left < 0 {
            format!("-{}", Millis(left.unsigned_abs()))
        } else {
            Millis(left as u64).to_string()
        };
        let (cmp, then) = if ok {
            ("≥", "go on")
        } else {
            ("<", "give up this attempt")
        };
        self.lines.push(format!(
            "{who}: check: {left} ms left {cmp} {need} ms needed → {then}"
        ));
    }
}

/// How a refused access reads: a failed session, or a guard's rejection.
fn refusal_word(reason: Refusal) -> &'static str {
    if reason == Refusal::SessionGone {
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

/// A library's notice in English: what the library said, and what it means.
#[cfg(feature = "libraries")]
fn notice_line(sc: &Scenario, who: char, c: u8, note: crate::trace::Note) -> String {
    use crate::trace::Note;
    let lib = sc.clients[usize::from(c)]
        .library
        .map_or("its library", |l| l.name());
    let truth = |t: bool| if t { "it does" } else { "it does not" };
    match note {
        Note::ReleaseRaised => {
            let raised = sc.clients[usize::from(c)]
                .library
                .and_then(|l| l.raises())
                .unwrap_or("an error");
            format!("{who}: {lib}'s release raises {raised}: the lock was no longer its own")
        }
        Note::RenewalDied => format!(
            "{who}: {lib}'s renewal failed and stopped; the application hears nothing of it"
        ),
        Note::SessionDone => format!("{who}: {lib}'s session is done (its lease expired)"),
        Note::OwnedYes { truth: t } => format!(
            "{who}: asks {lib} whether it holds the lock → yes (in truth {})",
            truth(t)
        ),
        Note::OwnedNo { truth: t } => format!(
            "{who}: asks {lib} whether it holds the lock → no (in truth {}): gives the attempt up",
            truth(t)
        ),
        Note::ListenerOk => {
            format!("{who}: {lib}'s listener has heard nothing that loses the lock → goes on")
        }
        Note::ListenerLost => {
            format!("{who}: {lib}'s listener heard the lock lost → gives the attempt up")
        }
    }
}
