//! The field's safety table (`leaselab matrix`): every lock service × fault kind × storage policy,
//! each cell decided by the exact search ([`crate::search`]) over the service's base scenario
//! (`table-NAME` in the catalogue: two clients, A first, one read-modify-write each, the service's
//! real defaults) with the fault injected ([`crate::inject`]). A cell is unsafe with the smallest
//! counterexample and the `leaselab run` arguments that reproduce it, safe within the stated bounds,
//! or not applicable with the reason.
//!
//! DESIGN: the bounds scale with each service's own time constant (its base scenario's first
//! parameter: a lease's TTL, a session's timeout), so a Kubernetes row (15 s leases) and the seed's
//! (300 ms) are searched alike: moments from 0 to one time constant, magnitudes from 0 to
//! [`Fault::reach`] of them, in steps of 1/[`fault::STEPS_PER_TIME`].

pub mod fault;
pub mod real;

pub use fault::Fault;

use crate::error::Error;
use crate::inject::Injected;
use crate::scenario::{Scenario, ServiceKind};
use crate::search::{search_injected, Found};
use crate::sim::Config;
use crate::store::Policy;

/// The catalogue group of the table's base scenarios (`table-NAME`).
pub const TABLE_GROUP: &str = "table";

/// A service's row: its base scenario and the bounds its cells are searched within.
#[derive(Clone, Debug)]
pub struct Row {
    pub service: ServiceKind,
    /// The base scenario's id (`table-NAME`).
    pub scenario: &'static str,
    /// The time constant's parameter (the base scenario's first) and its value.
    pub time_name: &'static str,
    pub time_us: u64,
}

impl Row {
    /// The row of `service`, from its base scenario in the catalogue.
    pub fn of(service: ServiceKind) -> Result<Row, Error> {
        let sc = crate::catalogue::find(&format!("table-{}", service.name()))?;
        let time = sc.params.first().ok_or_else(|| Error::BadValue {
            what: format!("scenario {}", sc.id),
            why: "a table scenario's first parameter is its service's time constant".into(),
        })?;
        Ok(Row {
            service,
            scenario: &sc.id,
            time_name: &time.name,
            time_us: time.default_us,
        })
    }

    /// The grid's step: 1/100 of the time constant.
    pub fn step_us(&self) -> u64 {
        (self.time_us / fault::STEPS_PER_TIME).max(1)
    }
}

/// A cell's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Some point within the bounds loses an update.
    Unsafe,
    /// No point within the bounds does.
    Safe,
    /// The fault or the policy does not apply to the service.
    NotApplicable,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Unsafe => "unsafe",
            Verdict::Safe => "safe",
            Verdict::NotApplicable => "n/a",
        }
    }
}

/// One cell of the table.
#[derive(Clone, Debug)]
pub struct Cell {
    pub service: ServiceKind,
    pub fault: Fault,
    pub fencing: Policy,
    pub scenario: &'static str,
    pub verdict: Verdict,
    /// Why the cell is not applicable (empty otherwise).
    pub reason: String,
    /// Points searched, engine runs taken, and distinct behaviours met (a lower bound; `None`
    /// when the search skipped boxes that could not hold a cheaper counterexample).
    pub combinations: u64,
    pub runs: u64,
    pub behaviours: Option<usize>,
    /// The counterexample's cost (the sum of its grid indices), its injected parameters (name,
    /// µs) and its injections at that point, as `--inject` takes them.
    pub cost: Option<u64>,
    pub params: Vec<(String, u64)>,
    pub injections: Vec<String>,
    /// The conformance rows (`SCENARIO POLICY`) that check this service under this fault and policy
    /// against the real server ([`real::rows_for`]).
    pub real: Vec<String>,
}

impl Cell {
    /// The arguments that make `leaselab run` reproduce the counterexample (empty unless unsafe).
    pub fn run_args(&self) -> Vec<String> {
        if self.verdict != Verdict::Unsafe {
            return Vec::new();
        }
        let mut args = vec![
            "--scenario".to_string(),
            self.scenario.to_string(),
            "--fencing".to_string(),
            self.fencing.name().to_string(),
        ];
        for inj in &self.injections {
            args.extend(["--inject".to_string(), inj.clone()]);
        }
        args
    }

    /// The lab's URL (relative to the site's root) that opens the counterexample's run: the base
    /// scenario, the policy and each injection at its point (empty unless unsafe). Its characters
    /// need no escaping in a query: ids, policy names and injections are letters, digits and `:,=.-`.
    pub fn link(&self) -> String {
        if self.verdict != Verdict::Unsafe {
            return String::new();
        }
        let mut url = format!(
            "index.html?scenario={}&fencing={}",
            self.scenario,
            self.fencing.name()
        );
        for inj in &self.injections {
            url.push_str("&inject=");
            url.push_str(inj);
        }
        url
    }
}

/// The table: each row's bounds and every cell, by service, fault and policy in the order given.
#[derive(Clone, Debug)]
pub struct Table {
    pub rows: Vec<Row>,
    pub cells: Vec<Cell>,
}

/// The table of the services, faults and policies named in three comma-separated lists (an empty
/// list: every one), as a page asks for it: each name checked, the first unknown one refused.
pub fn table_named(services: &str, faults: &str, policies: &str) -> Result<Table, Error> {
    let services = named(services, &ServiceKind::ALL, |name| {
        ServiceKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| Error::BadValue {
                what: format!("service \"{name}\""),
                why: "no such lock service".into(),
            })
    })?;
    let faults = named(faults, &Fault::ALL, Fault::parse)?;
    let policies = named(policies, &Policy::ALL, Policy::parse)?;
    table(&services, &faults, &policies)
}

/// The items a comma-separated list names (`parse` each), or `all` for an empty list.
fn named<T: Copy>(
    list: &str,
    all: &[T],
    parse: impl Fn(&str) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    if list.is_empty() {
        return Ok(all.to_vec());
    }
    list.split(',').map(parse).collect()
}

/// The table of `services` × `faults` × `policies`.
pub fn table(
    services: &[ServiceKind],
    faults: &[Fault],
    policies: &[Policy],
) -> Result<Table, Error> {
    let mut rows = Vec::new();
    let mut cells = Vec::new();
    for &service in services {
        let row = Row::of(service)?;
        let sc = crate::catalogue::find(row.scenario)?;
        for &fault in faults {
            for &policy in policies {
                cells.push(cell(&row, sc, fault, policy)?);
            }
        }
        rows.push(row);
    }
    Ok(Table { rows, cells })
}

/// One cell: the search of each of the fault's variants, the smallest counterexample of them all.
pub fn cell(row: &Row, sc: &Scenario, fault: Fault, policy: Policy) -> Result<Cell, Error> {
    let mut cell = Cell {
        service: row.service,
        fault,
        fencing: policy,
        scenario: row.scenario,
        verdict: Verdict::Safe,
        reason: String::new(),
        combinations: 0,
        runs: 0,
        behaviours: Some(0),
        cost: None,
        params: Vec::new(),
        injections: Vec::new(),
        real: real::rows_for(row.service, fault, policy),
    };
    if policy.reads_token() && !sc.service.tokens {
        return Ok(not_applicable(
            cell,
            format!(
                "{} gives no fencing token for the storage to check",
                row.service.name()
            ),
        ));
    }
    if fault == Fault::ServerClock && !row.service.expires() {
        return Ok(not_applicable(
            cell,
            format!(
                "{}'s lock has no TTL: no wall clock of the server's ends it",
                row.service.name()
            ),
        ));
    }
    if let Some(why) = fault.not_applicable(row.service) {
        return Ok(not_applicable(cell, why.to_string()));
    }
    for texts in fault.injections(sc, row.time_us) {
        let mut inj = Injected::none(sc);
        if let Some(e) = texts.iter().find_map(|t| inj.add(t).err()) {
            return Ok(not_applicable(cell, refusal(&e)));
        }
        let found = search_injected(&inj, &Config::new(&inj.scenario, policy), &inj.dims)?;
        take(&mut cell, &inj, &texts, &found);
    }
    Ok(cell)
}

/// Adds one variant's search to the cell: its counts, and its counterexample if cheaper.
fn take(cell: &mut Cell, inj: &Injected, texts: &[String], found: &Found) {
    cell.combinations += found.combinations;
    cell.runs += found.runs;
    cell.behaviours = cell
        .behaviours
        .zip(found.behaviours.as_ref())
        .map(|(n, keys)| n + keys.len());
    let Some(c) = &found.counterexample else {
        return;
    };
    if cell.cost.is_some_and(|cost| cost <= c.cost) {
        return;
    }
    cell.verdict = Verdict::Unsafe;
    cell.cost = Some(c.cost);
    let sc = &inj.scenario;
    cell.params = inj
        .dims
        .iter()
        .map(|d| (sc.params[d.param].name.to_string(), c.params[d.param]))
        .collect();
    cell.injections = at_point(texts, &cell.params);
}

/// The injections `texts` (ranges) at the point `params` (their parameters' values, in order).
fn at_point(texts: &[String], params: &[(String, u64)]) -> Vec<String> {
    let mut values = params.iter().map(|(_, us)| *us);
    texts
        .iter()
        .map(|text| {
            let mut fields = text.split(',');
            let head = fields.next().unwrap_or_default().to_string();
            fields.fold(head, |out, field| {
                let key = field.split_once('=').map_or(field, |(k, _)| k);
                let us = values.next().unwrap_or_default();
                format!("{out},{key}={}ms", crate::time::Millis(us))
            })
        })
        .collect()
}

fn not_applicable(mut cell: Cell, reason: String) -> Cell {
    cell.verdict = Verdict::NotApplicable;
    cell.reason = reason;
    cell.behaviours = None;
    cell
}

/// An injection's refusal as a reason: the error's why, without its "bad …:" frame.
fn refusal(e: &Error) -> String {
    match e {
        Error::BadValue { why, .. } => why.clone(),
        other => other.to_string(),
    }
}
