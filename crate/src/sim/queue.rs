//! The event queue: entries ordered by `(time, sequence)`, so two events at the same microsecond run in
//! the order they were scheduled and every run is exactly repeatable.

use super::event::{Ev, Tag};
use crate::time::SimTime;

/// A queue entry: `key` = time (the high 33 bits) and sequence (the low 31), so ordering the keys
/// orders by `(time, sequence)` — sequences are unique — with one 64-bit comparison (a `u128` costs
/// several in wasm); `meta` = event tag (8 bits), client (8), payload (16: a Redlock message's node,
/// answer and round). Times past 2³³ µs (beyond the run's time limit) are kept as 2³³ − 1: such an
/// event stops the run with the time-limit error when it comes up, as any time past the limit does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Queued {
    key: u64,
    meta: u32,
}

const SEQ_BITS: u32 = 31;
const KEY_TIME_MAX: u64 = (1 << (64 - SEQ_BITS)) - 1;

impl Queued {
    fn new(at: SimTime, seq: u32, ev: Ev) -> Queued {
        // A run schedules a few events per event it handles, and handles at most EVENTS_MAX.
        debug_assert!(seq < 1 << SEQ_BITS);
        Queued {
            key: (at.0.min(KEY_TIME_MAX) << SEQ_BITS) | u64::from(seq),
            meta: (u32::from(ev.tag as u8) << 24)
                | (u32::from(ev.client) << 16)
                | u32::from(ev.payload),
        }
    }
    pub fn at(self) -> SimTime {
        SimTime(self.key >> SEQ_BITS)
    }
    /// Sequence, kind, client and payload: everything but the time (for the signature).
    pub fn identity(self) -> u64 {
        ((self.key & ((1 << SEQ_BITS) - 1)) << 32) | u64::from(self.meta)
    }
    pub fn tag(self) -> Tag {
        Tag::from_u8((self.meta >> 24) as u8)
    }
    pub fn client(self) -> u8 {
        (self.meta >> 16) as u8
    }
    pub fn payload(self) -> u16 {
        self.meta as u16
    }
    /// The event this entry stands for.
    pub fn ev(self) -> Ev {
        Ev {
            tag: self.tag(),
            client: self.client(),
            payload: self.payload(),
        }
    }
}

/// Pending events in `(time, sequence)` order: a binary min-heap on the key. A run keeps a handful
/// pending, so a push or a pop is a comparison or two; a user's scenario can keep thousands pending (a
/// timer per retry every microsecond) and still costs only a logarithm per event. Keys are unique (the
/// sequence is), so the order in which events come out depends on nothing but the keys: the same as
/// any other structure that pops the smallest key (the sorted deque this replaced, for one).
#[derive(Default)]
pub(crate) struct EventQueue {
    heap: Vec<Queued>,
    seq: u32,
}

impl EventQueue {
    pub fn clear(&mut self) {
        self.heap.clear();
        self.seq = 0;
    }

    /// Queues an event.
    pub fn push(&mut self, at: SimTime, ev: Ev) {
        let q = Queued::new(at, self.seq, ev);
        self.seq += 1;
        // Sift up: move parents down into the hole until the new entry's place is found.
        let mut i = self.heap.len();
        self.heap.push(q);
        while i > 0 {
            let parent = (i - 1) / 2;
            let above = self.heap[parent];
            if above.key < q.key {
                break;
            }
            self.heap[i] = above;
            i = parent;
        }
        self.heap[i] = q;
    }

    /// The next event in `(time, sequence)` order.
    pub fn pop(&mut self) -> Option<Queued> {
        let last = self.heap.pop()?;
        let Some(&top) = self.heap.first() else {
            return Some(last);
        };
        // Sift the last entry down from the root: move the smaller child up into the hole.
        let n = self.heap.len();
        let mut i = 0;
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.heap[right].key < self.heap[left].key {
                right
            } else {
                left
            };
            let below = self.heap[child];
            if last.key < below.key {
                break;
            }
            self.heap[i] = below;
            i = child;
        }
        self.heap[i] = last;
        Some(top)
    }

    /// Whether an event is pending at an instant `hit` picks out.
    pub fn any_at(&self, hit: impl Fn(u64) -> bool) -> bool {
        self.heap.iter().any(|q| hit(q.at().0))
    }
}
