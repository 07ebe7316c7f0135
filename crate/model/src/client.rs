//! Clients: scripts of operations, and the state a client carries while it runs one.
//!
//! A client is a state machine. The world hands it events (its turn to step, a reply from the lock
//! service or the storage); it answers by scheduling messages and timers. While paused, nothing of its
//! own runs and what it believes about its lease does not change.

use crate::clock::Clock;
use crate::store::Credentials;
use crate::time::SimTime;

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
    /// The Redlock nodes it can reach (bit mask): a partition cuts the others.
    pub reach: u8,
    /// One-way latency of its links to particular Redlock nodes `(node, latency)`; other links use the
    /// service's `lock-latency`.
    pub links: crate::scenario::List<(u8, Dur)>,
}

impl ClientSpec {
    /// The one-way latency between this client and Redlock node `k`.
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

/// What a client holds after a grant, as it believes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeldLease {
    pub cred: Credentials,
    /// When the client learned of the grant (true time).
    pub since: SimTime,
    /// The end of the lease by the client's own clock (local µs).
    pub believed_end_local: i64,
}

/// Where a client is in its life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    #[default]
    NotStarted,
    /// Waiting for a timer or a reply.
    Waiting,
    Paused,
    Done,
}

/// The mutable state of one client during a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientState {
    pub pc: usize,
    /// 0 for the first attempt; faults (pauses, held messages) happen only on attempt 0.
    pub attempt: u32,
    /// Acquire requests sent for the current acquire step.
    pub tries: u32,
    pub phase: Phase,
    pub lease: Option<HeldLease>,
    /// `(balance, version)` from the last read of this attempt.
    pub snapshot: Option<(i64, u64)>,
    /// A pause ended in this attempt and no write has reported since (the seed prints "woke").
    pub woke: bool,
    /// The start of the interval in which the client believes it holds the lock.
    pub belief_from: Option<SimTime>,
    /// The client's own clock when it sent its latest acquire request (local µs).
    pub acquire_sent_local: i64,
    /// Its database session has ended (terminated, or timed out while the client was frozen).
    pub session_dead: bool,
    /// Frozen by a timed pause fault until then (events of its own wait).
    pub frozen_until: SimTime,
    /// Redlock: the nodes it can reach now (bit mask).
    pub reach: u8,
    /// Redlock: acquisition rounds so far (each with its own random lock value).
    pub round: u16,
    /// Redlock: still collecting the current round's replies.
    pub round_open: bool,
    /// Redlock: nodes that answered this round, and those that granted (bit masks).
    pub replied: u8,
    pub granted: u8,
}
