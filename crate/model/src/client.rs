//! Clients: scripts of operations, and the state a client carries while it runs one.
//!
//! A client is a state machine. The world hands it events (its turn to step, a reply from the lock
//! service or the storage); it answers by scheduling messages and timers. While paused, nothing of its
//! own runs and what it believes about its lease does not change.

use crate::clock::Clock;

/// A duration in a script: a literal, or one of the scenario's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dur {
    Lit(u64),
    Param(u8),
}

impl Dur {
    pub fn resolve(self, params: &[u64]) -> u64 {
        match self {
            Dur::Lit(us) => us,
            Dur::Param(i) => params[usize::from(i)],
        }
    }
}

/// One step of a client's script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Ask the lock service for the lock; when denied, try again every `every` (at most `tries` attempts
    /// in all, 0 for no limit), else give up.
    Acquire { every: Dur, tries: u32 },
    /// Read the balance (and its version) from the storage, presenting the lease's credentials;
    /// `via_session`: through the database session that holds a session lock.
    Read { via_session: bool },
    /// Spend time running (the client's clock keeps going; it can notice time passing).
    Work(Dur),
    /// A stop-the-world pause (GC, VM migration, SIGSTOP): frozen, belief unchanged. A fault: it happens
    /// on the first attempt only, not when the client retries.
    Pause(Dur),
    /// Check, by the client's own clock, that at least this much of the lease is left; if not, give the
    /// attempt up and start again from acquire (a careful client).
    Check(Dur),
    /// Write `snapshot − debit`. The network holds the message for `delay` (a fault: first attempt only).
    /// `via_session`: through the database session that holds a session lock (fails once it is gone).
    Write {
        debit: i64,
        delay: Dur,
        via_session: bool,
    },
    /// Release the lock (checked against the grant's value, so a late release cannot free someone else's).
    Release,
    /// Extend the lease by another TTL, if it is still live.
    Renew,
    /// Ask the client library whether it still holds the lock (`is_acquired`, `owned()`, …: what
    /// the answer is and what it costs is the library's); a no gives the attempt up as a failed
    /// `check` does. Only with a library that offers it (`libraries/NAME.rs`).
    Owned,
    /// Look at what the client library's connection listener has heard since the grant, with no
    /// round trip: go on only if nothing that loses the lock was heard; else give the attempt up as a
    /// failed `check` does. Only with a library that has a listener.
    Listener,
    /// Stay connected and do nothing more (a psql session left open). Without it, a client that ends
    /// its script disconnects, which ends its database session.
    Idle,
}

/// A client's script as declared by a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientSpec {
    /// One letter: `A`, `B`, …
    pub name: char,
    /// When the client starts, in true time.
    pub start: Dur,
    pub ops: crate::scenario::List<Op>,
    pub clock: Clock,
    /// The lock nodes it can reach (bit mask): a partition cuts the others.
    pub reach: u8,
    /// One-way latency of its links to particular lock nodes `(node, latency)`; other links use the
    /// service's `lock-latency`.
    pub links: crate::scenario::List<(u8, Dur)>,
    /// The client library it calls (`library=NAME`), or `None`: it speaks the service's protocol as
    /// the lab's own client does.
    pub library: Option<crate::libraries::LibraryKind>,
}

impl ClientSpec {
    /// The one-way latency between this client and lock node `k`.
    pub fn link(&self, k: u8, default_us: u64, params: &[u64]) -> u64 {
        self.links
            .iter()
            .find(|l| l.0 == k)
            .map_or(default_us, |l| l.1.resolve(params))
    }
}

impl ClientSpec {
    /// Where a retry starts again: the first acquire (or the top of the script if it never acquires).
    pub fn restart_pc(&self) -> usize {
        self.ops
            .iter()
            .position(|op| matches!(op, Op::Acquire { .. }))
            .unwrap_or(0)
    }
}
