//! Hazelcast: the suite does not play it, and why (coverage.rs gives each of its catalogue scenarios a
//! `not_run` entry with this reason).

use crate::coverage::Unplayed;
use leaselab::scenario::ServiceKind;

/// What was looked for, and where.
pub const UNPLAYED: Unplayed = Unplayed {
    kind: ServiceKind::Hazelcast,
    why: "no Hazelcast member installs here: it is a Java server from Maven Central or Hazelcast's site, neither reachable; Debian 12 has none, npm and PyPI only its clients (`hazelcast-client`, `hazelcast-python-client`), which need a member",
};
