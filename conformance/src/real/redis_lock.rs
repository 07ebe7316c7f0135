//! The redis lease (`lease` / `redis`) as a real service: one redis-server, `SET key value NX PX ttl`
//! (tokens from `INCR` in the same Lua script, so a grant and its token are one step), value-checked
//! release by a Lua script, and `renew`, Redisson's watchdog renewal: `PEXPIRE` in a Lua script only if
//! the key still holds the client's value (the model's value-checked renewal). A `lock-delay` (Chubby's:
//! after a lease ends without a release, nobody is granted the lock for that long) is a
//! second key written with the grant, expiring a lock-delay after the lease, renewed with it and
//! deleted only by a release: no redis has a lock-delay of its own, so this is a stand-in that
//! redis's own expiry enforces (docs/conformance.md). A `lock-latency`: the
//! reply is read a round trip after the request was sent, so a freeze in between leaves it in the
//! client's socket buffer, as the model says.
//!
//! Its servers: the suite's redis-server, or one of the attempt's own when the scenario steps its
//! wall clock (wallclock.rs); with `replica-lag` and `at T: failover`, a master and a real `REPLICAOF`
//! replica whose replication link goes through the suite's proxy, delayed by the lag; the master
//! SIGKILLed with what is still on its way dropped, the replica promoted, the clients' front address
//! moved to it (failover.rs).

use std::any::Any;
use std::path::Path;
use std::time::{Duration, SystemTime};

use leaselab::scenario::{FaultAction, Scenario, ServiceKind};

use super::failover::{fails_over, Replicated};
use super::player::{Client, Held, Stop};
use super::record::Shared;
use super::service::{Attempt, Conn, LockServers, RealService};
use super::{clock_env, us, ClockOf, Setup};
use crate::coverage::{api, real, stand_in, Component, Entry};
use crate::redis_server::{connect_redis, Persistence, Redis};
use crate::servers::Res;

pub(super) const LOCK: &str = "leaselab:lock";
pub(super) const FENCE: &str = "leaselab:fence";
/// The lock-delay's key: it outlives the lease by the lock-delay unless a release deletes it.
const DELAY: &str = "leaselab:lock-delay";
/// SET NX PX, and with tokens an INCR in the same atomic step: returns the token, -1 (granted, no
/// tokens) or 0 (denied). With a lock-delay (ARGV[4] ms, not 0), denied while its key (KEYS[3]) is
/// there, and a grant writes it to expire the lock-delay after the lease.
const ACQUIRE_LUA: &str =
    "if ARGV[4] ~= '0' and redis.call('EXISTS', KEYS[3]) == 1 then return 0 end \
    if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then \
    if ARGV[4] ~= '0' then redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2] + ARGV[4]) end \
    if ARGV[3] == '1' then return redis.call('INCR', KEYS[2]) end return -1 end return 0";
/// Value-checked release: deletes the key only if it still holds this client's value.
pub(super) const RELEASE_LUA: &str =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
/// The lease's release: value-checked, and a release in time ends the lock-delay too (KEYS[2]).
const LEASE_RELEASE_LUA: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
    redis.call('DEL', KEYS[2]) return redis.call('DEL', KEYS[1]) end return 0";
/// Value-checked renewal, as Redisson's watchdog sends it: a new TTL from now, only if the key still
/// holds this client's value (an expired key is gone, so a late renewal extends nothing); the
/// lock-delay (ARGV[3] ms, not 0) moves with the lease's end.
const RENEW_LUA: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
    if ARGV[3] ~= '0' then redis.call('PEXPIRE', KEYS[2], ARGV[2] + ARGV[3]) end \
    return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";

impl Client<'_> {
    /// The scenario's lock-delay in ms (0: none).
    fn lock_delay_ms(&self) -> u64 {
        us(self.sc.service.lock_delay, &self.setup.params).as_millis() as u64
    }

    /// One command to the single redis. With the scenario's `lock-latency`, its reply is read a round
    /// trip (2 × the latency) after it was sent, on the client's timeline: until then it waits, unread,
    /// in the client's socket buffer, which is where a freeze in between leaves it, as in the model.
    fn lease_call(&mut self, cmd: &redis::Cmd, what: &str) -> Result<i64, Stop> {
        let port = self.state::<RedisPort>()?.0;
        let mut con = connect_redis(port, Duration::from_secs(2))?;
        let lat = us(self.sc.service.lock_latency, &self.setup.params);
        if lat.is_zero() {
            return cmd
                .query(&mut con)
                .map_err(|e| format!("{what}: {e}").into());
        }
        con.send_packed_command(&cmd.get_packed_command())
            .map_err(|e| format!("{what}: {e}"))?;
        self.note(format!(
            "{what}: sent; its reply is read a round trip ({} ms) later",
            (2 * lat).as_millis()
        ));
        self.wait(2 * lat);
        let v = con.recv_response().map_err(|e| format!("{what}: {e}"))?;
        redis::from_redis_value(v).map_err(|e| format!("{what}: {e}").into())
    }

    /// `renew`: the watchdog's renewal, value-checked; refused (the lease is gone), the attempt is
    /// given up, as the model's client does.
    pub(super) fn renew_step(&mut self) -> Result<(), Stop> {
        let Some(h) = self.held else {
            self.note("renew: holds no lease".into());
            return Err(Stop::GaveUp);
        };
        let ttl = us(self.sc.service.ttl, &self.setup.params);
        let sent = SystemTime::now(); // by the client's own wall clock
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(RENEW_LUA)
            .arg(2)
            .arg(LOCK)
            .arg(DELAY)
            .arg(h.value)
            .arg(ttl.as_millis() as u64)
            .arg(self.lock_delay_ms());
        let n = self.lease_call(&cmd, "renew")?;
        self.note(format!(
            "renew (PEXPIRE {} if the key still holds its value) → {n}",
            ttl.as_millis()
        ));
        if n != 1 {
            return Err(Stop::GaveUp);
        }
        self.held = Some(Held {
            believed_end: Some(sent + ttl),
            ..h
        });
        Ok(())
    }

    /// The value-checked release of a redis lease.
    pub(super) fn redis_release(&mut self, h: Held) -> Result<(), Stop> {
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(LEASE_RELEASE_LUA)
            .arg(2)
            .arg(LOCK)
            .arg(DELAY)
            .arg(h.value);
        let port = self.state::<RedisPort>()?.0;
        let mut con = connect_redis(port, Duration::from_secs(2))?;
        let n: i64 = cmd.query(&mut con).map_err(|e| format!("release: {e}"))?;
        self.note(format!("release (value-checked DEL) → {n}"));
        Ok(())
    }

    /// A redis lease: `SET NX PX` with the fencing token from `INCR` in one Lua script.
    pub(super) fn redis_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let p = &self.setup.params;
        let ttl = us(svc.ttl, p);
        let sent = SystemTime::now(); // by the client's own wall clock
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(ACQUIRE_LUA)
            .arg(3)
            .arg(LOCK)
            .arg(FENCE)
            .arg(DELAY)
            .arg(value)
            .arg(ttl.as_millis() as u64)
            .arg(if svc.tokens { "1" } else { "0" })
            .arg(self.lock_delay_ms());
        let r = self.lease_call(&cmd, "SET NX PX")?;
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
}

/// The redis lease, on one redis-server (or a master and its replica).
pub struct RedisLease;

/// Where a client reaches "the redis" (in its agent).
struct RedisPort(u16);

/// The redis lease's servers for an attempt.
struct RedisServers {
    /// The suite's redis, on the machine's own clock.
    shared: Option<u16>,
    /// A redis of this attempt's own, on a wall clock the scenario steps.
    own: Option<Redis>,
    /// A master with its replica, for a scenario that fails over (fresh for the attempt).
    replicated: Option<Replicated>,
}

/// The real component its rows run on (coverage.rs).
pub(crate) const REDIS: Component = Component {
    name: "redis",
    version: "7.0.15",
    from: "Debian 12 `redis-server`",
};

/// Its catalogue scenarios in the table of what each runs on (coverage.rs's format).
static COVERAGE: &[Entry] = &[
    real("seed-gc-pause", &REDIS, "`SET NX PX` + `INCR` token; A's pause its process SIGSTOPped"),
    real("happy-path", &REDIS, "lease, no fault"),
    real("gc-pause", &REDIS, "lease; A's process SIGSTOPped"),
    real("check-then-write", &REDIS, "lease; A's own check by its clock, then SIGSTOP"),
    real("write-only-gap", &REDIS, "lease; A's stale write before B's"),
    real("reply-in-flight", &REDIS, "lease; SET's reply unread in a stopped process's socket"),
    real("reply-in-flight-checked", &REDIS, "as `reply-in-flight`; A checks how long acquiring took"),
    real("delayed-write", &REDIS, "lease; the suite's proxy holds A's write to PostgreSQL"),
    stand_in("lock-delay", &REDIS, "no redis has a lock-delay: a second key, written with the grant, expires the delay after the lease unless released (redis's own expiry enforces it)"),
    real("renewal-frozen", &REDIS, "lease; the watchdog's value-checked `PEXPIRE`, then SIGSTOP"),
    real("slow-clock", &REDIS, "lease; A's process on a wall clock 10 % slow (the shim's rate)"),
    real("redis-clock-jump", &REDIS, "the redis-server's wall clock stepped +3 s"),
    real("clock-step-back", &REDIS, "lease; A's process's wall clock stepped −2 s"),
    real("replica-failover", &REDIS, "a real `REPLICAOF` replica behind the proxy's lag; master SIGKILLed, replica promoted"),
    real("epoch-fencing", &REDIS, "lease with the fence counter from 5 standing for Kafka's epoch (the broker's check is the storage's)"),
    api(
        "s3-etag-aba",
        &super::object_storage::OBJECT_STORES,
        "one object on moto (`If-Match` on its ETag) and one on fake-gcs-server (`ifGenerationMatch`): the APIs' conditional writes, not AWS's or Google's services",
    ),
    real("table-lease", &REDIS, "the safety table's base run, no fault"),
    real("table-redis", &REDIS, "the safety table's base run, no fault"),
];

impl RealService for RedisLease {
    fn coverage(&self) -> &'static [Entry] {
        COVERAGE
    }

    fn kinds(&self) -> &'static [ServiceKind] {
        &[ServiceKind::Lease, ServiceKind::Redis]
    }

    fn unsupported(&self, sc: &Scenario, setup: &Setup) -> Option<&'static str> {
        // The replica is a single redis's (`service: redis`), not a plain lease's.
        let lease = sc.service.kind == ServiceKind::Lease;
        if lease && sc.service.replica_lag.resolve(&setup.params) != 0 {
            return Some("replica lag outside a single redis");
        }
        (lease && fails_over(sc)).then_some("this fault")
    }

    fn plays_fault(&self, action: &FaultAction) -> bool {
        *action == FaultAction::Failover
    }

    fn lock_delays(&self) -> bool {
        true
    }

    fn client_checks(&self) -> bool {
        true
    }

    fn client_renews(&self) -> bool {
        true
    }

    fn replicates(&self) -> bool {
        true
    }

    fn steppable(&self) -> bool {
        true
    }

    fn server_clocks(&self, _sc: &Scenario) -> Vec<ClockOf> {
        vec![ClockOf::Service]
    }

    fn start_for_suite(&self, work: &Path) -> Res<Option<Box<dyn Any>>> {
        let redis = Redis::start(work.join("redis"), Persistence::None)?;
        let mut c = redis.connect(Duration::from_secs(2))?;
        let info: String = redis::cmd("INFO")
            .arg("server")
            .query(&mut c)
            .map_err(|e| e.to_string())?;
        let version = info
            .lines()
            .find_map(|l| l.strip_prefix("redis_version:"))
            .unwrap_or("?")
            .trim();
        eprintln!("conformance: redis {version} on 127.0.0.1:{}", redis.port);
        Ok(Some(Box::new(redis)))
    }

    fn start<'a>(&self, at: &Attempt<'_, 'a>) -> Res<Box<dyn LockServers + 'a>> {
        let mut servers = RedisServers {
            shared: None,
            own: None,
            replicated: None,
        };
        let env = clock_env(at.clocks, ClockOf::Service);
        if fails_over(at.sc) {
            // A fresh master and replica for every attempt: the replica in sync at t = 0.
            let lag = us(at.sc.service.replica_lag, &at.setup.params);
            let dir = at.work.join(format!("failover-{}", at.tag));
            servers.replicated = Some(Replicated::start(dir, lag)?);
        } else if env.is_empty() {
            let redis = at.suite.and_then(|s| s.downcast_ref::<Redis>());
            servers.shared = Some(redis.ok_or("the suite's redis is not running")?.port);
        } else {
            // Its wall clock steps: a redis-server of this attempt's own, on that clock.
            let dir = at.work.join(format!("redis-{}", at.tag));
            servers.own = Some(Redis::start_with(dir, Persistence::None, env)?);
        }
        Ok(Box::new(servers))
    }

    fn connect(&self, _sc: &Scenario, _setup: &Setup, _name: char, spec: &str) -> Res<Conn> {
        let port = spec
            .parse()
            .map_err(|_| format!("bad redis spec {spec:?}"))?;
        Ok(Conn {
            session: None,
            state: Box::new(RedisPort(port)),
        })
    }

    fn try_acquire(&self, c: &mut Client, value: i64) -> Result<Option<Held>, Stop> {
        c.redis_try_acquire(value)
    }

    fn release(&self, c: &mut Client, h: Held) -> Result<(), Stop> {
        c.redis_release(h)
    }

    fn renew(&self, c: &mut Client) -> Result<(), Stop> {
        c.renew_step()
    }
}

impl RedisServers {
    /// The port of the redis the lock is on (the master of a replicated pair).
    fn lock_port(&self) -> Option<u16> {
        let own = self.own.as_ref().map(|r| r.port);
        let master = self.replicated.as_ref().map(|r| r.master().port);
        own.or(master).or(self.shared)
    }
}

impl LockServers for RedisServers {
    /// No key left, and the fence counter at `first_token − 1`; a replica in sync with it all.
    fn prepare(&mut self, first_token: u64) -> Res<()> {
        let port = self.lock_port().ok_or("no redis")?;
        flush(port, first_token)?;
        if let Some(r) = &self.replicated {
            r.wait_in_sync()?; // the reset's keys are on the replica too before t = 0
        }
        Ok(())
    }

    /// Where the clients reach the redis: the front address of a replicated pair, or the redis.
    fn agent_spec(&self, _client: usize) -> String {
        let front = self.replicated.as_ref().map(|r| r.front_port());
        front.or(self.lock_port()).unwrap_or(0).to_string()
    }

    fn fault(
        &mut self,
        _sc: &Scenario,
        _p: &[u64],
        action: FaultAction,
        at: Duration,
        shared: &Shared,
    ) -> Res<()> {
        match (action, self.replicated.as_mut()) {
            (FaultAction::Failover, Some(r)) => {
                r.failover(shared)?;
                shared.behind("redis", at, "failover");
                Ok(())
            }
            _ => Err("unsupported fault".into()),
        }
    }
}

/// A redis's keys before a run: none but the fence counter, at `first_token − 1`.
pub(super) fn flush(port: u16, first_token: u64) -> Res<()> {
    let mut con = connect_redis(port, Duration::from_secs(2))?;
    redis::cmd("FLUSHALL")
        .query::<()>(&mut con)
        .map_err(|e| format!("FLUSHALL: {e}"))?;
    redis::cmd("SET")
        .arg(FENCE)
        .arg(first_token.saturating_sub(1))
        .query::<()>(&mut con)
        .map_err(|e| format!("SET fence: {e}"))
}
