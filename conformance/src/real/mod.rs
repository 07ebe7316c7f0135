//! Runs a leaselab scenario's own scripts for real: one thread per client, real sleeps for `work` and
//! `pause`, a real lock service and a real PostgreSQL table as the storage.
//!
//! - `session`: a PostgreSQL advisory lock, `pg_try_advisory_lock(424242)` on the client's own session;
//!   `read via session` / `write … via session` go through that session, the others through a second
//!   connection of the client's. The fault `terminate A` is `pg_terminate_backend(A's pid)`.
//! - `lease` / `redis`: one redis-server, `SET key value NX PX ttl` (tokens from `INCR` in the same Lua
//!   script, so a grant and its token are one step), value-checked release by a Lua script.
//! - `redlock`: five redis-servers; each round sends `SET NX PX` to every node the client reaches,
//!   holds the lock when a majority granted it and `ttl − elapsed − drift` is positive, else unlocks
//!   every node and retries. `crash nK restart D` is SIGKILL, then a restart D later (what the node
//!   keeps is what its persistence mode wrote).
//! - `etcd`: one real etcd (fresh for every run, so revisions start at 1 as in the model), through its
//!   JSON gateway: `LeaseGrant` with the TTL in seconds, a keepalive thread per client that sends one
//!   every TTL/3 and freezes while the client is paused (its keepalives freeze with it), `Lock` on the
//!   lease (which blocks while the key waits), the key's create revision as the token (or the lease ID),
//!   `Unlock`, and the lease revoked at the end of the script.
//! - The storage is one row `account(balance, version, token, owner)`; each policy is one conditional
//!   statement (see [`read`] and [`write`]), so the guard is enforced by PostgreSQL itself.
//!
//! Every wait is bounded: statements by `statement_timeout`, redis by socket timeouts, retry loops and
//! the run as a whole by a deadline.

mod etcd_lock;
mod faults;
mod player;
mod record;
mod redis_lock;
mod session_lock;
mod storage;
mod zk_lock;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use leaselab::client::{Dur, Op};
use leaselab::clock::Clock;
use leaselab::scenario::{FaultAction, Persist, Scenario, ServiceKind, ServiceSpec};
use leaselab::store::Policy;

use crate::etcd::Etcd;
use crate::servers::{Postgres, Redis, Res};

use etcd_lock::EtcdSession;
use player::Client;
pub use record::RealRun;
use record::Shared;
pub use storage::reset;

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
}

/// The servers a run can use.
pub struct Servers<'a> {
    pub pg: &'a Postgres,
    /// The single redis of `lease` and `redis` services.
    pub redis: Option<&'a Redis>,
    /// Redlock's nodes (started by the caller with the scenario's persistence).
    pub nodes: Vec<Redis>,
    /// etcd (started by the caller, fresh for the run).
    pub etcd: Option<Etcd>,
    /// ZooKeeper (started by the caller, fresh for the run).
    pub zk: Option<crate::zk::Server>,
}

/// Checks that the real runner can play this scenario: every construct it uses has a real counterpart.
pub fn supported(sc: &Scenario, setup: &Setup) -> Res<()> {
    let svc = &sc.service;
    let p = &setup.params;
    let no = |what: &str| {
        Err(format!(
            "{}: the real runner has no counterpart for {what}",
            sc.id
        ))
    };
    if svc.clock != Clock::default() || svc.node_clocks.iter().any(|c| *c != Clock::default()) {
        return no("server clock steps or rates");
    }
    if svc.lock_delay.resolve(p) != 0 {
        return no("lock-delay");
    }
    if svc.replica_lag.resolve(p) != 0 {
        return no("replica lag");
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
        if svc.tolerate_suspended {
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
    if svc.kind == ServiceKind::Redlock && svc.nodes != 5 {
        return no("Redlock with other than five nodes");
    }
    for c in sc.clients.iter() {
        if c.clock != Clock::default() {
            return no("client clock steps or rates");
        }
        for op in c.ops.iter() {
            match op {
                Op::Check(_) => return no("`check`"),
                Op::Renew => return no("`renew`"),
                Op::Write { delay, .. } if delay.resolve(p) != 0 => return no("a delayed write"),
                _ => {}
            }
        }
    }
    for f in sc.faults.iter() {
        match f.action {
            FaultAction::Terminate(_) | FaultAction::Crash(..) | FaultAction::Restart(_) => {}
            _ => return no("this fault"),
        }
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

/// A client's connections: its data connection, its session (session locks), its ZooKeeper session's
/// process (not yet connected).
pub(super) type ClientConns = (
    postgres::Client,
    Option<postgres::Client>,
    Option<crate::zk::Agent>,
);

/// Every client's connections, opened before the clock starts (the simulator's clients exist from
/// t = 0), and the backend pids of their sessions (for `terminate`).
pub(super) fn open_clients(
    sc: &Scenario,
    servers: &Servers,
) -> Res<(Vec<ClientConns>, Vec<Option<i32>>)> {
    let svc = &sc.service;
    let n = sc.clients.len();
    let mut conns = Vec::with_capacity(n);
    let mut pids = Vec::with_capacity(n);
    for c in sc.clients.iter() {
        let data = servers.pg.connect(DB, &format!("{}-data", c.name))?;
        let session = if svc.kind == ServiceKind::Session {
            Some(servers.pg.connect(DB, &format!("{}-session", c.name))?)
        } else {
            None
        };
        // A ZooKeeper client's session process is started now (a JVM-free Rust process, but still
        // a process start); it connects at the client's first acquire, as the model's client does.
        let agent = servers
            .zk
            .as_ref()
            .map(crate::zk::Agent::spawn)
            .transpose()?;
        conns.push((data, session, agent));
        pids.push(None);
    }
    for (i, (_, session, _)) in conns.iter_mut().enumerate() {
        if let Some(s) = session {
            let row = s
                .query_one("SELECT pg_backend_pid()", &[])
                .map_err(|e| e.to_string())?;
            pids[i] = Some(row.get::<_, i32>(0));
        }
    }
    Ok((conns, pids))
}

/// Runs `sc`'s scripts for real. `sc` must pass [`supported`].
pub fn run(sc: &Scenario, setup: &Setup, servers: &mut Servers) -> Res<RealRun> {
    let svc = &sc.service;
    let p = &setup.params[..];
    let mut lock_servers: Vec<&Redis> = servers.redis.into_iter().collect();
    lock_servers.extend(servers.nodes.iter());
    reset(servers.pg, &lock_servers, sc.balance, svc.first_token)?;
    let node_ports: Vec<u16> = servers.nodes.iter().map(|n| n.port).collect();
    let redis_port = servers.redis.map(|r| r.port);
    let etcd_port = servers.etcd.as_ref().map(|e| e.port);

    let n = sc.clients.len();
    let (conns, pids) = open_clients(sc, servers)?;
    let admin = servers.pg.connect(DB, "admin")?;

    // A moment for every thread to be up and waiting before the clock starts.
    let t0 = Instant::now() + Duration::from_millis(200);
    let shared = Shared::new(t0, n, pids, sc.balance);
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let nodes = &mut servers.nodes;
    std::thread::scope(|s| {
        for (i, (data, session, agent)) in conns.into_iter().enumerate() {
            let (shared, errors, node_ports) = (&shared, &errors, &node_ports);
            s.spawn(move || {
                let mut client = Client::new(
                    sc,
                    setup,
                    i as u8,
                    shared,
                    data,
                    session,
                    redis_port,
                    node_ports.clone(),
                );
                client.etcd = etcd_port.map(EtcdSession::new);
                client.zk = agent;
                if let Err(e) = client.play() {
                    errors
                        .lock()
                        .unwrap()
                        .push(format!("client {}: {e}", client.name));
                }
                client.finish();
            });
        }
        let (shared_ref, errors_ref) = (&shared, &errors);
        s.spawn(move || {
            if let Err(e) = faults::run(sc, p, shared_ref, admin, nodes) {
                errors_ref.lock().unwrap().push(format!("faults: {e}"));
            }
            shared_ref.with(|st| st.active -= 1);
        });
        // When every script is over, idle clients disconnect.
        let mut st = shared.state.lock().unwrap();
        while st.active > 0 && Instant::now() < shared.deadline {
            st = shared
                .changed
                .wait_timeout(st, Duration::from_millis(50))
                .unwrap()
                .0;
        }
        if st.active > 0 {
            errors.lock().unwrap().push(format!(
                "the run did not end within {} s",
                RUN_WITHIN.as_secs()
            ));
        }
        st.over = true;
        shared.changed.notify_all();
    });
    let errors = errors.into_inner().unwrap();
    if !errors.is_empty() {
        return Err(errors.join("; "));
    }
    let mut run = shared.state.into_inner().unwrap().run;
    let mut c = servers.pg.connect(DB, "conformance-final")?;
    run.final_balance = c
        .query_one("SELECT balance FROM account WHERE id = 1", &[])
        .map_err(|e| e.to_string())?
        .get(0);
    Ok(run)
}
