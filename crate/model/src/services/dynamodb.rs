//! The DynamoDB lock client's own part of the scenario format: `service: dynamodb [lease=D]
//! [heartbeat=D] [wait=D] [tokens=rvn|no]` — leaseDuration 20 s, heartbeatPeriod 5 s (0: no heartbeat
//! thread), additionalTimeToWaitForLock 1 s by default; the item's record version number, a random
//! GUID, is the token; a waiter polls every `acquire every D` (its refreshPeriod, 1 s in the client)
//! and takes the item over once it has seen the same RVN for the lease duration by its own clock.
//! `lease` and `heartbeat` are other services' words too: a DynamoDB scenario's are its own.

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

pub(crate) struct Dynamodb;

impl Facts for Dynamodb {
    const NO_FAILOVER: Option<&'static str> = Some("the lock is a table item, and a write returns only once a quorum of its replicas across three Availability Zones has logged it: no server's crash loses it");
}

impl ServiceFormat for Dynamodb {
    /// The lock client's defaults (AmazonDynamoDBLockClientOptions, DEFAULT_BUFFER_MS).
    fn defaults(&self, svc: &mut ServiceSpec) {
        svc.ttl = Dur::Lit(20_000 * MS);
        svc.keepalive = Dur::Lit(5_000 * MS);
        svc.timeout = Dur::Lit(1_000 * MS);
    }

    fn keys(&self) -> &'static [&'static str] {
        &["heartbeat", "lease", "wait"]
    }

    /// `lease=D` (leaseDuration), `heartbeat=D` (heartbeatPeriod), `wait=D`
    /// (additionalTimeToWaitForLock).
    fn setting(&self, p: &mut Parser<'_>, k: &str, v: &str) -> Result<(), Error> {
        let d = p.dur(v)?;
        let svc = &mut p.sc().service;
        match k {
            "lease" => svc.ttl = d,
            "heartbeat" => svc.keepalive = d,
            _ => svc.timeout = d,
        }
        Ok(())
    }

    fn token_words(&self) -> &'static [&'static str] {
        &["rvn"]
    }
}
