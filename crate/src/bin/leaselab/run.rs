//! `leaselab run`: one scenario's run, printed as the seed's transcript, JSON, an ITF trace or a
//! trace of every event; exit 1 when an update was lost.

use std::io::Write as _;
use std::process::ExitCode;

use clap::ArgMatches;
use leaselab::inject::Injected;
use leaselab::report;
use leaselab::scenario::Scenario;
use leaselab::{simulate, Config, Policy};

use crate::args::{Mode, RunArgs};
use crate::failure::{usage, Failure};
use crate::source::{apply_sets, check_naive, scenario_for, settings};
use crate::{stdout, trace};

pub fn run(a: &RunArgs, m: &ArgMatches) -> Result<ExitCode, Failure> {
    let policy = run_policy(a)?;
    let mut owned = None;
    let sc = scenario_for(&a.source, &mut owned)?;
    let inj = run_injections(sc, &a.inject)?;
    let sc = inj.as_ref().map_or(sc, |i| &i.scenario);
    let mut cfg = Config::new(sc, policy);
    cfg.retries = a.engine.retries;
    cfg.naive = check_naive(sc, a.engine.naive.given())?;
    let sets = settings(m, &[("ttl", "--ttl"), ("pause", "--pause")]);
    apply_sets(sc, &mut cfg.params, &sets)?;
    let at = inj.as_ref().map(|i| i.scenario_at(&cfg.params));
    let sc = at.as_ref().unwrap_or(sc);
    let outcome = simulate(sc, &cfg).map_err(|e| usage(e.to_string()))?;
    let mut out = stdout::stdout();
    if a.output.json {
        let _ = writeln!(out, "{}", report::json(&outcome));
    } else if a.output.itf {
        let _ = writeln!(out, "{}", report::itf(&outcome));
    } else {
        if a.output.trace {
            trace::print_trace(&mut out, sc, &outcome);
        }
        for line in report::transcript(&outcome) {
            let _ = writeln!(out, "{line}");
        }
    }
    Ok(ExitCode::from(report::exit_code(&outcome) as u8))
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Fenced => "fenced",
        Mode::Unfenced => "unfenced",
    }
}

/// The storage policy from `fenced`/`unfenced` and `--fencing`, which must agree when both are given.
fn run_policy(a: &RunArgs) -> Result<Policy, Failure> {
    if let (Some(first), Some(again)) = (a.mode, a.again) {
        let (first, again) = (mode_name(first), mode_name(again));
        return Err(usage(format!(
            "{first:?} and {again:?} conflict; give one of fenced or unfenced"
        )));
    }
    let mode = a.mode.map(|m| {
        let policy = if m == Mode::Fenced {
            Policy::Token
        } else {
            Policy::None
        };
        (mode_name(m), policy)
    });
    Ok(match (mode, a.fencing) {
        (Some((m, p)), Some(f)) if p != f => {
            return Err(usage(format!(
                "{m:?} conflicts with --fencing {}; give one",
                f.name()
            )));
        }
        (_, Some(f)) => f,
        (Some((_, p)), None) => p,
        (None, None) => Policy::None,
    })
}

/// `run --inject`: the scenario with these faults, each at one value (`None` without any).
fn run_injections(sc: &Scenario, injects: &[String]) -> Result<Option<Injected>, Failure> {
    if injects.is_empty() {
        return Ok(None);
    }
    let mut inj = Injected::none(sc);
    for text in injects {
        inj.add(text).map_err(|e| usage(format!("--inject: {e}")))?;
    }
    if let Some(d) = inj.dims.iter().find(|d| d.count > 1) {
        let name = &inj.scenario.params[d.param].name;
        return Err(usage(format!(
            "--inject: {name} has {} values; run takes one (KEY=DUR), search a range",
            d.count
        )));
    }
    Ok(Some(inj))
}
