//! Runs a leaselab scenario's own scripts for real: each client an OS process of its own (this binary
//! as `client-agent`, agent.rs), real sleeps for `work`, a `pause` (and a timed freeze, `at T: pause A
//! D`) the process stopped by the conductor (`SIGSTOP` … `SIGCONT` to its process group, conductor.rs),
//! a real lock service and a real PostgreSQL table as the storage. The agents report their grants,
//! reads, writes and notes over a pipe, with times on CLOCK_MONOTONIC, which every process shares.
//!
//! - The client's own lease check (`check D`): by its own clock (the time it sent the request that
//!   granted or renewed the lease, plus the TTL), at least D left, else it gives the attempt up.
//! - `renew`: Redisson's watchdog renewal, `PEXPIRE` in a Lua script only if the key still holds the
//!   client's value (the model's value-checked renewal).
//! - A `lock-latency` on a single redis: the reply is read a round trip after the request was sent, so
//!   a freeze in between leaves it in the client's socket buffer, as the model says.
//!
//! - `session`: a PostgreSQL advisory lock, `pg_try_advisory_lock(424242)` on the client's own session;
//!   `read via session` / `write … via session` go through that session, the others through a second
//!   connection of the client's. The fault `terminate A` is `pg_terminate_backend(A's pid)`.
//! - `lease` / `redis`: one redis-server, `SET key value NX PX ttl` (tokens from `INCR` in the same Lua
//!   script, so a grant and its token are one step), value-checked release by a Lua script.
//! - `failover` (a single redis with `replica-lag`): a master and a real `REPLICAOF` replica whose
//!   replication link goes through the suite's proxy, delayed by the lag; the master SIGKILLed with
//!   what is still on its way dropped, the replica promoted, the clients' front address moved to it
//!   (failover.rs).
//! - A write the network holds (`write … delay D`): each client's storage connection through a link
//!   of the proxy of its own, held until the write's arrival on the timeline (delayed_write.rs).
//! - `redlock`: five redis-servers; each round sends `SET NX PX` to every node the client reaches,
//!   holds the lock when a majority granted it and `ttl − elapsed − drift` is positive, else unlocks
//!   every node and retries. `crash nK restart D` is SIGKILL, then a restart D later (what the node
//!   keeps is what its persistence mode wrote).
//! - `etcd`: one real etcd (fresh for every run, so revisions start at 1 as in the model), through its
//!   JSON gateway: `LeaseGrant` with the TTL in seconds, a keepalive thread in the client's process that
//!   sends one every TTL/3 and is stopped with it (its keepalives freeze with it), `Lock` on the
//!   lease (which blocks while the key waits), the key's create revision as the token (or the lease ID),
//!   `Unlock`, and the lease revoked at the end of the script.
//! - The storage is one row `account(balance, version, token, owner)`; each policy is one conditional
//!   statement (see storage.rs), so the guard is enforced by PostgreSQL itself.
//!
//! Every wait is bounded: statements by `statement_timeout`, redis by socket timeouts, retry loops, an
//! agent's wait for the conductor and the run as a whole by a deadline; every agent is killed and
//! reaped when the run ends, however it ends.

mod agent;
mod conductor;
mod delayed_write;
mod etcd_lock;
mod failover;
mod faults;
pub mod mysql_lock;
mod player;
mod proxy;
mod record;
mod redis_lock;
mod redlock_links;
mod session_lock;
mod storage;
mod sys;
mod wallclock;
mod zk_lock;

use std::ffi::OsString;
use std::time::Duration;

use leaselab::client::{Dur, Op};
use leaselab::clock::Clock;
use leaselab::scenario::{FaultAction, Persist, Scenario, ServiceKind, ServiceSpec};
use leaselab::store::Policy;

use crate::etcd::Etcd;
use crate::servers::{Postgres, Redis, Res};

pub use agent::agent_main;
pub use failover::{fails_over, Replicated};
pub use record::RealRun;
use record::Shared;
pub use redlock_links::NodeLinks;
pub use storage::reset;
pub use sys::die_with_parent;
pub use wallclock::{wall_wait_main, WallClock};

/// The advisory lock key of the seed's step 1.
pub const LOCK_KEY: i64 = 424242;
/// The database the scripted runs use (step 1 uses `postgres`, as the seed does).
pub const DB: &str = "leaselab";
/// Longest a scripted run may take in all.
pub(super) const RUN_WITHIN: Duration = Duration::from_secs(60);

/// What a scripted run needs besides the scenario.
pub struct Setup {
    pub policy: Policy,
    /// One value per scenario parameter, in µs.
    pub params: Vec<u64>,
    /// Session locks only: each grant also takes a fencing token from a PostgreSQL sequence (through
    /// the session, right after `pg_try_advisory_lock` returned t). The simulator's session service
    /// has no tokens; a case using this compares with a lease scenario of the same timeline.
    pub fence_counter: bool,
    /// The case's timeline scale (an agent rebuilds the scenario from its id and this).
    pub scale: u64,
}

/// The servers a run can use.
pub struct Servers<'a> {
    pub pg: &'a Postgres,
    /// The suite's single redis, for `lease` and `redis` services on the machine's own clock.
    pub redis: Option<&'a Redis>,
    /// A redis of this run's own, for a `lease` or `redis` service whose wall clock steps.
    pub own_redis: Option<Redis>,
    /// Redlock's nodes (started by the caller with the scenario's persistence).
    pub nodes: Vec<Redis>,
    /// etcd (started by the caller, fresh for the run).
    pub etcd: Option<Etcd>,
    /// ZooKeeper (started by the caller, fresh for the run).
    pub zk: Option<crate::zk::Server>,
    /// The work directory: the agents' pid files go in `agents/` there (run.sh's backstop).
    pub work: std::path::PathBuf,
    /// The wall clocks the scenario steps: the lock server's, a node's or a client's.
    pub clocks: Vec<(ClockOf, WallClock)>,
    /// A redis master with its replica, for a scenario that fails over (fresh for the run).
    pub replicated: Option<Replicated>,
    /// Redlock: each client's links to the nodes, when they have a latency.
    pub node_links: Option<NodeLinks>,
    /// MariaDB's port, for MySQL's `GET_LOCK` (one server for the suite, started by the caller).
    pub mysql: Option<u16>,
}

impl Servers<'_> {
    /// The redis of a `lease` or `redis` service that does not fail over: the run's own if it has
    /// one (a redis on a wall clock of its own), else the suite's.
    pub fn lease_redis(&self) -> Option<&Redis> {
        self.own_redis.as_ref().or(self.redis)
    }

    /// Where client `c` reaches the Redlock nodes: through its links, or directly.
    pub(super) fn node_ports(&self, c: usize) -> Vec<u16> {
        match &self.node_links {
            Some(links) => links.ports(c),
            None => self.nodes.iter().map(|n| n.port).collect(),
        }
    }

    /// Where the clients reach the single redis: the front address of a replicated pair, or the redis.
    pub(super) fn redis_port(&self) -> Option<u16> {
        match &self.replicated {
            Some(r) => Some(r.front_port()),
            None => self.lease_redis().map(|r| r.port),
        }
    }
}

/// Whose wall clock a scenario steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockOf {
    /// The single redis of a `lease` or `redis` service.
    Service,
    /// Redlock's node k.
    Node(u8),
    /// Client c's agent process.
    Client(u8),
}

impl ClockOf {
    /// The scenario's clock for it.
    pub fn clock(self, sc: &Scenario) -> &Clock {
        match self {
            ClockOf::Service => &sc.service.clock,
            ClockOf::Node(k) => sc.service.node_clock(usize::from(k)),
            ClockOf::Client(c) => &sc.clients[usize::from(c)].clock,
        }
    }

    pub fn name(self, sc: &Scenario) -> String {
        match self {
            ClockOf::Service => "redis".into(),
            ClockOf::Node(k) => format!("n{}", k + 1),
            ClockOf::Client(c) => sc.client_name(c).to_string(),
        }
    }
}

/// Every clock of the scenario that takes a step, each a [`WallClock`] whose offset file is in `dir`.
/// A node whose keys expire on a monotonic clock gets none: no redis expires keys on one, and a
/// monotonic clock does not take the step, so its redis-server runs on the machine's true clock (the
/// stand-in, see docs/conformance.md).
pub fn wall_clocks(sc: &Scenario, dir: &std::path::Path) -> Res<Vec<(ClockOf, WallClock)>> {
    let mut who = vec![ClockOf::Service];
    who.extend((0..sc.service.nodes).map(ClockOf::Node));
    who.extend((0..sc.clients.len() as u8).map(ClockOf::Client));
    let redlock = sc.service.kind == ServiceKind::Redlock;
    who.retain(|w| match w {
        ClockOf::Service => !redlock,
        ClockOf::Node(_) => redlock,
        ClockOf::Client(_) => true,
    });
    let mut clocks = Vec::new();
    for w in who {
        let clock = w.clock(sc);
        if clock.steps.is_empty() || clock.monotonic {
            continue;
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let file = dir.join(format!("clock-{}", w.name(sc)));
        clocks.push((w, WallClock::new(dir, file)?));
    }
    Ok(clocks)
}

/// The environment a process of `who` runs with: its wall clock's, if the scenario steps it.
pub fn clock_env(clocks: &[(ClockOf, WallClock)], who: ClockOf) -> Vec<(OsString, OsString)> {
    clocks
        .iter()
        .find(|c| c.0 == who)
        .map_or_else(Vec::new, |c| c.1.env())
}

/// Checks that the real runner can play this scenario: every construct it uses has a real counterpart.
/// The services with no real server in this suite (a cloud service, an API server, a JVM cluster or
/// a Consul agent): what is missing, or `None` when the suite runs the real server.
pub fn no_server_for(kind: ServiceKind) -> Option<&'static str> {
    match kind {
        ServiceKind::Kubernetes => Some("a Kubernetes API server"),
        ServiceKind::Dynamodb => Some("DynamoDB (a cloud service)"),
        ServiceKind::Consul => Some("Consul (no real Consul rows yet)"),
        ServiceKind::Hazelcast => Some("a Hazelcast cluster with a CP Subsystem"),
        ServiceKind::Session
        | ServiceKind::Mysql
        | ServiceKind::Lease
        | ServiceKind::Redis
        | ServiceKind::Etcd
        | ServiceKind::Zookeeper
        | ServiceKind::Redlock => None,
    }
}

pub fn supported(sc: &Scenario, setup: &Setup) -> Res<()> {
    let svc = &sc.service;
    let p = &setup.params;
    let no = |what: &str| {
        Err(format!(
            "{}: the real runner has no counterpart for {what}",
            sc.id
        ))
    };
    if let Some(what) = no_server_for(svc.kind) {
        return no(what);
    }
    if let Err(what) = clocks_supported(sc) {
        return no(what);
    }
    if svc.lock_delay.resolve(p) != 0 {
        return no("lock-delay");
    }
    // A single redis's replica, behind the lag on its own link of the proxy (failover.rs).
    if svc.replica_lag.resolve(p) != 0 && svc.kind != ServiceKind::Redis {
        return no("replica lag outside a single redis");
    }
    if setup.fence_counter && svc.kind != ServiceKind::Session {
        return no("a fence counter outside a session lock");
    }
    if svc.kind == ServiceKind::Zookeeper {
        let (session, tick) = (svc.ttl.resolve(p), svc.tick.resolve(p));
        if !tick.is_multiple_of(1000) || tick == 0 || session < 2 * tick || session > 20 * tick {
            return no(
                "a ZooKeeper tick that is not whole ms, or a session timeout outside 2–20 ticks",
            );
        }
        if leaselab::scenario::own::Zookeeper::of(svc).tolerate_suspended {
            return no(
                "Curator's SUSPENDED policy (the real client is ZooKeeper's own, not Curator)",
            );
        }
    }
    if svc.kind == ServiceKind::Etcd
        && (!svc.ttl.resolve(p).is_multiple_of(1_000_000) || svc.ttl.resolve(p) < 2_000_000)
    {
        return no("an etcd TTL that is not whole seconds of at least 2 s");
    }
    if svc.kind == ServiceKind::Mysql && !svc.idle.resolve(p).is_multiple_of(1_000_000) {
        return no("a MySQL wait_timeout that is not whole seconds");
    }
    if svc.kind == ServiceKind::Redlock && svc.nodes != 5 {
        return no("Redlock with other than five nodes");
    }
    for c in sc.clients.iter() {
        for op in c.ops.iter() {
            let lease = matches!(svc.kind, ServiceKind::Lease | ServiceKind::Redis);
            match op {
                Op::Check(_) if !lease && svc.kind != ServiceKind::Session => {
                    return no("`check` outside a redis lease or a session lock")
                }
                Op::Renew if !lease => return no("`renew` outside a redis lease"),
                // The network holds a write on the client's storage link (delayed_write.rs); a
                // session's own connection has no link.
                Op::Write {
                    delay,
                    via_session: true,
                    ..
                } if delay.resolve(p) != 0 => return no("a delayed write through a session"),
                _ => {}
            }
        }
    }
    for f in sc.faults.iter() {
        match f.action {
            FaultAction::Terminate(_)
            | FaultAction::Crash(..)
            | FaultAction::Restart(_)
            | FaultAction::Freeze(..) => {}
            FaultAction::Failover if svc.kind == ServiceKind::Redis => {}
            _ => return no("this fault"),
        }
    }
    Ok(())
}

/// Whether every clock the scenario steps has a real counterpart: a redis-server's or a client
/// process's wall clock (see wallclock.rs), stepped, neither fast nor slow.
fn clocks_supported(sc: &Scenario) -> Result<(), &'static str> {
    let svc = &sc.service;
    let mut clocks = vec![&svc.clock];
    clocks.extend(svc.node_clocks.iter());
    clocks.extend(sc.clients.iter().map(|c| &c.clock));
    for clock in clocks {
        wallclock::steps_of(clock)?;
    }
    if sc.clients.iter().any(|c| c.clock.monotonic) {
        return Err("a client on a monotonic clock");
    }
    let redis_kind = matches!(
        svc.kind,
        ServiceKind::Lease | ServiceKind::Redis | ServiceKind::Redlock
    );
    if !svc.clock.steps.is_empty() && !redis_kind {
        return Err(
            "a clock step on this lock server (only redis-servers run on a steppable clock)",
        );
    }
    Ok(())
}

/// The persistence a scenario's Redlock nodes run with.
pub fn persistence(svc: &ServiceSpec) -> crate::servers::Persistence {
    match svc.persist {
        Persist::None => crate::servers::Persistence::None,
        Persist::EverySec => crate::servers::Persistence::EverySec,
        Persist::Always => crate::servers::Persistence::Always,
    }
}

pub(super) fn us(d: Dur, params: &[u64]) -> Duration {
    Duration::from_micros(d.resolve(params))
}

/// Runs `sc`'s scripts for real, each client in an agent process of its own. `sc` must pass
/// [`supported`].
pub fn run(sc: &Scenario, setup: &Setup, servers: &mut Servers) -> Res<RealRun> {
    let svc = &sc.service;
    let p = &setup.params[..];
    let mut lock_servers: Vec<&Redis> = servers.lease_redis().into_iter().collect();
    lock_servers.extend(servers.nodes.iter());
    lock_servers.extend(servers.replicated.as_ref().map(|r| r.master()));
    reset(servers.pg, &lock_servers, sc.balance, svc.first_token)?;
    if let Some(r) = &servers.replicated {
        r.wait_in_sync()?; // the reset's keys are on the replica too before t = 0
    }
    if let Some(port) = servers.mysql {
        mysql_lock::reset(port, svc.first_token)?;
    }
    // Every client's connections are opened before the clock starts (the simulator's clients exist
    // from t = 0): each agent says `ready` once its own are.
    let mut agents = conductor::Agents::spawn(sc, setup, servers)?;
    let admin = servers.pg.connect(DB, "admin")?;
    // A moment for every agent to read its `start` before the clock starts.
    let t0_ns = sys::mono_ns() + 100_000_000;
    let shared = Shared::new(agent::instant_of(t0_ns), agents.pids(), sc.balance);
    agents.start(t0_ns);
    let (nodes, clocks, mysql) = (&mut servers.nodes, &mut servers.clocks, servers.mysql);
    let replicated = servers.replicated.as_mut();
    let mut errors = std::thread::scope(|s| {
        let faults = s.spawn(|| faults::run(sc, p, &shared, (admin, mysql), nodes));
        let failover = s.spawn(|| failover::run(sc, p, &shared, replicated));
        let steps = s.spawn(|| faults::step_clocks(sc, &shared, clocks));
        let done = || faults.is_finished() && failover.is_finished() && steps.is_finished();
        let mut errors = conductor::conduct(sc, p, &mut agents, &shared, done);
        let threads = [
            ("faults", faults),
            ("failover", failover),
            ("clock steps", steps),
        ];
        for (what, thread) in threads {
            match thread.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => errors.push(format!("{what}: {e}")),
                Err(_) => errors.push(format!("{what}: the thread panicked")),
            }
        }
        errors
    });
    drop(agents); // every agent process is gone (killed if need be) and reaped
    if !errors.is_empty() {
        errors.dedup();
        return Err(errors.join("; "));
    }
    let mut run = shared.into_run();
    let mut c = servers.pg.connect(DB, "conformance-final")?;
    run.final_balance = c
        .query_one("SELECT balance FROM account WHERE id = 1", &[])
        .map_err(|e| e.to_string())?
        .get(0);
    Ok(run)
}
