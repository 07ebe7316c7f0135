//! `leaselab sweep`: a grid of two parameters, a row per cell, as CSV or JSON.

use std::io::Write as _;
use std::process::ExitCode;

use clap::ArgMatches;
use leaselab::report;
use leaselab::scenario::Scenario;
use leaselab::sweep::{Axis, AXIS_MAX};
use leaselab::time::{parse_duration, Millis};
use leaselab::{Config, Policy};

use crate::args::{Format, SweepArgs};
use crate::failure::{usage, Failure};
use crate::source::{apply_sets, check_naive, scenario_for, settings};
use crate::stdout;

pub fn sweep(a: &SweepArgs, m: &ArgMatches) -> Result<ExitCode, Failure> {
    let mut owned = None;
    let sc = scenario_for(&a.source, &mut owned)?;
    let mut params = sc.defaults();
    apply_sets(sc, &mut params, &settings(m, &[]))?;
    let x = sweep_axis("--x", a.x.as_deref(), sc, ("ttl", 10_000, 2_000_000))?;
    let y = sweep_axis("--y", a.y.as_deref(), sc, ("pause", 0, 3_000_000))?;
    if x.param == y.param {
        return Err(usage("--x and --y must be different parameters"));
    }
    let mut cells = Vec::new();
    let base = Config {
        params,
        retries: a.engine.retries,
        naive: check_naive(sc, a.engine.naive.given())?,
        ..Config::new(sc, a.fencing)
    };
    let run = if a.every_cell {
        leaselab::sweep::sweep_every_cell
    } else {
        leaselab::sweep::sweep
    };
    run(sc, &base, &x, &y, &mut cells).map_err(|e| usage(e.to_string()))?;
    let mut out = stdout::stdout();
    match a.format {
        Format::Json => {
            let _ = writeln!(out, "{}", sweep_json(sc, a.fencing, &x, &y, &cells));
        }
        Format::Csv => print_sweep_csv(&mut out, sc, &x, &y, &cells),
    }
    Ok(ExitCode::SUCCESS)
}

/// `NAME=FROM..TO:STEPS`, e.g. `ttl=10ms..2s:256`.
fn parse_axis(flag: &str, text: &str, sc: &Scenario) -> Result<Axis, Failure> {
    let bad = |why: String| usage(format!("{flag}: {why}"));
    let (name, rest) = text
        .split_once('=')
        .ok_or_else(|| bad(format!("expected NAME=FROM..TO:STEPS, got \"{text}\"")))?;
    let (range, steps) = rest
        .rsplit_once(':')
        .ok_or_else(|| bad("missing :STEPS".into()))?;
    let (from, to) = range
        .split_once("..")
        .ok_or_else(|| bad("expected FROM..TO".into()))?;
    let from = parse_duration(from).map_err(|e| bad(e.to_string()))?;
    let to = parse_duration(to).map_err(|e| bad(e.to_string()))?;
    let steps: usize = steps
        .parse()
        .ok()
        .filter(|n| (1..=AXIS_MAX).contains(n))
        .ok_or_else(|| {
            bad(format!(
                "STEPS must be a whole number from 1 to {AXIS_MAX}, got \"{steps}\""
            ))
        })?;
    Axis::new(sc, name, from, to, steps).map_err(|e| bad(e.to_string()))
}

/// The axis a `--x`/`--y` gives, or the default one (`name` from `from` to `to` in 64 steps, within
/// the parameter's range).
fn sweep_axis(
    flag: &str,
    spec: Option<&str>,
    sc: &Scenario,
    (name, from, to): (&str, u64, u64),
) -> Result<Axis, Failure> {
    if let Some(text) = spec {
        return parse_axis(flag, text, sc);
    }
    let i = sc.param_index(name).ok_or_else(|| {
        usage(format!(
            "scenario {} has no parameter {name}; give --x/--y (it has: {})",
            sc.id,
            sc.param_names()
        ))
    })?;
    let p = &sc.params[i];
    Axis::new(
        sc,
        name,
        from.clamp(p.min_us, p.max_us),
        to.clamp(p.min_us, p.max_us),
        64,
    )
    .map_err(|e| usage(e.to_string()))
}

fn sweep_json(
    sc: &Scenario,
    policy: Policy,
    x: &Axis,
    y: &Axis,
    cells: &[leaselab::outcome::Summary],
) -> String {
    let (xn, yn) = (&sc.params[x.param].name, &sc.params[y.param].name);
    let mut j = report::Json::new();
    j.begin_obj();
    j.key("scenario").str(&sc.id);
    j.key("fencing").str(policy.name());
    j.key("x").str(xn);
    j.key("y").str(yn);
    j.key("cells").begin_arr();
    for (i, c) in cells.iter().enumerate() {
        let (xi, yi) = (i % x.steps, i / x.steps);
        j.begin_obj();
        j.key(&format!("{xn}_ms")).ms(x.value(xi));
        j.key(&format!("{yn}_ms")).ms(y.value(yi));
        j.key("final").int(c.final_balance);
        j.key("lost_update").bool(c.lost_update);
        j.key("code").int(i64::from(c.code()));
        j.end_obj();
    }
    j.end_arr();
    j.end_obj();
    j.finish()
}

fn print_sweep_csv(
    out: &mut impl std::io::Write,
    sc: &Scenario,
    x: &Axis,
    y: &Axis,
    cells: &[leaselab::outcome::Summary],
) {
    let (xn, yn) = (&sc.params[x.param].name, &sc.params[y.param].name);
    let _ = writeln!(out, "{xn}_ms,{yn}_ms,final,lost_update,code");
    for (i, c) in cells.iter().enumerate() {
        let (xi, yi) = (i % x.steps, i / x.steps);
        let (xv, yv) = (Millis(x.value(xi)), Millis(y.value(yi)));
        let _ = writeln!(
            out,
            "{xv},{yv},{},{},{}",
            c.final_balance,
            c.lost_update,
            c.code()
        );
    }
}
