//! Kubernetes's own part of the scenario format: `service: kubernetes [lease=D] [renew-deadline=D]
//! [retry=D] [request-timeout=D] [client-go=1.11|1.12] [tokens=transitions|no]` — client-go's leader
//! election on a Lease object: LeaseDuration 15 s, RenewDeadline 10 s, RetryPeriod 2 s, a request the
//! API server never answers fails after 60 s; a candidate takes over a lease duration after it last
//! saw the record change, by its own clock; the naive switch is client-go 1.11's renew, whose request
//! the deadline does not bound (`client-go=1.11` makes it the scenario's default); no token unless
//! `tokens=transitions`; its API server is `n1` (`cut A n1` cuts a client off it).

use super::{Facts, OwnOptions, ServiceFormat};
use crate::client::Dur;
use crate::error::Error;
use crate::scenario::parser::Parser;
use crate::scenario::{Scenario, ServiceSpec};
use crate::time::MS;

/// client-go's leader election settings beyond the lease duration (which is `ttl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// RenewDeadline: how long the leader keeps trying to renew before it stops leading (10 s).
    pub renew_deadline: Dur,
    /// RetryPeriod: how often a candidate tries to acquire and the leader renews (2 s).
    pub retry_period: Dur,
    /// How long a request the API server does not answer takes to fail (60 s).
    pub request_timeout: Dur,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            renew_deadline: Dur::Lit(10_000 * MS),
            retry_period: Dur::Lit(2_000 * MS),
            request_timeout: Dur::Lit(60_000 * MS),
        }
    }
}

impl OwnOptions for Options {}

pub(crate) struct Kubernetes;

impl Facts for Kubernetes {
    const NO_FAILOVER: Option<&'static str> = Some("the Lease is an object the API server commits through its store's Raft on a majority before the write returns: an API server's or a store member's crash loses no Lease");
}

impl ServiceFormat for Kubernetes {
    fn naive(&self) -> &'static str {
        "client-go is 1.11's, whose renew waits for a hung call past the renew deadline"
    }
    fn defaults(&self, svc: &mut ServiceSpec) {
        svc.tokens = false; // client-go hands the leader no token
        svc.ttl = Dur::Lit(15_000 * MS);
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "lease",
            "renew-deadline",
            "retry",
            "request-timeout",
            "client-go",
        ]
    }

    /// client-go's `lease=D` (LeaseDuration), `renew-deadline=D`, `retry=D` (RetryPeriod), the API
    /// server's `request-timeout=D`, and `client-go=1.11|1.12`.
    fn setting(&self, p: &mut Parser<'_>, k: &str, v: &str) -> Result<(), Error> {
        if k == "client-go" {
            p.sc().service.naive_default = match v {
                "1.11" => true,
                "1.12" => false,
                _ => return Err(p.err("client-go must be 1.11 or 1.12")),
            };
            return Ok(());
        }
        let d = p.dur(v)?;
        let svc = &mut p.sc().service;
        match k {
            "lease" => svc.ttl = d,
            "renew-deadline" => Options::of_mut(svc).renew_deadline = d,
            "retry" => Options::of_mut(svc).retry_period = d,
            _ => Options::of_mut(svc).request_timeout = d,
        }
        Ok(())
    }

    fn token_words(&self) -> &'static [&'static str] {
        &["transitions"]
    }

    fn named_nodes(&self) -> bool {
        true
    }

    /// client-go's own checks (`NewLeaderElector`), on the defaults: LeaseDuration > RenewDeadline >
    /// JitterFactor (1.2) × RetryPeriod > 0. A run with other values is the lab's to try.
    fn check_whole(&self, sc: &Scenario) -> Result<(), Error> {
        let (svc, d) = (&sc.service, sc.defaults());
        let own = Options::of(svc);
        let (lease, renew) = (svc.ttl.resolve(&d), own.renew_deadline.resolve(&d));
        let (retry, timeout) = (
            own.retry_period.resolve(&d),
            own.request_timeout.resolve(&d),
        );
        let why = if lease <= renew {
            "the lease duration must be longer than the renew deadline (client-go refuses it)"
        } else if renew * 5 <= retry * 6 {
            "the renew deadline must be longer than 1.2 × the retry period (client-go refuses it)"
        } else if retry == 0 || timeout == 0 {
            "the retry period and the request timeout must be longer than zero"
        } else {
            return Ok(());
        };
        Err(Error::Scenario {
            id: sc.id.to_string(),
            line: 0,
            col: 0,
            why: why.into(),
        })
    }
}
