//! MySQL's own part of the scenario format: `service: mysql [wait-timeout=D] [timeout=D]
//! [tokens=counter|no]` — `GET_LOCK(name, timeout)` (MySQL, and MariaDB alike): a lock held by the
//! connection that took it, no TTL, freed when that connection ends. `wait-timeout` is the server's
//! `wait_timeout`, after which it closes a connection idle that long (a frozen client's): whole
//! seconds from 1 s (0, the default, stands for the server's eight hours, which no scenario reaches);
//! `timeout` is `GET_LOCK`'s, how long a request waits at the server for the lock (0, the default,
//! is a try). No token: the connection's id is not a fence; `tokens=counter` is a counter row the
//! holder increments under the lock. Its own fault: `at D: terminate A` (`KILL CONNECTION`).

use super::{Facts, OwnOptions, ServiceFormat};
use crate::client::Dur;
use crate::error::Error;
use crate::scenario::parser::Parser;
use crate::scenario::ServiceSpec;
use crate::time::SEC;

/// No settings of its own beyond the shared ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options;

impl OwnOptions for Options {}

pub(crate) struct Mysql;

impl Facts for Mysql {
    const EXPIRES: bool = false;
    const NO_FAILOVER: Option<&'static str> = Some("a crash ends every connection, and GET_LOCK's lock is released when its session ends \"either normally or abnormally\": it dies with its holder's connection, whose later writes fail");
}

impl ServiceFormat for Mysql {
    fn defaults(&self, svc: &mut ServiceSpec) {
        svc.tokens = false;
        svc.timeout = Dur::Lit(0);
    }

    fn keys(&self) -> &'static [&'static str] {
        &["wait-timeout"]
    }

    fn setting(&self, p: &mut Parser<'_>, _k: &str, v: &str) -> Result<(), Error> {
        let d = p.dur(v)?;
        if matches!(d, Dur::Lit(us) if us % SEC != 0) {
            return Err(p.err("MySQL's wait_timeout is whole seconds"));
        }
        p.sc().service.idle = d;
        Ok(())
    }

    fn token_words(&self) -> &'static [&'static str] {
        &["counter"]
    }

    fn faults(&self) -> &'static [&'static str] {
        &["terminate"]
    }
}
