//! Client lines, as the parser reads them: `client A [settings]: [start D;] op; op; …` — the
//! client's name, its settings (clock, reachable nodes, links' latencies), its script and each
//! operation; and a client named later (by a fault or an expectation).

use super::parser::Parser;
use super::{CLIENTS_MAX, OPS_MAX};
use crate::client::{ClientSpec, Dur, Op};
use crate::clock::Clock;
use crate::error::Error;
use crate::libraries::LibraryKind;
use crate::services::{self, ServiceFormat};
use crate::time::MS;

/// What a build without the client libraries (the page's user-scenario wasm) says to `library=`,
/// `owned` and `listener`: one message, so that it costs that wasm one string.
#[cfg(not(feature = "libraries"))]
const NO_LIBRARIES: &str =
    "library=, owned and listener need the client libraries, which this build leaves out (the command line has them)";

impl Parser<'_> {
    pub(super) fn client(&mut self, rest: &str) -> Result<(), Error> {
        // The head ends at the first ": " (a colon alone may sit inside a setting, as in latency=n1:1ms).
        let (head, script) = rest
            .split_once(": ")
            .or_else(|| rest.split_once(':'))
            .ok_or_else(|| self.err("client needs `NAME: ops`"))?;
        let mut head_words = head.split_whitespace();
        let name = head_words.next().unwrap_or(head);
        self.focus(name);
        let letter = self.client_letter(name)?;
        if self.sc().clients.iter().any(|c| c.name == letter) {
            return Err(self.err(format!("client {letter} declared twice")));
        }
        if self.sc().clients.len() >= CLIENTS_MAX {
            return Err(self.err(format!(
                "too many clients; a scenario may declare at most {CLIENTS_MAX}"
            )));
        }
        let (clock, reach, links, library) = self.client_settings(head_words)?;
        let (start, ops) = self.script(script, library)?;
        self.sc().clients.to_mut().push(ClientSpec {
            name: letter,
            start,
            ops: ops.into(),
            clock,
            reach,
            links: links.into(),
            library,
        });
        Ok(())
    }

    fn client_letter(&mut self, name: &str) -> Result<char, Error> {
        let mut chars = name.chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            return Err(self.err("client name must be one letter"));
        };
        if !letter.is_ascii_uppercase() {
            return Err(self.err("client name must be an uppercase letter"));
        }
        Ok(letter)
    }

    /// A client's settings after its name: its clock, the nodes it reaches, its links' latencies.
    #[allow(clippy::type_complexity)]
    fn client_settings<'w>(
        &mut self,
        words: impl Iterator<Item = &'w str>,
    ) -> Result<(Clock, u8, Vec<(u8, Dur)>, Option<LibraryKind>), Error> {
        let mut clock = Clock::PERFECT;
        let mut reach = u8::MAX;
        let mut links = Vec::new();
        let mut library = None;
        for w in words {
            self.focus(w);
            if let Some(name) = w.strip_prefix("library=") {
                library = Some(self.library(name)?);
                continue;
            }
            if let Some(list) = w.strip_prefix("reach=") {
                reach = self.node_mask(list)?;
                continue;
            }
            if let Some(list) = w.strip_prefix("latency=") {
                // latency=n1:1ms,n2:3ms — one-way delay on the links to those nodes
                for item in list.split(',') {
                    let (node, d) = item
                        .split_once(':')
                        .ok_or_else(|| self.err("latency needs NODE:D pairs like n1:1ms,n2:3ms"))?;
                    let k = self.node_index(node)?;
                    if links.iter().any(|&(seen, _)| seen == k) {
                        return Err(self.err(format!("latency to {node} given twice")));
                    }
                    let d = self.dur(d)?;
                    links.push((k, d));
                }
                continue;
            }
            self.clock_setting(&mut clock, w).ok_or_else(|| {
                self.err(format!(
                    "unknown client setting \"{w}\"; expected clock=Nppm, step=±BY@AT, monotonic, reach=n1,n2, latency=n1:1ms or library=NAME"
                ))
            })??;
        }
        Ok((clock, reach, links, library))
    }

    /// `library=NAME` in a build without the libraries (the page's user-scenario wasm): refused.
    #[cfg(not(feature = "libraries"))]
    fn library(&mut self, _name: &str) -> Result<LibraryKind, Error> {
        Err(self.err(NO_LIBRARIES))
    }

    /// `library=NAME`: a library this format knows, which speaks to the scenario's service.
    #[cfg(feature = "libraries")]
    fn library(&mut self, name: &str) -> Result<LibraryKind, Error> {
        let Some(lib) = LibraryKind::by_name(name) else {
            return Err(self.err(format!(
                "unknown library \"{name}\"; the libraries are {}",
                LibraryKind::names()
            )));
        };
        let service = self.sc().service.kind;
        if lib.speaks() != service {
            let here = LibraryKind::speaking_to(service);
            let here = if here.is_empty() {
                format!("no library is modelled for {}", service.name())
            } else {
                format!("for {} use {here}", service.name())
            };
            return Err(self.err(format!(
                "library {name} speaks to {}, not {}; {here}",
                lib.speaks().name(),
                service.name()
            )));
        }
        Ok(lib)
    }

    /// A client's script: `[start D;] op; op; …`, checked (length, a read before any write).
    fn script(
        &mut self,
        script: &str,
        library: Option<LibraryKind>,
    ) -> Result<(Dur, Vec<Op>), Error> {
        let mut start = Dur::Lit(0);
        let (mut ops, mut has_read) = (Vec::new(), false);
        for (i, step) in script.split(';').map(str::trim).enumerate() {
            self.focus(step);
            let words: Vec<&str> = step.split_whitespace().collect();
            if let (0, ["start", d]) = (i, words.as_slice()) {
                start = self.dur(d)?;
                continue;
            }
            if ops.len() == OPS_MAX {
                return Err(self.err(format!(
                    "script too long; a client may have at most {OPS_MAX} operations"
                )));
            }
            let op = self.op(step, &words)?;
            if matches!(op, Op::Owned | Op::Listener) {
                self.library_op(op, library)?;
            }
            match op {
                Op::Read { .. } => has_read = true,
                Op::Write { .. } if !has_read => {
                    return Err(self.err("a write needs a read before it"))
                }
                _ => {}
            }
            ops.push(op);
        }
        Ok((start, ops))
    }

    /// One operation of a script.
    fn op(&mut self, step: &str, words: &[&str]) -> Result<Op, Error> {
        Ok(match words {
            ["acquire", rest @ ..] => self.acquire_op(rest)?,
            ["read"] => Op::Read { via_session: false },
            ["read", "via", "session"] => Op::Read { via_session: true },
            ["work", d] => Op::Work(self.dur(d)?),
            ["pause", d] => Op::Pause(self.dur(d)?),
            ["check", d] => Op::Check(self.dur(d)?),
            ["write", debit, rest @ ..] => self.write_op(debit, rest)?,
            ["release"] => Op::Release,
            // The other services keep their leases alive themselves (keepalives, heartbeats).
            ["renew"] if !self.service_format().renews() => {
                let kind = self.sc().service.kind.name();
                return Err(self.err(format!(
                    "renew is not modelled for {kind}; it is for {}",
                    services::renewers()
                )));
            }
            ["renew"] => Op::Renew,
            ["idle"] => Op::Idle,
            ["owned"] => Op::Owned,
            ["listener"] => Op::Listener,
            _ => return Err(self.err(format!("unknown operation \"{step}\""))),
        })
    }

    /// `owned` and `listener` ask the client's library: refused without one, or with one that does
    /// not offer the op (its home says why).
    #[cfg(feature = "libraries")]
    fn library_op(&mut self, op: Op, library: Option<LibraryKind>) -> Result<(), Error> {
        let word = if op == Op::Owned { "owned" } else { "listener" };
        let Some(lib) = library else {
            return Err(self.err(format!(
                "{word} asks the client's library: give the client one (library=NAME: {})",
                LibraryKind::names()
            )));
        };
        let why = if op == Op::Owned {
            lib.no_owned()
        } else {
            lib.no_listener()
        };
        match why {
            Some(why) => Err(self.err(format!("{} offers no {word}: {why}", lib.name()))),
            None => Ok(()),
        }
    }

    /// `owned` and `listener` in a build without the libraries: no library parses here (`library=`
    /// is refused), and the libraries' names and messages stay out of it (the page's wasm).
    #[cfg(not(feature = "libraries"))]
    fn library_op(&mut self, _op: Op, _library: Option<LibraryKind>) -> Result<(), Error> {
        Err(self.err(NO_LIBRARIES))
    }

    /// `acquire [every D] [tries N]`.
    fn acquire_op(&mut self, rest: &[&str]) -> Result<Op, Error> {
        let mut every = Dur::Lit(50 * MS);
        let mut tries = 0;
        let mut it = rest.iter();
        while let Some(k) = it.next() {
            let v = it
                .next()
                .ok_or_else(|| self.err(format!("`{k}` needs a value")))?;
            match *k {
                "every" => every = self.dur(v)?,
                "tries" => {
                    tries = v
                        .parse()
                        .ok()
                        .filter(|n| *n >= 1)
                        .ok_or_else(|| self.err("tries must be a positive integer"))?
                }
                _ => return Err(self.err(format!("unknown acquire option \"{k}\""))),
            }
        }
        Ok(Op::Acquire { every, tries })
    }

    /// `write DEBIT [delay D] [via session]`; a negative debit is a credit (a refund puts money back).
    fn write_op(&mut self, debit: &str, rest: &[&str]) -> Result<Op, Error> {
        let debit: i64 = debit
            .parse()
            .ok()
            .filter(|d: &i64| (-1_000_000_000..=1_000_000_000).contains(d))
            .ok_or_else(|| {
                self.err("write needs a debit between -1e9 and 1e9 (negative: a credit)")
            })?;
        let (mut delay, mut via_session) = (Dur::Lit(0), false);
        let mut it = rest.iter();
        while let Some(k) = it.next() {
            match (*k, it.next()) {
                ("delay", Some(d)) => delay = self.dur(d)?,
                ("via", Some(&"session")) => via_session = true,
                _ => return Err(self.err("write takes `write DEBIT [delay D] [via session]`")),
            }
        }
        Ok(Op::Write {
            debit,
            delay,
            via_session,
        })
    }

    /// A client declared before, by its name.
    pub(super) fn client_index(&mut self, name: &str) -> Result<u8, Error> {
        self.focus(name);
        let letter = name.chars().next().unwrap_or('?');
        self.sc()
            .clients
            .iter()
            .position(|c| c.name == letter && name.len() == 1)
            .map(|i| i as u8)
            .ok_or_else(|| {
                self.err(format!(
                    "unknown client \"{name}\" (declare clients before expectations)"
                ))
            })
    }
}
