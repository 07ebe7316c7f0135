//! The session service's own part of the scenario format: `service: session [idle=D]` — a PostgreSQL
//! advisory lock: no TTL, no tokens; `idle` ends a frozen client's session after that long without
//! keepalives. Its own fault: `at D: terminate A` (an admin ends A's database session). Its clients
//! may `renew`, and `read via session` / `write N via session` go through the session holding the lock.

use super::{Facts, OwnOptions, ServiceFormat};
use crate::scenario::ServiceSpec;

/// No settings of its own beyond the shared ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options;

impl OwnOptions for Options {}

pub(crate) struct Session;

impl Facts for Session {
    const POLLS_ONE_SERVER: bool = true;
    const EXPIRES: bool = false;
    const NO_FAILOVER: Option<&'static str> = Some("a crash ends every PostgreSQL session, and a session-level advisory lock lives as long as its session: it dies with its holder's connection, whose later writes fail (as after `at D: terminate A`)");
}

impl ServiceFormat for Session {
    fn defaults(&self, svc: &mut ServiceSpec) {
        svc.tokens = false;
    }

    fn renews(&self) -> bool {
        true
    }

    fn faults(&self) -> &'static [&'static str] {
        &["terminate"]
    }
}
