//! The search for a failure: over a grid of any number of parameters, can an update be lost — and if
//! so, which point of the grid is the smallest that loses one? Every point is decided exactly, as if
//! it were run on its own; only a few are actually run.
//!
//! The smallest point is the one of least cost, `Σ (value − from) / step` over the varied parameters
//! (the sum of its indices); ties go to the point that is smaller in the order the dimensions are
//! given, first dimension first.
//!
//! DESIGN: the sweep's argument ([`crate::sweep`], [`crate::sig`]), lifted from a line to a box. Along
//! any line of the grid (one parameter moving, the rest fixed) the values that run one path form an
//! interval. So when all `2^d` corners of a box of the grid run the same path, every point of the box
//! does: the edges along the first dimension do (each is a line whose two ends run it), then every
//! line along the second dimension between two such edges, and so on, one dimension at a time. The
//! search splits boxes in half until their corners agree or every point of the box is a corner, and
//! skips a box whose lowest corner costs no less than the best counterexample found so far (no point
//! of a box costs less than that corner, and only the corner itself costs as much).
//!
//! The same argument holds along any line, not only the grid's: while the path stays the same every
//! time is affine in the parameters, and each choice it made (`decide`, `floor`) is a half-space of
//! them, so the points of one path form a convex set. Two uses save runs on grids of up to
//! [`DENSE_POINTS_MAX`] points, where the search keeps a mark per point: a box whose corners agree
//! marks all its points, so a later box with a corner on its face needs no run there; and in a box
//! whose corners disagree, a corner whose neighbours along some edges run its path spans a simplex
//! (the corner and those neighbours) whose points all run it, marked too. Where paths meet at a
//! slant, half of the points along the seam are then decided without a run. And before a corner is
//! run, the search looks along every line of the grid through it (each dimension, and each diagonal
//! that steps −1, 0 or 1 along each dimension) for the nearest marked points on either side: when
//! they run one path, so does the corner, which is marked without a run. `tests/search_exact.rs`
//! compares the answer with running every point.

use std::collections::BTreeSet;

mod known;
mod lines;
mod searcher;

pub use known::DENSE_POINTS_MAX;
use searcher::Searcher;

use crate::error::Error;
use crate::inject::{Injected, ParamStep};
use crate::outcome::{summarize, Summary};
use crate::scenario::Scenario;
use crate::sim::{Config, Engine};
use crate::time::Millis;

/// Most dimensions (`--vary` flags) in one search.
pub const DIMS_MAX: usize = 8;
/// Most points in one grid.
pub const COMBINATIONS_MAX: u64 = 100_000_000;
/// Most engine runs one search may take (each new path costs a few; a grid that changes path at every
/// point costs one per point).
pub const RUNS_MAX: u64 = 2_000_000;

/// One dimension of the grid: a parameter and the values `from, from + step, …` up to `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dim {
    pub param: usize,
    pub from_us: u64,
    pub step_us: u64,
    /// How many values: `(to − from) / step + 1`.
    pub count: u64,
}

impl Dim {
    /// The dimension `name = from..to:step`, checked against the scenario: a parameter it has, a
    /// range that is not empty, a step that is not zero, values inside the parameter's range.
    pub fn new(
        sc: &Scenario,
        name: &str,
        from_us: u64,
        to_us: u64,
        step_us: u64,
    ) -> Result<Dim, Error> {
        let param = sc.param_index_or_err(name)?;
        let bad = |why: String| Error::BadValue {
            what: format!("{name} range"),
            why,
        };
        if from_us > to_us {
            return Err(bad("the range is empty: FROM is after TO".into()));
        }
        if step_us == 0 {
            return Err(bad("the step must be more than 0".into()));
        }
        let count = (to_us - from_us) / step_us + 1;
        let dim = Dim {
            param,
            from_us,
            step_us,
            count,
        };
        sc.check_param(param, from_us)?;
        sc.check_param(param, dim.value(count - 1))?;
        Ok(dim)
    }

    /// The value at index `i`.
    pub fn value(&self, i: u64) -> u64 {
        self.from_us + i * self.step_us
    }
}

/// The smallest point of the grid where an update is lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// Its index along each dimension, in the order given.
    pub index: Vec<u64>,
    /// Its cost: the sum of the indices.
    pub cost: u64,
    /// Every parameter of the scenario at that point (the base's, with the varied ones set).
    pub params: Vec<u64>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Points in the grid.
    pub combinations: u64,
    /// Engine runs the search took.
    pub runs: u64,
    /// `None`: no point of the grid loses an update.
    pub counterexample: Option<Counterexample>,
    /// The distinct behaviours (path signature and outcome, each as its [`behaviour_key`], sorted)
    /// among the search's runs: `Some` when every point of the grid was decided (always when safe;
    /// `None` when the best counterexample so far, or `search_within`'s bound, left boxes unvisited).
    /// A lower bound of the grid's distinct behaviours, not always all of them: every decided point
    /// takes the signature of a run (see [`Searcher::point`]), but a point where another client's
    /// event ties exactly with a skipped retry runs event by event, a signature of its own between
    /// neighbours that share one (docs/model.md, "Sweeps are exact": the gap), and a box whose
    /// corners agree is filled over it; `tests/search_exact.rs` finds such grids. Keys, not a count:
    /// the page searches slices in parallel and unions their keys.
    pub behaviours: Option<Vec<u64>>,
}

impl Found {
    /// The numbers of the wasm's `Simulation::search` (and of the parity file), one named layout:
    /// `[combinations, runs, cost, index…, b, key…]` — cost −1 and no index when no point loses an
    /// update, else the counterexample's cost and its index along each dimension; `b` the number of
    /// behaviour keys (−1 when not every point was decided), then each key as two numbers, its high
    /// and low 32 bits (an f64 holds neither a u64 nor a JS BigInt exactly).
    pub fn numbers(&self) -> Vec<f64> {
        let mut out = vec![self.combinations as f64, self.runs as f64];
        match &self.counterexample {
            None => out.push(-1.0),
            Some(c) => {
                out.push(c.cost as f64);
                out.extend(c.index.iter().map(|&i| i as f64));
            }
        }
        match &self.behaviours {
            None => out.push(-1.0),
            Some(keys) => {
                out.push(keys.len() as f64);
                for &key in keys {
                    out.push((key >> 32) as f64);
                    out.push((key & 0xffff_ffff) as f64);
                }
            }
        }
        out
    }
}

/// One behaviour as one number: a run's path signature ([`crate::sig`]) and its outcome, mixed
/// (SplitMix64 steps) so that two runs get the same key exactly when they have the same signature and
/// outcome (up to a 64-bit collision, as for the signature itself).
pub fn behaviour_key(sig: u64, s: &Summary) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    let locked_out = match s.locked_out {
        crate::scenario::Lost::Nobody => 0,
        crate::scenario::Lost::Client(i) => 1 + u64::from(i),
    };
    let flags = u64::from(s.code())
        | u64::from(s.lost_update) << 8
        | u64::from(s.stale_write_accepted) << 9
        | locked_out << 16;
    mix(mix(mix(sig) ^ s.final_balance as u64) ^ flags)
}

/// Points in the grid of `dims`, or why it is too large or malformed.
pub fn combinations(sc: &Scenario, dims: &[Dim]) -> Result<u64, Error> {
    let bad = |why: String| Error::BadValue {
        what: "grid".into(),
        why,
    };
    if dims.is_empty() {
        return Err(bad("vary at least one parameter".into()));
    }
    if dims.len() > DIMS_MAX {
        return Err(bad(format!(
            "{} dimensions; the limit is {DIMS_MAX}",
            dims.len()
        )));
    }
    for (i, d) in dims.iter().enumerate() {
        if dims[..i].iter().any(|e| e.param == d.param) {
            let name = &sc.params[d.param].name;
            return Err(bad(format!("{name} is varied twice")));
        }
    }
    let total = dims
        .iter()
        .try_fold(1u64, |n, d| n.checked_mul(d.count))
        .filter(|n| *n <= COMBINATIONS_MAX);
    total.ok_or_else(|| {
        let shape: Vec<String> = dims.iter().map(|d| d.count.to_string()).collect();
        bad(format!(
            "{} combinations is over the limit of {COMBINATIONS_MAX}",
            shape.join(" × ")
        ))
    })
}

/// Searches the grid `dims` (the other parameters, the policy, retries, naive switch and seed from
/// `base`) for the smallest point that loses an update. Exactly the answer of
/// [`search_every_point`], which runs every point (tests compare the two).
pub fn search(sc: &Scenario, base: &Config, dims: &[Dim]) -> Result<Found, Error> {
    search_with_steps(sc, &[], base, dims)
}

/// [`search`] over a scenario with injected faults: `dims` name parameters of `inj.scenario` (its
/// own, and the injected ones of `inj.dims`).
pub fn search_injected(inj: &Injected, base: &Config, dims: &[Dim]) -> Result<Found, Error> {
    search_with_steps(&inj.scenario, &inj.steps, base, dims)
}

fn search_with_steps(
    sc: &Scenario,
    steps: &[ParamStep],
    base: &Config,
    dims: &[Dim],
) -> Result<Found, Error> {
    search_bounded(sc, steps, base, dims, None)
}

/// The search itself: with `cost_max`, only counterexamples of that cost or less are looked for.
fn search_bounded(
    sc: &Scenario,
    steps: &[ParamStep],
    base: &Config,
    dims: &[Dim],
    cost_max: Option<u64>,
) -> Result<Found, Error> {
    let combinations = combinations(sc, dims)?;
    let mut s = Searcher::new(sc, steps, base, dims);
    // A bound, not a point: no place in a grid is u64::MAX, so every point of cost ≤ cost_max is
    // smaller than it and every box whose lowest corner costs more is not.
    s.best = cost_max.map(|cost| (cost, u64::MAX));
    let mut hi = [0u64; DIMS_MAX];
    for (k, d) in dims.iter().enumerate() {
        hi[k] = d.count - 1;
    }
    s.stack.push(([0; DIMS_MAX], hi));
    while let Some((lo, hi)) = s.stack.pop() {
        s.visit(&lo, &hi)?;
    }
    Ok(Found {
        combinations,
        runs: s.runs,
        counterexample: s
            .best
            .filter(|b| b.1 != u64::MAX)
            .map(|(_, at)| s.counterexample(at)),
        behaviours: (!s.cut).then(|| s.behaviours.iter().copied().collect()),
    })
}

/// [`search`] for a counterexample of cost at most `cost_max` only: a box whose lowest corner costs
/// more is skipped unvisited, and `counterexample` is `None` when no point of that cost or less loses
/// an update. The page searches slices of a grid in parallel Web Workers; a slice started after
/// another has found a counterexample passes that one's cost, so it does not search for worse ones.
pub fn search_within(
    sc: &Scenario,
    base: &Config,
    dims: &[Dim],
    cost_max: u64,
) -> Result<Found, Error> {
    search_bounded(sc, &[], base, dims, Some(cost_max))
}

/// [`search`] the slow way: every point run on its own, event by event. The reference the search is
/// tested against. `runs` is then `combinations`.
pub fn search_every_point(sc: &Scenario, base: &Config, dims: &[Dim]) -> Result<Found, Error> {
    search_every_point_injected(&Injected::none(sc), base, dims)
}

/// [`search_injected`] the slow way, every point run on its own.
pub fn search_every_point_injected(
    inj: &Injected,
    base: &Config,
    dims: &[Dim],
) -> Result<Found, Error> {
    let sc = &inj.scenario;
    let combinations = combinations(sc, dims)?;
    let s = Searcher::new(sc, &inj.steps, base, dims);
    let mut engine = Engine::new();
    // The signature comes from the fast engine (the reference one does not compute it).
    let mut fast = Engine::new();
    fast.set_fast(true);
    let mut behaviours = BTreeSet::new();
    let mut params = base.params.clone();
    let mut at_point_sc = sc.clone();
    let mut best: Option<(u64, u64)> = None;
    for at in 0..combinations {
        let index = s.unpack(at);
        for (d, i) in dims.iter().zip(&index) {
            params[d.param] = d.value(*i);
        }
        Injected::apply(&inj.steps, &mut at_point_sc, &params);
        let run = engine.run_at(&at_point_sc, base, &params);
        let run = run.map_err(|e| at_point(sc, dims, &params, e))?;
        let cost = index.iter().sum();
        if summarize(run).lost_update && best.is_none_or(|b| (cost, at) < b) {
            best = Some((cost, at));
        }
        let run = fast.run_at(&at_point_sc, base, &params);
        let run = run.map_err(|e| at_point(sc, dims, &params, e))?;
        behaviours.insert(behaviour_key(run.sig, &summarize(run)));
    }
    Ok(Found {
        combinations,
        runs: combinations,
        counterexample: best.map(|(_, at)| s.counterexample(at)),
        behaviours: Some(behaviours.into_iter().collect()),
    })
}

/// A run that failed (hit a limit) at a point of the grid, with the point named.
fn at_point(sc: &Scenario, dims: &[Dim], params: &[u64], e: Error) -> Error {
    let at: Vec<String> = dims
        .iter()
        .map(|d| format!("{}={}ms", sc.params[d.param].name, Millis(params[d.param])))
        .collect();
    Error::BadValue {
        what: "run".into(),
        why: format!("at {}: {e}", at.join(" ")),
    }
}
