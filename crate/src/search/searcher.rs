//! The search's walk over the grid: boxes split until their corners agree, each corner run unless
//! already known (module docs of [`super`] for why a box whose corners agree is decided).

use std::borrow::Cow;
use std::collections::BTreeSet;

use super::known::Known;
use super::lines::lines;
use super::{at_point, behaviour_key, Counterexample, Dim, DIMS_MAX, RUNS_MAX};
use crate::error::Error;
use crate::inject::{Injected, ParamStep};
use crate::outcome::{summarize, Summary};
use crate::scenario::Scenario;
use crate::sim::{Config, Engine};

/// A box of the grid: its lowest and highest index along each dimension.
type GridBox = ([u64; DIMS_MAX], [u64; DIMS_MAX]);

pub(super) struct Searcher<'a> {
    /// The scenario: borrowed, or a copy whose injected clock steps are rewritten before each run.
    pub(super) sc: Cow<'a, Scenario>,
    pub(super) steps: &'a [ParamStep],
    pub(super) base: &'a Config,
    pub(super) dims: &'a [Dim],
    pub(super) engine: Engine,
    pub(super) params: Vec<u64>,
    /// The path signature and outcome of every point run or decided, by its place in the grid.
    pub(super) known: Known,
    pub(super) runs: u64,
    /// The best counterexample so far: its cost and place.
    pub(super) best: Option<(u64, u64)>,
    /// The [`behaviour_key`] of every run.
    pub(super) behaviours: BTreeSet<u64>,
    /// Some box was left unvisited: it could hold no better counterexample.
    pub(super) cut: bool,
    /// Boxes still to visit (an explicit stack, not recursion).
    pub(super) stack: Vec<GridBox>,
    /// The path and outcome of each corner of the box being visited.
    pub(super) corners: Vec<(u64, Summary)>,
    /// The lines through a point along which [`Searcher::between_known`] looks: each a direction
    /// (−1, 0 or 1 along each dimension) and its step in places.
    pub(super) lines: Vec<(Vec<i8>, i64)>,
}

impl<'a> Searcher<'a> {
    pub(super) fn new(
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
    pub(super) fn place(&self, index: &[u64]) -> u64 {
        self.dims
            .iter()
            .zip(index)
            .fold(0, |at, (d, i)| at * d.count + i)
    }

    /// The index of the point at `place`.
    pub(super) fn unpack(&self, mut at: u64) -> Vec<u64> {
        let mut index = vec![0; self.dims.len()];
        for (k, d) in self.dims.iter().enumerate().rev() {
            index[k] = at % d.count;
            at /= d.count;
        }
        index
    }

    pub(super) fn counterexample(&self, at: u64) -> Counterexample {
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
    pub(super) fn point(&mut self, index: &[u64]) -> Result<(u64, Summary), Error> {
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

    /// Offers the point at `index` as a counterexample if it loses an update.
    pub(super) fn offer(&mut self, index: &[u64], s: &Summary) {
        let candidate = (index.iter().sum(), self.place(index));
        if s.lost_update && self.best.is_none_or(|b| candidate < b) {
            self.best = Some(candidate);
        }
    }

    /// Decides the box `lo..=hi`: uniform (its corners agree), every point a corner, or split in two.
    pub(super) fn visit(
        &mut self,
        lo: &[u64; DIMS_MAX],
        hi: &[u64; DIMS_MAX],
    ) -> Result<(), Error> {
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
    pub(super) fn infer_corner_simplices(&mut self, lo: &[u64], hi: &[u64]) {
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
    pub(super) fn fill(&mut self, lo: &[u64], hi: &[u64], path: (u64, Summary)) {
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
    pub(super) fn split_dim(&self, lo: &[u64], hi: &[u64]) -> usize {
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
