//! One client of a run as an OS process of its own: `leaselab-conformance client-agent SPEC`. It opens
//! the client's connections, says `ready`, waits for the conductor's `start T0` (the run's t = 0 on
//! CLOCK_MONOTONIC, which every process on the machine shares), plays the client's script and reports
//! what it did on its stdout, one line each, times in µs since t = 0:
//!
//! ```text
//! pid N                      its PostgreSQL session's backend pid (session locks; for `terminate`)
//! ready                      connected; waiting for `start`
//! note T WHO TEXT            a transcript line
//! late US WHAT               it fell this far behind its place on the scenario's timeline
//! grant T                    the lock service granted it the lock (T: when it was granted)
//! belief FROM TO             it believed it held the lock over [FROM, TO)
//! write TOKEN SNAPSHOT VALUE DEBIT T ACCEPTED    a write and the storage's answer (1 or 0)
//! first                      its first operation is done (same-instant starts go in order)
//! pause END                  its script pauses until END: stop me (SIGSTOP), then SIGCONT and `resume`
//! finished                   its script is over (idle clients wait for `over`)
//! error TEXT                 the harness failed: the run is void
//! exit                       every connection is closed; the process ends
//!
//! hold UNTIL                 its next write is one the network holds: hold its storage link's
//!                            requests until UNTIL, then say `held` (see delayed_write.rs)
//! ```
//!
//! The conductor writes `start T0`, `turn` (an earlier client that starts at the same instant has
//! done its first step), `resume` (after a script's pause), `held` (the hold is in force) and `over`
//! (every script is over) on its stdin. A pause is the process stopped from outside: its threads (etcd's keepalives, ZooKeeper's
//! pings in the session process of its process group) and replies in flight all wait.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::thread::sleep;
use std::time::{Duration, Instant};

use leaselab::store::Policy;

use super::etcd_lock::EtcdSession;
use super::player::Client;
use super::sys::{die_with_parent, mono_ns};
use super::{Setup, DB, RUN_WITHIN};
use crate::servers::{connect_pg, Res};

/// What an agent is told on its command line: which client of which case, and where the servers are.
#[derive(Default)]
pub(super) struct Spec {
    pub(super) id: String,
    pub(super) scale: u64,
    pub(super) policy: String,
    pub(super) fence: bool,
    pub(super) params: Vec<u64>,
    pub(super) client: u8,
    pub(super) pg: u16,
    /// The client's own link of the proxy to PostgreSQL, for its storage connection (scenarios where
    /// the network holds a write; see delayed_write.rs).
    pub(super) pgdata: Option<u16>,
    pub(super) redis: Option<u16>,
    pub(super) nodes: Vec<u16>,
    pub(super) etcd: Option<u16>,
    /// ZooKeeper's port and the directory its session processes' pid files go in.
    pub(super) zk: Option<(u16, String)>,
    /// MariaDB's port (MySQL's `GET_LOCK`).
    pub(super) mysql: Option<u16>,
}

fn ports(s: &str) -> Vec<u16> {
    s.split(',').filter_map(|p| p.parse().ok()).collect()
}

impl Spec {
    /// `key=value` pairs separated by `;` (no value holds one).
    pub(super) fn text(&self) -> String {
        let join = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let nodes: Vec<u64> = self.nodes.iter().map(|&p| u64::from(p)).collect();
        let mut t = format!(
            "id={};scale={};policy={};fence={};params={};client={};pg={};nodes={}",
            self.id,
            self.scale,
            self.policy,
            u8::from(self.fence),
            join(&self.params),
            self.client,
            self.pg,
            join(&nodes)
        );
        if let Some(p) = self.redis {
            t.push_str(&format!(";redis={p}"));
        }
        if let Some(p) = self.pgdata {
            t.push_str(&format!(";pgdata={p}"));
        }
        if let Some(p) = self.etcd {
            t.push_str(&format!(";etcd={p}"));
        }
        if let Some((p, dir)) = &self.zk {
            t.push_str(&format!(";zk={p};zkdir={dir}"));
        }
        if let Some(p) = self.mysql {
            t.push_str(&format!(";mysql={p}"));
        }
        t
    }

    fn parse(text: &str) -> Res<Spec> {
        let mut s = Spec::default();
        let mut zk = None;
        let mut zkdir = String::new();
        for kv in text.split(';') {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("bad spec part {kv:?}"))?;
            let num = || v.parse::<u64>().map_err(|_| format!("bad {k}={v}"));
            match k {
                "id" => s.id = v.to_string(),
                "scale" => s.scale = num()?,
                "policy" => s.policy = v.to_string(),
                "fence" => s.fence = v == "1",
                "params" => s.params = v.split(',').filter_map(|p| p.parse().ok()).collect(),
                "client" => s.client = num()? as u8,
                "pg" => s.pg = num()? as u16,
                "redis" => s.redis = Some(num()? as u16),
                "pgdata" => s.pgdata = Some(num()? as u16),
                "nodes" => s.nodes = ports(v),
                "etcd" => s.etcd = Some(num()? as u16),
                "zk" => zk = Some(num()? as u16),
                "zkdir" => zkdir = v.to_string(),
                "mysql" => s.mysql = Some(num()? as u16),
                _ => return Err(format!("unknown spec key {k:?}")),
            }
        }
        s.zk = zk.map(|p| (p, zkdir));
        Ok(s)
    }
}

/// The agent's side of its pipes to the conductor, and the run's clock.
pub(super) struct Link {
    pub(super) t0: Instant,
    pub(super) deadline: Instant,
    inbox: Mutex<Receiver<String>>,
    /// The farthest behind its timeline the client has been so far (only news is reported).
    worst: Mutex<Duration>,
}

/// Writes one line to the conductor.
pub(super) fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The `Instant` of a CLOCK_MONOTONIC reading.
pub(super) fn instant_of(ns: u64) -> Instant {
    let (now, now_ns) = (Instant::now(), mono_ns());
    if ns >= now_ns {
        now + Duration::from_nanos(ns - now_ns)
    } else {
        now - Duration::from_nanos(now_ns - ns)
    }
}

impl Link {
    /// µs since t = 0 (0 before it).
    pub(super) fn us(&self, at: Instant) -> u64 {
        at.saturating_duration_since(self.t0).as_micros() as u64
    }

    /// How long until the run's deadline (a blocking lock call waits at most this long).
    pub(super) fn time_left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    pub(super) fn note(&self, who: &str, text: &str) {
        say(&format!("note {} {who} {text}", self.us(Instant::now())));
    }

    pub(super) fn send(&self, line: &str) {
        say(line);
    }

    pub(super) fn sleep_until(&self, at: Instant) {
        let now = Instant::now();
        if at > now {
            sleep(at - now);
        }
    }

    /// Notes how far `who` is behind its place `nominal` on the scenario's timeline.
    pub(super) fn behind(&self, who: &str, nominal: Duration, what: &str) {
        let late = self.t0.elapsed().saturating_sub(nominal);
        let mut worst = self.worst.lock().unwrap();
        if late > *worst {
            *worst = late;
            say(&format!(
                "late {} {who} ({what} due at {} ms)",
                late.as_micros(),
                nominal.as_millis()
            ));
        }
    }

    /// Waits (at most until `until`) for the conductor's `word`.
    pub(super) fn wait_for(&self, word: &str, until: Instant) -> Res<()> {
        let inbox = self.inbox.lock().unwrap();
        let left = until.saturating_duration_since(Instant::now());
        match inbox.recv_timeout(left) {
            Ok(l) if l == word => Ok(()),
            Ok(l) => Err(format!("expected {word:?} from the conductor, got {l:?}")),
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("no {word:?} from the conductor in time"))
            }
            Err(RecvTimeoutError::Disconnected) => Err("the conductor is gone".into()),
        }
    }
}

/// `leaselab-conformance client-agent SPEC`.
pub fn agent_main(spec: &str) -> ExitCode {
    die_with_parent();
    match agent(spec) {
        Ok(()) => {
            say("exit");
            ExitCode::SUCCESS
        }
        Err(e) => {
            say(&format!("error {}", e.replace('\n', " ")));
            say("exit");
            ExitCode::from(2)
        }
    }
}

fn agent(spec: &str) -> Res<()> {
    let spec = Spec::parse(spec)?;
    let sc = crate::cases::scenario(&spec.id, spec.scale)?;
    let setup = Setup {
        policy: Policy::parse(&spec.policy).map_err(|e| e.to_string())?,
        params: spec.params.clone(),
        fence_counter: spec.fence,
        scale: spec.scale,
    };
    let i = spec.client;
    let name = sc.client_name(i);
    let data = connect_pg(spec.pgdata.unwrap_or(spec.pg), DB, &format!("{name}-data"))?;
    let mut session = None;
    if sc.service.kind == leaselab::scenario::ServiceKind::Session {
        let mut s = connect_pg(spec.pg, DB, &format!("{name}-session"))?;
        let pid: i32 = s
            .query_one("SELECT pg_backend_pid()", &[])
            .map_err(|e| e.to_string())?
            .get(0);
        say(&format!("pid {pid}"));
        session = Some(s);
    }
    // MySQL's GET_LOCK is held by a connection of its own, with the scenario's wait_timeout (whole
    // seconds) set on it from the start; its id is what `terminate` kills.
    let mysql = match spec.mysql {
        Some(port) => {
            let wait = Some(sc.service.idle.resolve(&setup.params) / 1_000_000).filter(|&s| s > 0);
            let lock = super::mysql_lock::MysqlLock::connect(port, wait)?;
            say(&format!("pid {}", lock.id()));
            Some(lock)
        }
        None => None,
    };
    // A ZooKeeper client's session runs in a process of this one's process group (stopped with it);
    // it connects at the client's first acquire, as the model's client does.
    let zk = match &spec.zk {
        Some((port, dir)) => Some(crate::zk::Agent::spawn_at(*port, dir.into())?),
        None => None,
    };
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    say("ready");
    let start = rx
        .recv_timeout(Duration::from_secs(30))
        .map_err(|_| "no start from the conductor")?;
    let t0_ns: u64 = start
        .strip_prefix("start ")
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| format!("expected start T0, got {start:?}"))?;
    let t0 = instant_of(t0_ns);
    let link = Link {
        t0,
        deadline: t0 + RUN_WITHIN,
        inbox: Mutex::new(rx),
        worst: Mutex::new(Duration::ZERO),
    };
    let mut client = Client::new(&sc, &setup, i, &link, data, session);
    client.redis_port = spec.redis;
    client.node_ports = spec.nodes.clone();
    client.etcd = spec.etcd.map(EtcdSession::new);
    client.zk = zk;
    client.mysql = mysql;
    let played = client.play();
    if let Err(e) = &played {
        say(&format!("error client {name}: {}", e.replace('\n', " ")));
    }
    client.finish();
    Ok(())
}
