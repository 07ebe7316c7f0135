//! Consul's own part of the scenario format: `service: consul ttl=D [lock-delay=D]
//! [tokens=lock-index|no]` — a session with a TTL of 10 s to 1 h (15 s by default: api.Lock's
//! DefaultLockSessionTTL), renewed every half TTL and invalidated by the server after twice the TTL
//! without a renewal; its lock released, then closed for the lock-delay (15 s by default, the one a
//! session gets, and at most 60 s); the key's LockIndex is the token.

use super::{Facts, OwnOptions, ServiceFormat};
use crate::client::Dur;
use crate::error::Error;
use crate::scenario::parser::Parser;
use crate::scenario::{Scenario, ServiceSpec};
use crate::time::{DURATION_US_MAX, SEC};

/// No settings of its own beyond the shared ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options;

impl OwnOptions for Options {}

pub(crate) struct Consul;

impl Facts for Consul {
    const NO_FAILOVER: Option<&'static str> = Some("KV and sessions are committed through Raft on a quorum of servers before the call returns, and a new leader re-arms every session's TTL: a server's crash loses no lock");
}

impl ServiceFormat for Consul {
    fn defaults(&self, svc: &mut ServiceSpec) {
        svc.ttl = Dur::Lit(15 * SEC);
        svc.lock_delay = Dur::Lit(15 * SEC);
    }

    fn token_words(&self) -> &'static [&'static str] {
        &["lock-index"]
    }

    /// Consul refuses a session TTL outside 10 s … 24 h (`SessionTTLMin`, `SessionTTLMax`; here at most
    /// the longest duration, an hour) and caps a lock-delay at 60 s (`MaxLockDelay`): a scenario that
    /// asks for more, literally or by a parameter's range, is an error rather than a silent clamp.
    fn check_line(&self, p: &mut Parser<'_>) -> Result<(), Error> {
        let (ttl, delay) = (p.sc().service.ttl, p.sc().service.lock_delay);
        let span = |sc: &Scenario, d: Dur| match d {
            Dur::Lit(us) => (us, us),
            Dur::Param(i) => {
                let p = &sc.params[usize::from(i)];
                (p.min_us, p.max_us)
            }
        };
        let (lo, hi) = span(p.sc(), ttl);
        if lo < 10 * SEC || hi > DURATION_US_MAX {
            return Err(p.err("Consul's session TTL must be between 10s and 1 hour"));
        }
        let (_, hi) = span(p.sc(), delay);
        if hi > 60 * SEC {
            return Err(p.err("Consul's lock-delay is at most 60s (MaxLockDelay)"));
        }
        Ok(())
    }
}
