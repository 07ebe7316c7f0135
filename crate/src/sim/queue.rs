//! The event queue: entries ordered by `(time, sequence)`, so two events at the same microsecond run in
//! the order they were scheduled and every run is exactly repeatable.

use std::collections::VecDeque;

use super::event::Tag;
use crate::time::SimTime;

/// A queue entry: `key` = time (the high 33 bits) and sequence (the low 31), so ordering the keys
/// orders by `(time, sequence)` — sequences are unique — with one 64-bit comparison (a `u128` costs
/// several in wasm); `meta` = event tag (8 bits), client (8), payload (16: a Redlock message's node,
/// answer and round). Times past 2³³ µs (beyond the run's time limit) are kept as 2³³ − 1: such an
/// event stops the run with the time-limit error when it comes up, as any time past the limit does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Queued {
    key: u64,
    meta: u32,
}

const SEQ_BITS: u32 = 31;
/// How far an insertion scans from the back of the queue before it searches instead.
const SCAN_MAX: usize = 8;
const KEY_TIME_MAX: u64 = (1 << (64 - SEQ_BITS)) - 1;

impl Queued {
    fn new(at: SimTime, seq: u32, tag: Tag, client: u8, payload: u16) -> Queued {
        // A run schedules a few events per event it handles, and handles at most EVENTS_MAX.
        debug_assert!(seq < 1 << SEQ_BITS);
        Queued {
            key: (at.0.min(KEY_TIME_MAX) << SEQ_BITS) | u64::from(seq),
            meta: (u32::from(tag as u8) << 24) | (u32::from(client) << 16) | u32::from(payload),
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
}

/// Pending events in `(time, sequence)` order.
#[derive(Default)]
pub(crate) struct EventQueue {
    /// Events of later instants, sorted. Runs keep a handful pending at a time and new events mostly
    /// land at the back, so a sorted deque beats a heap here.
    later: VecDeque<Queued>,
    /// Events scheduled for the current instant while handling it (zero-latency messages, zero waits).
    /// They come after every entry of `later` at this instant (those were scheduled earlier, so have
    /// lower sequence numbers) and among themselves in scheduling order: a FIFO, with no search.
    now_fifo: VecDeque<Queued>,
    seq: u32,
}

impl EventQueue {
    pub fn clear(&mut self) {
        self.later.clear();
        self.now_fifo.clear();
        self.seq = 0;
    }

    /// Queues an event; `now` is the current instant, `started` whether the run handles events yet.
    pub fn push(
        &mut self,
        at: SimTime,
        tag: Tag,
        client: u8,
        payload: u16,
        now: SimTime,
        started: bool,
    ) {
        let q = Queued::new(at, self.seq, tag, client, payload);
        self.seq += 1;
        if at == now && started {
            self.now_fifo.push_back(q);
            return;
        }
        // Insert keeping the order: scan from the back, where new events usually belong; past a few
        // entries, search (a user's scenario can keep thousands pending — a timer per retry every
        // microsecond — and a scan of them all per event would run for minutes).
        let mut i = self.later.len();
        let scan_stop = i.saturating_sub(SCAN_MAX);
        while i > scan_stop && self.later[i - 1] > q {
            i -= 1;
        }
        if i == scan_stop && i > 0 && self.later[i - 1] > q {
            i = self.later.partition_point(|&e| e < q);
        }
        if i == self.later.len() {
            self.later.push_back(q);
        } else {
            self.later.insert(i, q);
        }
    }

    /// The next event in `(time, sequence)` order.
    pub fn pop(&mut self, now: SimTime) -> Option<Queued> {
        match self.later.front() {
            Some(front) if front.at() == now => self.later.pop_front(),
            _ => self.now_fifo.pop_front().or_else(|| self.later.pop_front()),
        }
    }

    /// Whether an event is pending at an instant `hit` picks out.
    pub fn any_at(&self, hit: impl Fn(u64) -> bool) -> bool {
        self.later
            .iter()
            .chain(self.now_fifo.iter())
            .any(|q| hit(q.at().0))
    }
}
