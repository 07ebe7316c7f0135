//! The lock services, one file each. Each owns its server-side handling, its client-side protocol and
//! the events of its own; the engine reaches them only through the dispatch below, keyed by the
//! scenario's [`ServiceKind`] (static dispatch: a `match`, no trait objects, for speed and wasm size).
//!
//! What each service is, with its sources, is its own file's opening comment (docs/architecture.md
//! has the list).
//!
//! Each service is a unit type in its own file, implementing the two halves of one interface
//! ([`service`]): [`LockService`] (its facts, its run state, its transcript words) and, on the engine,
//! [`Serve`] (what the engine calls). The list below is the only place that names them all: the
//! registry's macro ([`registry`]) makes from it each service's module, the services' run state and
//! the engine's dispatch, so the engine never names a service.
//!
//! The first three are the lab page's core; each other service is a cargo feature (all on by
//! default), and a build without one has neither its module nor its state nor its dispatch arms. The
//! page's first wasm is built without them, so a reader of the seed downloads only the core engine;
//! a scenario on another service loads the full build. A build without a service refuses its
//! scenarios ([`check_built_in`]): the dispatch never reaches a missing one.

#[macro_use]
mod registry;
mod service;

// Protocol parts several services share (a session kept alive, queues of waiters), each on with a
// service that uses it (crate/Cargo.toml); a build with only some of those leaves the rest unused.
#[cfg(feature = "keepalive")]
#[cfg_attr(not(feature = "default"), allow(dead_code))]
mod keepalive;
#[cfg(feature = "waiters")]
#[cfg_attr(not(feature = "default"), allow(dead_code))]
mod waiters;

pub use service::{Diagram, Said};
pub(crate) use service::{LockService, Serve};

use crate::scenario::{Scenario, ServiceKind};
use crate::sim::{Ctx, Engine, Ev};
use crate::trace::TraceEvent;

registry! {
    Lease => lease::Lease;
    Session => session::Session;
    Redis => redis::Redis;
    Redlock => redlock::Redlock if feature = "redlock";
    Etcd => etcd::Etcd if feature = "etcd";
    Zookeeper => zookeeper::Zookeeper if feature = "zookeeper";
    Dynamodb => dynamodb::Dynamodb if feature = "dynamodb";
    Hazelcast => hazelcast::Hazelcast if feature = "hazelcast";
    Kubernetes => kubernetes::Kubernetes if feature = "kubernetes";
    Consul => consul::Consul if feature = "consul";
    Mysql => mysql::Mysql if feature = "mysql";
}

/// An error for a scenario whose service this build leaves out (never a run on the wrong service).
pub fn check_built_in(sc: &Scenario) -> Result<(), crate::error::Error> {
    if built_in(sc.service.kind) {
        return Ok(());
    }
    Err(crate::error::Error::BadValue {
        what: "build".into(),
        why: format!(
            "scenario {} needs the {} service, which this build leaves out (the page's core wasm: \
             the full build has it)",
            sc.id,
            sc.service.kind.name()
        ),
    })
}
