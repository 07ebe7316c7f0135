//! `leaselab matrix`: the field's safety table, as text (a grid per storage policy, then each
//! unsafe cell's reproduction, the reasons of the cells that do not apply and the bounds) or JSON.

use std::io::Write as _;
use std::process::ExitCode;

use leaselab::matrix::{table, Fault, Table, Verdict};
use leaselab::scenario::ServiceKind;
use leaselab::time::Millis;
use leaselab::{report, Policy};

use crate::args::MatrixArgs;
use crate::failure::{usage, Failure};
use crate::stdout;

/// A flag's values, or every one when it is not given.
fn or_all<T: Copy>(given: &[T], all: &[T]) -> Vec<T> {
    if given.is_empty() {
        all.to_vec()
    } else {
        given.to_vec()
    }
}

pub fn matrix(a: &MatrixArgs) -> Result<ExitCode, Failure> {
    let services = or_all(&a.service, &ServiceKind::ALL);
    let faults = or_all(&a.fault, &Fault::ALL);
    let policies = or_all(&a.fencing, &Policy::ALL);
    let t = table(&services, &faults, &policies).map_err(|e| usage(e.to_string()))?;
    let mut out = stdout::stdout();
    if a.json {
        let _ = writeln!(out, "{}", report::matrix_json(&t));
    } else {
        print_grids(&mut out, &t, &faults, &policies);
        print_notes(&mut out, &t);
    }
    Ok(ExitCode::SUCCESS)
}

/// One grid per policy: a row per service, a column per fault, each cell's verdict as a word.
fn print_grids(out: &mut impl std::io::Write, t: &Table, faults: &[Fault], policies: &[Policy]) {
    let width = |f: &Fault| f.name().len().max(6);
    for &policy in policies {
        let head: Vec<String> = faults
            .iter()
            .map(|f| format!("{:w$}", f.name(), w = width(f)))
            .collect();
        let _ = writeln!(
            out,
            "{:22}{}",
            format!("fencing {}", policy.name()),
            head.join("  ")
        );
        for row in &t.rows {
            let words: Vec<String> = faults
                .iter()
                .map(|f| {
                    let cell = t
                        .cells
                        .iter()
                        .find(|c| c.service == row.service && c.fault == *f && c.fencing == policy);
                    let word = cell.map_or("", |c| word(c.verdict));
                    format!("{word:w$}", w = width(f))
                })
                .collect();
            let _ = writeln!(
                out,
                "  {:20}{}",
                row.service.name(),
                words.join("  ").trim_end()
            );
        }
        let _ = writeln!(out);
    }
}

fn word(v: Verdict) -> &'static str {
    match v {
        Verdict::Unsafe => "UNSAFE",
        Verdict::Safe => "safe",
        Verdict::NotApplicable => "n/a",
    }
}

/// Each unsafe cell's reproduction, each n/a cell's reason, each row's bounds.
fn print_notes(out: &mut impl std::io::Write, t: &Table) {
    let name = |c: &leaselab::matrix::Cell| {
        format!(
            "{} × {} × {}",
            c.service.name(),
            c.fault.name(),
            c.fencing.name()
        )
    };
    let _ = writeln!(
        out,
        "Unsafe: the smallest counterexample, as `leaselab run` reproduces it:"
    );
    for c in t.cells.iter().filter(|c| c.verdict == Verdict::Unsafe) {
        let _ = writeln!(
            out,
            "  {}: leaselab run {}",
            name(c),
            c.run_args().join(" ")
        );
    }
    let _ = writeln!(out, "Not applicable:");
    for (service, reason, policies, faults) in reasons(t) {
        let _ = writeln!(out, "  {service} × {faults} × {policies}: {reason}");
    }
    let reach: Vec<String> = Fault::ALL
        .iter()
        .map(|f| format!("{} {}×", f.name(), f.reach()))
        .collect();
    let _ = writeln!(
        out,
        "Bounds (safe means: no lost update at any point of these): moments from 0 to the service's \
         time constant T, magnitudes from 0 to a multiple of T ({}), in steps of T/100:",
        reach.join(", ")
    );
    for r in &t.rows {
        let (time, step) = (Millis(r.time_us), Millis(r.step_us()));
        let (name, id, what) = (r.service.name(), r.scenario, r.time_name);
        let _ = writeln!(out, "  {name} ({id}): T = {what} {time} ms, step {step} ms");
    }
}

/// Each service's reasons for the cells that do not apply, once each, with the policies and faults
/// they cover (`every fault` when all of the table's).
fn reasons(t: &Table) -> Vec<(&'static str, &str, String, String)> {
    let mut out: Vec<(&'static str, &str, Vec<&str>, Vec<&str>)> = Vec::new();
    for c in t
        .cells
        .iter()
        .filter(|c| c.verdict == Verdict::NotApplicable)
    {
        let key = (c.service.name(), c.reason.as_str());
        let i = out
            .iter()
            .position(|o| (o.0, o.1) == key)
            .unwrap_or_else(|| {
                out.push((key.0, key.1, Vec::new(), Vec::new()));
                out.len() - 1
            });
        let entry = &mut out[i];
        if !entry.2.contains(&c.fencing.name()) {
            entry.2.push(c.fencing.name());
        }
        if !entry.3.contains(&c.fault.name()) {
            entry.3.push(c.fault.name());
        }
    }
    let columns = t
        .cells
        .iter()
        .map(|c| c.fault.name())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    out.into_iter()
        .map(|(service, reason, policies, faults)| {
            let faults = if faults.len() == columns {
                "every fault".to_string()
            } else {
                faults.join(", ")
            };
            (service, reason, policies.join(", "), faults)
        })
        .collect()
}
