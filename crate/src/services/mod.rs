//! The lock services, one file each. Each owns its server-side handling, its client-side protocol and
//! the events of its own; the engine reaches them only through the dispatch below, keyed by the
//! scenario's [`ServiceKind`] (static dispatch: a `match`, no trait objects, for speed and wasm size).
//!
//! - `lease`: one lock server with leases (the seed's service; also redis's and a session lock's
//!   request/response protocol);
//! - `session`: a lock held by a database session (PostgreSQL advisory locks): no TTL, freed when
//!   the session ends;
//! - `redis`: a single redis (`SET NX PX`) and its async replica's failover;
//! - `redlock`: N independent redis nodes and a client that needs a majority in time;
//! - `etcd`: etcd's lock API on a lease the client keeps alive; waiters queued by revision;
//! - `zookeeper`: ZooKeeper's lock recipe on a session kept alive by pings, with Curator's
//!   connection states;
//! - `hazelcast`: Hazelcast's FencedLock on a CP session kept alive by heartbeats; waiters queued on
//!   the CP group, the fence a Raft commit index;
//! - `consul`: Consul's KV lock on a session with a TTL, released under lock-delay when the session
//!   is invalidated;
//! - `kubernetes`: client-go's leader election on a Lease object, expiry judged by each candidate's
//!   own observation;
//! - `dynamodb`: the DynamoDB lock client: an item with a random record version number, heartbeats
//!   that change it, waiters that take it over after seeing it unchanged for the lease duration.
//!
//! The first four are the lab page's core; the others are each a cargo feature (all on by default).
//! The page's first wasm is built without them, so a reader of the seed
//! downloads only the core engine; a scenario on another service loads the full build. A build without
//! a service refuses its scenarios ([`built_in`]): the dispatch below never reaches a missing one.
//! `hazelcast` and `consul` are also left out of the build by `cfg` (their modules, their state and
//! their arms): a const guard drops their calls, but a state's drop and reset code would still cost
//! the core ~220 B each. `dynamodb`'s state is instead boxed and made only by a build that has it
//! (`Services::reset`).

#[cfg(feature = "consul")]
mod consul;
mod dynamodb;
mod etcd;
#[cfg(feature = "hazelcast")]
mod hazelcast;
mod kubernetes;
mod lease;
mod redis;
mod redlock;
pub use redlock::backoff_share_us;
mod session;
mod zookeeper;

use crate::scenario::{Scenario, ServiceKind};
use crate::sim::{Ctx, Engine, Ev, Tag};
use crate::trace::TraceEvent;

/// Whether `kind` is in the core engine, which every build has (the page's first wasm is only that).
pub const fn in_core(kind: ServiceKind) -> bool {
    matches!(
        kind,
        ServiceKind::Lease | ServiceKind::Session | ServiceKind::Redis
    )
}

/// Whether this build has `kind`'s service (see the module's note on features).
pub const fn built_in(kind: ServiceKind) -> bool {
    match kind {
        ServiceKind::Lease | ServiceKind::Session | ServiceKind::Redis => true,
        ServiceKind::Redlock => REDLOCK,
        ServiceKind::Etcd => ETCD,
        ServiceKind::Zookeeper => ZOOKEEPER,
        ServiceKind::Dynamodb => DYNAMODB,
        ServiceKind::Hazelcast => HAZELCAST,
        ServiceKind::Kubernetes => KUBERNETES,
        ServiceKind::Consul => CONSUL,
    }
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

const REDLOCK: bool = cfg!(feature = "redlock");
const ETCD: bool = cfg!(feature = "etcd");
const ZOOKEEPER: bool = cfg!(feature = "zookeeper");
const DYNAMODB: bool = cfg!(feature = "dynamodb");
const HAZELCAST: bool = cfg!(feature = "hazelcast");
const KUBERNETES: bool = cfg!(feature = "kubernetes");
const CONSUL: bool = cfg!(feature = "consul");

/// The services' own state during a run, one field per service that keeps any.
#[derive(Default)]
pub(crate) struct Services {
    pub redlock: redlock::State,
    pub etcd: etcd::State,
    pub zookeeper: zookeeper::State,
    /// Boxed, and made at the first reset of a build that has the service: the core's engine stays
    /// as small as it was.
    pub dynamodb: Option<Box<dynamodb::State>>,
    #[cfg(feature = "hazelcast")]
    pub hazelcast: hazelcast::State,
    pub kubernetes: kubernetes::State,
    #[cfg(feature = "consul")]
    pub consul: consul::State,
    /// The service the engine's last run was on (`None` before its first).
    last: Option<ServiceKind>,
}

impl Services {
    /// Resets for a run on `kind` with `clients` clients, keeping the allocations. Only the states a
    /// run can read are reset: its own service's, and the last run's service's if that was another
    /// (whose grants would otherwise reach this run's through [`Services::own_grants`]); the others
    /// are as a reset left them, or as they were made (tests/engine_reuse.rs). Resetting every
    /// service's state on every run cost the every-cell sweep 4 % in wasm (issue 18, CHANGELOG.md).
    pub fn reset(&mut self, kind: ServiceKind, clients: usize) {
        if let Some(last) = self.last.replace(kind).filter(|&last| last != kind) {
            self.reset_one(last, clients);
        }
        self.reset_one(kind, clients);
    }

    fn reset_one(&mut self, kind: ServiceKind, clients: usize) {
        match kind {
            // Their state is the engine's lock servers (`Engine::locks`).
            ServiceKind::Lease | ServiceKind::Session | ServiceKind::Redis => {}
            // (Only a build with the service touches its state: the core wasm carries no reset.)
            ServiceKind::Redlock if REDLOCK => self.redlock.reset(clients),
            ServiceKind::Etcd if ETCD => self.etcd.reset(clients),
            ServiceKind::Zookeeper if ZOOKEEPER => self.zookeeper.reset(clients),
            ServiceKind::Dynamodb if DYNAMODB => {
                // Once per engine, not per run: later runs reuse it (tests/alloc.rs).
                self.dynamodb
                    .get_or_insert_with(Default::default)
                    .reset(clients);
            }
            #[cfg(feature = "hazelcast")]
            ServiceKind::Hazelcast => self.hazelcast.reset(clients),
            ServiceKind::Kubernetes if KUBERNETES => self.kubernetes.reset(clients),
            #[cfg(feature = "consul")]
            ServiceKind::Consul => self.consul.reset(clients),
            // Not in this build: no run reaches it (`check_built_in`).
            _ => {}
        }
    }

    /// The grants of services that keep their own (the others' are in `Engine::locks`).
    pub fn own_grants(&self) -> impl Iterator<Item = &crate::lock::LeaseRecord> {
        let grants = self.etcd.records.iter().chain(&self.zookeeper.records);
        #[cfg(feature = "hazelcast")]
        let grants = grants.chain(&self.hazelcast.records);
        // Chained only where the service is built in: the core wasm is not one iterator longer.
        #[cfg(feature = "kubernetes")]
        let grants = grants.chain(&self.kubernetes.records);
        #[cfg(feature = "consul")]
        let grants = grants.chain(&self.consul.records);
        grants
    }

    /// DynamoDB's grants, apart from [`Services::own_grants`] so that the core build, which has no
    /// DynamoDB, carries none of the iterator code they would add (nothing, without the feature).
    pub fn dynamodb_grants(&self) -> &[crate::lock::LeaseRecord] {
        match &self.dynamodb {
            Some(st) if DYNAMODB => &st.records,
            _ => &[],
        }
    }
}

/// How a service words one of its trace events in the transcript.
pub enum Said {
    Line(String),
    /// Its own event, with no line (a plain disconnect at the end of a script).
    Nothing,
}

/// The transcript's wording of a service's own events; `None` for events the clients' and storage's
/// wording covers ([`crate::report::transcript()`]).
pub fn say(sc: &Scenario, e: &TraceEvent) -> Option<Said> {
    let who = sc.client_name(e.client);
    match sc.service.kind {
        ServiceKind::Lease => None,
        ServiceKind::Session => session::say(e, who),
        ServiceKind::Redis => redis::say(e),
        ServiceKind::Redlock if REDLOCK => redlock::say(sc, e, who),
        ServiceKind::Etcd if ETCD => etcd::say(sc, e, who),
        ServiceKind::Zookeeper if ZOOKEEPER => zookeeper::say(sc, e, who),
        ServiceKind::Dynamodb if DYNAMODB => dynamodb::say(sc, e, who),
        #[cfg(feature = "hazelcast")]
        ServiceKind::Hazelcast if HAZELCAST => hazelcast::say(sc, e, who),
        ServiceKind::Kubernetes if KUBERNETES => kubernetes::say(sc, e, who),
        #[cfg(feature = "consul")]
        ServiceKind::Consul if CONSUL => consul::say(sc, e, who),
        ServiceKind::Redlock
        | ServiceKind::Etcd
        | ServiceKind::Zookeeper
        | ServiceKind::Hazelcast
        | ServiceKind::Kubernetes
        | ServiceKind::Consul
        | ServiceKind::Dynamodb => None,
    }
}

/// Whether a client of this service polls one lock server (so sweeps may skip its denied retries in
/// one jump).
pub(crate) fn polls_one_server(kind: ServiceKind) -> bool {
    matches!(
        kind,
        ServiceKind::Lease | ServiceKind::Session | ServiceKind::Redis
    )
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// An event of a lock service's own.
    // Out of line, as every handler the run loop calls: see `Engine::handle`.
    #[inline(never)]
    pub(crate) fn on_service_event(&mut self, ctx: &Ctx, ev: Ev) {
        match ev.tag {
            Tag::SessionTimeout | Tag::Disconnect => self.on_session_event(ev),
            Tag::NodeAcquireAt | Tag::NodeAcquireReply | Tag::NodeReleaseAt | Tag::RoundTimeout
                if REDLOCK =>
            {
                self.on_redlock_event(ctx, ev)
            }
            _ if ETCD && ctx.service == ServiceKind::Etcd => self.on_etcd_event(ctx, ev),
            _ if ZOOKEEPER && ctx.service == ServiceKind::Zookeeper => self.on_zk_event(ctx, ev),
            _ if DYNAMODB && ctx.service == ServiceKind::Dynamodb => {
                self.on_dynamodb_event(ctx, ev)
            }
            #[cfg(feature = "hazelcast")]
            _ if HAZELCAST && ctx.service == ServiceKind::Hazelcast => self.on_hz_event(ctx, ev),
            _ if KUBERNETES && ctx.service == ServiceKind::Kubernetes => self.on_k8s_event(ctx, ev),
            #[cfg(feature = "consul")]
            _ if CONSUL && ctx.service == ServiceKind::Consul => self.on_consul_event(ctx, ev),
            _ => self.on_lease_event(ctx, ev),
        }
    }

    /// A polling client's lock request reaches its one server (a service that
    /// [`polls_one_server`]): the run loop calls this directly, not [`Engine::on_service_event`].
    #[inline(always)]
    pub(crate) fn on_poll_request(&mut self, ctx: &Ctx, c: u8) {
        self.acquire_at(ctx, c);
    }

    /// The answer to a polling client's lock request reaches it (see [`Engine::on_poll_request`]).
    #[inline(always)]
    pub(crate) fn on_poll_answer(&mut self, ctx: &Ctx, ev: Ev) {
        self.on_acquire_reply(ctx, ev);
    }

    /// A refusal of a polling client's lock request reaches it (see [`Engine::on_poll_request`]).
    #[inline(always)]
    pub(crate) fn on_poll_refused(&mut self, ctx: &Ctx, c: u8) {
        self.on_acquire_refused(ctx, c);
    }

    /// A polling client's retry timer fires while it waits at its acquire step (the run loop checks
    /// [`Engine::at_acquire_step`]): it asks its one server again. This is what the interpreter's
    /// acquire step does for such a service ([`Engine::advance`], then [`Engine::send_acquire`]'s
    /// first branch), without the interpreter and the services' dispatch around it: the every-cell
    /// sweep took 8 % less time in wasm (issue 18, CHANGELOG.md); through `send_acquire` it would
    /// take 4 % more again.
    pub(crate) fn on_poll_retry(&mut self, ctx: &Ctx, c: u8) {
        self.acquire_sent(ctx, c);
        self.lease_acquire(ctx, c);
    }

    /// The client asks for the lock (its acquire step). A service that [`polls_one_server`] asks with
    /// [`Engine::lease_acquire`], first, as its retries do ([`Engine::on_poll_retry`]).
    pub(crate) fn send_acquire(&mut self, ctx: &Ctx, c: u8) {
        if polls_one_server(ctx.service) {
            return self.lease_acquire(ctx, c);
        }
        match ctx.service {
            ServiceKind::Redlock if REDLOCK => self.redlock_acquire(ctx, c),
            ServiceKind::Etcd if ETCD => self.etcd_acquire(ctx, c),
            ServiceKind::Zookeeper if ZOOKEEPER => self.zk_acquire(ctx, c),
            ServiceKind::Dynamodb if DYNAMODB => self.dynamodb_acquire(ctx, c),
            #[cfg(feature = "hazelcast")]
            ServiceKind::Hazelcast if HAZELCAST => self.hz_acquire(ctx, c),
            ServiceKind::Kubernetes if KUBERNETES => self.k8s_acquire(ctx, c),
            #[cfg(feature = "consul")]
            ServiceKind::Consul if CONSUL => self.consul_acquire(ctx, c),
            _ => self.lease_acquire(ctx, c),
        }
    }

    /// Value-checked release: to the lock server, or to every Redlock node the client can reach.
    pub(crate) fn send_release(&mut self, ctx: &Ctx, c: u8, value: u64) {
        match ctx.service {
            ServiceKind::Redlock if REDLOCK => self.redlock_release(ctx, c),
            ServiceKind::Etcd if ETCD => self.etcd_release(ctx, c),
            ServiceKind::Zookeeper if ZOOKEEPER => self.zk_release(ctx, c),
            ServiceKind::Dynamodb if DYNAMODB => self.dynamodb_release(ctx, c),
            #[cfg(feature = "hazelcast")]
            ServiceKind::Hazelcast if HAZELCAST => self.hz_release(ctx, c),
            ServiceKind::Kubernetes if KUBERNETES => self.k8s_release(ctx, c),
            #[cfg(feature = "consul")]
            ServiceKind::Consul if CONSUL => self.consul_release(ctx, c),
            _ => self.lease_release(ctx, c, value),
        }
    }

    /// The client the ideal guard lets write: the lock service's latest grantee, for Redlock the
    /// latest client to hold live keys on a majority of the nodes, for etcd the latest client whose
    /// key became the lowest live one, for Hazelcast the latest owner of the FencedLock, for
    /// Kubernetes the client the Lease names, for DynamoDB the client whose put last took the lock
    /// item.
    pub(crate) fn rightful(&self, ctx: &Ctx) -> Option<u8> {
        match ctx.service {
            ServiceKind::Redlock => self.services.redlock.majority,
            ServiceKind::Etcd => self.services.etcd.owner,
            ServiceKind::Zookeeper => self.services.zookeeper.owner,
            ServiceKind::Dynamodb if DYNAMODB => {
                self.services.dynamodb.as_ref().and_then(|s| s.owner())
            }
            #[cfg(feature = "hazelcast")]
            ServiceKind::Hazelcast if HAZELCAST => self.services.hazelcast.owner,
            ServiceKind::Kubernetes => self.services.kubernetes.owner,
            #[cfg(feature = "consul")]
            ServiceKind::Consul if CONSUL => self.services.consul.owner,
            _ => self.locks[0].latest_grantee(),
        }
    }

    /// The client has just frozen for `d` (a script's pause).
    pub(crate) fn on_pause(&mut self, ctx: &Ctx, c: u8, d: u64) {
        if ctx.service == ServiceKind::Session {
            self.session_on_pause(ctx, c, d);
        }
    }

    /// The client's script is over.
    pub(crate) fn on_script_end(&mut self, ctx: &Ctx, c: u8) {
        match ctx.service {
            ServiceKind::Session => self.session_on_script_end(c),
            ServiceKind::Etcd if ETCD => self.etcd_on_script_end(ctx, c),
            ServiceKind::Zookeeper if ZOOKEEPER => self.zk_on_script_end(ctx, c),
            #[cfg(feature = "hazelcast")]
            ServiceKind::Hazelcast if HAZELCAST => self.hz_on_script_end(ctx, c),
            ServiceKind::Kubernetes if KUBERNETES => self.k8s_on_script_end(c),
            #[cfg(feature = "consul")]
            ServiceKind::Consul if CONSUL => self.consul_on_script_end(ctx, c),
            _ => {}
        }
    }

    /// Whether the service refuses the client's request without reaching the lock (its session is gone).
    pub(crate) fn refuses_request(&self, ctx: &Ctx, c: u8) -> bool {
        ctx.service == ServiceKind::Session && self.clients[usize::from(c)].session_dead
    }
}
