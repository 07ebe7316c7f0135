//! The single redis's own part of the scenario format: `service: redis ttl=D [tokens=incr|no]
//! [replica-lag=D]` — `SET NX PX` on the server's wall clock; tokens only from `INCR` on the same
//! redis, off by default. Its own fault: `at D: failover` (its async replica, `replica-lag` behind,
//! takes over). Its clients may `renew`.

use super::{Facts, OwnOptions, ServiceFormat};
use crate::scenario::ServiceSpec;

/// No settings of its own beyond the shared ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options;

impl OwnOptions for Options {}

pub(crate) struct Redis;

impl Facts for Redis {
    const POLLS_ONE_SERVER: bool = true;
}

impl ServiceFormat for Redis {
    fn defaults(&self, svc: &mut ServiceSpec) {
        svc.tokens = false;
    }

    fn token_words(&self) -> &'static [&'static str] {
        &["incr"]
    }

    fn renews(&self) -> bool {
        true
    }

    fn faults(&self) -> &'static [&'static str] {
        &["failover"]
    }
}
