//! Expectation lines, as the parser reads them: `expect POLICY [+retry] [+naive|-naive] [NAME=D …]:
//! key=value …` — the policy, the flags, the parameter overrides, and each expected key.

use super::parser::Parser;
use super::{Expectation, Lost, EXPECTS_MAX};
use crate::error::Error;
use crate::store::Policy;
use crate::time::parse_duration;

impl Parser<'_> {
    /// `expect POLICY [flags] [NAME=D …]: key=value …`: an expected outcome.
    pub(super) fn expect(&mut self, rest: &str) -> Result<(), Error> {
        let (head, body) = rest
            .split_once(':')
            .ok_or_else(|| self.err("expect needs `POLICY: key=value …`"))?;
        if self.sc().expects.len() >= EXPECTS_MAX {
            return Err(self.err(format!(
                "too many expectations; a scenario may have at most {EXPECTS_MAX}"
            )));
        }
        let mut head_words = head.split_whitespace();
        let policy = head_words.next().unwrap_or(head);
        self.focus(policy);
        let policy = Policy::parse(policy).map_err(|e| self.err(e.to_string()))?;
        let (mut retry, mut naive) = (false, None);
        let mut overrides = Vec::new();
        for w in head_words {
            self.focus(w);
            if w == "+retry" {
                retry = true;
            } else if w == "+naive" || w == "-naive" {
                naive = Some(w == "+naive");
            } else if let Some((k, v)) = w.split_once('=') {
                overrides.push(self.override_(&overrides, k, v)?);
            } else {
                return Err(self.err(format!("unexpected \"{w}\" in expect")));
            }
        }
        let mut e = Expectation {
            policy,
            retry,
            naive,
            overrides: overrides.into(),
            final_balance: None,
            expected: None,
            lost: None,
            rejected: None,
            stale: None,
            grants: None,
            locked_out: None,
            line: self.line,
        };
        for kv in body.split_whitespace() {
            self.focus(kv);
            self.expectation(&mut e, kv)?;
        }
        self.sc().expects.to_mut().push(e);
        Ok(())
    }

    /// `NAME=D` in an expectation's head: a declared parameter, once, within its range.
    fn override_(&mut self, seen: &[(u8, u64)], k: &str, v: &str) -> Result<(u8, u64), Error> {
        let i = self
            .sc()
            .param_index(k)
            .ok_or_else(|| self.err(format!("unknown parameter \"{k}\"")))?;
        if seen.iter().any(|&(j, _)| usize::from(j) == i) {
            return Err(self.err(format!("parameter {k} given twice")));
        }
        let us = parse_duration(v).map_err(|e| self.err(e.to_string()))?;
        self.sc()
            .check_param(i, us)
            .map_err(|e| self.err(e.to_string()))?;
        Ok((i as u8, us))
    }

    /// One `key=value` of an expectation's body.
    fn expectation(&mut self, e: &mut Expectation, kv: &str) -> Result<(), Error> {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| self.err(format!("expected key=value, got \"{kv}\"")))?;
        match k {
            "final" => {
                e.final_balance = Some(
                    v.parse()
                        .map_err(|_| self.err("final must be an integer"))?,
                )
            }
            "expected" => {
                e.expected = Some(
                    v.parse()
                        .map_err(|_| self.err("expected must be an integer"))?,
                )
            }
            "lost" | "locked-out" => {
                let who = if v == "none" {
                    Lost::Nobody
                } else {
                    Lost::Client(self.client_index(v)?)
                };
                if k == "lost" {
                    e.lost = Some(who);
                } else {
                    e.locked_out = Some(who);
                }
            }
            "rejected" | "grants" => {
                let mut who = Vec::new();
                if v != "none" {
                    for n in v.split(',') {
                        who.push(self.client_index(n)?);
                    }
                }
                if k == "rejected" {
                    e.rejected = Some(who.into());
                } else {
                    e.grants = Some(who.into());
                }
            }
            "stale" => {
                e.stale = Some(match v {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(self.err("stale must be yes or no")),
                })
            }
            other => return Err(self.err(format!("unknown expectation \"{other}\""))),
        }
        Ok(())
    }
}
