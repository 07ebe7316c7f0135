//! Redlock's own part of the scenario format: `service: redlock ttl=D [nodes=5] [timeout=D] [jitter=D]
//! [persist=none|everysec|always]` — a majority of independent nodes; validity = TTL − elapsed −
//! drift, drift = 1 % TTL + 2 ms; a failed round unlocks every node and retries after `every` plus a
//! seeded random share of `jitter`. No tokens. Its nodes are named `n1` … `nN`: their own clocks
//! (`node n3: step=+300ms@50ms`, `node n3: monotonic`), a client's reachable nodes (`reach=n1,n2`)
//! and its links' latencies (`latency=n1:1ms`). Its own faults: `at D: crash n3 [restart D2]` (a node
//! crashes, keeping what its persistence saved, and restarts D2 later by its own clock) and
//! `at D: restart n3`. (`timeout`, `jitter` and `persist` are read as shared settings, as they always
//! were: another service ignores them.)

use super::{Facts, OwnOptions, ServiceFormat};
use crate::error::Error;
use crate::scenario::parser::Parser;
use crate::scenario::ServiceSpec;

/// What a redis node keeps across a crash (`appendfsync`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persist {
    /// No persistence: a restarted node is empty.
    None,
    /// `appendfsync everysec`: keys set since the last whole second of the crash are lost.
    EverySec,
    /// `appendfsync always`: every key survives.
    Always,
}

/// No settings of its own beyond the shared ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options;

impl OwnOptions for Options {}

pub(crate) struct Redlock;

/// `nodes=N`: 1, 3, 5 or 7.
fn nodes(p: &mut Parser<'_>, v: &str) -> Result<u8, Error> {
    v.parse()
        .ok()
        .filter(|n| (1..=7).contains(n) && n % 2 == 1)
        .ok_or_else(|| p.err("nodes must be 1, 3, 5 or 7"))
}

impl Facts for Redlock {
    const QUORUM: bool = true;
}

impl ServiceFormat for Redlock {
    fn naive(&self) -> &'static str {
        "clients trust a majority of OKs without checking the validity left"
    }
    fn defaults(&self, svc: &mut ServiceSpec) {
        svc.tokens = false;
        svc.nodes = 5;
    }

    fn keys(&self) -> &'static [&'static str] {
        &["nodes"]
    }

    fn setting(&self, p: &mut Parser<'_>, _k: &str, v: &str) -> Result<(), Error> {
        p.sc().service.nodes = nodes(p, v)?;
        Ok(())
    }

    /// A bad count of nodes is said as such whatever the service.
    fn check_foreign(&self, p: &mut Parser<'_>, _k: &str, v: &str) -> Result<(), Error> {
        nodes(p, v).map(|_| ())
    }

    fn named_nodes(&self) -> bool {
        true
    }

    fn faults(&self) -> &'static [&'static str] {
        &["crash", "restart"]
    }
}
