//! The event queue: entries ordered by `(time, scheduling order)`, so two events at the same
//! microsecond run in the order they were scheduled and every run is exactly repeatable.

use super::event::{Ev, Tag};
use crate::time::SimTime;

/// A queue entry: its time (µs) and `meta` = event tag (8 bits), client (8), payload (16: a message its
/// service packs, [`crate::sim::Ev::inline`]). No sequence number: in the sorted layout an entry's place says
/// when it was scheduled, and the heap layout numbers its entries itself ([`Numbered`]). Two fields:
/// with a third (a sequence number in the padding), V8 made the run loop 37 % slower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Queued {
    at: u64,
    meta: u32,
}

impl Queued {
    fn new(at: SimTime, ev: Ev) -> Queued {
        Queued {
            at: at.0,
            meta: (u32::from(ev.tag as u8) << 24)
                | (u32::from(ev.client) << 16)
                | u32::from(ev.payload),
        }
    }
    pub fn at(self) -> SimTime {
        SimTime(self.at)
    }
    /// Kind, client and payload: everything but the time, for the signature, which folds events in the
    /// order they run. When each was scheduled adds nothing to that: the events that ran before it, and
    /// the choices recorded with them, decide what was scheduled and in which order.
    pub fn identity(self) -> u64 {
        u64::from(self.meta)
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

/// Pending events in `(time, scheduling order)` order, in one of two layouts:
/// - sorted (while at most [`SORTED_MAX`] are pending, as in nearly every run): an array in that order
///   from the last down, so the next event is the last one, popped in O(1), and a new event, which is
///   mostly due before or just after the soonest pending ones, is moved into place from the end in a
///   comparison or two of times alone: scheduled after every pending event, it goes after each one due
///   as soon as it;
/// - a binary min-heap on `(time, sequence)` (once more are pending: a user's scenario can keep
///   thousands, a timer per retry every microsecond), which costs only a logarithm per event. The
///   entries are numbered in order as they come in; a queue that became a heap stays one until it
///   empties.
///
/// Both layouts pop by time, and equal times in the order scheduled, so both give the same run, as
/// would any other structure that does.
pub(crate) struct EventQueue {
    /// The sorted layout's entries, `sorted[..len]`: a fixed array, so that a push or a pop in it calls
    /// nothing (no growth to check) and stays a handful of instructions.
    sorted: [Queued; SORTED_MAX],
    /// How many of `sorted` are pending, or [`HEAP`] in the heap layout: one load tells a push or a pop
    /// whether it takes the sorted layout's few instructions.
    len: usize,
    /// The heap layout's entries (empty while the queue is sorted, never empty while it is a heap).
    heap: Vec<Numbered>,
    /// The heap layout's next sequence number.
    seq: u32,
}

/// A heap entry: the event, and when it was scheduled (a sequence number, unique in the heap).
#[derive(Clone, Copy, Debug)]
struct Numbered {
    q: Queued,
    seq: u32,
}

impl Numbered {
    /// Due before `other`: sooner, or as soon and scheduled first.
    fn before(self, other: Numbered) -> bool {
        (self.q.at, self.seq) < (other.q.at, other.seq)
    }
}

impl Default for EventQueue {
    fn default() -> EventQueue {
        EventQueue {
            sorted: [Queued { at: 0, meta: 0 }; SORTED_MAX],
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
    }

    /// Whether the queue is in its heap layout.
    fn is_heap(&self) -> bool {
        self.len == HEAP
    }

    /// Queues an event.
    #[inline]
    pub fn push(&mut self, at: SimTime, ev: Ev) {
        let q = Queued::new(at, ev);
        if self.len >= SORTED_MAX {
            // Full, or a heap.
            self.heap_push(q);
            return;
        }
        let i = self.len;
        self.len += 1;
        // Times alone: no sequence number to count and compare took 5 % off the every-cell sweep in
        // wasm (issue 18, CHANGELOG.md).
        if i == 0 || self.sorted[i - 1].at > q.at {
            // Due before every pending event (as most are, scheduled for the instant being handled).
            self.sorted[i] = q;
            return;
        }
        self.insert_shifting(i, q);
    }

    /// Puts `q` into the sorted layout's new slot `i`, shifting the entries due before it, or as soon
    /// (they were scheduled earlier), one place up towards the end. Out of line: a loop inside the run
    /// loop's, which V8 compiled with a stack check of its own, cost every event.
    #[inline(never)]
    fn insert_shifting(&mut self, mut i: usize, q: Queued) {
        while i > 0 && self.sorted[i - 1].at <= q.at {
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

    /// A push in the heap layout; the first one moves the sorted entries into a heap, numbered in the
    /// order they would pop (read from the other end, a list sorted from the soonest up already is
    /// one), and the new entry after them.
    #[cold]
    #[inline(never)]
    fn heap_push(&mut self, q: Queued) {
        if !self.is_heap() {
            let pending = self.sorted[..self.len].iter().rev();
            self.heap
                .extend((0..).zip(pending).map(|(seq, &q)| Numbered { q, seq }));
            self.seq = self.len as u32;
            self.len = HEAP;
        }
        let q = Numbered { q, seq: self.seq };
        self.seq += 1;
        // Sift up: move parents down into the hole until the new entry's place is found.
        let mut i = self.heap.len();
        self.heap.push(q);
        while i > 0 {
            let parent = (i - 1) / 2;
            let above = self.heap[parent];
            if above.before(q) {
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
            // Unreachable: a heap layout is never empty.
            unreachable!()
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
            return Some(last.q);
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
            let child = if right < n && self.heap[right].before(self.heap[left]) {
                right
            } else {
                left
            };
            let below = self.heap[child];
            if last.before(below) {
                break;
            }
            self.heap[i] = below;
            i = child;
        }
        self.heap[i] = last;
        Some(top.q)
    }

    /// Whether an event is pending at an instant `hit` picks out.
    pub fn any_at(&self, hit: impl Fn(u64) -> bool) -> bool {
        if self.is_heap() {
            self.heap.iter().any(|n| hit(n.q.at))
        } else {
            self.sorted[..self.len].iter().any(|q| hit(q.at))
        }
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
        // way a run does; the result must equal a plain sort by (time, order pushed). Each event
        // carries the number of its push in its payload; 40 at the start make the queue a heap, which
        // numbers its entries itself.
        for start in [3u16, 40] {
            let mut q = EventQueue::default();
            let mut log = Vec::new();
            let mut seq = 0u16;
            let push = |q: &mut EventQueue, at: u64, seq: &mut u16| {
                q.push(
                    SimTime(at),
                    Ev {
                        tag: Tag::Wake,
                        client: 0,
                        payload: *seq,
                    },
                );
                *seq += 1;
            };
            for i in 0..start {
                push(&mut q, 100 + u64::from(i) * 7 % 13, &mut seq);
            }
            let mut now = 0;
            while let Some(e) = q.pop() {
                assert!(e.at().0 >= now, "time went back");
                now = e.at().0;
                log.push((now, e.payload()));
                if seq < 400 {
                    push(&mut q, now + 1, &mut seq);
                    push(&mut q, now + 50, &mut seq);
                }
            }
            let mut sorted = log.clone();
            sorted.sort();
            assert_eq!(log, sorted, "start {start}");
            assert_eq!(log.len(), seq as usize);
        }
    }
}
