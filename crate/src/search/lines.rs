//! The line rule: a point between two known points of one path, along a line of the grid (a dimension
//! or a diagonal), runs that path too — the convexity [`super`]'s module docs argue — so it is decided
//! without a run.

use super::known::Known;
use super::searcher::Searcher;
use super::Dim;

impl Searcher<'_> {
    /// The class of the point at `index` when, along some line of the grid through it (one of
    /// [`Searcher::lines`]: along a dimension or a diagonal of two), the nearest known points on
    /// either side of it (within [`LINE_LOOK_MAX`] steps) run one path: the points between two
    /// points of one path run it too (module docs). Dense grids only.
    pub(super) fn between_known(&self, index: &[u64]) -> Option<u32> {
        let Known::Dense { marks, .. } = &self.known else {
            return None;
        };
        let at = self.place(index) as i64;
        let d = self.dims.len();
        // How many steps the line can take from `index` forward (+1) or back (−1).
        let room = |dir: &[i8], sign: i64| {
            (0..d)
                .filter(|&k| dir[k] != 0)
                .map(|k| {
                    if i64::from(dir[k]) * sign > 0 {
                        self.dims[k].count - 1 - index[k]
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
}

/// The lines of the grid through a point: every direction of −1, 0 or 1 along each dimension (one of
/// each pair of opposite directions), with its step in places; the fewer dimensions a line moves
/// along, the earlier it comes; at most [`LINES_MAX`].
pub(super) fn lines(dims: &[Dim]) -> Vec<(Vec<i8>, i64)> {
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
