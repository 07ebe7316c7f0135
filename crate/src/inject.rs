//! Injected faults: what a scenario does not parameterise — a freeze of any client, a client cut off
//! from the lock service, a delay on a client–server link, a clock step on any node — added to a copy
//! of the scenario as new parameters, so that a search varies them like its own (`leaselab search
//! --inject`).
//!
//! Each injection is `KIND:TARGET,KEY=RANGE[,KEY=RANGE]`, a `RANGE` being `FROM..TO:STEP` or one
//! duration:
//!
//! | injection | adds the parameters |
//! |---|---|
//! | `freeze:B,at=R,for=R` — B freezes at true time `at` for `for` | `freeze_B_at`, `freeze_B_for` |
//! | `delay:B-store,by=R` — B's writes are held `by` on their way to the storage | `delay_B_store` |
//! | `delay:B-n2,by=R` — B's link to lock node n2 (of a quorum service) takes `by` each way | `delay_B_n2` |
//! | `delay:lock,by=R` / `delay:store,by=R` — every client's link to the lock service / storage | `delay_lock` / `delay_store` |
//! | `cut:B,at=R,for=R` — B is cut off from the lock service at true time `at` for `for` | `cut_B_at`, `cut_B_for` |
//! | `step:B,at=R,back=R` (or `ahead=R`) — B's clock jumps at true time `at` | `step_B_at`, `step_B_back` |
//! | `step:server,…` (the lock server), `step:n3,…` (a quorum service's node n3) | `step_server_at`, … |
//! | `crash:n1,at=R[,restart=R]` — a quorum service's node n1 crashes at `at`, keeping what its `persist` mode saved, and restarts `restart` later by its own clock | `crash_n1_at`, `crash_n1_restart` |
//! | `failover:server,at=R[,lag=R]` — a single redis's master dies at `at`; its async replica, `lag` behind (else the scenario's `replica-lag`), takes over | `failover_server_at`, `failover_server_lag` |
//!
//! DESIGN: a freeze, a cut, a delay, a crash and a failover become the scenario's own `Dur::Param`s,
//! so the engine runs them unchanged. A clock's steps are literals in the model, so an injected step is written into the
//! copy's clock before each run ([`Injected::apply`]); only a clock without steps of its own takes
//! one, so the step is the clock's only one and its times stay in order. Every time that depends on
//! an injected value is affine in it and compared through the engine's `decide`, so the search stays
//! exact (tests/search_exact.rs runs every point of grids with injected dimensions).

use std::borrow::Cow;

use crate::client::{Dur, Op};
use crate::clock::Clock;
use crate::error::Error;
use crate::scenario::{Fault, FaultAction, ParamSpec, Scenario, ServiceKind, PARAMS_MAX};
use crate::search::Dim;
use crate::time::{parse_duration, DURATION_US_MAX};

/// Most injections in one search.
pub const INJECTIONS_MAX: usize = 8;

/// The kinds of injection, for messages.
const KINDS: &str = "freeze, cut, delay, step, crash or failover";

/// A range of values `FROM..TO:STEP` (one value: `FROM..FROM:1µs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub from_us: u64,
    pub to_us: u64,
    pub step_us: u64,
}

impl Range {
    /// `FROM..TO:STEP` or one duration.
    pub fn parse(text: &str) -> Result<Range, Error> {
        let expected = || Error::BadValue {
            what: format!("range \"{text}\""),
            why: "expected FROM..TO:STEP or one duration".into(),
        };
        let Some((range, step)) = text.rsplit_once(':') else {
            if text.contains("..") {
                return Err(expected());
            }
            let one = parse_duration(text)?;
            return Ok(Range {
                from_us: one,
                to_us: one,
                step_us: 1,
            });
        };
        let (from, to) = range.split_once("..").ok_or_else(expected)?;
        Ok(Range {
            from_us: parse_duration(from)?,
            to_us: parse_duration(to)?,
            step_us: parse_duration(step)?,
        })
    }
}

/// An injected clock step: parameter `at` is when (true time), `by` how far, back if `back`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamStep {
    node: Node,
    at: usize,
    by: usize,
    back: bool,
}

/// A node with a clock: a client, or lock server `k` (a quorum service's node `k`, else 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Client(usize),
    Server(usize),
}

/// A scenario with injected faults: its copy with the new parameters, and a dimension for each.
#[derive(Clone, Debug)]
pub struct Injected {
    /// The scenario with the injected parameters appended (defaults: each range's FROM).
    pub scenario: Scenario,
    /// One dimension per injected parameter, in the order the injections name them.
    pub dims: Vec<Dim>,
    /// The injected clock steps, written into the clocks by [`Injected::apply`].
    pub steps: Vec<ParamStep>,
    /// How many injections were added.
    added: usize,
}

impl Injected {
    /// No injection: `sc` as it is.
    pub fn none(sc: &Scenario) -> Injected {
        Injected {
            scenario: sc.clone(),
            dims: Vec::new(),
            steps: Vec::new(),
            added: 0,
        }
    }

    /// Adds the injection `text` (`KIND:TARGET,KEY=RANGE…`); its dimensions go after the others.
    /// Returns how many it added (the last of [`Injected::dims`]).
    pub fn add(&mut self, text: &str) -> Result<usize, Error> {
        let bad = |why: String| Error::BadValue {
            what: format!("injection \"{text}\""),
            why,
        };
        if self.added >= INJECTIONS_MAX {
            return Err(bad(format!("at most {INJECTIONS_MAX} injections")));
        }
        let (kind, rest) = text.split_once(':').ok_or_else(|| {
            bad(format!(
                "expected KIND:TARGET,KEY=RANGE…, KIND one of {KINDS}"
            ))
        })?;
        let mut fields = rest.split(',');
        let target = fields.next().unwrap_or_default();
        let keys = parse_keys(fields).map_err(bad)?;
        let before = self.clone(); // an injection that fails leaves nothing behind
        let dims_before = self.dims.len();
        match kind {
            "freeze" => self.freeze(target, &keys),
            "cut" if cfg!(feature = "cut") => self.cut(target, &keys),
            "delay" => self.delay(target, &keys),
            "step" => self.step(target, &keys),
            "crash" => self.crash(target, &keys),
            "failover" => self.failover(target, &keys),
            _ => Err(format!("unknown kind \"{kind}\"; expected {KINDS}")),
        }
        .map_err(|why| {
            *self = before;
            bad(why)
        })?;
        self.added += 1;
        Ok(self.dims.len() - dims_before)
    }

    /// The scenario at `params`, injected clock steps written in (what `leaselab run` would run).
    pub fn scenario_at(&self, params: &[u64]) -> Scenario {
        let mut sc = self.scenario.clone();
        Injected::apply(&self.steps, &mut sc, params);
        sc
    }

    /// Writes the injected clock steps at `params` into `sc`'s clocks (no allocation once a copy's
    /// clocks are its own: [`Injected::add`] makes them so).
    pub fn apply(steps: &[ParamStep], sc: &mut Scenario, params: &[u64]) {
        for s in steps {
            let at = params[s.at];
            let by = i64::try_from(params[s.by]).unwrap_or(i64::MAX);
            let by = if s.back { -by } else { by };
            clock_of(sc, s.node).steps.to_mut()[0] = (at, by);
        }
    }

    /// A new parameter named `name` over `range`: its index.
    fn param(
        &mut self,
        name: String,
        range: Range,
        en: String,
        bn: String,
    ) -> Result<usize, String> {
        if self.scenario.param_index(&name).is_some() {
            return Err(format!("{name} is injected twice (or the scenario has it)"));
        }
        if self.scenario.params.len() >= PARAMS_MAX {
            return Err(format!(
                "the scenario would have more than {PARAMS_MAX} parameters"
            ));
        }
        self.scenario.params.to_mut().push(ParamSpec {
            name: Cow::Owned(name.clone()),
            default_us: range.from_us,
            min_us: 0,
            max_us: DURATION_US_MAX,
            label_en: Cow::Owned(en),
            label_bn: Cow::Owned(bn),
        });
        let p = self.scenario.params.len() - 1;
        let dim = Dim::new(
            &self.scenario,
            &name,
            range.from_us,
            range.to_us,
            range.step_us,
        )
        .map_err(|e| e.to_string())?;
        self.dims.push(dim);
        Ok(p)
    }

    fn client(&self, name: &str) -> Result<usize, String> {
        let known: Vec<String> = self
            .scenario
            .clients
            .iter()
            .map(|c| c.name.to_string())
            .collect();
        let mut chars = name.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(format!(
                "unknown client \"{name}\"; expected one of: {}",
                known.join(", ")
            ));
        };
        self.scenario
            .clients
            .iter()
            .position(|s| s.name == c)
            .ok_or_else(|| {
                format!(
                    "unknown client \"{name}\"; expected one of: {}",
                    known.join(", ")
                )
            })
    }

    /// `freeze:B,at=R,for=R`: a timed freeze of B, as a scenario's `at D: pause B D2`.
    fn freeze(&mut self, target: &str, keys: &[(&str, Range)]) -> Result<(), String> {
        let c = self.client(target)?;
        let [at, length] = want(keys, ["at", "for"])?;
        if self.scenario.faults.len() >= crate::scenario::FAULTS_MAX {
            return Err("the scenario already has the most faults it may".into());
        }
        let at = self.param(
            format!("freeze_{target}_at"),
            at,
            format!("{target}'s injected freeze: when"),
            format!("{target}-এর যোগ করা স্থবিরতা: কখন"),
        )?;
        let length = self.param(
            format!("freeze_{target}_for"),
            length,
            format!("{target}'s injected freeze: how long"),
            format!("{target}-এর যোগ করা স্থবিরতা: কতক্ষণ"),
        )?;
        self.scenario.faults.to_mut().push(Fault {
            at: Dur::Param(at as u8),
            action: FaultAction::Freeze(c as u8, Dur::Param(length as u8)),
        });
        Ok(())
    }

    /// `cut:B,at=R,for=R`: B is cut off from the lock service (every link of it) from `at` for `for`.
    fn cut(&mut self, target: &str, keys: &[(&str, Range)]) -> Result<(), String> {
        let c = self.client(target)?;
        let [at, length] = want(keys, ["at", "for"])?;
        let ops = &self.scenario.clients[c].ops;
        if !ops.iter().any(|op| matches!(op, Op::Acquire { .. })) {
            return Err(format!(
                "{target} never talks to the lock service (its script has no acquire): a cut would change nothing"
            ));
        }
        if self.scenario.faults.len() >= crate::scenario::FAULTS_MAX {
            return Err("the scenario already has the most faults it may".into());
        }
        let at = self.param(
            format!("cut_{target}_at"),
            at,
            format!("{target}'s injected cut from the lock service: when"),
            format!("{target}-এর লক সার্ভিস থেকে যোগ করা বিচ্ছিন্নতা: কখন"),
        )?;
        let length = self.param(
            format!("cut_{target}_for"),
            length,
            format!("{target}'s injected cut from the lock service: how long"),
            format!("{target}-এর লক সার্ভিস থেকে যোগ করা বিচ্ছিন্নতা: কতক্ষণ"),
        )?;
        self.scenario.faults.to_mut().push(Fault {
            at: Dur::Param(at as u8),
            action: FaultAction::Cut(c as u8, Dur::Param(length as u8)),
        });
        Ok(())
    }

    /// `delay:B-store`, `delay:B-nK`, `delay:lock`, `delay:store` with `by=R`.
    fn delay(&mut self, target: &str, keys: &[(&str, Range)]) -> Result<(), String> {
        let [by] = want(keys, ["by"])?;
        let name = format!("delay_{}", target.replace('-', "_"));
        let en = format!("injected delay on the link {target}");
        let bn = format!("{target} সংযোগে যোগ করা বিলম্ব");
        match target.split_once('-') {
            None if target == "lock" || target == "store" => {
                let p = Dur::Param(self.param(name, by, en, bn)? as u8);
                let svc = &mut self.scenario.service;
                *(if target == "lock" { &mut svc.lock_latency } else { &mut svc.store_latency }) = p;
                Ok(())
            }
            Some((client, "store")) => {
                let c = self.client(client)?;
                let writes = |sc: &Scenario| {
                    sc.clients[c].ops.iter().filter(|op| matches!(op, Op::Write { .. })).count()
                };
                if writes(&self.scenario) == 0 {
                    return Err(format!("{client} never writes"));
                }
                let held = self.scenario.clients[c].ops.iter().any(|op| {
                    matches!(op, Op::Write { delay, .. } if *delay != Dur::Lit(0))
                });
                if held {
                    return Err(format!("{client}'s write already has a delay; vary it instead"));
                }
                let p = Dur::Param(self.param(name, by, en, bn)? as u8);
                for op in self.scenario.clients.to_mut()[c].ops.to_mut() {
                    if let Op::Write { delay, .. } = op {
                        *delay = p;
                    }
                }
                Ok(())
            }
            Some((client, node)) if node.starts_with('n') => {
                let c = self.client(client)?;
                let k = self.quorum_node(node)?;
                let p = Dur::Param(self.param(name, by, en, bn)? as u8);
                let links = self.scenario.clients.to_mut()[c].links.to_mut();
                links.retain(|l| usize::from(l.0) != k);
                links.push((k as u8, p));
                Ok(())
            }
            _ => Err(format!(
                "unknown link \"{target}\"; expected CLIENT-store, CLIENT-nK (a quorum service's node), lock or store"
            )),
        }
    }

    /// Node `nK` (from n1) of a service held by a quorum of nodes: its index.
    fn quorum_node(&self, name: &str) -> Result<usize, String> {
        let svc = &self.scenario.service;
        if !svc.kind.quorum() {
            return Err(format!(
                "\"{name}\" names a lock node, which only {} scenarios have; this scenario's service is {}",
                quorum_services(),
                svc.kind.name()
            ));
        }
        let k = name.strip_prefix('n').and_then(|k| k.parse::<usize>().ok());
        match k {
            Some(k) if (1..=usize::from(svc.nodes)).contains(&k) => Ok(k - 1),
            _ => Err(format!(
                "unknown node \"{name}\"; expected n1 to n{}",
                svc.nodes
            )),
        }
    }

    /// `step:NODE,at=R,back=R` or `…,ahead=R`.
    fn step(&mut self, target: &str, keys: &[(&str, Range)]) -> Result<(), String> {
        let back = keys.iter().any(|(k, _)| *k == "back");
        let [at, by] = want(keys, ["at", if back { "back" } else { "ahead" }])
            .map_err(|e| format!("{e} (a step goes back=R or ahead=R)"))?;
        let svc = &self.scenario.service;
        let quorum = svc.kind.quorum();
        let node = match target {
            "server" if quorum => {
                return Err(format!(
                    "{} has nodes n1…: step one of them",
                    svc.kind.name()
                ))
            }
            "server" => Node::Server(0),
            t if t.starts_with('n') && t.len() > 1 => Node::Server(self.quorum_node(t)?),
            t => Node::Client(
                self.client(t)
                    .map_err(|e| format!("{e}; or server, or a quorum service's node n1…"))?,
            ),
        };
        let sc = &mut self.scenario;
        if let Node::Server(_) = node {
            if sc.service.kind.quorum() && sc.service.node_clocks.is_empty() {
                let every = vec![sc.service.clock.clone(); usize::from(sc.service.nodes)];
                sc.service.node_clocks = Cow::Owned(every);
            }
        }
        let clock = clock_of(sc, node);
        if clock.monotonic {
            return Err(format!(
                "{target}'s clock is monotonic: a step would not move it"
            ));
        }
        if !clock.steps.is_empty() {
            return Err(format!("{target}'s clock already steps (once per clock)"));
        }
        clock.steps = Cow::Owned(vec![(at.from_us, 0)]);
        let way = if back { "back" } else { "ahead" };
        let at = self.param(
            format!("step_{target}_at"),
            at,
            format!("{target}'s injected clock step: when"),
            format!("{target}-এর ঘড়ির যোগ করা লাফ: কখন"),
        )?;
        let by = self.param(
            format!("step_{target}_{way}"),
            by,
            format!("{target}'s injected clock step: how far {way}"),
            format!("{target}-এর ঘড়ির যোগ করা লাফ: কতটা"),
        )?;
        self.steps.push(ParamStep { node, at, by, back });
        Ok(())
    }

    /// `crash:nK,at=R[,restart=R]`: a quorum service's node K crashes, as a scenario's
    /// `at D: crash nK [restart D2]`. Only those nodes crash in the model (`server` is refused).
    fn crash(&mut self, target: &str, keys: &[(&str, Range)]) -> Result<(), String> {
        let svc = &self.scenario.service;
        if target == "server" {
            let why = if svc.kind.quorum() {
                format!("{} has nodes n1…: crash one of them", svc.kind.name())
            } else {
                format!(
                    "{} has no crash in the model: only {} nodes crash (and restart){}",
                    svc.kind.name(),
                    quorum_services(),
                    if svc.kind == ServiceKind::Redis {
                        "; a single redis fails over (failover:server)"
                    } else {
                        ""
                    }
                )
            };
            return Err(why);
        }
        let k = self.quorum_node(target)?;
        let (at, restart) = want_optional(keys, "at", "restart")?;
        if self.scenario.faults.len() >= crate::scenario::FAULTS_MAX {
            return Err("the scenario already has the most faults it may".into());
        }
        let at = self.param(
            format!("crash_{target}_at"),
            at,
            format!("{target}'s injected crash: when"),
            format!("{target}-এর যোগ করা ক্র্যাশ: কখন"),
        )?;
        let restart = match restart {
            Some(r) => Some(Dur::Param(self.param(
                format!("crash_{target}_restart"),
                r,
                format!("{target}'s injected crash: how long until it restarts"),
                format!("{target}-এর যোগ করা ক্র্যাশ: কতক্ষণ পরে আবার চালু"),
            )? as u8)),
            None => None,
        };
        self.scenario.faults.to_mut().push(Fault {
            at: Dur::Param(at as u8),
            action: FaultAction::Crash(k as u8, restart),
        });
        Ok(())
    }

    /// `failover:server,at=R[,lag=R]`: a single redis's master dies and its async replica takes over,
    /// as a scenario's `at D: failover`; `lag` replaces the scenario's `replica-lag` (0 unless set),
    /// without which a failover loses nothing.
    fn failover(&mut self, target: &str, keys: &[(&str, Range)]) -> Result<(), String> {
        let svc = &self.scenario.service;
        if svc.kind != ServiceKind::Redis {
            return Err(format!(
                "{} has no failover in the model: only a single redis has a replica to take over",
                svc.kind.name()
            ));
        }
        if target != "server" {
            return Err(format!(
                "unknown target \"{target}\"; a failover is the server's: failover:server"
            ));
        }
        let (at, lag) = want_optional(keys, "at", "lag")?;
        if lag.is_some() && svc.replica_lag != Dur::Lit(0) {
            return Err("the scenario sets its replica-lag already: vary it instead".into());
        }
        if self.scenario.faults.len() >= crate::scenario::FAULTS_MAX {
            return Err("the scenario already has the most faults it may".into());
        }
        let at = self.param(
            "failover_server_at".into(),
            at,
            "the injected failover: when".into(),
            "যোগ করা ফেইলওভার: কখন".into(),
        )?;
        if let Some(lag) = lag {
            let lag = self.param(
                "failover_server_lag".into(),
                lag,
                "the injected failover: how far the replica lags".into(),
                "যোগ করা ফেইলওভার: রেপ্লিকা কতটা পিছিয়ে".into(),
            )?;
            self.scenario.service.replica_lag = Dur::Param(lag as u8);
        }
        self.scenario.faults.to_mut().push(Fault {
            at: Dur::Param(at as u8),
            action: FaultAction::Failover,
        });
        Ok(())
    }
}

/// The names of the services whose lock is held by a quorum of named nodes, for messages.
fn quorum_services() -> String {
    let quorum = ServiceKind::ALL.into_iter().filter(|k| k.quorum());
    crate::text::join(quorum.map(ServiceKind::name), " or ")
}

/// The clock of `node` in `sc`: a client's, the lock server's, or a quorum service's node `k`'s.
fn clock_of(sc: &mut Scenario, node: Node) -> &mut Clock {
    match node {
        Node::Client(i) => &mut sc.clients.to_mut()[i].clock,
        Node::Server(_) if sc.service.node_clocks.is_empty() => &mut sc.service.clock,
        Node::Server(k) => &mut sc.service.node_clocks.to_mut()[k],
    }
}

/// `KEY=RANGE` fields, each key once.
fn parse_keys<'t>(fields: impl Iterator<Item = &'t str>) -> Result<Vec<(&'t str, Range)>, String> {
    let mut keys: Vec<(&str, Range)> = Vec::new();
    for f in fields {
        let (k, v) = f
            .split_once('=')
            .ok_or_else(|| format!("expected KEY=RANGE, got \"{f}\""))?;
        if keys.iter().any(|(seen, _)| *seen == k) {
            return Err(format!("{k} is given twice"));
        }
        let r = Range::parse(v).map_err(|e| format!("{k}: {e}"))?;
        keys.push((k, r));
    }
    Ok(keys)
}

/// The ranges of exactly the keys `names`, in that order.
fn want<const N: usize>(keys: &[(&str, Range)], names: [&str; N]) -> Result<[Range; N], String> {
    let expected = || format!("expected the keys {}", names.join(", "));
    if keys.len() != N {
        return Err(expected());
    }
    let mut out = [Range {
        from_us: 0,
        to_us: 0,
        step_us: 1,
    }; N];
    for (slot, name) in out.iter_mut().zip(names) {
        *slot = keys
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, r)| *r)
            .ok_or_else(expected)?;
    }
    Ok(out)
}

/// The ranges of the key `must` and, if given, of the key `may` (no other key).
fn want_optional(
    keys: &[(&str, Range)],
    must: &str,
    may: &str,
) -> Result<(Range, Option<Range>), String> {
    let expected = || format!("expected the key {must}, and perhaps {may}");
    if keys.iter().any(|(k, _)| *k == may) {
        let [m, o] = want(keys, [must, may]).map_err(|_| expected())?;
        return Ok((m, Some(o)));
    }
    let [m] = want(keys, [must]).map_err(|_| expected())?;
    Ok((m, None))
}
