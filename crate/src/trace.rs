//! What a run leaves behind: the event trace, the writes, and the intervals the timeline draws.
//!
//! Trace records are plain `Copy` structs (no strings), so recording costs no allocation per event once
//! the buffers have grown; text and JSON are rendered afterwards by [`crate::report`].

use crate::store::Refusal;
use crate::time::SimTime;

/// The kinds of trace events. `client` on the record says whose; the kind says where it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Client: started its script.
    Start,
    /// Client → lock service: acquire request sent.
    AcquireSent,
    /// Lock service: granted (`token`, `aux` = lease end in µs of true time).
    Granted,
    /// Lock service: denied (`aux` = holder's index + 1, or 0 while a lock-delay runs).
    Denied,
    /// Lock service: the lease of `client` (token) ran out.
    LeaseExpired,
    /// Storage: read served (`value` = balance, `aux` = version).
    Read,
    /// Storage: read refused (`reason`).
    ReadRejected,
    /// Client: frozen (`aux` = duration).
    PauseStart,
    /// Client: woke up.
    PauseEnd,
    /// Client: own-clock check passed (`value` = µs left by its clock, `aux` = µs needed).
    CheckOk,
    /// Client: own-clock check failed (`value` = µs left, `aux` = µs needed).
    CheckFailed,
    /// Client → storage: write sent (`value`, `token`, `aux` = µs the network holds it).
    WriteSent,
    /// Storage: write accepted (`value`, `token`).
    WriteAccepted,
    /// Storage: write refused (`value`, `token`, `reason`).
    WriteRejected,
    /// Lock service: a release arrived; `aux` = 1 if it ended a live lease.
    Released,
    /// Lock service: renewal granted (`aux` = new lease end).
    Renewed,
    /// Lock service: renewal refused (the lease was gone).
    RenewDenied,
    /// Lock service: the client's database session ended (`aux` 0: terminated, 1: keepalive timeout,
    /// 2: the client disconnected at the end of its script;
    /// `value` 1 if that freed a lock it held).
    SessionEnded,
    /// Lock server: its wall clock stepped by `value` µs (expiries move with it).
    ServerClockStep,
    /// Client: its wall clock stepped by `value` µs.
    ClockStep,
    /// Client: starts over (`aux` = attempt number, from 1).
    Retry,
    /// Client: stopped without finishing (denied too often, or out of retries).
    GaveUp,
    /// Client: finished its script.
    Done,
    /// Client (Redlock): counted the nodes' replies and holds the lock (`aux` = nodes that granted,
    /// `value` = validity in µs; negative only for a naive client, which does not check it).
    RedlockAcquired,
    /// Client (Redlock): too few nodes, or no validity left: unlocks every node and backs off
    /// (`aux` = nodes that granted, `value` = validity in µs).
    RedlockFailed,
    /// Lock server (`node`): crashed (`value` = live keys lost with it).
    NodeCrashed,
    /// Lock server (`node`): restarted.
    NodeRestarted,
    /// Redis: the master died and its replica took over (`value` = live grants it never received).
    Failover,
    /// Network: the links between the client and some nodes (`aux` = bit mask) went down (`value` 1)
    /// or came back (`value` 0).
    Partition,
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
            | Kind::Partition => "lock",
            Kind::Read | Kind::ReadRejected | Kind::WriteAccepted | Kind::WriteRejected => {
                "storage"
            }
            _ => "client",
        }
    }
}

/// One line of the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    pub t: SimTime,
    pub client: u8,
    /// The lock server an event of the lock lane happened on (Redlock node index; 0 otherwise).
    pub node: u8,
    pub kind: Kind,
    /// Fencing token involved (0 when none).
    pub token: u64,
    /// A balance or a signed amount, per kind.
    pub value: i64,
    /// A duration, time or count, per kind.
    pub aux: u64,
    pub reason: Option<Refusal>,
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
