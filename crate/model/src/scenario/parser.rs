//! The scenario parser's core: its state (the scenario so far, where it is, the errors so far), its
//! errors with their line and column, the empty scenario and its defaults, the dispatch of a line by
//! its first word, the plain `key: value` lines (id, title, summary, …), durations, and the checks on
//! the file as a whole. The other lines are read in `header.rs`, `clients.rs`, `faults.rs` and
//! `expect.rs`, and each service's own settings in its home, `services/NAME.rs`.

use super::{List, Own, Persist, Scenario, ServiceKind, ServiceSpec, Text, ERRORS_MAX};
use crate::client::Dur;
use crate::clock::Clock;
use crate::error::Error;
use crate::services::{format_of, Format, ServiceFormat};
use crate::time::{parse_duration, MS};

/// A parse under way: [`Scenario::parse_all`] runs one.
#[derive(Default)]
pub(crate) struct Parser<'t> {
    sc: Option<Scenario>,
    pub(super) line: usize,
    /// The current line as written, to turn a word of it into a column.
    raw: &'t str,
    /// The column (from 1, in characters) of the word being read: where an error points.
    col: usize,
    errors: Vec<Error>,
    /// A `service:` line was read (there may be one).
    pub(super) service_seen: bool,
}

/// The longest error message, in characters: it quotes the user's text, which may be a 64 KB line.
const MESSAGE_CHARS_MAX: usize = 300;

/// An error message as shown: one line of plain text (control characters escaped), not a screenful
/// (cut short at [`MESSAGE_CHARS_MAX`] characters).
fn shown(why: String) -> String {
    if why.chars().all(|c| !c.is_control()) && why.chars().count() <= MESSAGE_CHARS_MAX {
        return why;
    }
    let mut out = String::new();
    let mut room = MESSAGE_CHARS_MAX;
    for c in why.chars() {
        let piece: String = if c.is_control() {
            c.escape_default().collect()
        } else {
            c.to_string()
        };
        let n = piece.chars().count();
        if n >= room {
            out.push('…');
            break;
        }
        room -= n;
        out.push_str(&piece);
    }
    out
}

fn split_key(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    Some((k.trim(), v.trim()))
}

impl<'t> Parser<'t> {
    pub(crate) fn err(&self, why: impl Into<String>) -> Error {
        let id = self
            .sc
            .as_ref()
            .map_or_else(String::new, |s| s.id.to_string());
        Error::Scenario {
            id,
            line: self.line,
            col: self.col,
            why: shown(why.into()),
        }
    }

    /// Points later errors at `word`, a part of the current line (anything else leaves them where
    /// they were): the column of its first character.
    pub(super) fn focus(&mut self, word: &str) {
        let offset = (word.as_ptr() as usize).wrapping_sub(self.raw.as_ptr() as usize);
        if let Some(before) = self.raw.get(..offset) {
            self.col = before.chars().count() + 1;
        }
    }

    pub(crate) fn sc(&mut self) -> &mut Scenario {
        self.sc.get_or_insert(Scenario {
            id: Text::Borrowed(""),
            group: Text::Borrowed(""),
            title_en: Text::Borrowed(""),
            title_bn: Text::Borrowed(""),
            summary_en: Text::Borrowed(""),
            summary_bn: Text::Borrowed(""),
            source: Text::Borrowed(""),
            derived: Text::Borrowed(""),
            params: List::Borrowed(&[]),
            service: ServiceSpec {
                kind: ServiceKind::Lease,
                idle: Dur::Lit(0),
                ttl: Dur::Lit(300 * MS),
                lock_delay: Dur::Lit(0),
                tokens: true,
                lock_latency: Dur::Lit(0),
                store_latency: Dur::Lit(0),
                clock: Clock::PERFECT,
                nodes: 1,
                node_clocks: List::Borrowed(&[]),
                timeout: Dur::Lit(10 * MS),
                jitter: Dur::Lit(0),
                persist: Persist::None,
                replica_lag: Dur::Lit(0),
                first_token: 1,
                keepalive: Dur::Lit(0),
                tick: Dur::Lit(0),
                naive_default: false,
                own: Own::default_of(ServiceKind::Lease),
            },
            balance: 500,
            clients: List::Borrowed(&[]),
            faults: List::Borrowed(&[]),
            expects: List::Borrowed(&[]),
        })
    }

    pub(super) fn parse(mut self, text: &'t str) -> Result<Scenario, Vec<Error>> {
        for (n, raw) in text.lines().enumerate() {
            (self.line, self.raw) = (n + 1, raw);
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            self.focus(line);
            if let Err(e) = self.line_(line) {
                self.errors.push(e);
                if self.errors.len() == ERRORS_MAX {
                    break;
                }
            }
        }
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        self.whole().map_err(|e| vec![e])
    }

    /// The checks on the file as a whole, once every line has parsed.
    fn whole(mut self) -> Result<Scenario, Error> {
        let sc = self.sc.take().ok_or_else(|| Error::Scenario {
            id: String::new(),
            line: 0,
            col: 0,
            why: "empty scenario".into(),
        })?;
        for (what, value) in [
            ("id", &*sc.id),
            ("title", &*sc.title_en),
            ("summary", &*sc.summary_en),
        ] {
            if value.is_empty() {
                return Err(Error::Scenario {
                    id: sc.id.to_string(),
                    line: 0,
                    col: 0,
                    why: format!("missing `{what}:`"),
                });
            }
        }
        if sc.clients.is_empty() {
            return Err(Error::Scenario {
                id: sc.id.to_string(),
                line: 0,
                col: 0,
                why: "no clients".into(),
            });
        }
        format_of(sc.service.kind).check_whole(&sc)?;
        Ok(sc)
    }

    fn line_(&mut self, line: &'t str) -> Result<(), Error> {
        if let Some(rest) = line.strip_prefix("param ") {
            return self.param(rest);
        }
        if let Some(rest) = line.strip_prefix("client ") {
            return self.client(rest);
        }
        if let Some(rest) = line.strip_prefix("expect ") {
            return self.expect(rest);
        }
        if let Some(rest) = line.strip_prefix("at ") {
            return self.fault(rest);
        }
        if let Some(rest) = line.strip_prefix("node ") {
            return self.node(rest);
        }
        let (key, value) = split_key(line)
            .ok_or_else(|| self.err(format!("expected `key: value`, got \"{line}\"")))?;
        self.focus(value);
        match key {
            "id" => {
                if value.is_empty()
                    || !value
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                {
                    return Err(self.err("id must be lowercase letters, digits and dashes"));
                }
                self.sc().id = value.to_string().into();
            }
            "group" => self.sc().group = value.to_string().into(),
            "title" => self.sc().title_en = value.to_string().into(),
            "title.bn" => self.sc().title_bn = value.to_string().into(),
            "summary" => self.sc().summary_en = value.to_string().into(),
            "summary.bn" => self.sc().summary_bn = value.to_string().into(),
            "source" => self.sc().source = value.to_string().into(),
            "derived" => self.sc().derived = value.to_string().into(),
            "balance" => {
                let b: i64 = value
                    .parse()
                    .map_err(|_| self.err("balance must be an integer"))?;
                if !(0..=1_000_000_000).contains(&b) {
                    return Err(self.err("balance must be between 0 and 1e9"));
                }
                self.sc().balance = b;
            }
            "service" => self.service(value)?,
            other => {
                self.focus(other);
                return Err(self.err(format!("unknown key \"{other}\"")));
            }
        }
        Ok(())
    }

    /// The scenario's service's own part of the format.
    pub(super) fn service_format(&mut self) -> Format {
        format_of(self.sc().service.kind)
    }

    /// A duration: a literal, or `$name`, a parameter declared before.
    pub(crate) fn dur(&mut self, text: &str) -> Result<Dur, Error> {
        self.focus(text);
        if let Some(name) = text.strip_prefix('$') {
            let i = self.sc().param_index(name).ok_or_else(|| {
                self.err(format!(
                    "unknown parameter ${name} (declare it with `param` first)"
                ))
            })?;
            return Ok(Dur::Param(i as u8));
        }
        parse_duration(text)
            .map(Dur::Lit)
            .map_err(|e| self.err(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_name_the_line() {
        let err =
            Scenario::parse("id: x\ntitle: t\nsummary: s\nclient A: acquire; fly\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "scenario \"x\", line 4: unknown operation \"fly\""
        );
        let err = Scenario::parse("id: x\nclient A: work $nope\n").unwrap_err();
        assert!(err.to_string().contains("unknown parameter $nope"), "{err}");
        let err = Scenario::parse("id: x\nparam p = 5s in 0..1s: P\n").unwrap_err();
        assert!(err.to_string().contains("within"), "{err}");
    }
}
