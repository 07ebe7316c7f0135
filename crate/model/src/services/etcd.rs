//! etcd's own part of the scenario format: `service: etcd ttl=D [keepalive=D]
//! [tokens=revision|lease-id|no] [version=3.4|3.5]` — etcd's lock API on a lease kept alive every
//! `keepalive` (a third of the TTL by default); waiters queued by their key's create revision; the
//! naive switch is etcd 3.4's lock, without the waiter check of 3.5 (`version=3.4` makes it the
//! scenario's default).

use super::{Facts, OwnOptions, ServiceFormat};
use crate::error::Error;
use crate::scenario::parser::Parser;
use crate::scenario::ServiceSpec;

/// Which number an etcd holder fences with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtcdToken {
    /// The lock key's create revision: cluster-wide, strictly increasing (what etcd's docs recommend).
    Revision,
    /// The session's lease ID, as etcd's `contrib/lock` example sends it (an ID, not an order).
    LeaseId,
}

/// etcd's own settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// What the holder's token is (`tokens=revision|lease-id`).
    pub token: EtcdToken,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            token: EtcdToken::Revision,
        }
    }
}

impl OwnOptions for Options {
    /// A lease ID is an ID: etcd prints it in hex.
    fn token_in_hex(&self) -> bool {
        self.token == EtcdToken::LeaseId
    }
}

pub(crate) struct Etcd;

impl Facts for Etcd {
    const NO_FAILOVER: Option<&'static str> = Some("the lock's key and its lease are committed through Raft on a majority before the call returns, and a new leader extends the leases it takes over: a member's crash loses no lock");
}

impl ServiceFormat for Etcd {
    fn naive(&self) -> &'static str {
        "the lock is 3.4's, which does not check that a waiter's key still exists"
    }
    fn keys(&self) -> &'static [&'static str] {
        &["version", "keepalive"]
    }

    fn setting(&self, p: &mut Parser<'_>, k: &str, v: &str) -> Result<(), Error> {
        if k == "keepalive" {
            p.sc().service.keepalive = p.dur(v)?;
            return Ok(());
        }
        p.sc().service.naive_default = match v {
            "3.4" => true,
            "3.5" => false,
            _ => return Err(p.err("etcd's version must be 3.4 or 3.5")),
        };
        Ok(())
    }

    fn token_words(&self) -> &'static [&'static str] {
        &["revision", "lease-id"]
    }

    fn token(&self, svc: &mut ServiceSpec, word: &str) {
        if word == "lease-id" {
            Options::of_mut(svc).token = EtcdToken::LeaseId;
        }
    }
}
