//! One client of a run as an OS process of its own: `leaselab-conformance client-agent SPEC`. It opens
//! the client's connections, says `ready`, waits for the conductor's `start T0` (the run's t = 0 on
//! CLOCK_MONOTONIC, which every process on the machine shares), plays the client's script and reports
//! what it did on its stdout, one line each, times in µs since t = 0:
//!
//! ```text
//! pid N                      the server's id of its lock connection, for `terminate` (a session's pid)
//! ready                      connected; waiting for `start`
//! note T WHO TEXT            a transcript line
//! late US WHAT               it fell this far behind its place on the scenario's timeline
//! grant T                    the lock service granted it the lock (T: when it was granted)
//! moment T WHAT              its lock client reported WHAT at T (a connection state: SUSPENDED, LOST)
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
//! (every script is over) on its stdin. A pause is the process stopped from outside: its threads (a
//! lease's keepalives), the processes of its group (a service's session process) and replies in
//! flight all wait.
//!
//! What it opens for the lock service, and how, is the service's (real/service.rs): the conductor
//! passes on what the service's servers say a client needs (`svc=`), and the agent hands it to the
//! service's `connect`.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::thread::sleep;
use std::time::{Duration, Instant};

use leaselab::store::Policy;

use super::object_storage::{ObjectClient, Store};
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
    /// What the lock service's servers say the client needs to reach them (no `;`).
    pub(super) svc: String,
    /// The object store that is the storage, if it is one (object_storage.rs).
    pub(super) objects: Option<String>,
}

impl Spec {
    /// `key=value` pairs separated by `;` (no value holds one).
    pub(super) fn text(&self) -> String {
        let join = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let mut t = format!(
            "id={};scale={};policy={};fence={};params={};client={};pg={};svc={}",
            self.id,
            self.scale,
            self.policy,
            u8::from(self.fence),
            join(&self.params),
            self.client,
            self.pg,
            self.svc
        );
        if let Some(p) = self.pgdata {
            t.push_str(&format!(";pgdata={p}"));
        }
        if let Some(o) = &self.objects {
            t.push_str(&format!(";objects={o}"));
        }
        t
    }

    fn parse(text: &str) -> Res<Spec> {
        let mut s = Spec::default();
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
                "pgdata" => s.pgdata = Some(num()? as u16),
                "svc" => s.svc = v.to_string(),
                "objects" => s.objects = Some(v.to_string()),
                _ => return Err(format!("unknown spec key {k:?}")),
            }
        }
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
        store: spec
            .objects
            .as_deref()
            .map_or(Ok(Store::Postgres), ObjectClient::store_of)?,
    };
    let i = spec.client;
    let name = sc.client_name(i);
    let data = connect_pg(spec.pgdata.unwrap_or(spec.pg), DB, &format!("{name}-data"))?;
    let svc = super::supported(&sc, &setup)?;
    let conn = svc.connect(&sc, &setup, name, &spec.svc)?;
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
    let objects = spec
        .objects
        .as_deref()
        .map(ObjectClient::parse)
        .transpose()?;
    let mut client = Client::new((&sc, &setup, svc), i, &link, (data, objects), conn);
    let played = client.play();
    if let Err(e) = &played {
        say(&format!("error client {name}: {}", e.replace('\n', " ")));
    }
    client.finish();
    Ok(())
}
