//! ZooKeeper's own part of the scenario format: `service: zookeeper session=D [tick=D]
//! [suspended=error|tolerate] [tokens=czxid|no]` — a session (6 s by default) kept alive by pings
//! every third of its timeout; ephemeral sequential nodes, the lowest holds; Curator's SUSPENDED after
//! two thirds of the timeout without a reply, LOST a timeout later; its one server is `n1`
//! (`cut A n1` cuts a client off it).

use super::{Facts, OwnOptions, ServiceFormat};
use crate::client::Dur;
use crate::error::Error;
use crate::scenario::parser::Parser;
use crate::scenario::ServiceSpec;
use crate::time::MS;

/// ZooKeeper's (and Curator's) own settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The client keeps acting on its lock while Curator's connection state is SUSPENDED
    /// (SessionConnectionStateErrorPolicy) instead of treating SUSPENDED as losing it (the default).
    pub tolerate_suspended: bool,
}

impl OwnOptions for Options {
    fn tolerates_suspended(&self) -> bool {
        self.tolerate_suspended
    }
}

pub(crate) struct Zookeeper;

impl Facts for Zookeeper {
    const NO_FAILOVER: Option<&'static str> = Some("the lock's znode is committed through Zab on a quorum before the call returns, and the session moves to another server: a server's crash loses no lock");
}

impl ServiceFormat for Zookeeper {
    fn defaults(&self, svc: &mut ServiceSpec) {
        svc.ttl = Dur::Lit(6_000 * MS);
    }

    fn keys(&self) -> &'static [&'static str] {
        &["session", "tick", "suspended"]
    }

    /// `session=D` (the session timeout), `tick=D` (the server's tickTime), `suspended=error|tolerate`.
    fn setting(&self, p: &mut Parser<'_>, k: &str, v: &str) -> Result<(), Error> {
        if k == "suspended" {
            Options::of_mut(&mut p.sc().service).tolerate_suspended = match v {
                "error" => false,
                "tolerate" => true,
                _ => return Err(p.err("suspended must be error or tolerate")),
            };
            return Ok(());
        }
        let d = p.dur(v)?;
        let svc = &mut p.sc().service;
        match k {
            "session" => svc.ttl = d,
            _ => svc.tick = d,
        }
        Ok(())
    }

    fn token_words(&self) -> &'static [&'static str] {
        &["czxid"]
    }

    fn named_nodes(&self) -> bool {
        true
    }
}
