//! ZooKeeper as a real service: a fresh server for every attempt (its zxids start at 0, as the
//! model's do; see zk.rs), the client's session in a process of its own in the client's process group
//! (`leaselab-conformance zk-agent`, stopped with the client), the lock recipe, the node's czxid as
//! the token. A scenario whose clients check their hold is Curator's (curator_lock.rs): its client
//! is Curator's `InterProcessMutex`, on the same server.

use std::any::Any;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use leaselab::scenario::{FaultAction, Scenario, ServiceKind};
use leaselab::store::Policy;

use super::player::{Client, Held, Stop};
use super::service::{Attempt, Conn, LockServers, RealService};
use super::{curator_lock, us, Setup};
use crate::cases::{case, Case};
use crate::coverage::{real, Component, Entry};
use crate::servers::Res;
use crate::zk;

/// ZooKeeper's lock recipe.
pub struct ZkLock;

/// A client's side (in its agent): its session's process, and whether the session is open yet.
struct ZkClient {
    agent: zk::Agent,
    connected: bool,
}

/// The real component its rows run on (coverage.rs).
pub(crate) const ZOOKEEPER: Component = Component {
    name: "ZooKeeper",
    version: "3.8.0",
    from: "Debian 12 `zookeeper`; the Rust `zookeeper` crate as client",
};

/// Its catalogue scenarios in the table of what each runs on (coverage.rs's format).
static COVERAGE: &[Entry] = &[
    real("zk-session-expiry", &ZOOKEEPER, "the lock recipe; A's session in a SIGSTOPped process"),
    real("curator-suspended", &curator_lock::CURATOR, "a real `InterProcessMutex` and `ConnectionStateListener` in a JVM per client; A's link through the proxy goes silent; SUSPENDED and LOST moments compared"),
    real("table-zookeeper", &ZOOKEEPER, "the safety table's base run, no fault"),
];

impl RealService for ZkLock {
    fn coverage(&self) -> &'static [Entry] {
        COVERAGE
    }

    fn kinds(&self) -> &'static [ServiceKind] {
        &[ServiceKind::Zookeeper]
    }

    fn scenario_text(&self, id: &str) -> Option<&'static str> {
        Some(match id {
            "zk-session-expiry" => include_str!("../../../crate/scenarios/zk-session-expiry.txt"),
            "table-zookeeper" => include_str!("../../../crate/scenarios/table-zookeeper.txt"),
            _ => return curator_lock::scenario_text(id),
        })
    }

    fn cases(&self) -> Vec<Case> {
        cases().into_iter().chain(curator_lock::cases()).collect()
    }

    /// A row's client session, in a process of its own (see zk.rs).
    fn subcommand(&self, name: &str, _rest: &[String]) -> Option<ExitCode> {
        (name == "zk-agent").then(zk::agent_main)
    }

    fn unsupported(&self, sc: &Scenario, setup: &Setup) -> Option<&'static str> {
        let p = &setup.params;
        let (session, tick) = (sc.service.ttl.resolve(p), sc.service.tick.resolve(p));
        if !tick.is_multiple_of(1000) || tick == 0 || session < 2 * tick || session > 20 * tick {
            return Some(
                "a ZooKeeper tick that is not whole ms, or a session timeout outside 2–20 ticks",
            );
        }
        if curator_lock::plays(sc) {
            return curator_lock::unsupported(sc);
        }
        let own = leaselab::scenario::own::Zookeeper::of(&sc.service);
        let cut = sc
            .faults
            .iter()
            .any(|f| matches!(f.action, FaultAction::Partition(..)));
        if cut {
            return Some("a cut off ZooKeeper without Curator's connection states (no `check`)");
        }
        own.tolerate_suspended.then_some(
            "Curator's SUSPENDED policy (the real client is ZooKeeper's own, not Curator)",
        )
    }

    /// Only Curator's client plays a cut (its own link of the suite's proxy).
    fn plays_fault(&self, action: &FaultAction) -> bool {
        matches!(action, FaultAction::Partition(..) | FaultAction::Cut(..))
    }

    /// Curator's client answers `check` (only Curator's scenarios have one: see `unsupported`).
    fn client_checks(&self) -> bool {
        true
    }

    /// Curator's client, compiled once for the suite (its rows' servers are per attempt).
    fn start_for_suite(&self, work: &Path) -> Res<Option<Box<dyn Any>>> {
        let classes = curator_lock::build(work)?;
        Ok(Some(Box::new(classes)))
    }

    /// A fresh ZooKeeper for every attempt: its zxids start at 0, as the model's do.
    fn start<'a>(&self, at: &Attempt<'_, 'a>) -> Res<Box<dyn LockServers + 'a>> {
        if curator_lock::plays(at.sc) {
            let classes = curator_lock::classes(at)?;
            return Ok(Box::new(curator_lock::start(at, classes)?));
        }
        let dir = at.work.join(format!("zookeeper-{}", at.tag));
        let tick = Duration::from_micros(at.sc.service.tick.resolve(&at.setup.params));
        let z = zk::Server::start(dir, tick)?;
        if at.first {
            eprintln!(
                "conformance: ZooKeeper {} on 127.0.0.1:{}",
                z.version, z.port
            );
        }
        Ok(Box::new(z))
    }

    /// The session's process, in this one's process group (stopped with it); it connects at the
    /// client's first acquire, as the model's client does.
    fn connect(&self, sc: &Scenario, _setup: &Setup, _name: char, spec: &str) -> Res<Conn> {
        if curator_lock::plays(sc) {
            return curator_lock::connect(spec);
        }
        let (port, dir) = spec
            .split_once(':')
            .and_then(|(p, d)| Some((p.parse().ok()?, d)))
            .ok_or_else(|| format!("bad zookeeper spec {spec:?}"))?;
        let agent = zk::Agent::spawn_at(port, dir.into())?;
        Ok(Conn {
            session: None,
            state: Box::new(ZkClient {
                agent,
                connected: false,
            }),
        })
    }

    fn blocks(&self) -> bool {
        true
    }

    fn try_acquire(&self, c: &mut Client, _value: i64) -> Result<Option<Held>, Stop> {
        if curator_lock::plays(c.sc) {
            return c.curator_lock();
        }
        c.zk_lock()
    }

    fn release(&self, c: &mut Client, _h: Held) -> Result<(), Stop> {
        if curator_lock::plays(c.sc) {
            return c.curator_release();
        }
        c.zk_release()
    }

    fn check(&self, c: &mut Client, _need: Duration) -> Option<Result<(), Stop>> {
        curator_lock::plays(c.sc).then(|| c.curator_check())
    }

    /// What its client saw, noted; the session closes (its node with it) and its process ends when
    /// the state is dropped.
    fn finish(&self, c: &mut Client) {
        if curator_lock::plays(c.sc) {
            return c.curator_finish();
        }
        let events = match c.state::<ZkClient>() {
            Ok(z) => z.agent.events.join(", "),
            Err(_) => return,
        };
        if !events.is_empty() {
            c.note(format!("its ZooKeeper client saw: {events}"));
        }
        c.state = Box::new(());
    }
}

impl LockServers for zk::Server {
    /// Its port and the directory its session processes' pid files go in.
    fn agent_spec(&self, _client: usize) -> String {
        format!("{}:{}", self.port, self.dir.display())
    }
}

/// ZooKeeper's rows, session 6 s, tick 2 s: A's session expires 6–8 s after its last request (the tick
/// buckets follow the server's clock, not the scenario's) and B writes right after; A writes at 10 s:
/// 1 s.
fn cases() -> Vec<Case> {
    let row = |id, policy, how| Case {
        tolerance_ms: 1000,
        ..case(id, policy, &[], 1, how)
    };
    vec![
        row(
            "zk-session-expiry",
            Policy::None,
            "ZooKeeper 3.8, the lock recipe; A's session in a SIGSTOPped process; PostgreSQL table",
        ),
        row("zk-session-expiry", Policy::Token, "as above; the node's czxid as token"),
        row(
            "table-zookeeper",
            Policy::None,
            "ZooKeeper 3.8, tickTime 2 s, 40 s sessions; B waits from 2 s on A's node; no fault (the safety table's base run)",
        ),
    ]
}

impl Client<'_> {
    /// ZooKeeper: the session first (opened at the first acquire), then the lock recipe, which returns
    /// when the client's node is the lowest; the token is the node's czxid.
    pub(super) fn zk_lock(&mut self) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let session = us(svc.ttl, &self.setup.params);
        let within = self.link.time_left();
        let z = self.state::<ZkClient>()?;
        if !z.connected {
            z.agent.connect(session)?;
            z.connected = true;
            self.note(format!(
                "connects (session timeout {} ms)",
                session.as_millis()
            ));
        }
        let z = &mut self.state::<ZkClient>()?.agent;
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

    pub(super) fn zk_release(&mut self) -> Result<(), Stop> {
        let z = &mut self.state::<ZkClient>()?.agent;
        match z.unlock() {
            Ok(_) => self.note("deletes its node".into()),
            Err(e) => self.note(format!("delete of its node → {e}")),
        }
        Ok(())
    }
}
