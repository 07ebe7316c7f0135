//! Hazelcast's own part of the scenario format: `service: hazelcast [session-ttl=D] [heartbeat=D]
//! [check=D] [tokens=fence|no]` — its FencedLock on a CP session: heartbeats every `heartbeat` (5 s)
//! that freeze with the client; the CP group closes a session that had none for `session-ttl` (300 s;
//! more than `heartbeat`) at its next expiry check (every `check`, 1 s), releasing its lock; waiters
//! queue on the server; the fence is the Raft commit index of the holder's lock call.

use super::{Facts, OwnOptions, ServiceFormat};
use crate::client::Dur;
use crate::error::Error;
use crate::scenario::parser::Parser;
use crate::scenario::ServiceSpec;
use crate::time::MS;

/// No settings of its own beyond the shared ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options;

impl OwnOptions for Options {}

pub(crate) struct Hazelcast;

impl Facts for Hazelcast {
    const NO_FAILOVER: Option<&'static str> = Some("each FencedLock call is a Raft commit on a majority of the CP group: a CP member's crash loses no lock (the unsafe mode without a CP Subsystem is not modelled)");
}

impl ServiceFormat for Hazelcast {
    /// CPSubsystemConfig's defaults: session-time-to-live-seconds 300, session-heartbeat-
    /// interval-seconds 5; RaftSessionService checks for expired sessions every second.
    fn defaults(&self, svc: &mut ServiceSpec) {
        svc.ttl = Dur::Lit(300_000 * MS);
        svc.keepalive = Dur::Lit(5_000 * MS);
        svc.tick = Dur::Lit(1_000 * MS);
    }

    fn keys(&self) -> &'static [&'static str] {
        &["session-ttl", "heartbeat", "check"]
    }

    /// `session-ttl=D` (session-time-to-live-seconds), `heartbeat=D`
    /// (session-heartbeat-interval-seconds), `check=D` (the expired-session check's period).
    fn setting(&self, p: &mut Parser<'_>, k: &str, v: &str) -> Result<(), Error> {
        let d = p.dur(v)?;
        let svc = &mut p.sc().service;
        match k {
            "session-ttl" => svc.ttl = d,
            "heartbeat" => svc.keepalive = d,
            _ => svc.tick = d,
        }
        Ok(())
    }

    fn token_words(&self) -> &'static [&'static str] {
        &["fence"]
    }

    /// Hazelcast refuses a session TTL that is not longer than the heartbeat interval
    /// (CPSubsystemConfig); checked where both are numbers (a parameter's range is the scenario's).
    fn check_line(&self, p: &mut Parser<'_>) -> Result<(), Error> {
        let svc = &p.sc().service;
        match (svc.ttl, svc.keepalive, svc.tick) {
            (_, Dur::Lit(0), _) => Err(p.err("heartbeat must be positive")),
            (_, _, Dur::Lit(0)) => Err(p.err("check must be positive")),
            (Dur::Lit(ttl), Dur::Lit(hb), _) if ttl <= hb => Err(
                p.err("session-ttl must be longer than heartbeat (Hazelcast's CPSubsystemConfig)")
            ),
            _ => Ok(()),
        }
    }
}
