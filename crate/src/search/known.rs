//! What the search knows of each point of the grid: a mark per point (dense) or the points run (sparse).

use std::collections::HashMap;

use crate::outcome::Summary;

/// Most points for which the search keeps a mark each (4 bytes a point): larger grids keep only the
/// points they ran.
pub const DENSE_POINTS_MAX: u64 = 1 << 22;

/// What the search knows of each point: its path and outcome, once run or once inside a box whose
/// corners agree. Dense (a class per point) for grids up to [`DENSE_POINTS_MAX`] points, else the
/// points run, by place.
pub(super) enum Known {
    Dense {
        /// Per point: 0 unknown, else 1 + an index into `classes`.
        marks: Vec<u32>,
        classes: Vec<(u64, Summary)>,
    },
    Sparse(HashMap<u64, (u64, Summary)>),
}

impl Known {
    pub(super) fn new(points: u64) -> Known {
        if points <= DENSE_POINTS_MAX {
            Known::Dense {
                marks: vec![0; points as usize],
                classes: Vec::new(),
            }
        } else {
            Known::Sparse(HashMap::new())
        }
    }

    pub(super) fn is_dense(&self) -> bool {
        matches!(self, Known::Dense { .. })
    }

    pub(super) fn get(&self, at: u64) -> Option<(u64, Summary)> {
        match self {
            Known::Dense { marks, classes } => match marks[at as usize] {
                0 => None,
                id => Some(classes[id as usize - 1]),
            },
            Known::Sparse(map) => map.get(&at).copied(),
        }
    }

    pub(super) fn insert(&mut self, at: u64, path: (u64, Summary)) {
        if let Known::Sparse(map) = self {
            map.insert(at, path);
            return;
        }
        let id = self.class(path);
        self.mark(at..=at, id);
    }

    /// The mark of `path` (dense only): its class, added if new.
    pub(super) fn class(&mut self, path: (u64, Summary)) -> u32 {
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

    pub(super) fn mark(&mut self, places: std::ops::RangeInclusive<u64>, id: u32) {
        if let Known::Dense { marks, .. } = self {
            let (from, to) = (*places.start() as usize, *places.end() as usize);
            marks[from..=to].fill(id);
        }
    }
}
