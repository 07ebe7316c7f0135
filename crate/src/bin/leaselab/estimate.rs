//! `leaselab estimate`: a seeded Monte Carlo over the seed's run, P(lost update) per operation.

use std::io::Write as _;
use std::process::ExitCode;

use leaselab::estimate::{preset_of, Estimator, PauseDist, Spec, PRESETS};
use leaselab::report;
use leaselab::time::Millis;

use crate::args::EstimateArgs;
use crate::failure::{usage, Failure};
use crate::stdout;

/// What `estimate` was asked for, its defaults filled in.
struct Estimate {
    spec: Spec,
    ops: u64,
    per_day: f64,
    /// Where the pause distribution's numbers come from (a preset's source), or empty.
    source: &'static str,
}

/// The flags given over the library's defaults.
fn estimate_of(a: &EstimateArgs) -> Result<Estimate, Failure> {
    let mut spec = Spec::new(a.fencing);
    let mut source = preset_of(&spec.dist).map_or("", |p| p.source);
    spec.ttl_us = a.ttl.unwrap_or(spec.ttl_us);
    spec.retry_us = a.retry.unwrap_or(spec.retry_us);
    spec.work_us = a.work.unwrap_or(spec.work_us);
    if let Some(id) = &a.pauses.preset {
        let p = PRESETS
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| usage(format!("--preset: unknown preset \"{id}\"")))?;
        (spec.dist, source) = (p.dist, p.source);
    }
    if let Some((scale_us, shape)) = a.pauses.pareto {
        (spec.dist, source) = (PauseDist::Pareto { scale_us, shape }, "");
    }
    if let Some((median_us, sigma)) = a.pauses.lognormal {
        (spec.dist, source) = (PauseDist::LogNormal { median_us, sigma }, "");
    }
    spec.rate_per_s = a.rate.unwrap_or(spec.rate_per_s);
    spec.seed = a.seed.unwrap_or(spec.seed);
    Ok(Estimate {
        spec,
        ops: a.ops,
        per_day: a.per_day,
        source,
    })
}

pub fn estimate(a: &EstimateArgs) -> Result<ExitCode, Failure> {
    let e = estimate_of(a)?;
    let mut est = Estimator::new(e.spec).map_err(|e| usage(e.to_string()))?;
    est.step(e.ops).map_err(|e| usage(e.to_string()))?;
    let r = est.result();
    let mut out = stdout::stdout();
    if a.json {
        let _ = writeln!(out, "{}", report::estimate_json(&e.spec, &r, e.per_day));
    } else {
        print_estimate(&mut out, &e, &r);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_estimate(out: &mut impl std::io::Write, a: &Estimate, r: &leaselab::estimate::Estimate) {
    let (spec, per_day) = (&a.spec, a.per_day);
    let dist = match spec.dist {
        PauseDist::Pareto { scale_us, shape } => {
            format!("Pareto from {} ms, shape {shape}", Millis(scale_us as u64))
        }
        PauseDist::LogNormal { median_us, sigma } => {
            format!(
                "log-normal, median {} ms, sigma {sigma}",
                Millis(median_us as u64)
            )
        }
    };
    let contender = if spec.rate_per_s == 0.0 {
        "a contender always waiting".to_string()
    } else {
        format!("{} contenders/s", spec.rate_per_s)
    };
    let _ = writeln!(
        out,
        "P(lost update) per operation: {:.3e} (95% interval {:.3e} – {:.3e}); {} of {} operations",
        r.p, r.low, r.high, r.lost, r.ops
    );
    let _ = writeln!(
        out,
        "lost updates per day at {per_day} operations/day: {:.3} ({:.3} – {:.3})",
        r.p * per_day,
        r.low * per_day,
        r.high * per_day
    );
    let _ = writeln!(out, "approximation (derived): {:.3e}", r.analytic);
    let _ = writeln!(
        out,
        "pauses: {dist}; {contender}; TTL {} ms; retry {} ms; B's work {} ms; fencing {}; seed {:#x}",
        Millis(spec.ttl_us),
        Millis(spec.retry_us),
        Millis(spec.work_us),
        spec.policy.name(),
        spec.seed
    );
    if !a.source.is_empty() {
        let _ = writeln!(out, "preset: {}", a.source);
    }
    let _ = writeln!(out, "run by the engine: {} operations (the rest provably safe); pauses over an hour, counted as lost: {}", r.simulated, r.over_range);
}
