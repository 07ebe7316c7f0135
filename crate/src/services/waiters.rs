//! Queues of waiters in the order they asked, written once for the services that have one.
//!
//! [`Waiters`]: the first live entry holds the lock — keys queued by create revision, sequential
//! nodes. Entries are only ever added at the back and marked dead, never removed during a run, so an
//! entry's place is its order (a revision, a sequence number) and a record can name it by place.
//! Each service keeps its own entry type (what it knows of a key or a node) and its own rules: when
//! a waiter is told it holds the lock, what a dead entry's holder is told, its token. A run reuses
//! the queue's allocation ([`Waiters::clear`]).
//!
//! [`Fifo`]: calls waiting behind a holder the service keeps itself, first come first served —
//! lock calls committed on a consensus group, sessions blocked in a lock call. A waiter leaves
//! the queue when its turn comes, or early (its session ends, its timeout runs out).

use std::ops::{Index, IndexMut};

/// What the queue needs to know of an entry.
pub(crate) trait Waiter: Copy {
    /// The client whose entry it is.
    fn client(&self) -> u8;
    /// Not yet deleted (by an unlock, or with its session).
    fn live(&self) -> bool {
        true
    }
}

/// A client waiting (its session blocked in a lock call).
impl Waiter for u8 {
    fn client(&self) -> u8 {
        *self
    }
}

/// A client and its call's number (a lock call and the index it was committed at).
impl Waiter for (u8, u64) {
    fn client(&self) -> u8 {
        self.0
    }
}

/// The entries of a run, in order.
pub(crate) struct Waiters<T> {
    entries: Vec<T>,
}

impl<T> Default for Waiters<T> {
    fn default() -> Self {
        Waiters {
            entries: Vec::new(),
        }
    }
}

impl<T: Waiter> Waiters<T> {
    /// Empty, keeping the allocation.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// A new entry at the back; its place.
    pub fn push(&mut self, entry: T) -> usize {
        self.entries.push(entry);
        self.entries.len() - 1
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The client's live entry, if it has one.
    pub fn of(&self, c: u8) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.live() && e.client() == c)
    }

    /// The first live entry: the holder's.
    pub fn head(&self) -> Option<usize> {
        self.entries.iter().position(Waiter::live)
    }

    /// The live entry just before `i`, if any (the one `i` waits behind).
    pub fn before(&self, i: usize) -> Option<usize> {
        (0..i).rev().find(|&k| self.entries[k].live())
    }
}

impl<T> Index<usize> for Waiters<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        &self.entries[i]
    }
}

impl<T> IndexMut<usize> for Waiters<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.entries[i]
    }
}

/// Waiters behind a holder kept elsewhere, first come first served.
pub(crate) struct Fifo<T> {
    calls: Vec<T>,
}

impl<T> Default for Fifo<T> {
    fn default() -> Self {
        Fifo { calls: Vec::new() }
    }
}

impl<T: Waiter> Fifo<T> {
    /// Empty, keeping the allocation.
    pub fn clear(&mut self) {
        self.calls.clear();
    }

    /// A waiter at the back.
    pub fn push(&mut self, call: T) {
        self.calls.push(call);
    }

    pub fn len(&self) -> usize {
        self.calls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// The first waiter's turn: it leaves the queue.
    pub fn next(&mut self) -> Option<T> {
        (!self.calls.is_empty()).then(|| self.calls.remove(0))
    }

    /// Client `c`'s call leaves the queue early, if it was waiting.
    pub fn leave(&mut self, c: u8) -> Option<T> {
        let at = self.calls.iter().position(|w| w.client() == c);
        at.map(|i| self.calls.remove(i))
    }
}
