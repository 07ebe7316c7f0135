//! Grids of runs over two parameters: where in (TTL, pause) space does the lost update live?
//!
//! One engine is reused for every cell, with the trace off, so the loop allocates nothing per run once
//! the buffers have grown.

use crate::error::Error;
use crate::outcome::{summarize, Summary};
use crate::scenario::Scenario;
use crate::sim::{Config, Engine};

/// Most cells along one axis.
pub const AXIS_MAX: usize = 1024;

/// One axis: a parameter and the evenly spaced values it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub param: usize,
    pub from_us: u64,
    pub to_us: u64,
    pub steps: usize,
}

impl Axis {
    /// The value of cell `i`: `from + i·(to − from)/(steps − 1)`, rounded down, exact in integers.
    pub fn value(&self, i: usize) -> u64 {
        if self.steps <= 1 {
            return self.from_us;
        }
        // No overflow in u64: spans are at most an hour (3.6e9 µs) and steps at most AXIS_MAX.
        let span = self.to_us - self.from_us;
        self.from_us + span * i as u64 / (self.steps as u64 - 1)
    }

    pub fn new(
        sc: &Scenario,
        name: &str,
        from_us: u64,
        to_us: u64,
        steps: usize,
    ) -> Result<Axis, Error> {
        let param = sc.param_index(name).ok_or_else(|| Error::UnknownParam {
            scenario: sc.id.to_string(),
            name: name.to_string(),
            known: sc.param_names(),
        })?;
        if !(1..=AXIS_MAX).contains(&steps) {
            return Err(Error::BadValue {
                what: "grid size".into(),
                why: format!("expected 1 to {AXIS_MAX} steps per axis"),
            });
        }
        if from_us > to_us {
            return Err(Error::BadValue {
                what: format!("{name} range"),
                why: "from must not exceed to".into(),
            });
        }
        sc.check_param(param, from_us)?;
        sc.check_param(param, to_us)?;
        Ok(Axis {
            param,
            from_us,
            to_us,
            steps,
        })
    }
}

/// Runs every cell of `x × y` (row-major: y outer, x inner) with the other parameters, the policy,
/// retries, client kind and seed from `base`.
pub fn sweep(
    sc: &Scenario,
    base: &Config,
    x: &Axis,
    y: &Axis,
    out: &mut Vec<Summary>,
) -> Result<(), Error> {
    let mut engine = Engine::new();
    let mut params = base.params.clone();
    out.clear();
    out.reserve(x.steps * y.steps);
    for yi in 0..y.steps {
        params[y.param] = y.value(yi);
        for xi in 0..x.steps {
            params[x.param] = x.value(xi);
            let run = engine.run_with(
                sc,
                base.policy,
                &params,
                base.retries,
                false,
                base.seed,
                base.naive,
            )?;
            out.push(summarize(run));
        }
    }
    Ok(())
}
