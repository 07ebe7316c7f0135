//! What a run leaves behind: the event trace, the writes, and the intervals the timeline draws.
//!
//! Trace records are plain `Copy` values (no strings), so recording costs no allocation per event once
//! the buffers have grown; text and JSON are rendered afterwards by [`crate::report`]. Each event's
//! facts are typed ([`What`]): no field means one thing for one kind and another for the next.

use crate::store::Refusal;
use crate::time::SimTime;

/// One line of the trace: when, whose, where, and what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    pub t: SimTime,
    /// The client it concerns (for a fault, the client it hits; 0 for a lock server's own event).
    pub client: u8,
    /// The lock server an event of the lock lane happened on (a quorum service's node index; 0 otherwise).
    pub node: u8,
    pub what: What,
}

impl TraceEvent {
    pub fn kind(&self) -> Kind {
        self.what.kind()
    }
}

/// Why a database session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// `pg_terminate_backend`: an admin (or a fault) killed it.
    Terminated,
    /// No keepalives while the client was frozen: the server gave up on it.
    IdleTimeout,
    /// The client closed its connection at the end of its script.
    Disconnected,
}

impl SessionEnd {
    pub fn name(self) -> &'static str {
        match self {
            SessionEnd::Terminated => "terminated",
            SessionEnd::IdleTimeout => "idle-timeout",
            SessionEnd::Disconnected => "disconnected",
        }
    }
}

/// A client's connection states, as a client library reports them (e.g. SUSPENDED, LOST).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    /// No reply from the server for two thirds of the session timeout.
    Suspended,
    /// The session is known (or, by Curator, taken) to have expired.
    Lost,
    /// A reply came again, and the session was still alive.
    Reconnected,
}

/// What a client library told the application (or the application learned by asking it): a
/// [`What::Notice`]. The run JSON names each by [`Note::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// `release` raised: the lock was not the client's any more (redis-py's `LockNotOwnedError`, …).
    ReleaseRaised,
    /// The library's renewal thread or watchdog failed a renewal and stopped; the application hears
    /// nothing of it.
    RenewalDied,
    /// The session's `Done()` channel closed (a session whose lease expired).
    SessionDone,
    /// `owned` answered yes; `truth`: whether the client really held the lock then.
    OwnedYes { truth: bool },
    /// `owned` answered no; `truth` as above.
    OwnedNo { truth: bool },
    /// `listener`: nothing that loses the lock was heard since the grant.
    ListenerOk,
    /// `listener`: the listener heard the lock lost (SUSPENDED or LOST).
    ListenerLost,
}

impl Note {
    /// Its name in the run JSON (`note`).
    pub fn name(self) -> &'static str {
        match self {
            Note::ReleaseRaised => "release-raised",
            Note::RenewalDied => "renewal-died",
            Note::SessionDone => "session-done",
            Note::OwnedYes { .. } => "owned-yes",
            Note::OwnedNo { .. } => "owned-no",
            Note::ListenerOk => "listener-ok",
            Note::ListenerLost => "listener-lost",
        }
    }
}

/// What happened, with the facts of that kind of event. `token` is the fencing token involved, 0
/// where the service hands out none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// Client: started its script.
    Start,
    /// Client → lock service: acquire request sent.
    AcquireSent,
    /// Lock service: granted, live until `lease_end` (true time; `None` for a session lock, which has
    /// no TTL).
    Granted {
        token: u64,
        lease_end: Option<SimTime>,
    },
    /// Lock service: denied while `holder` holds a live lease (`None` while a lock-delay runs), or
    /// refused because the request came over a session that is gone.
    Denied {
        holder: Option<u8>,
        session_gone: bool,
    },
    /// Lock service: the lease (of the event's client) ran out.
    LeaseExpired { token: u64 },
    /// Storage: read served.
    Read {
        token: u64,
        value: i64,
        version: u64,
    },
    /// Storage: read refused.
    ReadRejected { token: u64, reason: Refusal },
    /// Client: frozen for `dur_us`, holding `token`, having read `read` (if it has read).
    PauseStart {
        token: u64,
        read: Option<i64>,
        dur_us: u64,
    },
    /// Client: woke up.
    PauseEnd,
    /// Client: its own-clock check that `need_us` of the lease is left (`left_us`: `None` when it
    /// holds no lease).
    Check {
        ok: bool,
        left_us: Option<i64>,
        need_us: u64,
    },
    /// Client → storage: write sent; the network holds it `held_us`.
    WriteSent {
        token: u64,
        value: i64,
        held_us: u64,
    },
    /// Storage: write accepted.
    WriteAccepted { token: u64, value: i64 },
    /// Storage: write refused.
    WriteRejected {
        token: u64,
        value: i64,
        reason: Refusal,
    },
    /// Lock service: a value-checked release arrived; `ended_lease` if it ended a live lease.
    Released { ended_lease: bool },
    /// Lock service: renewal granted, live until `lease_end` (`None`: a session lock).
    Renewed { lease_end: Option<SimTime> },
    /// Lock service: renewal refused (the lease was gone).
    RenewDenied,
    /// Lock service: the client's database session ended; `freed` if that freed a lock it held.
    SessionEnded { cause: SessionEnd, freed: bool },
    /// Lock server (`node`): its wall clock stepped (expiries move with it).
    ServerClockStep { by_us: i64 },
    /// Client: its wall clock stepped.
    ClockStep { by_us: i64 },
    /// Client: starts over (attempt number, from 1).
    Retry { attempt: u32 },
    /// Client: stopped without finishing (denied too often, or out of retries).
    GaveUp,
    /// Client: finished its script.
    Done,
    /// Client (of a quorum service): counted a round's replies. `acquired`: it holds the lock (a majority, and
    /// validity left unless naive); otherwise it unlocks every node and backs off. `validity_us` is
    /// negative only when the client is frozen or naive.
    Round {
        acquired: bool,
        granted_nodes: u8,
        validity_us: i64,
    },
    /// Lock server (`node`): crashed, losing the live keys it had not persisted.
    NodeCrashed { keys_lost: u64 },
    /// Lock server (`node`): restarted.
    NodeRestarted,
    /// Redis: the master died and its replica took over without the grants it never received.
    Failover { grants_lost: u64 },
    /// Network: the links between the client and `nodes` (bit mask) went down, or came back.
    Partition { cut: bool, nodes: u8 },
    /// Lock service: the client's lease (or session) `lease` was granted, live until `lease_end` unless kept
    /// alive.
    LeaseGranted { lease: u64, lease_end: SimTime },
    /// Lock service: the client's entry has order `rev` (a revision, a sequence number, a commit
    /// index) and waits behind `behind`'s.
    Queued { rev: u64, behind: Option<u8> },
    /// Lock service: a keepalive (ping, heartbeat, renewal) arrived: the lease now lives until `lease_end`, or (`None`)
    /// it had already expired.
    KeepAlive { lease_end: Option<SimTime> },
    /// Lock service (naive: a server without the check): a waiter whose lease expired while it waited
    /// is told it holds the lock (its entry is gone; the lock is not its).
    StaleGrant { token: u64 },
    /// Client: its connection state changed (as its client library reports it).
    Connection { state: Connection },
    /// Client: its library told the application something, or answered its question (a build
    /// without libraries records none).
    #[cfg(feature = "libraries")]
    Notice { note: Note },
}

impl What {
    /// The event's kind: its name and lane.
    pub fn kind(self) -> Kind {
        match self {
            What::Start => Kind::Start,
            What::AcquireSent => Kind::AcquireSent,
            What::Granted { .. } => Kind::Granted,
            What::Denied { .. } => Kind::Denied,
            What::LeaseExpired { .. } => Kind::LeaseExpired,
            What::Read { .. } => Kind::Read,
            What::ReadRejected { .. } => Kind::ReadRejected,
            What::PauseStart { .. } => Kind::PauseStart,
            What::PauseEnd => Kind::PauseEnd,
            What::Check { ok: true, .. } => Kind::CheckOk,
            What::Check { ok: false, .. } => Kind::CheckFailed,
            What::WriteSent { .. } => Kind::WriteSent,
            What::WriteAccepted { .. } => Kind::WriteAccepted,
            What::WriteRejected { .. } => Kind::WriteRejected,
            What::Released { .. } => Kind::Released,
            What::Renewed { .. } => Kind::Renewed,
            What::RenewDenied => Kind::RenewDenied,
            What::SessionEnded { .. } => Kind::SessionEnded,
            What::ServerClockStep { .. } => Kind::ServerClockStep,
            What::ClockStep { .. } => Kind::ClockStep,
            What::Retry { .. } => Kind::Retry,
            What::GaveUp => Kind::GaveUp,
            What::Done => Kind::Done,
            What::Round { acquired: true, .. } => Kind::RedlockAcquired,
            What::Round {
                acquired: false, ..
            } => Kind::RedlockFailed,
            What::NodeCrashed { .. } => Kind::NodeCrashed,
            What::NodeRestarted => Kind::NodeRestarted,
            What::Failover { .. } => Kind::Failover,
            What::Partition { .. } => Kind::Partition,
            What::LeaseGranted { .. } => Kind::LeaseGranted,
            What::Queued { .. } => Kind::Queued,
            What::KeepAlive { lease_end: Some(_) } => Kind::KeepAlive,
            What::KeepAlive { lease_end: None } => Kind::KeepAliveFailed,
            What::StaleGrant { .. } => Kind::StaleGrant,
            What::Connection { state } => match state {
                Connection::Suspended => Kind::Suspended,
                Connection::Lost => Kind::Lost,
                Connection::Reconnected => Kind::Reconnected,
            },
            #[cfg(feature = "libraries")]
            What::Notice { .. } => Kind::Notice,
        }
    }
}

/// The kinds of trace events, as the run JSON names them and the diagram lays them out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    Start,
    AcquireSent,
    Granted,
    Denied,
    LeaseExpired,
    Read,
    ReadRejected,
    PauseStart,
    PauseEnd,
    CheckOk,
    CheckFailed,
    WriteSent,
    WriteAccepted,
    WriteRejected,
    Released,
    Renewed,
    RenewDenied,
    SessionEnded,
    ServerClockStep,
    ClockStep,
    Retry,
    GaveUp,
    Done,
    RedlockAcquired,
    RedlockFailed,
    NodeCrashed,
    NodeRestarted,
    Failover,
    Partition,
    LeaseGranted,
    Queued,
    KeepAlive,
    KeepAliveFailed,
    StaleGrant,
    Suspended,
    Lost,
    Reconnected,
    #[cfg(feature = "libraries")]
    Notice,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Start => "start",
            Kind::AcquireSent => "acquire-sent",
            Kind::Granted => "granted",
            Kind::Denied => "denied",
            Kind::LeaseExpired => "lease-expired",
            Kind::Read => "read",
            Kind::ReadRejected => "read-rejected",
            Kind::PauseStart => "pause-start",
            Kind::PauseEnd => "pause-end",
            Kind::CheckOk => "check-ok",
            Kind::CheckFailed => "check-failed",
            Kind::WriteSent => "write-sent",
            Kind::WriteAccepted => "write-accepted",
            Kind::WriteRejected => "write-rejected",
            Kind::Released => "released",
            Kind::Renewed => "renewed",
            Kind::RenewDenied => "renew-denied",
            Kind::SessionEnded => "session-ended",
            Kind::ServerClockStep => "server-clock-step",
            Kind::ClockStep => "clock-step",
            Kind::Retry => "retry",
            Kind::GaveUp => "gave-up",
            Kind::Done => "done",
            Kind::RedlockAcquired => "redlock-acquired",
            Kind::RedlockFailed => "redlock-failed",
            Kind::NodeCrashed => "node-crashed",
            Kind::NodeRestarted => "node-restarted",
            Kind::Failover => "failover",
            Kind::Partition => "partition",
            Kind::LeaseGranted => "lease-granted",
            Kind::Queued => "queued",
            Kind::KeepAlive => "keepalive",
            Kind::KeepAliveFailed => "keepalive-failed",
            Kind::StaleGrant => "stale-grant",
            Kind::Suspended => "suspended",
            Kind::Lost => "lost",
            Kind::Reconnected => "reconnected",
            #[cfg(feature = "libraries")]
            Kind::Notice => "notice",
        }
    }

    /// The lane of the space-time diagram the event belongs to.
    pub fn lane(self) -> &'static str {
        match self {
            Kind::Granted
            | Kind::Denied
            | Kind::LeaseExpired
            | Kind::Released
            | Kind::Renewed
            | Kind::RenewDenied
            | Kind::SessionEnded
            | Kind::ServerClockStep
            | Kind::NodeCrashed
            | Kind::NodeRestarted
            | Kind::Failover
            | Kind::Partition
            | Kind::LeaseGranted
            | Kind::Queued
            | Kind::KeepAlive
            | Kind::KeepAliveFailed
            | Kind::StaleGrant => "lock",
            Kind::Read | Kind::ReadRejected | Kind::WriteAccepted | Kind::WriteRejected => {
                "storage"
            }
            _ => "client",
        }
    }
}

/// A write as the storage saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteRecord {
    pub client: u8,
    pub token: u64,
    /// The balance the writer had read.
    pub snapshot: i64,
    pub value: i64,
    pub debit: i64,
    /// When it reached the storage.
    pub t: SimTime,
    pub accepted: bool,
    pub reason: Option<Refusal>,
    /// The writer was not the lock service's latest grantee when the write arrived.
    pub stale: bool,
}

/// A half-open interval of true time drawn on a client's lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub client: u8,
    pub from: SimTime,
    pub to: SimTime,
    /// The fencing token of the lease (beliefs) or the held write's value (network holds).
    pub tag: i64,
}
