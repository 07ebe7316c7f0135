//! Curator's `InterProcessMutex` as the real client of a ZooKeeper scenario whose clients check their
//! hold (`check`: what Curator's connection state and its error policy answer). ZooKeeper's service
//! file (zk_lock.rs) hands such scenarios here: the server is the same fresh ZooKeeper per attempt
//! (zk.rs), each client's Curator is a JVM of its own (curator.rs), and each client reaches the
//! server through a link of the suite's proxy of its own, so that `cut A n1` is A's link going
//! silent — its bytes held, its TCP connection open, as a partition is — while B's stays up.
//!
//! The lab's `suspended=error|tolerate` is Curator's `StandardConnectionStateErrorPolicy` or
//! `SessionConnectionStateErrorPolicy`; the moments Curator's `ConnectionStateListener` is told of
//! SUSPENDED and LOST go to the conductor (`moment`), and the rows compare them with the model's.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use leaselab::client::Op;
use leaselab::scenario::{own, FaultAction, Scenario};
use leaselab::store::Policy;

use super::agent::instant_of;
use super::player::{Client, Held, Stop};
use super::proxy::{Dir, Proxy};
use super::record::Shared;
use super::service::{Attempt, Conn, LockServers};
use super::{us, RUN_WITHIN};
use crate::cases::{case, Case};
use crate::curator;
use crate::servers::Res;
use crate::zk;

/// The real component its rows run on (coverage.rs): a real Curator over the real ZooKeeper.
pub(super) const CURATOR: crate::coverage::Component = crate::coverage::Component {
    name: "Curator over ZooKeeper",
    version: "5.4.0 / 3.8.0",
    from:
        "Debian 12 `libcurator-recipes-java`, `zookeeper`; a small Java client the suite compiles",
};

/// The scenario files of the Curator rows, as compiled into the suite.
pub(super) fn scenario_text(id: &str) -> Option<&'static str> {
    Some(match id {
        "curator-suspended" => include_str!("../../../crate/scenarios/curator-suspended.txt"),
        _ => return None,
    })
}

/// Whether Curator plays `sc` (a ZooKeeper scenario): its clients check their hold, which only
/// Curator's connection state can answer (ZooKeeper's own client has no such view).
pub(super) fn plays(sc: &Scenario) -> bool {
    let checks =
        |c: &leaselab::client::ClientSpec| c.ops.iter().any(|op| matches!(op, Op::Check(_)));
    sc.clients.iter().any(checks)
}

/// What Curator's rows cannot play of `sc`.
pub(super) fn unsupported(sc: &Scenario) -> Option<&'static str> {
    let paused = sc
        .clients
        .iter()
        .any(|c| c.ops.iter().any(|op| matches!(op, Op::Pause(_))));
    let frozen = sc
        .faults
        .iter()
        .any(|f| matches!(f.action, FaultAction::Freeze(..)));
    (paused || frozen)
        .then_some("a pause of a Curator client (its JVM is not stopped by the suite)")
}

/// The rows: curator-suspended under Curator's two error policies, session 6 s, tick 2 s. What
/// decides them: the server expires A's session at the first tick after its last ping plus 6 s (8–11 s:
/// the Java client pings every T/3 − 1 s of idleness, and the ticks follow the server's clock), B
/// writes right after, A checks and writes at 11 s; SUSPENDED (6–7 s) and LOST (12–13 s) are well
/// clear of A's check. Lateness tolerance 300 ms; the moments of SUSPENDED and LOST within 1 s (the
/// model pings every T/3, the Java client a second sooner: its last reply before the cut at 3 s is up
/// to a second later than the model's 2 s).
pub(super) fn cases() -> Vec<Case> {
    let row = |policy, edit, how| Case {
        tolerance_ms: 300,
        moments_ms: 1000,
        edit,
        ..case("curator-suspended", policy, &[], 1, how)
    };
    vec![
        row(
            Policy::None,
            None,
            "Curator 5.4 InterProcessMutex over ZooKeeper 3.8, SessionConnectionStateErrorPolicy; A's link through the suite's proxy, silent from 3 s; PostgreSQL table",
        ),
        row(
            Policy::Token,
            None,
            "as above; the node's czxid as token",
        ),
        row(
            Policy::None,
            Some((" suspended=tolerate", "")),
            "as above, StandardConnectionStateErrorPolicy (the default): A lets go at SUSPENDED",
        ),
    ]
}

/// Curator's servers for one attempt: a fresh ZooKeeper, and each client's link to it.
pub(super) struct CuratorServers {
    zk: zk::Server,
    links: Vec<Proxy>,
    classes: PathBuf,
    policy: &'static str,
}

/// A fresh ZooKeeper (its zxids start at 0, as the model's do) and a proxy per client.
pub(super) fn start(at: &Attempt<'_, '_>, classes: PathBuf) -> Res<CuratorServers> {
    let dir = at.work.join(format!("zookeeper-{}", at.tag));
    let tick = Duration::from_micros(at.sc.service.tick.resolve(&at.setup.params));
    let z = zk::Server::start(dir, tick)?;
    if at.first {
        eprintln!(
            "conformance: ZooKeeper {} on 127.0.0.1:{}, Curator 5.4",
            z.version, z.port
        );
    }
    let links = (0..at.sc.clients.len())
        .map(|_| Proxy::start(z.port))
        .collect::<Res<Vec<_>>>()?;
    let tolerate = own::Zookeeper::of(&at.sc.service).tolerate_suspended;
    Ok(CuratorServers {
        zk: z,
        links,
        classes,
        policy: if tolerate { "tolerate" } else { "error" },
    })
}

impl LockServers for CuratorServers {
    /// `PORT,POLICY,DIR,CLASSES`: the client's link, the error policy, where its pid file goes, its
    /// compiled client.
    fn agent_spec(&self, client: usize) -> String {
        let port = self.links.get(client).map_or(self.zk.port, |l| l.port);
        let (dir, classes) = (self.zk.dir.display(), self.classes.display());
        format!("{port},{},{dir},{classes}", self.policy)
    }

    /// `cut A n1` (and an injected cut): the client's link goes silent — whatever either side sends
    /// is held, the connection stays open — until it heals.
    fn fault(
        &mut self,
        sc: &Scenario,
        p: &[u64],
        action: FaultAction,
        _at: Duration,
        shared: &Shared,
    ) -> Res<()> {
        let (c, until, what) = match action {
            FaultAction::Partition(c, mask, cut) if mask & 1 != 0 => {
                let until = if cut {
                    Instant::now() + RUN_WITHIN * 2
                } else {
                    Instant::now()
                };
                (
                    c,
                    until,
                    if cut {
                        "silent (partition)"
                    } else {
                        "carries again"
                    },
                )
            }
            FaultAction::Cut(c, d) => (c, Instant::now() + us(d, p), "silent for the cut"),
            _ => return Err("Curator's rows play only a cut between a client and n1".into()),
        };
        let link = self.links.get(usize::from(c)).ok_or("no such client")?;
        link.hold_until(Dir::Up, until);
        link.hold_until(Dir::Down, until);
        let name = sc.client_name(c).to_string();
        shared.note(&name, format!("its link to ZooKeeper is {what}"));
        Ok(())
    }
}

/// A client's side (in its agent): its Curator's JVM, its link's port, the error policy, and whether
/// it has connected.
pub(super) struct CuratorClient {
    agent: curator::Agent,
    port: u16,
    policy: String,
    connected: bool,
}

/// The client's JVM, started before the clock (Curator loaded, not connected: it connects at the
/// first acquire, as the model's client opens its session then).
pub(super) fn connect(spec: &str) -> Res<Conn> {
    let bad = || format!("bad curator spec {spec:?}");
    let mut parts = spec.splitn(4, ',');
    let port = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
    let policy = parts.next().ok_or_else(bad)?.to_string();
    let dir = PathBuf::from(parts.next().ok_or_else(bad)?);
    let classes = PathBuf::from(parts.next().ok_or_else(bad)?);
    let agent = curator::Agent::spawn(&classes, &dir)?;
    Ok(Conn {
        session: None,
        state: Box::new(CuratorClient {
            agent,
            port,
            policy,
            connected: false,
        }),
    })
}

impl Client<'_> {
    /// Curator's connection states reported since last time: each to the conductor as a moment, and
    /// to the transcript.
    fn curator_moments(&mut self) -> Result<(), Stop> {
        let z = self.state::<CuratorClient>()?;
        let events = z.agent.take_events();
        let infos = std::mem::take(&mut z.agent.infos);
        for e in events {
            let t = self.link.us(instant_of(e.at_ns));
            self.link.send(&format!("moment {t} {}", e.state));
            let ms = t as f64 / 1e3;
            self.note(format!(
                "Curator: connection state {} (at {ms:.1} ms)",
                e.state
            ));
        }
        for i in infos {
            self.note(format!("Curator: {i}"));
        }
        Ok(())
    }

    /// Connects at the first acquire, then `InterProcessMutex.acquire`, which returns when the
    /// client's node is the lowest; the token is the node's czxid.
    pub(super) fn curator_lock(&mut self) -> Result<Option<Held>, Stop> {
        let session = us(self.sc.service.ttl, &self.setup.params);
        let within = self.link.time_left();
        let z = self.state::<CuratorClient>()?;
        if !z.connected {
            let cmd = format!(
                "connect 127.0.0.1:{} {} {}",
                z.port,
                session.as_millis(),
                z.policy
            );
            let id = z.agent.ask(&cmd, Duration::from_secs(10))?;
            z.connected = true;
            let policy = z.policy.clone();
            self.note(format!(
                "Curator {id} (session timeout {} ms, suspended={policy})",
                session.as_millis()
            ));
        }
        let z = self.state::<CuratorClient>()?;
        let held = z.agent.ask("lock", within);
        self.curator_moments()?;
        let s = match held {
            Ok(s) => s,
            Err(e) => {
                self.note(format!("acquire → {e}"));
                return Err(Stop::GaveUp);
            }
        };
        let w: Vec<&str> = s.split_whitespace().collect();
        let (Some(czxid), Some(path), Some(id)) = (
            w.get(1).and_then(|z| z.parse::<i64>().ok()),
            w.get(2),
            w.get(3),
        ) else {
            return Err(Stop::Error(format!(
                "curator lock: unexpected answer {s:?}"
            )));
        };
        self.note(format!(
            "InterProcessMutex.acquire → {path} (czxid {czxid:#x}, session {id})"
        ));
        Ok(Some(Held {
            token: self.sc.service.tokens.then_some(czxid),
            value: i64::from_str_radix(id, 16).unwrap_or(czxid),
            believed_end: None,
        }))
    }

    /// `InterProcessMutex.release`, sent (its outcome comes later, as the model's does).
    pub(super) fn curator_release(&mut self) -> Result<(), Stop> {
        let z = self.state::<CuratorClient>()?;
        let r = z.agent.ask("unlock", Duration::from_secs(5));
        self.note(format!(
            "InterProcessMutex.release → {}",
            r.unwrap_or_else(|e| e)
        ));
        Ok(())
    }

    /// `check`: the mutex held and no state since the grant that Curator's error policy calls an error.
    /// A lost hold ended when Curator first reported that state: the belief ends there.
    pub(super) fn curator_check(&mut self) -> Result<(), Stop> {
        let z = self.state::<CuratorClient>()?;
        let answer = z.agent.ask("check", Duration::from_secs(5))?;
        self.curator_moments()?;
        let w: Vec<&str> = answer.split_whitespace().collect();
        match w.as_slice() {
            [state, "held"] => {
                self.note(format!(
                    "check: Curator's state {state}, the error policy says held → goes on"
                ));
                Ok(())
            }
            [state, "lost", since] => {
                if let Some(ns) = since.parse::<u64>().ok().filter(|&ns| ns != 0) {
                    self.end_belief(instant_of(ns));
                }
                self.note(format!("check: Curator's state {state}, an error state for its policy → does not use the lock"));
                Err(Stop::GaveUp)
            }
            _ => Err(Stop::Error(format!(
                "curator check: unexpected answer {answer:?}"
            ))),
        }
    }

    /// The end of the script: a client still SUSPENDED waits (at most two session timeouts) for
    /// Curator's LOST, so that the row sees when Curator declares it; then the JVM quits.
    pub(super) fn curator_finish(&mut self) {
        let session = us(self.sc.service.ttl, &self.setup.params);
        let Ok(z) = self.state::<CuratorClient>() else {
            return;
        };
        if z.connected {
            let cmd = format!("wait-lost {}", (2 * session).as_millis());
            let _ = z.agent.ask(&cmd, 2 * session + Duration::from_secs(5));
        }
        let _ = self.curator_moments();
        self.state = Box::new(());
    }
}

/// The directory the suite compiled Curator's client into (ZooKeeper's server for the whole suite).
pub(super) fn classes(at: &Attempt<'_, '_>) -> Res<PathBuf> {
    at.suite
        .and_then(|s| s.downcast_ref::<PathBuf>())
        .cloned()
        .ok_or_else(|| "the Curator client was not compiled for this suite".to_string())
}

/// Compiles Curator's client once for the suite.
pub(super) fn build(work: &std::path::Path) -> Res<PathBuf> {
    curator::build(work)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::{case_scenario, predict, scenario, sim_verdict};

    #[test]
    fn curator_plays_the_zookeeper_scenarios_whose_clients_check_their_hold() {
        assert!(plays(&scenario("curator-suspended", 1).unwrap()));
        assert!(!plays(&scenario("zk-session-expiry", 1).unwrap()));
    }

    /// The rows tell the scenario's two stories: tolerating SUSPENDED, A's write lands after B's (a
    /// lost update); with the default policy's edit A lets go at SUSPENDED and nobody is lost.
    #[test]
    fn the_rows_run_both_error_policies() {
        let rows = cases();
        let policy_of = |c: &Case| {
            let sc = case_scenario(c, c.scale).unwrap();
            own::Zookeeper::of(&sc.service).tolerate_suspended
        };
        let tolerating: Vec<bool> = rows.iter().map(policy_of).collect();
        assert_eq!(tolerating, [true, true, false]);
        let verdict = |c: &Case| {
            let sc = case_scenario(c, c.scale).unwrap();
            let o = predict(&sc, c.policy, c.set, c.scale).unwrap();
            sim_verdict(&sc, &o).text()
        };
        assert!(verdict(&rows[0]).starts_with("final 440, lost B"));
        assert!(verdict(&rows[1]).starts_with("final 450, lost none, refused A"));
        assert_eq!(
            verdict(&rows[2]),
            "final 450, lost none, refused none, granted A,B, max holders 1"
        );
        assert!(
            rows.iter().all(|c| c.moments_ms > 0),
            "every row compares the moments"
        );
    }

    #[test]
    fn an_edit_that_is_not_in_the_file_is_refused() {
        let c = Case {
            edit: Some((" suspended=never", "")),
            ..case("curator-suspended", Policy::None, &[], 1, "")
        };
        let err = case_scenario(&c, 1).unwrap_err();
        assert!(err.contains("is not in the file"), "{err}");
    }
}
