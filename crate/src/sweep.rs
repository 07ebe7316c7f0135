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
        let param = sc.param_index_or_err(name)?;
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

/// The outcome of every cell of `x × y` (row-major: y outer, x inner), with the other parameters, the
/// policy, retries, client kind and seed from `base` — exactly as if each cell were run on its own
/// ([`sweep_every_cell`] does that, and tests compare the two on every catalogue scenario).
///
/// It runs far fewer cells. Along one line of the grid (one parameter moving, the rest fixed) every
/// time in a run is an affine function of the moving value for as long as the run takes the same path
/// ([`crate::sig`]), so the values that give one path form an interval: when the two ends of a stretch
/// have the same signature, every cell between them runs that path too, and has the same outcome. Each
/// line is bisected; only cells near a change of path are run. Runs skip a polling client's denied
/// retries ([`Engine::set_fast`]), which keeps paths (and so stretches) long.
///
/// Returns how many cells it ran.
pub fn sweep(
    sc: &Scenario,
    base: &Config,
    x: &Axis,
    y: &Axis,
    out: &mut Vec<Summary>,
) -> Result<usize, Error> {
    sweep_map(sc, base, x, y, |s| *s, out)
}

/// [`sweep`], keeping `f` of each cell's summary (the wasm keeps one byte, [`Summary::code`]).
pub fn sweep_map<T: Copy>(
    sc: &Scenario,
    base: &Config,
    x: &Axis,
    y: &Axis,
    f: impl Fn(&Summary) -> T,
    out: &mut Vec<T>,
) -> Result<usize, Error> {
    let mut grid = Grid::new(sc, base, x, y);
    // Bisect along whichever axis the middle lines suggest changes path less often.
    let (mid_x, mid_y) = (x.steps / 2, y.steps / 2);
    let before = grid.runs.len();
    grid.line(Dir::Column(mid_x))?;
    let column_runs = grid.runs.len() - before;
    let before = grid.runs.len();
    grid.line(Dir::Row(mid_y))?;
    let row_runs = grid.runs.len() - before;
    // Per cell of the line, so unequal axis lengths compare fairly.
    if column_runs * x.steps <= row_runs * y.steps {
        for xi in 0..x.steps {
            grid.line(Dir::Column(xi))?;
        }
    } else {
        for yi in 0..y.steps {
            grid.line(Dir::Row(yi))?;
        }
    }
    let mapped: Vec<T> = grid.runs.iter().map(|r| f(&r.1)).collect();
    out.clear();
    // Every cell is run or filled by now: each line covers all of its cells.
    out.extend(grid.cells.iter().map(|&i| mapped[i as usize]));
    Ok(grid.runs.len())
}

/// The engine the every-cell sweep runs on: in explore's build for speed (feature `speed`) the plain
/// one, with the trace's and the signature's code compiled out; elsewhere the engine every other run
/// uses, so that the lab's wasm, held to size budgets, holds one copy of it.
#[cfg(feature = "speed")]
type EveryCellEngine = Engine<crate::sim::Plain>;
#[cfg(not(feature = "speed"))]
type EveryCellEngine = Engine;

/// [`sweep`] the slow way: every cell run on its own, event by event. The reference the fast sweep is
/// tested against (and benchmarked against). Returns how many cells it ran: all of them.
pub fn sweep_every_cell(
    sc: &Scenario,
    base: &Config,
    x: &Axis,
    y: &Axis,
    out: &mut Vec<Summary>,
) -> Result<usize, Error> {
    let mut engine = EveryCellEngine::default();
    let mut params = base.params.clone();
    out.clear();
    out.reserve(x.steps * y.steps);
    for yi in 0..y.steps {
        params[y.param] = y.value(yi);
        for xi in 0..x.steps {
            params[x.param] = x.value(xi);
            let run = engine.run_at(sc, base, &params)?;
            out.push(summarize(run));
        }
    }
    Ok(out.len())
}

#[derive(Clone, Copy)]
enum Dir {
    Column(usize),
    Row(usize),
}

/// A cell not yet run or filled.
const UNKNOWN: u32 = u32::MAX;

struct Grid<'a> {
    sc: &'a Scenario,
    base: &'a Config,
    x: &'a Axis,
    y: &'a Axis,
    engine: Engine,
    params: Vec<u64>,
    /// Each run's path signature and outcome, in the order run.
    runs: Vec<(u64, Summary)>,
    /// Per cell, the run whose path it takes (its own, or the one of the stretch it was filled from), or
    /// [`UNKNOWN`]. Four bytes a cell keeps a 256 × 256 grid in cache.
    cells: Vec<u32>,
    /// Pending stretches `(from, to)` of the current line (an explicit stack, not recursion).
    stack: Vec<(usize, usize)>,
}

impl<'a> Grid<'a> {
    fn new(sc: &'a Scenario, base: &'a Config, x: &'a Axis, y: &'a Axis) -> Grid<'a> {
        let mut engine = Engine::new();
        engine.set_fast(true);
        Grid {
            sc,
            base,
            x,
            y,
            engine,
            params: base.params.clone(),
            runs: Vec::new(),
            cells: vec![UNKNOWN; x.steps * y.steps],
            stack: Vec::with_capacity(64),
        }
    }

    fn index(&self, dir: Dir, i: usize) -> usize {
        match dir {
            Dir::Column(xi) => i * self.x.steps + xi,
            Dir::Row(yi) => yi * self.x.steps + i,
        }
    }

    /// Runs cell `i` of the line unless it is known.
    fn run(&mut self, dir: Dir, i: usize) -> Result<(), Error> {
        let at = self.index(dir, i);
        if self.cells[at] != UNKNOWN {
            return Ok(());
        }
        let (xi, yi) = (at % self.x.steps, at / self.x.steps);
        self.params[self.y.param] = self.y.value(yi);
        self.params[self.x.param] = self.x.value(xi);
        let run = self.engine.run_at(self.sc, self.base, &self.params)?;
        self.cells[at] = self.runs.len() as u32;
        self.runs.push((run.sig, summarize(run)));
        Ok(())
    }

    /// Every cell of one line: bisect, filling stretches whose ends ran the same path.
    fn line(&mut self, dir: Dir) -> Result<(), Error> {
        let len = match dir {
            Dir::Column(_) => self.y.steps,
            Dir::Row(_) => self.x.steps,
        };
        self.run(dir, 0)?;
        if len == 1 {
            return Ok(());
        }
        self.run(dir, len - 1)?;
        self.stack.clear();
        self.stack.push((0, len - 1));
        while let Some((lo, hi)) = self.stack.pop() {
            if hi - lo < 2 {
                continue;
            }
            let (a, b) = (
                self.cells[self.index(dir, lo)],
                self.cells[self.index(dir, hi)],
            );
            if a == b || self.runs[a as usize] == self.runs[b as usize] {
                for i in lo + 1..hi {
                    let at = self.index(dir, i);
                    if self.cells[at] == UNKNOWN {
                        self.cells[at] = a;
                    }
                }
                continue;
            }
            let mid = lo + (hi - lo) / 2;
            self.run(dir, mid)?;
            self.stack.push((mid, hi));
            self.stack.push((lo, mid));
        }
        Ok(())
    }
}
