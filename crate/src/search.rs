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

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

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

/// A box of the grid: its lowest and highest index along each dimension.
type GridBox = ([u64; DIMS_MAX], [u64; DIMS_MAX]);

struct Searcher<'a> {
    /// The scenario: borrowed, or a copy whose injected clock steps are rewritten before each run.
    sc: Cow<'a, Scenario>,
    steps: &'a [ParamStep],
    base: &'a Config,
    dims: &'a [Dim],
    engine: Engine,
    params: Vec<u64>,
    /// The path signature and outcome of every point run or decided, by its place in the grid.
    known: Known,
    runs: u64,
    /// The best counterexample so far: its cost and place.
    best: Option<(u64, u64)>,
    /// The [`behaviour_key`] of every run.
    behaviours: BTreeSet<u64>,
    /// Some box was left unvisited: it could hold no better counterexample.
    cut: bool,
    /// Boxes still to visit (an explicit stack, not recursion).
    stack: Vec<GridBox>,
    /// The path and outcome of each corner of the box being visited.
    corners: Vec<(u64, Summary)>,
    /// The lines through a point along which [`Searcher::between_known`] looks: each a direction
    /// (−1, 0 or 1 along each dimension) and its step in places.
    lines: Vec<(Vec<i8>, i64)>,
}

impl<'a> Searcher<'a> {
    fn new(
        sc: &'a Scenario,
        steps: &'a [ParamStep],
        base: &'a Config,
        dims: &'a [Dim],
    ) -> Searcher<'a> {
        let mut engine = Engine::new();
        engine.set_fast(true);
        let sc = if steps.is_empty() {
            Cow::Borrowed(sc)
        } else {
            Cow::Owned(sc.clone())
        };
        Searcher {
            sc,
            steps,
            base,
            dims,
            engine,
            params: base.params.clone(),
            known: Known::new(dims.iter().map(|d| d.count).product()),
            runs: 0,
            behaviours: BTreeSet::new(),
            cut: false,
            best: None,
            stack: Vec::new(),
            corners: Vec::with_capacity(1 << DIMS_MAX),
            lines: lines(dims),
        }
    }

    /// The place in the grid of the point at `index`.
    fn place(&self, index: &[u64]) -> u64 {
        self.dims
            .iter()
            .zip(index)
            .fold(0, |at, (d, i)| at * d.count + i)
    }

    /// The index of the point at `place`.
    fn unpack(&self, mut at: u64) -> Vec<u64> {
        let mut index = vec![0; self.dims.len()];
        for (k, d) in self.dims.iter().enumerate().rev() {
            index[k] = at % d.count;
            at /= d.count;
        }
        index
    }

    fn counterexample(&self, at: u64) -> Counterexample {
        let index = self.unpack(at);
        let mut params = self.base.params.clone();
        for (d, i) in self.dims.iter().zip(&index) {
            params[d.param] = d.value(*i);
        }
        Counterexample {
            cost: index.iter().sum(),
            index,
            params,
        }
    }

    /// The path and outcome of the point at `index`, run unless known. Every point the search decides
    /// gets the path of a run: a run's own; a box's, when its corners (known) agree; a corner
    /// simplex's, its corner's; a line's, its two known ends'. So, once every point is decided, the
    /// distinct paths of the runs would be the grid's if signatures were complete (`Found::behaviours`
    /// says why they are a lower bound).
    fn point(&mut self, index: &[u64]) -> Result<(u64, Summary), Error> {
        let at = self.place(index);
        if let Some(known) = self.known.get(at) {
            return Ok(known);
        }
        if let Some(id) = self.between_known(index) {
            self.known.mark(at..=at, id);
            return Ok(self.known.get(at).expect("just marked"));
        }
        if self.runs >= RUNS_MAX {
            return Err(Error::BadValue {
                what: "search".into(),
                why: format!(
                    "it needs more than the limit of {RUNS_MAX} engine runs; search a smaller grid"
                ),
            });
        }
        for (d, i) in self.dims.iter().zip(index) {
            self.params[d.param] = d.value(*i);
        }
        if !self.steps.is_empty() {
            Injected::apply(self.steps, self.sc.to_mut(), &self.params);
        }
        let run = self
            .engine
            .run_at(&self.sc, self.base, &self.params)
            .map_err(|e| at_point(&self.sc, self.dims, &self.params, e))?;
        let known = (run.sig, summarize(run));
        self.behaviours.insert(behaviour_key(known.0, &known.1));
        self.runs += 1;
        self.known.insert(at, known);
        Ok(known)
    }

    /// The class of the point at `index` when, along some line of the grid through it (one of
    /// [`Searcher::lines`]: along a dimension or a diagonal of two), the nearest known points on
    /// either side of it (within [`LINE_LOOK_MAX`] steps) run one path: the points between two
    /// points of one path run it too (module docs). Dense grids only.
    fn between_known(&self, index: &[u64]) -> Option<u32> {
        let Known::Dense { marks, .. } = &self.known else {
            return None;
        };
        let at = self.place(index) as i64;
        let d = self.dims.len();
        let count: Vec<u64> = self.dims.iter().map(|d| d.count).collect();
        // How many steps the line can take from `index` forward (+1) or back (−1).
        let room = |dir: &[i8], sign: i64| {
            (0..d)
                .filter(|&k| dir[k] != 0)
                .map(|k| {
                    if i64::from(dir[k]) * sign > 0 {
                        count[k] - 1 - index[k]
                    } else {
                        index[k]
                    }
                })
                .min()
                .unwrap_or(0)
                .min(LINE_LOOK_MAX) as i64
        };
        for (dir, stride) in &self.lines {
            let nearest = |sign: i64| {
                (1..=room(dir, sign))
                    .map(|n| marks[(at + sign * n * stride) as usize])
                    .find(|&m| m != 0)
            };
            if let Some(below) = nearest(-1) {
                if nearest(1) == Some(below) {
                    return Some(below);
                }
            }
        }
        None
    }

    /// Offers the point at `index` as a counterexample if it loses an update.
    fn offer(&mut self, index: &[u64], s: &Summary) {
        let candidate = (index.iter().sum(), self.place(index));
        if s.lost_update && self.best.is_none_or(|b| candidate < b) {
            self.best = Some(candidate);
        }
    }

    /// Decides the box `lo..=hi`: uniform (its corners agree), every point a corner, or split in two.
    fn visit(&mut self, lo: &[u64; DIMS_MAX], hi: &[u64; DIMS_MAX]) -> Result<(), Error> {
        let d = self.dims.len();
        let (lo, hi) = (&lo[..d], &hi[..d]);
        let lowest = (lo.iter().sum::<u64>(), self.place(lo));
        if self.best.is_some_and(|b| lowest >= b) {
            self.cut = true;
            return Ok(()); // nothing in this box beats the best so far
        }
        let mut corner = [0u64; DIMS_MAX];
        self.corners.clear();
        // Corner `c`: bit k chooses hi along dimension k.
        for c in 0..1usize << d {
            for k in 0..d {
                corner[k] = if c >> k & 1 == 1 { hi[k] } else { lo[k] };
            }
            let here = self.point(&corner[..d])?;
            self.corners.push(here);
            if c > 0 && here != self.corners[0] {
                self.offer(&corner[..d], &here.1);
            }
        }
        let first = self.corners[0];
        self.offer(lo, &first.1);
        if self.corners.iter().all(|c| *c == first) {
            // Every point runs the lowest corner's path: later boxes that meet this one at a face
            // find their corners there decided, without a run.
            self.fill(lo, hi, first);
            return Ok(());
        }
        if (0..d).all(|k| hi[k] - lo[k] <= 1) {
            return Ok(()); // every point is a corner already offered
        }
        self.infer_corner_simplices(lo, hi);
        let k = self.split_dim(lo, hi);
        let (mut low, mut high) = ([0u64; DIMS_MAX], [0u64; DIMS_MAX]);
        low[..d].copy_from_slice(lo);
        high[..d].copy_from_slice(hi);
        let (mut upper_lo, mut lower_hi) = (low, high);
        // Two halves that share the middle plane; a box one step wide splits into its two faces.
        let mid = lo[k] + (hi[k] - lo[k]) / 2;
        lower_hi[k] = mid;
        upper_lo[k] = if hi[k] - lo[k] == 1 { hi[k] } else { mid };
        // The upper half goes onto the stack first, so the lower half (the cheaper points) is
        // visited first.
        self.stack.push((upper_lo, high));
        self.stack.push((low, lower_hi));
        Ok(())
    }

    /// A corner whose neighbours along every edge run its path spans a simplex (the corner and those
    /// neighbours) whose points all run it: a path's points form a convex set (module docs). Marks
    /// them, so that the boxes inside need no run there. Small boxes only (it visits each point).
    fn infer_corner_simplices(&mut self, lo: &[u64], hi: &[u64]) {
        let d = lo.len();
        let widths = (0..d).map(|k| hi[k] - lo[k]);
        let volume = widths.clone().try_fold(1u64, |v, w| v.checked_mul(w + 1));
        let scale = widths
            .filter(|&w| w > 0)
            .try_fold(1u128, |p, w| p.checked_mul(u128::from(w)));
        let (Some(volume), Some(scale)) = (volume, scale) else {
            return;
        };
        if !self.known.is_dense() || volume > SIMPLEX_POINTS_MAX {
            return;
        }
        for c in 0..self.corners.len() {
            // The dimensions along which the corner's neighbour runs its path: the simplex lies in
            // the face they span through the corner.
            let agree = (0..d)
                .filter(|&k| hi[k] > lo[k] && self.corners[c ^ 1 << k] == self.corners[c])
                .fold(0usize, |m, k| m | 1 << k);
            if agree == 0 {
                continue;
            }
            let id = self.known.class(self.corners[c]);
            // The face through corner c spanned by `agree`: its own bounds.
            let (mut flo, mut fhi) = ([0u64; DIMS_MAX], [0u64; DIMS_MAX]);
            for k in 0..d {
                let v = if c >> k & 1 == 1 { hi[k] } else { lo[k] };
                (flo[k], fhi[k]) = if agree >> k & 1 == 1 {
                    (lo[k], hi[k])
                } else {
                    (v, v)
                };
            }
            let mut at = flo;
            loop {
                // Inside when Σ |x − corner| / width ≤ 1, in integers: Σ |x − corner|·scale/width ≤ scale.
                let inside = (0..d)
                    .filter(|&k| agree >> k & 1 == 1)
                    .try_fold(0u128, |sum, k| {
                        let off = if c >> k & 1 == 1 {
                            hi[k] - at[k]
                        } else {
                            at[k] - lo[k]
                        };
                        let sum = sum + u128::from(off) * (scale / u128::from(hi[k] - lo[k]));
                        (sum <= scale).then_some(sum)
                    });
                if inside.is_some() {
                    let place = self.place(&at[..d]);
                    if self.known.get(place).is_none() {
                        self.known.mark(place..=place, id);
                    }
                }
                if !next_point(&mut at[..d], &flo[..d], &fhi[..d]) {
                    break;
                }
            }
        }
    }

    /// Marks every point of the box `lo..=hi` as running `path` (when the grid is small enough to keep
    /// a mark per point).
    fn fill(&mut self, lo: &[u64], hi: &[u64], path: (u64, Summary)) {
        if !self.known.is_dense() {
            return;
        }
        let id = self.known.class(path);
        let d = lo.len();
        let mut at = [0u64; DIMS_MAX];
        at[..d].copy_from_slice(lo);
        loop {
            let first = self.place(&at[..d]);
            // The last dimension is contiguous in the grid's order: one run of places.
            self.known.mark(first..=first + (hi[d - 1] - lo[d - 1]), id);
            // The next line: count up the other dimensions like an odometer.
            let mut k = d - 1;
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                if at[k] < hi[k] {
                    at[k] += 1;
                    break;
                }
                at[k] = lo[k];
            }
        }
    }

    /// Where to split a box whose corners disagree: along the dimension where most pairs of corners
    /// that differ only in it disagree (the path changes along it), then the widest, then the first.
    fn split_dim(&self, lo: &[u64], hi: &[u64]) -> usize {
        let c = &self.corners;
        let changes = |k: usize| {
            (0..c.len())
                .filter(|&i| i >> k & 1 == 0 && c[i] != c[i | 1 << k])
                .count()
        };
        (0..lo.len())
            .filter(|&k| changes(k) > 0)
            .max_by_key(|&k| (changes(k), hi[k] - lo[k], std::cmp::Reverse(k)))
            .expect("a box whose corners disagree is more than one point")
    }
}

/// The lines of the grid through a point: every direction of −1, 0 or 1 along each dimension (one of
/// each pair of opposite directions), with its step in places; the fewer dimensions a line moves
/// along, the earlier it comes; at most [`LINES_MAX`].
fn lines(dims: &[Dim]) -> Vec<(Vec<i8>, i64)> {
    let d = dims.len();
    let mut stride = vec![1i64; d];
    for k in (0..d.saturating_sub(1)).rev() {
        stride[k] = stride[k + 1] * dims[k + 1].count as i64;
    }
    let mut lines = Vec::new();
    let mut dir = vec![-1i8; d];
    // Count through every direction in base 3; keep those whose first non-zero step is +1.
    while next_direction(&mut dir) {
        if dir.iter().find(|&&s| s != 0) == Some(&1) {
            let step = (0..d).map(|k| i64::from(dir[k]) * stride[k]).sum();
            lines.push((dir.clone(), step));
        }
    }
    lines.sort_by_key(|(dir, _)| dir.iter().filter(|&&s| s != 0).count());
    // Many dimensions have thousands of directions: keep the straightest, so a corner's look stays cheap.
    lines.truncate(LINES_MAX);
    lines
}

/// Most lines [`Searcher::between_known`] looks along: all of them up to four dimensions (40), the
/// dimensions and their two-way diagonals up to eight (64).
const LINES_MAX: usize = 64;

/// The next direction after `dir` in base 3 (digits −1, 0, 1); false after the last.
fn next_direction(dir: &mut [i8]) -> bool {
    for s in dir.iter_mut().rev() {
        if *s < 1 {
            *s += 1;
            return true;
        }
        *s = -1;
    }
    false
}

/// How far along a line [`Searcher::between_known`] looks for a known point on either side.
const LINE_LOOK_MAX: u64 = 64;

/// The largest box whose corner simplices are inferred (see `infer_corner_simplices`).
const SIMPLEX_POINTS_MAX: u64 = 1 << 16;

/// Moves `at` to the next point of the box `lo..=hi`, the last dimension fastest; false after the last.
fn next_point(at: &mut [u64], lo: &[u64], hi: &[u64]) -> bool {
    for k in (0..at.len()).rev() {
        if at[k] < hi[k] {
            at[k] += 1;
            return true;
        }
        at[k] = lo[k];
    }
    false
}

/// Most points for which the search keeps a mark each (4 bytes a point): larger grids keep only the
/// points they ran.
pub const DENSE_POINTS_MAX: u64 = 1 << 22;

/// What the search knows of each point: its path and outcome, once run or once inside a box whose
/// corners agree. Dense (a class per point) for grids up to [`DENSE_POINTS_MAX`] points, else the
/// points run, by place.
enum Known {
    Dense {
        /// Per point: 0 unknown, else 1 + an index into `classes`.
        marks: Vec<u32>,
        classes: Vec<(u64, Summary)>,
    },
    Sparse(HashMap<u64, (u64, Summary)>),
}

impl Known {
    fn new(points: u64) -> Known {
        if points <= DENSE_POINTS_MAX {
            Known::Dense {
                marks: vec![0; points as usize],
                classes: Vec::new(),
            }
        } else {
            Known::Sparse(HashMap::new())
        }
    }

    fn is_dense(&self) -> bool {
        matches!(self, Known::Dense { .. })
    }

    fn get(&self, at: u64) -> Option<(u64, Summary)> {
        match self {
            Known::Dense { marks, classes } => match marks[at as usize] {
                0 => None,
                id => Some(classes[id as usize - 1]),
            },
            Known::Sparse(map) => map.get(&at).copied(),
        }
    }

    fn insert(&mut self, at: u64, path: (u64, Summary)) {
        if let Known::Sparse(map) = self {
            map.insert(at, path);
            return;
        }
        let id = self.class(path);
        self.mark(at..=at, id);
    }

    /// The mark of `path` (dense only): its class, added if new.
    fn class(&mut self, path: (u64, Summary)) -> u32 {
        let Known::Dense { classes, .. } = self else {
            return 0;
        };
        // Classes are few (one per path met); the latest is the likeliest.
        match classes.iter().rposition(|c| *c == path) {
            Some(i) => i as u32 + 1,
            None => {
                classes.push(path);
                classes.len() as u32
            }
        }
    }

    fn mark(&mut self, places: std::ops::RangeInclusive<u64>, id: u32) {
        if let Known::Dense { marks, .. } = self {
            let (from, to) = (*places.start() as usize, *places.end() as usize);
            marks[from..=to].fill(id);
        }
    }
}
