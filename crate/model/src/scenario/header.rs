//! The scenario's head, as the parser reads it: parameters (`param NAME = D in MIN..MAX: labels`),
//! the service line (`service: NAME key=value …`: the service, its defaults, the settings every
//! service shares, and the service's own through its home in `services/`), clock settings (a
//! client's, the server's `server-…`, a node's) and the nodes a service names (`node nK: …`, `n1,n2`).

use super::parser::Parser;
use super::{ParamSpec, Persist, PARAMS_MAX, STEPS_MAX};
use crate::clock::Clock;
use crate::error::Error;
use crate::services::{self, format_of, ServiceFormat};
use crate::time::parse_duration;

impl Parser<'_> {
    pub(super) fn param(&mut self, rest: &str) -> Result<(), Error> {
        // name = default in min..max: English label | Bengali label
        let (spec, labels) = rest
            .split_once(':')
            .ok_or_else(|| self.err("param needs `: label`"))?;
        let (name, range) = spec
            .split_once('=')
            .ok_or_else(|| self.err("param needs `name = default in min..max`"))?;
        let (default, bounds) = range
            .split_once(" in ")
            .ok_or_else(|| self.err("param needs `in min..max`"))?;
        let (min, max) = bounds
            .trim()
            .split_once("..")
            .ok_or_else(|| self.err("range must be `min..max`"))?;
        let mut us = [0; 3];
        for (slot, text) in us.iter_mut().zip([default, min, max]) {
            self.focus(text.trim());
            *slot = parse_duration(text.trim()).map_err(|e| self.err(e.to_string()))?;
        }
        let [default_us, min_us, max_us] = us;
        if !(min_us <= default_us && default_us <= max_us) {
            self.focus(default.trim());
            return Err(self.err("default must lie within min..max"));
        }
        let (en, bn) = labels.split_once('|').unwrap_or((labels, labels));
        let name = name.trim();
        self.focus(name);
        self.param_name(name)?;
        let name = name.to_string();
        self.sc().params.to_mut().push(ParamSpec {
            name: name.into(),
            default_us,
            min_us,
            max_us,
            label_en: en.trim().to_string().into(),
            label_bn: bn.trim().to_string().into(),
        });
        Ok(())
    }

    /// A new parameter's name: a word (`$name` must find it) that is not declared yet, within the limit.
    fn param_name(&mut self, name: &str) -> Result<(), Error> {
        let word = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if !word {
            return Err(self.err(format!(
                "parameter name \"{name}\" must start with a lowercase letter and hold only lowercase letters, digits, - and _"
            )));
        }
        if self.sc().param_index(name).is_some() {
            return Err(self.err(format!("parameter {name} declared twice")));
        }
        if self.sc().params.len() >= PARAMS_MAX {
            return Err(self.err(format!(
                "too many parameters; a scenario may declare at most {PARAMS_MAX}"
            )));
        }
        Ok(())
    }

    /// `service: NAME key=value …`: the service, its defaults, then its settings and its own checks.
    pub(super) fn service(&mut self, value: &str) -> Result<(), Error> {
        self.service_first()?;
        let mut words = value.split_whitespace();
        let name = words.next().unwrap_or("");
        let kind = services::named(name).ok_or_else(|| {
            self.err(format!(
                "unknown lock service \"{name}\"; expected {}",
                services::names()
            ))
        })?;
        let svc = &mut self.sc().service;
        svc.kind = kind;
        format_of(kind).defaults(svc);
        for w in words {
            self.focus(w);
            if let Some(sv) = w.strip_prefix("server-") {
                let mut clock = self.sc().service.clock.clone();
                self.clock_setting(&mut clock, sv)
                    .ok_or_else(|| self.err(format!("unknown server clock setting \"{w}\"; expected server-step=±BY@AT or server-monotonic")))??;
                self.sc().service.clock = clock;
                continue;
            }
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| self.err(format!("expected key=value, got \"{w}\"")))?;
            self.service_setting(k, v)?;
        }
        format_of(kind).check_line(self)
    }

    /// One `service:` line, before anything that depends on it (a client's `renew`, a node's name).
    fn service_first(&mut self) -> Result<(), Error> {
        if std::mem::replace(&mut self.service_seen, true) {
            return Err(self.err("`service:` declared twice"));
        }
        let sc = self.sc();
        if !(sc.clients.is_empty() && sc.faults.is_empty() && sc.expects.is_empty()) {
            return Err(
                self.err("`service:` must come before clients, nodes, faults and expectations")
            );
        }
        Ok(())
    }

    /// One `key=value` setting of a service: a shared one, or one of the service's own (a key of
    /// another service's is an error that names the service it needs).
    fn service_setting(&mut self, k: &str, v: &str) -> Result<(), Error> {
        match k {
            "ttl" => self.sc().service.ttl = self.dur(v)?,
            "lock-delay" => self.sc().service.lock_delay = self.dur(v)?,
            "lock-latency" => self.sc().service.lock_latency = self.dur(v)?,
            "store-latency" => self.sc().service.store_latency = self.dur(v)?,
            "idle" => self.sc().service.idle = self.dur(v)?,
            "tokens" => self.tokens_setting(v)?,
            "first-token" => {
                self.sc().service.first_token = v
                    .parse()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| self.err("first-token must be a positive integer"))?
            }
            "timeout" => self.sc().service.timeout = self.dur(v)?,
            "jitter" => self.sc().service.jitter = self.dur(v)?,
            "replica-lag" => self.sc().service.replica_lag = self.dur(v)?,
            "persist" => {
                self.sc().service.persist = match v {
                    "none" => Persist::None,
                    "everysec" => Persist::EverySec,
                    "always" => Persist::Always,
                    _ => return Err(self.err("persist must be none, everysec or always")),
                }
            }
            _ => return self.own_setting(k, v),
        }
        Ok(())
    }

    /// A setting that is no shared one: the scenario's service's own, another's, or unknown.
    fn own_setting(&mut self, k: &str, v: &str) -> Result<(), Error> {
        let own = self.service_format();
        if own.keys().contains(&k) {
            return own.setting(self, k, v);
        }
        Err(services::foreign_setting(self, k, v)
            .unwrap_or_else(|| self.err(format!("unknown service setting \"{k}\""))))
    }

    /// `tokens=…`: whether (and, for some, which) fencing token the service hands out, in its own word.
    fn tokens_setting(&mut self, v: &str) -> Result<(), Error> {
        let own = self.service_format();
        self.sc().service.tokens = if own.token_words().contains(&v) {
            own.token(&mut self.sc().service, v);
            true
        } else if v == "no" {
            false
        } else {
            return Err(self.err(format!("tokens must be {}", services::token_words())));
        };
        Ok(())
    }

    /// One clock setting: `clock=Nppm` (rate), `step=±BY@AT` (the reading steps by BY at true time AT),
    /// `monotonic`. `None` when `w` is not a clock setting.
    pub(super) fn clock_setting(
        &mut self,
        clock: &mut Clock,
        w: &str,
    ) -> Option<Result<(), Error>> {
        if w == "monotonic" {
            clock.monotonic = true;
            return Some(Ok(()));
        }
        if let Some(rate) = w.strip_prefix("clock=").and_then(|r| r.strip_suffix("ppm")) {
            return Some(
                match rate
                    .parse::<i64>()
                    .ok()
                    .filter(|r| (-500_000..=500_000).contains(r))
                {
                    Some(r) => {
                        clock.rate_ppm = r;
                        Ok(())
                    }
                    None => Err(self.err("clock rate must be between -500000ppm and 500000ppm")),
                },
            );
        }
        let step = w.strip_prefix("step=")?;
        let parsed = step.split_once('@').and_then(|(by, at)| {
            let at = parse_duration(at).ok()?;
            let (sign, mag) = match by.as_bytes().first()? {
                b'-' => (-1, &by[1..]),
                b'+' => (1, &by[1..]),
                _ => (1, by),
            };
            Some((at, sign * i64::try_from(parse_duration(mag).ok()?).ok()?))
        });
        Some(match parsed {
            Some(_) if clock.steps.len() >= STEPS_MAX => Err(self.err(format!(
                "too many clock steps; a clock may take at most {STEPS_MAX}"
            ))),
            Some((at, by)) if clock.steps.last().is_none_or(|&(prev, _)| prev < at) => {
                clock.steps.to_mut().push((at, by));
                Ok(())
            }
            Some(_) => Err(self.err("clock steps must be in time order")),
            None => Err(self.err(format!(
                "bad clock step \"{step}\"; expected step=±BY@AT like step=+300ms@50ms"
            ))),
        })
    }

    /// `node n3: step=+300ms@50ms` or `node n3: monotonic`: one node's own clock.
    pub(super) fn node(&mut self, rest: &str) -> Result<(), Error> {
        let (name, settings) = rest
            .split_once(':')
            .ok_or_else(|| self.err("node needs `nK: clock settings`"))?;
        self.focus(name.trim());
        let k = self.node_index(name.trim())?;
        let svc = &self.sc().service;
        let mut clocks: Vec<Clock> = (0..usize::from(svc.nodes))
            .map(|i| svc.node_clock(i).clone())
            .collect();
        for w in settings.split_whitespace() {
            self.focus(w);
            self.clock_setting(&mut clocks[usize::from(k)], w)
                .ok_or_else(|| self.err(format!("unknown node setting \"{w}\"; expected clock=Nppm, step=±BY@AT or monotonic")))??;
        }
        self.sc().service.node_clocks = clocks.into();
        Ok(())
    }

    /// `n1` … `nN` → 0 … N−1, for a service that names its nodes, declared before.
    pub(super) fn node_index(&mut self, name: &str) -> Result<u8, Error> {
        self.focus(name);
        let n = self.sc().service.nodes;
        if !self.service_format().named_nodes() {
            return Err(self.err(services::nodes_needed()));
        }
        name.strip_prefix('n')
            .and_then(|d| d.parse::<u8>().ok())
            .filter(|k| (1..=n).contains(k))
            .map(|k| k - 1)
            .ok_or_else(|| self.err(format!("unknown node \"{name}\"; expected n1 to n{n}")))
    }

    /// `n1,n2,n3` → a bit mask of nodes.
    pub(super) fn node_mask(&mut self, list: &str) -> Result<u8, Error> {
        let mut mask = 0;
        for name in list.split(',') {
            mask |= 1 << self.node_index(name.trim())?;
        }
        Ok(mask)
    }
}
