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

use std::sync::{Condvar, Mutex};
use std::thread::sleep;
use std::time::{Duration, Instant};

use leaselab::client::{Dur, Op};
use leaselab::clock::Clock;
use leaselab::scenario::{FaultAction, Persist, Scenario, ServiceKind, ServiceSpec};
use leaselab::sim::Run;
use leaselab::store::Policy;
use leaselab::time::SimTime;
use leaselab::trace::WriteRecord;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crate::etcd::{self, Etcd};
use crate::servers::{connect_redis, Postgres, Redis, Res};

/// The advisory lock key of the seed's step 1.
pub const LOCK_KEY: i64 = 424242;
/// The database the scripted runs use (step 1 uses `postgres`, as the seed does).
pub const DB: &str = "leaselab";
const LOCK: &str = "leaselab:lock";
const FENCE: &str = "leaselab:fence";
/// Longest a scripted run may take in all.
const RUN_WITHIN: Duration = Duration::from_secs(60);

/// SET NX PX, and with tokens an INCR in the same atomic step: returns the token, -1 (granted, no
/// tokens) or 0 (denied).
const ACQUIRE_LUA: &str = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then \
    if ARGV[3] == '1' then return redis.call('INCR', KEYS[2]) end return -1 end return 0";
/// Value-checked release: deletes the key only if it still holds this client's value.
const RELEASE_LUA: &str =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

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

/// What happened, in the order it happened.
#[derive(Default)]
pub struct RealRun {
    pub initial: i64,
    pub final_balance: i64,
    pub writes: Vec<WriteRecord>,
    /// Who got the lock (for Redlock: who came to hold a majority), in order.
    pub grants: Vec<u8>,
    /// Each acquire attempt: (client, granted).
    pub attempts: Vec<(u8, bool)>,
    /// Each client's belief that it held the lock: (client, from, to).
    pub beliefs: Vec<(u8, Instant, Instant)>,
    /// A transcript with real times, for the report when a row disagrees.
    pub transcript: Vec<String>,
    /// How far the real run fell behind the scenario's timeline at worst, and who did: operations take
    /// no time in the model, so a slow statement or a late wake-up (a busy machine) shows here.
    pub lateness: Duration,
    pub late_who: String,
}

impl RealRun {
    /// The run as leaselab's own `Run`, so that the simulator's definitions of lost update and victim
    /// apply to it unchanged.
    pub fn as_sim_run(&self) -> Run {
        Run {
            initial: self.initial,
            final_balance: self.final_balance,
            writes: self.writes.clone(),
            ..Run::default()
        }
    }

    /// Two different clients believed at the same time that they held the lock.
    pub fn overlap(&self) -> bool {
        self.beliefs.iter().enumerate().any(|(i, a)| {
            self.beliefs[i + 1..]
                .iter()
                .any(|b| a.0 != b.0 && a.1.max(b.1) < a.2.min(b.2))
        })
    }
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
    if svc.kind == ServiceKind::Kubernetes {
        return no("a Kubernetes API server");
    }
    if svc.kind == ServiceKind::Dynamodb {
        return no("DynamoDB (a cloud service)");
    }
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
    if svc.kind == ServiceKind::Consul {
        return no("Consul (no real Consul rows yet)");
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

fn us(d: Dur, params: &[u64]) -> Duration {
    Duration::from_micros(d.resolve(params))
}

/// A lock grant as the client holds it.
#[derive(Clone, Copy)]
struct Held {
    token: Option<i64>,
    /// The unique value of the grant (redis's random value; the `owner` stamp).
    value: i64,
    /// When the client believes the lease ends (none for a session lock).
    believed_end: Option<Instant>,
}

/// Shared by the threads of one run.
struct Shared {
    t0: Instant,
    deadline: Instant,
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    run: RealRun,
    /// Clients that finished their first operation (for same-instant starts, see `start_turn`).
    first_done: Vec<bool>,
    /// Clients and fault threads still running their scripts (idle clients count as done).
    active: usize,
    /// Set once every script is over: idle clients disconnect.
    over: bool,
    /// Backend pids of the clients' sessions, for `terminate`.
    pids: Vec<Option<i32>>,
}

impl Shared {
    /// How long until the run's deadline (a blocking lock call waits at most this long).
    fn time_left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    fn note(&self, who: &str, text: String) {
        let ms = self.t0.elapsed().as_secs_f64() * 1e3;
        self.state
            .lock()
            .unwrap()
            .run
            .transcript
            .push(format!("{ms:8.1} ms  {who}: {text}"));
    }

    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut st = self.state.lock().unwrap();
        let out = f(&mut st);
        self.changed.notify_all();
        out
    }

    fn sleep_until(&self, at: Instant) {
        let now = Instant::now();
        if at > now {
            sleep(at - now);
        }
    }

    /// Notes how far `who` is behind its place `nominal` on the scenario's timeline.
    fn behind(&self, who: &str, nominal: Duration, what: &str) {
        let late = self.t0.elapsed().saturating_sub(nominal);
        let mut st = self.state.lock().unwrap();
        if late > st.run.lateness {
            st.run.lateness = late;
            st.run.late_who = format!("{who} ({what} due at {} ms)", nominal.as_millis());
        }
    }
}

/// A simple generator of unique lock values (the seeded generator of the simulator plays this part).
fn random_value(client: u8) -> i64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut z = nanos
        ^ (u64::from(client) << 56)
        ^ COUNTER
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 1) as i64
}

/// Why an access did not go through.
enum Denied {
    /// The storage's guard refused it (the conditional statement matched no row).
    Refused,
    /// The connection failed: for an access through a terminated session, the session is gone.
    Failed(String),
}

/// A read under `policy`: `(balance, version)`.
fn read(
    conn: &mut postgres::Client,
    policy: Policy,
    held: Option<Held>,
) -> Result<(i64, i64), Denied> {
    let token = held.and_then(|h| h.token);
    let value = held.map(|h| h.value);
    let row = match (policy, token) {
        // first-touch: every access with a token raises the highest token seen; a lower one is refused.
        (Policy::FirstTouch, Some(t)) => conn.query_opt(
            "UPDATE account SET token = $1 WHERE id = 1 AND token <= $1 RETURNING balance, version",
            &[&t],
        ),
        // owner: the reader stamps the resource with its lock value.
        (Policy::Owner, _) => conn.query_opt(
            "UPDATE account SET owner = $1 WHERE id = 1 RETURNING balance, version",
            &[&value],
        ),
        _ => conn.query_opt("SELECT balance, version FROM account WHERE id = 1", &[]),
    };
    match row {
        Ok(Some(r)) => Ok((r.get(0), r.get(1))),
        Ok(None) => Err(Denied::Refused),
        Err(e) => Err(Denied::Failed(e.to_string())),
    }
}

/// A write of `value` under `policy`, by a client whose read returned `read` (balance, version).
fn write(
    conn: &mut postgres::Client,
    policy: Policy,
    held: Option<Held>,
    read: (i64, i64),
    value: i64,
) -> Result<(), Denied> {
    let (balance_read, version_read) = read;
    let token = held.and_then(|h| h.token);
    let owner = held.map(|h| h.value);
    const SET: &str = "UPDATE account SET balance = $1, version = version + 1";
    let n = match (policy, token) {
        // token: refuse a token lower than the highest seen on a write (an equal one passes).
        (Policy::Token | Policy::FirstTouch, Some(t)) => conn.execute(
            &format!("{SET}, token = $2 WHERE id = 1 AND token <= $2"),
            &[&value, &t],
        ),
        // equal-token: the first write's token is kept; only exactly that one passes after it.
        (Policy::EqualToken, Some(t)) => conn.execute(
            &format!("{SET}, token = $2 WHERE id = 1 AND (token = 0 OR token = $2)"),
            &[&value, &t],
        ),
        // version: compare-and-set on the version read.
        (Policy::Version, _) => conn.execute(
            &format!("{SET} WHERE id = 1 AND version = $2"),
            &[&value, &version_read],
        ),
        // etag: S3's If-Match on a content-derived ETag — the MD5 of the content, as S3's for a
        // simple upload; equal content, equal ETag.
        (Policy::Etag, _) => conn.execute(
            &format!("{SET} WHERE id = 1 AND md5(balance::text) = md5($2::bigint::text)"),
            &[&value, &balance_read],
        ),
        // owner: the stamp must still be the writer's own.
        (Policy::Owner, _) => conn.execute(
            &format!("{SET} WHERE id = 1 AND owner = $2"),
            &[&value, &owner],
        ),
        // none (and token policies when the lock service hands out no tokens): last write wins.
        _ => conn.execute(&format!("{SET} WHERE id = 1"), &[&value]),
    };
    match n {
        Ok(1) => Ok(()),
        Ok(_) => Err(Denied::Refused),
        Err(e) => Err(Denied::Failed(e.to_string())),
    }
}

/// Resets the storage and the lock services before a run. Waits (bounded) until no advisory lock of
/// an earlier run is left: a closed connection's backend may still be on its way out.
pub fn reset(pg: &Postgres, redis: &[&Redis], balance: i64, first_token: u64) -> Res<()> {
    let mut c = pg.connect(DB, "conformance-reset")?;
    c.batch_execute(
        "CREATE TABLE IF NOT EXISTS account (id int PRIMARY KEY, balance bigint NOT NULL, \
           version bigint NOT NULL, token bigint NOT NULL, owner bigint);
         CREATE SEQUENCE IF NOT EXISTS fence;
         TRUNCATE account;",
    )
    .map_err(|e| format!("reset storage: {e}"))?;
    c.execute(
        "INSERT INTO account VALUES (1, $1, 0, 0, NULL)",
        &[&balance],
    )
    .map_err(|e| format!("reset storage: {e}"))?;
    c.execute(
        "SELECT setval('fence', $1, false)",
        &[&(first_token as i64)],
    )
    .map_err(|e| format!("reset fence: {e}"))?;
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let row = c
            .query_one(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'",
                &[],
            )
            .map_err(|e| format!("pg_locks: {e}"))?;
        if row.get::<_, i64>(0) == 0 {
            break;
        }
        if Instant::now() >= end {
            return Err("an advisory lock of an earlier run is still held after 10 s".into());
        }
        sleep(Duration::from_millis(20));
    }
    for r in redis {
        let mut con = r.connect(Duration::from_secs(2))?;
        redis::cmd("FLUSHALL")
            .query::<()>(&mut con)
            .map_err(|e| format!("FLUSHALL: {e}"))?;
        redis::cmd("SET")
            .arg(FENCE)
            .arg(first_token.saturating_sub(1))
            .query::<()>(&mut con)
            .map_err(|e| format!("SET fence: {e}"))?;
    }
    Ok(())
}

/// A client's connections: its data connection, its session (session locks), its ZooKeeper session's
/// process (not yet connected).
type ClientConns = (
    postgres::Client,
    Option<postgres::Client>,
    Option<crate::zk::Agent>,
);

/// Every client's connections, opened before the clock starts (the simulator's clients exist from
/// t = 0), and the backend pids of their sessions (for `terminate`).
fn open_clients(sc: &Scenario, servers: &Servers) -> Res<(Vec<ClientConns>, Vec<Option<i32>>)> {
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

impl Shared {
    /// The shared state of a run whose clock starts at `t0`, for `n` clients and the fault thread.
    fn new(t0: Instant, n: usize, pids: Vec<Option<i32>>, balance: i64) -> Shared {
        Shared {
            t0,
            deadline: t0 + RUN_WITHIN,
            state: Mutex::new(State {
                first_done: vec![false; n],
                active: n + 1,
                pids,
                run: RealRun {
                    initial: balance,
                    ..RealRun::default()
                },
                ..State::default()
            }),
            changed: Condvar::new(),
        }
    }
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
            if let Err(e) = faults(sc, p, shared_ref, admin, nodes) {
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

/// The scenario's faults, at their times.
fn faults(
    sc: &Scenario,
    p: &[u64],
    shared: &Shared,
    mut admin: postgres::Client,
    nodes: &mut [Redis],
) -> Res<()> {
    let mut faults: Vec<_> = sc.faults.iter().collect();
    faults.sort_by_key(|f| f.at.resolve(p));
    for f in faults {
        let at = us(f.at, p);
        shared.sleep_until(shared.t0 + at);
        match f.action {
            FaultAction::Terminate(c) => {
                let name = sc.client_name(c);
                let pid = shared
                    .with(|st| st.pids[usize::from(c)])
                    .ok_or("terminate: the client has no session")?;
                let ok: bool = admin
                    .query_one("SELECT pg_terminate_backend($1)", &[&pid])
                    .map_err(|e| format!("pg_terminate_backend: {e}"))?
                    .get(0);
                shared.note(
                    "admin",
                    format!(
                        "pg_terminate_backend({name}: pid {pid}) → {}",
                        if ok { "t" } else { "f" }
                    ),
                );
                shared.behind("admin", at, "terminate");
            }
            FaultAction::Crash(k, restart) => {
                let node = nodes.get_mut(usize::from(k)).ok_or("crash: no such node")?;
                node.crash();
                let who = format!("n{}", k + 1);
                shared.note(&who, "killed (SIGKILL)".into());
                shared.behind(&who, at, "crash");
                if let Some(d) = restart {
                    shared.sleep_until(shared.t0 + at + us(d, p));
                    node.restart()?;
                    shared.note(&who, "restarted, answering".into());
                    shared.behind(&who, at + us(d, p), "restart");
                }
            }
            FaultAction::Restart(k) => {
                nodes
                    .get_mut(usize::from(k))
                    .ok_or("restart: no such node")?
                    .restart()?;
                shared.note(&format!("n{}", k + 1), "restarted, answering".into());
                shared.behind(&format!("n{}", k + 1), at, "restart");
            }
            _ => return Err("unsupported fault".into()),
        }
    }
    Ok(())
}

/// One client playing its script.
struct Client<'a> {
    sc: &'a Scenario,
    setup: &'a Setup,
    idx: u8,
    name: char,
    shared: &'a Shared,
    data: Option<postgres::Client>,
    session: Option<postgres::Client>,
    redis_port: Option<u16>,
    node_ports: Vec<u16>,
    held: Option<Held>,
    snapshot: Option<(i64, i64)>,
    belief_from: Option<Instant>,
    idle: bool,
    done: bool,
    /// Where the client is on the scenario's timeline: its start plus every wait its script asked for
    /// (operations take no time in the model). Waits end at `t0 + nominal`, so a slow operation is
    /// made up for by a shorter wait after it, and what cannot be made up shows as lateness.
    nominal: Duration,
    /// etcd scenarios: the client's lease, its key, and its keepalive thread.
    etcd: Option<EtcdSession>,
    /// ZooKeeper scenarios: the process that holds the client's session.
    zk: Option<crate::zk::Agent>,
    /// ZooKeeper: whether that session is open yet.
    zk_connected: bool,
}

/// An etcd client's session: its lease, kept alive by a thread of its own that freezes with it.
struct EtcdSession {
    port: u16,
    lease: Option<i64>,
    key: Option<String>,
    ctl: Arc<KeepaliveCtl>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What the keepalive thread reads: stop, and "frozen until" (µs since the Unix epoch of `Instant`s is
/// not a thing, so: µs after the thread's own start).
struct KeepaliveCtl {
    stop: AtomicBool,
    frozen_until_us: AtomicU64,
    started: Instant,
}

impl EtcdSession {
    fn new(port: u16) -> EtcdSession {
        EtcdSession {
            port,
            lease: None,
            key: None,
            ctl: Arc::new(KeepaliveCtl {
                stop: AtomicBool::new(false),
                frozen_until_us: AtomicU64::new(0),
                started: Instant::now(),
            }),
            thread: None,
        }
    }

    /// Keeps `lease` alive: a keepalive every `every`, none while the client is frozen (the one due
    /// then goes out when it wakes), until told to stop or the lease is gone.
    fn start_keepalive(&mut self, lease: i64, every: Duration) {
        let (port, ctl) = (self.port, Arc::clone(&self.ctl));
        self.thread = Some(std::thread::spawn(move || {
            let mut next = Instant::now() + every;
            while !ctl.stop.load(Ordering::Relaxed) {
                let thaw = ctl.started
                    + Duration::from_micros(ctl.frozen_until_us.load(Ordering::Relaxed));
                let due = next.max(thaw);
                if Instant::now() < due {
                    sleep(Duration::from_millis(5).min(due - Instant::now()));
                    continue;
                }
                match etcd::keepalive(port, lease) {
                    Ok(ttl) if ttl > 0 => next = Instant::now() + every,
                    _ => return, // the lease is gone (or etcd is): nothing left to keep alive
                }
            }
        }));
    }

    /// The client freezes until `until`: so does its keepalive thread.
    fn freeze_until(&self, until: Instant) {
        let us = until
            .saturating_duration_since(self.ctl.started)
            .as_micros() as u64;
        self.ctl.frozen_until_us.store(us, Ordering::Relaxed);
    }

    /// The end of the script: the keepalives stop and the lease is revoked (its key with it).
    fn close(&mut self) {
        self.ctl.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if let Some(lease) = self.lease.take() {
            let _ = etcd::revoke(self.port, lease);
        }
    }
}

/// How a script ended early.
enum Stop {
    /// Refused or failed access, or denied too often: the client gives up (no retries here).
    GaveUp,
    /// Something in the harness failed: the run is void.
    Error(String),
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Error(e)
    }
}

impl From<&str> for Stop {
    fn from(e: &str) -> Stop {
        Stop::Error(e.to_string())
    }
}

impl<'a> Client<'a> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        sc: &'a Scenario,
        setup: &'a Setup,
        idx: u8,
        shared: &'a Shared,
        data: postgres::Client,
        session: Option<postgres::Client>,
        redis_port: Option<u16>,
        node_ports: Vec<u16>,
    ) -> Client<'a> {
        Client {
            sc,
            setup,
            idx,
            name: sc.client_name(idx),
            shared,
            data: Some(data),
            session,
            redis_port,
            node_ports,
            held: None,
            snapshot: None,
            belief_from: None,
            idle: false,
            done: false,
            nominal: Duration::ZERO,
            etcd: None,
            zk: None,
            zk_connected: false,
        }
    }

    fn note(&self, text: String) {
        self.shared.note(&self.name.to_string(), text);
    }

    fn p(&self) -> &[u64] {
        &self.setup.params
    }

    /// Clients that start at the same instant run their first steps in declaration order, as the
    /// simulator's `(time, sequence)` order does: wait until the earlier ones have done theirs.
    fn start_turn(&self) {
        let spec = &self.sc.clients[usize::from(self.idx)];
        let start = spec.start.resolve(self.p());
        let earlier: Vec<usize> = (0..usize::from(self.idx))
            .filter(|&j| self.sc.clients[j].start.resolve(self.p()) == start)
            .collect();
        let mut st = self.shared.state.lock().unwrap();
        while earlier.iter().any(|&j| !st.first_done[j]) && Instant::now() < self.shared.deadline {
            st = self
                .shared
                .changed
                .wait_timeout(st, Duration::from_millis(20))
                .unwrap()
                .0;
        }
    }

    /// Waits until `d` later on the scenario's timeline.
    fn wait(&mut self, d: Duration) {
        self.nominal += d;
        self.shared.sleep_until(self.shared.t0 + self.nominal);
    }

    fn behind(&self, what: &str) {
        self.shared
            .behind(&self.name.to_string(), self.nominal, what);
    }

    fn play(&mut self) -> Result<(), String> {
        let spec = &self.sc.clients[usize::from(self.idx)];
        self.wait(us(spec.start, self.p()));
        self.start_turn();
        for (k, op) in spec.ops.iter().enumerate() {
            self.behind(op_name(op));
            let r = self.step(*op);
            self.behind(op_name(op));
            if k == 0 {
                let i = usize::from(self.idx);
                self.shared.with(|st| st.first_done[i] = true);
            }
            match r {
                Ok(()) => {}
                Err(Stop::GaveUp) => {
                    self.end_belief(Instant::now());
                    self.note("gives up".into());
                    self.done = true;
                    return Ok(());
                }
                Err(Stop::Error(e)) => return Err(e),
            }
            if self.idle {
                return Ok(());
            }
        }
        Ok(())
    }

    fn step(&mut self, op: Op) -> Result<(), Stop> {
        match op {
            Op::Acquire { every, tries } => self.acquire(us(every, self.p()), tries),
            Op::Read { via_session } => self.read_step(via_session),
            Op::Work(d) => {
                self.wait(us(d, self.p()));
                Ok(())
            }
            Op::Pause(d) => self.pause_step(us(d, self.p())),
            Op::Write {
                debit, via_session, ..
            } => self.write_step(debit, via_session),
            Op::Release => {
                if let Some(h) = self.held.take() {
                    self.end_belief(Instant::now());
                    self.release(h)?;
                }
                Ok(())
            }
            Op::Idle => {
                self.note("stays connected, idle".into());
                self.idle = true;
                Ok(())
            }
            Op::Check(_) | Op::Renew => Err(Stop::Error("unsupported operation".into())),
        }
    }

    /// `read`: the balance and version under the policy (a refusal or a failure ends the script).
    fn read_step(&mut self, via_session: bool) -> Result<(), Stop> {
        let policy = self.setup.policy;
        let held = self.held;
        let conn = self.conn(via_session)?;
        match read(conn, policy, held) {
            Ok((balance, version)) => {
                self.snapshot = Some((balance, version));
                self.note(format!(
                    "read {balance}{}",
                    if via_session {
                        " (via its session)"
                    } else {
                        ""
                    }
                ));
                Ok(())
            }
            Err(Denied::Refused) => {
                self.note("read REFUSED by the storage".into());
                Err(Stop::GaveUp)
            }
            Err(Denied::Failed(e)) => {
                self.note(format!("read FAILED: {e}"));
                Err(Stop::GaveUp)
            }
        }
    }

    /// `pause`: the client freezes for `d` (its keepalives with it; a ZooKeeper session's process is
    /// stopped).
    fn pause_step(&mut self, d: Duration) -> Result<(), Stop> {
        let idle = us(self.sc.service.idle, self.p());
        if self.sc.service.kind == ServiceKind::Session && !idle.is_zero() && d > idle {
            // Frozen, the client sends nothing: the server's idle-session timeout ends the
            // session (PostgreSQL ≥ 14), the real counterpart of a keepalive timeout.
            let ms = idle.as_millis() as i64;
            if let Some(s) = self.session.as_mut() {
                s.batch_execute(&format!("SET idle_session_timeout = {ms}"))
                    .map_err(|e| format!("SET idle_session_timeout: {e}"))?;
            }
        }
        self.note(format!("pause {} ms", d.as_millis()));
        if let Some(e) = &self.etcd {
            e.freeze_until(self.shared.t0 + self.nominal + d);
        }
        if let Some(z) = &self.zk {
            z.freeze()?;
            self.note(format!("its session's process {} is SIGSTOPped", z.pid()));
        }
        self.wait(d);
        if let Some(z) = &self.zk {
            z.thaw()?;
        }
        self.note("wakes".into());
        Ok(())
    }

    /// `write`: the snapshot minus `debit`, under the policy; the storage's answer is recorded.
    fn write_step(&mut self, debit: i64, via_session: bool) -> Result<(), Stop> {
        let (snapshot, version) = self.snapshot.ok_or("write before any read")?;
        let value = snapshot - debit;
        let held = self.held;
        let policy = self.setup.policy;
        let conn = self.conn(via_session)?;
        let result = write(conn, policy, held, (snapshot, version), value);
        let accepted = result.is_ok();
        let token = held.and_then(|h| h.token);
        let tok = token.map_or(String::new(), |t| format!(" tok={t}"));
        match &result {
            Ok(()) => self.note(format!("write {value}{tok} → ACCEPTED")),
            Err(Denied::Refused) => {
                self.note(format!("write {value}{tok} → REJECTED by the storage"))
            }
            Err(Denied::Failed(e)) => self.note(format!("write {value}{tok} → FAILED: {e}")),
        }
        let t = SimTime(self.shared.t0.elapsed().as_micros() as u64);
        let rec = WriteRecord {
            client: self.idx,
            token: token.unwrap_or(0) as u64,
            snapshot,
            value,
            debit,
            t,
            accepted,
            reason: None,
            stale: false,
        };
        self.shared.with(|st| st.run.writes.push(rec));
        if accepted {
            Ok(())
        } else {
            Err(Stop::GaveUp)
        }
    }

    fn conn(&mut self, via_session: bool) -> Result<&mut postgres::Client, Stop> {
        let c = if via_session {
            self.session.as_mut()
        } else {
            self.data.as_mut()
        };
        c.ok_or_else(|| Stop::Error("no such connection".into()))
    }

    fn end_belief(&mut self, to: Instant) {
        if let Some(from) = self.belief_from.take() {
            let i = self.idx;
            self.shared.with(|st| st.run.beliefs.push((i, from, to)));
        }
    }

    fn acquire(&mut self, every: Duration, tries: u32) -> Result<(), Stop> {
        let mut n = 0;
        loop {
            n += 1;
            let got = self.try_acquire()?;
            let i = self.idx;
            self.shared
                .with(|st| st.run.attempts.push((i, got.is_some())));
            if let Some(h) = got {
                if matches!(
                    self.sc.service.kind,
                    ServiceKind::Etcd | ServiceKind::Zookeeper
                ) {
                    // etcd's Lock (and ZooKeeper's recipe) blocks until the key before it is gone: the wait is the lock
                    // service's, not the client's lateness (the model's grant comes then too). The
                    // script goes on from the real grant.
                    self.nominal = self.nominal.max(self.shared.t0.elapsed());
                }
                self.shared.with(|st| st.run.grants.push(i));
                self.held = Some(h);
                self.belief_from = Some(Instant::now());
                return Ok(());
            }
            if tries != 0 && n >= tries {
                return Err(Stop::GaveUp);
            }
            if Instant::now() + every >= self.shared.deadline {
                return Err(Stop::Error(format!(
                    "still denied after {n} tries when the run's time ran out"
                )));
            }
            self.behind("acquire");
            self.wait(every);
        }
    }

    /// One try at the lock with the scenario's service: `Some` when granted.
    fn try_acquire(&mut self) -> Result<Option<Held>, Stop> {
        let value = random_value(self.idx);
        match self.sc.service.kind {
            ServiceKind::Session => self.session_try_acquire(value),
            ServiceKind::Lease | ServiceKind::Redis => self.redis_try_acquire(value),
            ServiceKind::Etcd => self.etcd_lock(value),
            ServiceKind::Zookeeper => self.zk_lock(),
            ServiceKind::Redlock => self.redlock_try_acquire(value),
            ServiceKind::Dynamodb => unreachable!("supported() refuses DynamoDB scenarios"),
            ServiceKind::Hazelcast => Err("no Hazelcast server in the conformance suite".into()),
            ServiceKind::Kubernetes => Err(Stop::Error("no Kubernetes API server here".into())),
            ServiceKind::Consul => unreachable!("supported() refuses Consul scenarios"),
        }
    }

    /// A session lock: `pg_try_advisory_lock` on the client's session (and a fence token from a
    /// sequence, for a case with a fence counter).
    fn session_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let fence = self.setup.fence_counter;
        let s = self.session.as_mut().ok_or("no session")?;
        let got = match s.query_one("SELECT pg_try_advisory_lock($1)", &[&LOCK_KEY]) {
            Ok(row) => row.get::<_, bool>(0),
            Err(e) => {
                self.note(format!("pg_try_advisory_lock({LOCK_KEY}) FAILED: {e}"));
                return Err(Stop::GaveUp);
            }
        };
        let mut token = None;
        if got && fence {
            let t: i64 = s
                .query_one("SELECT nextval('fence')", &[])
                .map_err(|e| format!("nextval: {e}"))?
                .get(0);
            token = Some(t);
        }
        self.note(format!(
            "pg_try_advisory_lock({LOCK_KEY}) → {}{}",
            if got { "t" } else { "f" },
            token.map_or(String::new(), |t| format!(", fence token {t}"))
        ));
        Ok(got.then_some(Held {
            token,
            value,
            believed_end: None,
        }))
    }

    /// A redis lease: `SET NX PX` with the fencing token from `INCR` in one Lua script.
    fn redis_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let p = &self.setup.params;
        let ttl = us(svc.ttl, p);
        let port = self.redis_port.ok_or("no redis")?;
        let sent = Instant::now();
        let mut con = connect_redis(port, Duration::from_secs(2))?;
        let r: i64 = redis::cmd("EVAL")
            .arg(ACQUIRE_LUA)
            .arg(2)
            .arg(LOCK)
            .arg(FENCE)
            .arg(value)
            .arg(ttl.as_millis() as u64)
            .arg(if svc.tokens { "1" } else { "0" })
            .query(&mut con)
            .map_err(|e| format!("SET NX PX: {e}"))?;
        let granted = r != 0;
        let token = (r > 0).then_some(r);
        self.note(format!(
            "SET {LOCK} NX PX {} → {}",
            ttl.as_millis(),
            match token {
                Some(t) => format!("OK, tok={t}"),
                None if granted => "OK".into(),
                None => "nil".into(),
            }
        ));
        Ok(granted.then_some(Held {
            token,
            value,
            believed_end: Some(sent + ttl),
        }))
    }

    /// A Redlock round: `SET NX PX` on every node the client reaches; held with a majority in time.
    fn redlock_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let p = &self.setup.params;
        let ttl = us(svc.ttl, p);
        let drift = Duration::from_micros(ServiceSpec::drift(ttl.as_micros() as u64));
        let timeout = us(svc.timeout, p).max(Duration::from_millis(50));
        let reach = self.sc.clients[usize::from(self.idx)].reach;
        let sent = Instant::now();
        let mut granted = 0u8;
        let mut who = Vec::new();
        for (k, &port) in self.node_ports.iter().enumerate() {
            if reach & (1 << k) == 0 {
                continue; // partitioned away
            }
            let ok = connect_redis(port, timeout).ok().and_then(|mut con| {
                redis::cmd("SET")
                    .arg(LOCK)
                    .arg(value)
                    .arg("NX")
                    .arg("PX")
                    .arg(ttl.as_millis() as u64)
                    .query::<Option<String>>(&mut con)
                    .ok()
            });
            if matches!(ok, Some(Some(_))) {
                granted += 1;
                who.push(format!("n{}", k + 1));
            }
        }
        let elapsed = sent.elapsed();
        let validity =
            ttl.as_micros() as i64 - elapsed.as_micros() as i64 - drift.as_micros() as i64;
        let quorum = 5 / 2 + 1;
        if granted >= quorum && validity > 0 {
            self.note(format!(
                "{granted}/5 nodes OK ({}), validity {} ms → holds the lock",
                who.join(","),
                validity / 1000
            ));
            return Ok(Some(Held {
                token: None,
                value,
                believed_end: Some(sent + ttl - drift),
            }));
        }
        self.note(format!(
            "{granted}/5 nodes OK ({}), validity {} ms → unlock all, retry",
            who.join(","),
            validity / 1000
        ));
        self.redlock_unlock(value);
        Ok(None)
    }

    fn redlock_unlock(&self, value: i64) {
        let reach = self.sc.clients[usize::from(self.idx)].reach;
        for (k, &port) in self.node_ports.iter().enumerate() {
            if reach & (1 << k) != 0 {
                if let Ok(mut con) = connect_redis(port, Duration::from_millis(200)) {
                    let _ = redis::cmd("EVAL")
                        .arg(RELEASE_LUA)
                        .arg(1)
                        .arg(LOCK)
                        .arg(value)
                        .query::<i64>(&mut con);
                }
            }
        }
    }

    fn release(&mut self, h: Held) -> Result<(), Stop> {
        match self.sc.service.kind {
            ServiceKind::Session => {
                let s = self.session.as_mut().ok_or("no session")?;
                match s.query_one("SELECT pg_advisory_unlock($1)", &[&LOCK_KEY]) {
                    Ok(row) => self.note(format!(
                        "pg_advisory_unlock({LOCK_KEY}) → {}",
                        if row.get::<_, bool>(0) { "t" } else { "f" }
                    )),
                    Err(e) => self.note(format!("pg_advisory_unlock({LOCK_KEY}) FAILED: {e}")),
                }
            }
            ServiceKind::Lease | ServiceKind::Redis => {
                let port = self.redis_port.ok_or("no redis")?;
                let mut con = connect_redis(port, Duration::from_secs(2))?;
                let n: i64 = redis::cmd("EVAL")
                    .arg(RELEASE_LUA)
                    .arg(1)
                    .arg(LOCK)
                    .arg(h.value)
                    .query(&mut con)
                    .map_err(|e| format!("release: {e}"))?;
                self.note(format!("release (value-checked DEL) → {n}"));
            }
            ServiceKind::Etcd => {
                let e = self.etcd.as_mut().ok_or("no etcd")?;
                if let Some(key) = e.key.take() {
                    etcd::unlock(e.port, &key)?;
                    self.note("Unlock → its key is deleted".into());
                }
            }
            ServiceKind::Zookeeper => {
                let z = self.zk.as_mut().ok_or("no zookeeper")?;
                match z.unlock() {
                    Ok(_) => self.note("deletes its node".into()),
                    Err(e) => self.note(format!("delete of its node → {e}")),
                }
            }
            ServiceKind::Redlock => {
                self.redlock_unlock(h.value);
                self.note("unlocks every node it reaches".into());
            }
            ServiceKind::Dynamodb => unreachable!("supported() refuses DynamoDB scenarios"),
            ServiceKind::Hazelcast => {
                return Err("no Hazelcast server in the conformance suite".into())
            }
            ServiceKind::Kubernetes => {} // refused by `supported`
            ServiceKind::Consul => unreachable!("supported() refuses Consul scenarios"),
        }
        Ok(())
    }

    /// The end of the script: idle clients wait for the run to be over; then every connection closes
    /// (which ends a session and frees a lock it still holds, as in the simulator).
    fn finish(&mut self) {
        let i = self.idx;
        self.shared.with(|st| st.active -= 1);
        if self.idle {
            let mut st = self.shared.state.lock().unwrap();
            while !st.over && Instant::now() < self.shared.deadline + Duration::from_secs(5) {
                st = self
                    .shared
                    .changed
                    .wait_timeout(st, Duration::from_millis(50))
                    .unwrap()
                    .0;
            }
        }
        let now = Instant::now();
        if let Some(from) = self.belief_from.take() {
            // Finished while holding: it believes the lease is its own until it runs out by its clock
            // (a session lock has no end of its own: the belief lasts as long as the script).
            let to = self
                .held
                .and_then(|h| h.believed_end)
                .map_or(now, |end| end.max(now));
            self.shared.with(|st| st.run.beliefs.push((i, from, to)));
        }
        if !self.done {
            self.note("done".into());
        }
        if let Some(mut e) = self.etcd.take() {
            e.close();
        }
        if let Some(z) = self.zk.take() {
            let events = z.events.join(", ");
            if !events.is_empty() {
                self.note(format!("its ZooKeeper client saw: {events}"));
            }
            drop(z); // closes the session (its node with it) and ends the process
        }
        self.data.take();
        self.session.take();
    }

    /// etcd: a lease first (kept alive from then on), then `Lock`, which returns when the client's
    /// key is the lowest; the token is the key's create revision (or the lease ID).
    fn etcd_lock(&mut self, _value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let ttl = us(svc.ttl, &self.setup.params);
        let within = self.shared.time_left();
        let e = self.etcd.as_mut().ok_or("no etcd")?;
        let lease = match e.lease {
            Some(l) => l,
            None => {
                let l = etcd::grant(e.port, ttl.as_secs() as i64)?;
                e.lease = Some(l);
                e.start_keepalive(l, ttl / 3);
                l
            }
        };
        let key = match etcd::lock(e.port, lease, within) {
            Ok(k) => k,
            Err(err) => {
                self.note(format!("Lock → error: {err}"));
                return Err(Stop::GaveUp);
            }
        };
        let rev = etcd::create_revision(e.port, &key)?;
        e.key = Some(key);
        let token = match svc.etcd_token {
            leaselab::scenario::EtcdToken::Revision => rev,
            leaselab::scenario::EtcdToken::LeaseId => Some(lease),
        };
        self.note(format!(
            "Lock → held (lease {lease:x}, key revision {})",
            rev.map_or("gone".into(), |r| r.to_string())
        ));
        Ok(Some(Held {
            token: if svc.tokens { token } else { None },
            value: lease,
            believed_end: None,
        }))
    }
}

impl Client<'_> {
    /// ZooKeeper: the session first (opened at the first acquire), then the lock recipe, which returns
    /// when the client's node is the lowest; the token is the node's czxid.
    fn zk_lock(&mut self) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let session = us(svc.ttl, &self.setup.params);
        let within = self.shared.time_left();
        if !self.zk_connected {
            self.zk.as_mut().ok_or("no zookeeper")?.connect(session)?;
            self.zk_connected = true;
            self.note(format!(
                "connects (session timeout {} ms)",
                session.as_millis()
            ));
        }
        let z = self.zk.as_mut().ok_or("no zookeeper")?;
        let (czxid, path, id) = match z.lock(within) {
            Ok(held) => held,
            Err(err) => {
                self.note(format!("lock → error: {err}"));
                return Err(Stop::GaveUp);
            }
        };
        self.note(format!(
            "{path} is the lowest: holds the lock (czxid {czxid:#x}, session {id})"
        ));
        Ok(Some(Held {
            token: svc.tokens.then_some(czxid),
            value: i64::from_str_radix(&id, 16).unwrap_or(czxid),
            believed_end: None,
        }))
    }
}

fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Acquire { .. } => "acquire",
        Op::Read { .. } => "read",
        Op::Work(_) => "work",
        Op::Pause(_) => "pause",
        Op::Check(_) => "check",
        Op::Write { .. } => "write",
        Op::Release => "release",
        Op::Renew => "renew",
        Op::Idle => "idle",
    }
}
