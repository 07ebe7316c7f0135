//! The state a client carries while it runs its script (the script itself is the model's
//! [`crate::client::ClientSpec`]). Per-service client state (a quorum client's round) lives with its service.

use crate::store::Credentials;
use crate::time::SimTime;

/// What a client holds after a grant, as it believes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HeldLease {
    pub cred: Credentials,
    /// When the client learned of the grant (true time).
    pub since: SimTime,
    /// The end of the lease by the client's own clock (local µs).
    pub believed_end_local: i64,
}

/// Where a client is in its life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Phase {
    #[default]
    NotStarted,
    /// Waiting for a timer or a reply.
    Waiting,
    Paused,
    Done,
}

/// The mutable state of one client during a run.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClientState {
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
    /// The lock nodes it can reach now (bit mask): partitions cut and heal links.
    pub reach: u8,
    /// What its client library has heard and is doing (a client without one leaves it unused).
    #[cfg(feature = "libraries")]
    pub heard: crate::libraries::Heard,
}
