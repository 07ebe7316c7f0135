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

/// Most events the sorted layout holds before the queue becomes a heap.
const SORTED_MAX: usize = 32;
/// `EventQueue::len` in the heap layout.
const HEAP: usize = usize::MAX;

/// Pending events in `(time, sequence)` order, in one of two layouts:
/// - sorted (while at most [`SORTED_MAX`] are pending, as in nearly every run): an array sorted by key
///   from the largest down, so the next event is the last one, popped in O(1), and a new event, which is
///   mostly due before or just after the soonest pending ones, is moved into place from the end in a
///   comparison or two;
/// - a binary min-heap on the key (once more are pending: a user's scenario can keep thousands, a timer
///   per retry every microsecond), which costs only a logarithm per event. A queue that became a heap
///   stays one until it empties.
///
/// Keys are unique (the sequence is), so the order in which events come out depends on nothing but the
/// keys: both layouts give the same run, as would any other structure that pops the smallest key.
pub(crate) struct EventQueue {
    /// The sorted layout's entries, `sorted[..len]`: a fixed array, so that a push or a pop in it calls
    /// nothing (no growth to check) and stays a handful of instructions.
    sorted: [Queued; SORTED_MAX],
    /// How many of `sorted` are pending, or [`HEAP`] in the heap layout: one load tells a push or a pop
    /// whether it takes the sorted layout's few instructions.
    len: usize,
    /// The heap layout's entries (empty while the queue is sorted, never empty while it is a heap).
    heap: Vec<Queued>,
    seq: u32,
}

impl Default for EventQueue {
    fn default() -> EventQueue {
        EventQueue {
            sorted: [Queued { key: 0, meta: 0 }; SORTED_MAX],
            len: 0,
            heap: Vec::new(),
            seq: 0,
        }
    }
}

impl EventQueue {
    pub fn clear(&mut self) {
        self.len = 0;
        self.heap.clear();
        self.seq = 0;
    }

    /// Whether the queue is in its heap layout.
    fn is_heap(&self) -> bool {
        self.len == HEAP
    }

    /// Queues an event.
    #[inline]
    pub fn push(&mut self, at: SimTime, ev: Ev) {
        let q = Queued::new(at, self.seq, ev);
        self.seq += 1;
        if self.len >= SORTED_MAX {
            // Full, or a heap.
            self.heap_push(q);
            return;
        }
        let i = self.len;
        self.len += 1;
        if i == 0 || self.sorted[i - 1].key > q.key {
            // Due before every pending event (as most are, scheduled for the instant being handled).
            self.sorted[i] = q;
            return;
        }
        self.insert_shifting(i, q);
    }

    /// Puts `q` into the sorted layout's new slot `i`, shifting the entries due after it (smaller keys
    /// come last) one place up. Out of line: a loop inside the run loop's, which V8 compiled with a
    /// stack check of its own, cost every event.
    #[inline(never)]
    fn insert_shifting(&mut self, mut i: usize, q: Queued) {
        while i > 0 && self.sorted[i - 1].key < q.key {
            self.sorted[i] = self.sorted[i - 1];
            i -= 1;
        }
        self.sorted[i] = q;
    }

    /// The next event in `(time, sequence)` order.
    #[inline]
    pub fn pop(&mut self) -> Option<Queued> {
        if self.len.wrapping_sub(1) >= SORTED_MAX {
            // Empty, or a heap. Through the sorted layout's first slot (unused while the queue is a
            // heap): an entry returned from an out-of-line call comes back through memory in wasm.
            if !self.heap_pop_to_slot() {
                return None;
            }
            return Some(self.sorted[0]);
        }
        self.len -= 1;
        Some(self.sorted[self.len])
    }

    /// A push in the heap layout; the first one moves the sorted entries into a heap (read from the
    /// other end, a list sorted from the smallest key up already is one).
    #[cold]
    #[inline(never)]
    fn heap_push(&mut self, q: Queued) {
        if !self.is_heap() {
            self.heap.extend(self.sorted[..self.len].iter().rev());
            self.len = HEAP;
        }
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

    /// The heap's next entry into the sorted layout's first slot, for `pop` to take; `false` if the
    /// queue is empty. The heap's last entry leaves the queue sorted (and empty).
    #[cold]
    #[inline(never)]
    fn heap_pop_to_slot(&mut self) -> bool {
        if !self.is_heap() {
            return false;
        }
        let Some(next) = self.heap_pop() else {
            unreachable!("a heap layout is never empty")
        };
        self.sorted[0] = next;
        if self.heap.is_empty() {
            self.len = 0;
        }
        true
    }

    fn heap_pop(&mut self) -> Option<Queued> {
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
        let pending = if self.is_heap() {
            &self.heap[..]
        } else {
            &self.sorted[..self.len]
        };
        pending.iter().any(|q| hit(q.at().0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pops everything, in order, as (time, client) pairs.
    fn drain(q: &mut EventQueue) -> Vec<(u64, u8)> {
        std::iter::from_fn(|| q.pop().map(|e| (e.at().0, e.client()))).collect()
    }

    #[test]
    fn both_layouts_pop_by_time_then_scheduling_order() {
        // 200 events at pseudo-random times with many ties, pushed and popped in bursts, so the queue
        // runs sorted, becomes a heap past SORTED_MAX, and is cleared back to sorted.
        let mut q = EventQueue::default();
        for pending in [5usize, SORTED_MAX, SORTED_MAX + 1, 200] {
            q.clear();
            let mut want = Vec::new();
            let mut x = 0x9e37_79b9u64;
            for i in 0..pending {
                x = crate::rng::splitmix64(x);
                let at = x % 17; // few distinct times: ties everywhere
                q.push(SimTime(at), Ev::bare(Tag::Step, i as u8));
                want.push((at, i as u8));
            }
            assert_eq!(q.is_heap(), pending > SORTED_MAX, "{pending} pending");
            want.sort_by_key(|&(at, i)| (at, i)); // equal times: in the order pushed
            assert_eq!(drain(&mut q), want, "{pending} pending");
            // Emptied, it takes the sorted layout again.
            q.push(SimTime(9), Ev::bare(Tag::Step, 1));
            q.push(SimTime(3), Ev::bare(Tag::Step, 2));
            assert!(!q.is_heap());
            assert_eq!(drain(&mut q), [(3, 2), (9, 1)]);
        }
    }

    #[test]
    fn events_pushed_while_popping_keep_the_order() {
        // Each popped event schedules two more, one sooner than everything pending and one later, the
        // way a run does; the result must equal a plain sort by (time, sequence).
        for start in [3usize, 40] {
            let mut q = EventQueue::default();
            let mut log = Vec::new();
            let mut seq = 0u32;
            for i in 0..start {
                q.push(SimTime(100 + i as u64 * 7 % 13), Ev::bare(Tag::Step, 0));
                seq += 1;
            }
            let mut now = 0;
            while let Some(e) = q.pop() {
                assert!(e.at().0 >= now, "time went back");
                now = e.at().0;
                log.push((now, e.identity() >> 32));
                if seq < 400 {
                    q.push(SimTime(now + 1), Ev::bare(Tag::Wake, 1));
                    q.push(SimTime(now + 50), Ev::bare(Tag::Wake, 2));
                    seq += 2;
                }
            }
            let mut sorted = log.clone();
            sorted.sort();
            assert_eq!(log, sorted, "start {start}");
            assert_eq!(log.len(), seq as usize);
        }
    }
}
