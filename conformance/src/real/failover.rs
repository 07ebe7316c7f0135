//! redis failover for real (`service: redis … replica-lag=D` and `at T: failover`): a master with a
//! real asynchronous replica (`REPLICAOF`), whose replication link goes through a link of the suite's
//! proxy (proxy.rs) that delays the master's stream by the lag, and a front address — another proxy
//! link, what a Sentinel-aware client or a virtual IP gives — through which the clients reach "the
//! redis". The failover: the replication link is cut (what the master sent in the last lag never
//! arrives: it died before replicating), the master is SIGKILLed, the replica is promoted (`REPLICAOF
//! NO ONE`) and the front points at it. Whatever the replica had not received is gone, grants and
//! `INCR`s alike, so the fencing counter goes back, as the model says.

use std::path::PathBuf;
use std::thread::sleep;
use std::time::{Duration, Instant};

use leaselab::scenario::{FaultAction, Scenario};

use super::proxy::{Dir, Proxy};
use super::record::Shared;
use crate::redis_server::{Persistence, Redis};
use crate::servers::Res;

/// How long the replica may take to be in sync with the master before a run starts.
const SYNC_WITHIN: Duration = Duration::from_secs(10);

/// A master, its replica behind the lag, and the front address the clients use.
pub struct Replicated {
    master: Redis,
    replica: Redis,
    /// The replica's connection to its master (master → replica delayed by the lag).
    replication: Proxy,
    /// What the clients connect to: the master, after the failover the promoted replica.
    front: Proxy,
}

/// One command to a redis of the pair (not through the front), bounded in time.
fn command<T: redis::FromRedisValue>(r: &Redis, cmd: &mut redis::Cmd) -> Res<T> {
    let mut con = r.connect(Duration::from_secs(2))?;
    cmd.query(&mut con)
        .map_err(|e| format!("redis on port {}: {e}", r.port))
}

/// A number from `INFO replication`.
fn info_field(r: &Redis, field: &str) -> Res<Option<String>> {
    let info: String = command(r, redis::cmd("INFO").arg("replication"))?;
    let prefix = format!("{field}:");
    Ok(info
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .map(|v| v.trim().to_string()))
}

impl Replicated {
    /// A fresh master and replica (no persistence) in `dir`, the replica's link delayed by `lag`.
    pub fn start(dir: PathBuf, lag: Duration) -> Res<Replicated> {
        let master = Redis::start(dir.join("master"), Persistence::None)?;
        let replica = Redis::start(dir.join("replica"), Persistence::None)?;
        let replication = Proxy::start(master.port)?;
        replication.delay(Dir::Down, lag);
        let front = Proxy::start(master.port)?;
        // A full sync at once, not after redis's default 5 s wait for more replicas.
        command::<()>(
            &master,
            redis::cmd("CONFIG")
                .arg("SET")
                .arg("repl-diskless-sync-delay")
                .arg(0),
        )?;
        command::<()>(
            &replica,
            redis::cmd("REPLICAOF")
                .arg("127.0.0.1")
                .arg(replication.port),
        )?;
        Ok(Replicated {
            master,
            replica,
            replication,
            front,
        })
    }

    /// The address the clients use.
    pub fn front_port(&self) -> u16 {
        self.front.port
    }

    /// The master (where a run's reset writes its keys).
    pub fn master(&self) -> &Redis {
        &self.master
    }

    /// Waits (bounded) until the replica's link is up and it has all the master has sent: before
    /// t = 0 the replica is in sync, as the model's is.
    pub fn wait_in_sync(&self) -> Res<()> {
        let end = Instant::now() + SYNC_WITHIN;
        loop {
            let up = info_field(&self.replica, "master_link_status")?;
            let at = info_field(&self.replica, "slave_repl_offset")?;
            let sent = info_field(&self.master, "master_repl_offset")?;
            if up.as_deref() == Some("up") && at.is_some() && at == sent {
                return Ok(());
            }
            if Instant::now() >= end {
                return Err(format!(
                    "the replica was not in sync within {} s (link {up:?}, at {at:?} of {sent:?})",
                    SYNC_WITHIN.as_secs()
                ));
            }
            sleep(Duration::from_millis(10));
        }
    }

    /// The master dies before replicating what is still on its way; the replica takes over.
    pub(super) fn failover(&mut self, shared: &Shared) -> Res<()> {
        // What the master sent in the last lag is still in the network: lost with it.
        self.replication.cut();
        self.master.crash();
        shared.note(
            "redis",
            format!(
                "master (port {}) killed (SIGKILL); its replication stream still on its way dropped",
                self.master.port
            ),
        );
        command::<()>(&self.replica, redis::cmd("REPLICAOF").arg("NO").arg("ONE"))?;
        self.front.retarget(self.replica.port);
        self.front.sever();
        let fence: Option<i64> = command(
            &self.replica,
            redis::cmd("GET").arg(super::redis_lock::FENCE),
        )?;
        shared.note(
            "redis",
            format!(
                "replica (port {}) promoted (REPLICAOF NO ONE), the front points at it; its fence counter: {}",
                self.replica.port,
                fence.map_or("none".into(), |f| f.to_string())
            ),
        );
        Ok(())
    }
}

/// Whether `sc` fails its redis over (then the run needs a [`Replicated`]).
pub fn fails_over(sc: &Scenario) -> bool {
    sc.faults.iter().any(|f| f.action == FaultAction::Failover)
}
