//! The lease service's own part of the scenario format: `service: lease ttl=D [lock-delay=D]
//! [tokens=yes|no] [first-token=N]` — one lock server with leases on its own clock, fencing tokens on
//! by default (`tokens=yes`). Its settings are all shared ones; its clients may `renew`.

use super::{Facts, OwnOptions, ServiceFormat};

/// No settings of its own beyond the shared ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options;

impl OwnOptions for Options {}

pub(crate) struct Lease;

impl Facts for Lease {
    const POLLS_ONE_SERVER: bool = true;
    const NO_FAILOVER: Option<&'static str> = Some("the seed's lease server is the lessons' abstract one: it has no replica and no persistence to say what a crash keeps");
}

impl ServiceFormat for Lease {
    fn token_words(&self) -> &'static [&'static str] {
        &["yes"]
    }

    fn renews(&self) -> bool {
        true
    }
}
