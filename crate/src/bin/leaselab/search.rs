//! `leaselab search`: every point of a grid decided exactly, and the smallest that loses an update
//! with its transcript; exit 1 when there is one.

use std::io::Write as _;
use std::process::ExitCode;

use clap::ArgMatches;
use leaselab::inject::Injected;
use leaselab::report;
use leaselab::scenario::Scenario;
use leaselab::search::Dim;
use leaselab::time::{parse_duration, Millis};
use leaselab::{simulate, Config, Policy};

use crate::args::SearchArgs;
use crate::failure::{usage, Failure};
use crate::source::{apply_sets, check_naive, indexed, scenario_for, settings};
use crate::stdout;

/// The `--vary` (false) and `--inject` (true) flags' values, in the order given: the tie order.
fn axes(m: &ArgMatches) -> Vec<(bool, String)> {
    let vary = indexed::<String>(m, "vary").into_iter();
    let inject = indexed::<String>(m, "inject").into_iter();
    let mut all: Vec<(usize, (bool, String))> = vary
        .map(|(i, v)| (i, (false, v)))
        .chain(inject.map(|(i, v)| (i, (true, v))))
        .collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, axis)| axis).collect()
}

pub fn search(a: &SearchArgs, m: &ArgMatches) -> Result<ExitCode, Failure> {
    let axes = axes(m);
    if axes.is_empty() {
        return Err(usage(
            "search needs at least one --vary NAME=FROM..TO:STEP or --inject KIND:TARGET,KEY=RANGE",
        ));
    }
    let mut owned = None;
    let sc = scenario_for(&a.source, &mut owned)?;
    let (inj, dims) = search_grid(sc, &axes)?;
    let sc = &inj.scenario;
    let sets = settings(m, &[]);
    if let Some((name, ..)) = sets.iter().find(|(name, ..)| {
        let i = sc.param_index(name);
        dims.iter().any(|d| Some(d.param) == i)
    }) {
        return Err(usage(format!(
            "--set: {name} is also varied; give it one way"
        )));
    }
    let mut base = Config::new(sc, a.fencing.unwrap_or(Policy::None));
    (base.retries, base.naive) = (a.engine.retries, check_naive(sc, a.engine.naive.given())?);
    apply_sets(sc, &mut base.params, &sets)?;
    let found =
        leaselab::search::search_injected(&inj, &base, &dims).map_err(|e| usage(e.to_string()))?;
    // The counterexample's scenario: injected clock steps written in at its point.
    let at = found
        .counterexample
        .as_ref()
        .map(|c| inj.scenario_at(&c.params));
    let outcome = match (&found.counterexample, &at) {
        (Some(c), Some(at)) => {
            let cfg = Config {
                params: c.params.clone(),
                ..base.clone()
            };
            Some(simulate(at, &cfg).map_err(|e| usage(e.to_string()))?)
        }
        _ => None,
    };
    if let (Some(path), Some(o)) = (&a.itf, &outcome) {
        std::fs::write(path, report::itf(o) + "\n")
            .map_err(|e| usage(format!("--itf: cannot write \"{path}\": {e}")))?;
    }
    let mut out = stdout::stdout();
    if a.json {
        let _ = writeln!(
            out,
            "{}",
            report::search_json(&found, &dims, outcome.as_ref())
        );
    } else {
        print_search(&mut out, &found, &dims, outcome.as_ref());
    }
    Ok(ExitCode::from(u8::from(outcome.is_some())))
}

/// `NAME=FROM..TO:STEP`, e.g. `pause=0..2s:10ms`: the values FROM, FROM + STEP, … up to TO.
fn parse_vary(text: &str, sc: &Scenario) -> Result<Dim, Failure> {
    let bad = |why: String| usage(format!("--vary: {why}"));
    let expected = || bad(format!("expected NAME=FROM..TO:STEP, got \"{text}\""));
    let (name, rest) = text.split_once('=').ok_or_else(expected)?;
    let (range, step) = rest.rsplit_once(':').ok_or_else(expected)?;
    let (from, to) = range.split_once("..").ok_or_else(expected)?;
    let dur = |v: &str| parse_duration(v).map_err(|e| bad(e.to_string()));
    Dim::new(sc, name, dur(from)?, dur(to)?, dur(step)?).map_err(|e| bad(e.to_string()))
}

/// The scenario with the `--inject`ed faults, and the grid's dimensions in the order the flags came.
fn search_grid(sc: &Scenario, axes: &[(bool, String)]) -> Result<(Injected, Vec<Dim>), Failure> {
    let mut inj = Injected::none(sc);
    let mut dims = Vec::new();
    for (inject, text) in axes {
        if *inject {
            let n = inj.add(text).map_err(|e| usage(format!("--inject: {e}")))?;
            dims.extend_from_slice(&inj.dims[inj.dims.len() - n..]);
        } else {
            dims.push(parse_vary(text, &inj.scenario)?);
        }
    }
    Ok((inj, dims))
}

/// The summary line, then the counterexample's transcript.
fn print_search(
    out: &mut impl std::io::Write,
    found: &leaselab::search::Found,
    dims: &[leaselab::search::Dim],
    outcome: Option<&leaselab::Outcome>,
) {
    let (n, runs) = (found.combinations, found.runs);
    let (Some(c), Some(o)) = (&found.counterexample, outcome) else {
        let behaviours = found.behaviours.as_ref().map_or(0, Vec::len);
        let _ = writeln!(
            out,
            "no lost update at any of the grid's {n} combinations \
             (at least {behaviours} distinct behaviours, {runs} engine runs)"
        );
        return;
    };
    let at: Vec<String> = dims
        .iter()
        .map(|d| {
            let name = &o.scenario.params[d.param].name;
            format!("{name}={}ms", Millis(c.params[d.param]))
        })
        .collect();
    let _ = writeln!(
        out,
        "lost update: the smallest of {n} combinations is {} (cost {}; {runs} engine runs)",
        at.join(" "),
        c.cost
    );
    for line in report::transcript(o) {
        let _ = writeln!(out, "{line}");
    }
}
