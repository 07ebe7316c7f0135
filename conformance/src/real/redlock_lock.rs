//! Redlock as a real service: five redis-servers, fresh for every attempt with the scenario's
//! persistence and each on its own wall clock when the scenario steps it; each round sends `SET NX PX`
//! to every node the client reaches (through links with the scenario's latencies, redlock_links.rs),
//! holds the lock when a majority granted it and `ttl − elapsed − drift` is positive, else unlocks
//! every node and retries after a back-off drawn as the model draws it. `crash nK restart D` is
//! SIGKILL, then a restart D later (what the node keeps is what its persistence mode wrote).

use std::any::Any;
use std::time::{Duration, Instant, SystemTime};

use leaselab::scenario::{FaultAction, Persist, Scenario, ServiceKind, ServiceSpec};
use leaselab::services::redlock::backoff_share_us;
use leaselab::store::Policy;

use super::player::{Client, Held, Stop};
use super::record::Shared;
use super::redis_lock::{flush, LOCK, RELEASE_LUA};
use super::redlock_links::NodeLinks;
use super::service::{Attempt, Conn, LockServers, RealService};
use super::{clock_env, us, ClockOf, Setup};
use crate::cases::{case, Case};
use crate::coverage::{real, stand_in, Component, Entry};
use crate::redis_server::{connect_redis, Persistence, Redis};
use crate::servers::Res;

/// Redlock over five redis-servers.
pub struct Redlock;

/// A client's side (in its agent): where it reaches each node, and its rounds so far, numbered as
/// the model numbers them (from 1, wrapping at 12 bits).
struct RedlockClient {
    ports: Vec<u16>,
    round: u16,
}

/// The nodes of an attempt, and each client's links to them when they have a latency.
struct Nodes {
    nodes: Vec<Redis>,
    links: Option<NodeLinks>,
}

/// The real component its rows run on (coverage.rs).
pub(crate) const REDLOCK: Component = Component {
    name: "Redlock on 5 redis",
    version: "7.0.15",
    from: "Debian 12 `redis-server`; the Redlock client is the suite's",
};

/// Its catalogue scenarios in the table of what each runs on (coverage.rs's format).
static COVERAGE: &[Entry] = &[
    real("redlock-pause-before-check", &REDLOCK, "the five OKs unread in a stopped client's sockets; links by the suite's proxy"),
    real("redlock-pause-after-check", &REDLOCK, "SIGSTOP after the validity check"),
    real("redlock-clock-jump", &REDLOCK, "n3's redis-server on a stepped wall clock (LD_PRELOAD shim)"),
    stand_in("redlock-clock-jump-monotonic", &REDLOCK, "no redis expires keys on a monotonic clock: n3 runs on the true clock, which does not take the step"),
    real("redlock-crash-restart", &REDLOCK, "n3 SIGKILLed and restarted, no persistence"),
    real("redlock-crash-fsync", &REDLOCK, "n3 SIGKILLed and restarted, `appendfsync always`"),
    real("redlock-restart-clock-jump", &REDLOCK, "n3's restart timed by its stepped wall clock"),
    real("redlock-split-vote", &REDLOCK, "3 clients split the vote over proxy links; the model's seeded back-offs"),
    real("table-redlock", &REDLOCK, "the safety table's base run, no fault"),
];

impl RealService for Redlock {
    fn coverage(&self) -> &'static [Entry] {
        COVERAGE
    }

    fn kinds(&self) -> &'static [ServiceKind] {
        &[ServiceKind::Redlock]
    }

    fn scenario_text(&self, id: &str) -> Option<&'static str> {
        Some(match id {
            "redlock-clock-jump" => include_str!("../../../crate/scenarios/redlock-clock-jump.txt"),
            "redlock-clock-jump-monotonic" => {
                include_str!("../../../crate/scenarios/redlock-clock-jump-monotonic.txt")
            }
            "redlock-restart-clock-jump" => {
                include_str!("../../../crate/scenarios/redlock-restart-clock-jump.txt")
            }
            "redlock-pause-after-check" => {
                include_str!("../../../crate/scenarios/redlock-pause-after-check.txt")
            }
            "redlock-pause-before-check" => {
                include_str!("../../../crate/scenarios/redlock-pause-before-check.txt")
            }
            "redlock-split-vote" => include_str!("../../../crate/scenarios/redlock-split-vote.txt"),
            "redlock-crash-restart" => {
                include_str!("../../../crate/scenarios/redlock-crash-restart.txt")
            }
            "redlock-crash-fsync" => {
                include_str!("../../../crate/scenarios/redlock-crash-fsync.txt")
            }
            "table-redlock" => include_str!("../../../crate/scenarios/table-redlock.txt"),
            _ => return None,
        })
    }

    fn cases(&self) -> Vec<Case> {
        [clock_cases(), round_cases(), crash_cases()]
            .into_iter()
            .flatten()
            .collect()
    }

    /// The default reply timeout (10 ms) is the parser's, not the file's: made explicit so it scales
    /// with the rest, or scaled latencies would outlast it.
    fn explicit_defaults(&self, line: &str) -> Option<String> {
        (line.starts_with("service: redlock") && !line.contains("timeout="))
            .then(|| format!("{line} timeout=10ms"))
    }

    fn majority_grants(&self) -> bool {
        true
    }

    fn unsupported(&self, sc: &Scenario, _setup: &Setup) -> Option<&'static str> {
        (sc.service.nodes != 5).then_some("Redlock with other than five nodes")
    }

    fn plays_fault(&self, action: &FaultAction) -> bool {
        matches!(action, FaultAction::Crash(..) | FaultAction::Restart(_))
    }

    fn steppable(&self) -> bool {
        true
    }

    fn server_clocks(&self, sc: &Scenario) -> Vec<ClockOf> {
        (0..sc.service.nodes).map(ClockOf::Node).collect()
    }

    /// Fresh nodes for every attempt, with the scenario's persistence and each its own clock.
    fn start<'a>(&self, at: &Attempt<'_, 'a>) -> Res<Box<dyn LockServers + 'a>> {
        let persistence = persistence(at.sc.service.persist);
        let dir = at.work.join(format!("redlock-{}", at.tag));
        let mut nodes = Vec::new();
        for k in 0..at.sc.service.nodes {
            let env = clock_env(at.clocks, ClockOf::Node(k));
            nodes.push(Redis::start_with(
                dir.join(format!("n{}", k + 1)),
                persistence,
                env,
            )?);
        }
        let ports: Vec<u16> = nodes.iter().map(|n| n.port).collect();
        let links = NodeLinks::start(at.sc, &at.setup.params, &ports)?;
        Ok(Box::new(Nodes { nodes, links }))
    }

    fn connect(&self, _sc: &Scenario, _setup: &Setup, _name: char, spec: &str) -> Res<Conn> {
        let ports = spec.split(',').filter_map(|p| p.parse().ok()).collect();
        let state: Box<dyn Any> = Box::new(RedlockClient { ports, round: 0 });
        Ok(Conn {
            session: None,
            state,
        })
    }

    fn try_acquire(&self, c: &mut Client, value: i64) -> Result<Option<Held>, Stop> {
        c.redlock_try_acquire(value)
    }

    fn release(&self, c: &mut Client, h: Held) -> Result<(), Stop> {
        let ports = c.state::<RedlockClient>()?.ports.clone();
        c.redlock_unlock(&ports, h.value);
        c.note("unlocks every node it reaches".into());
        Ok(())
    }

    /// After a failed round, drawn as the model draws it (the run's seed, the client, its round).
    fn backoff_share(&self, c: &Client) -> Duration {
        let round = c
            .state
            .downcast_ref::<RedlockClient>()
            .map_or(0, |s| s.round);
        let seed = leaselab::Config::new(c.sc, c.setup.policy).seed;
        let jitter = c.sc.service.jitter.resolve(&c.setup.params);
        Duration::from_micros(backoff_share_us(seed, c.idx, round, jitter))
    }

    /// (A round reports its majority itself, held or not.)
    fn reports_grants(&self) -> bool {
        true
    }
}

/// The persistence a scenario's nodes run with.
fn persistence(persist: Persist) -> Persistence {
    match persist {
        Persist::None => Persistence::None,
        Persist::EverySec => Persistence::EverySec,
        Persist::Always => Persistence::Always,
    }
}

impl LockServers for Nodes {
    fn prepare(&mut self, first_token: u64) -> Res<()> {
        self.nodes
            .iter()
            .try_for_each(|n| flush(n.port, first_token))
    }

    /// Where client `c` reaches the nodes: through its links, or directly.
    fn agent_spec(&self, c: usize) -> String {
        let ports = match &self.links {
            Some(links) => links.ports(c),
            None => self.nodes.iter().map(|n| n.port).collect(),
        };
        let ports: Vec<String> = ports.iter().map(u16::to_string).collect();
        ports.join(",")
    }

    fn fault(
        &mut self,
        _sc: &Scenario,
        p: &[u64],
        action: FaultAction,
        at: Duration,
        shared: &Shared,
    ) -> Res<()> {
        match action {
            FaultAction::Crash(k, restart) => self.crash(k, restart.map(|d| us(d, p)), at, shared),
            FaultAction::Restart(k) => {
                self.nodes
                    .get_mut(usize::from(k))
                    .ok_or("restart: no such node")?
                    .restart()?;
                shared.note(&format!("n{}", k + 1), "restarted, answering".into());
                shared.behind(&format!("n{}", k + 1), at, "restart");
                Ok(())
            }
            _ => Err("unsupported fault".into()),
        }
    }
}

impl Nodes {
    /// Node `k` SIGKILLed at `at`, and restarted `restart` later: by its own wall clock (a process
    /// that waits for it) when it has one, else by the run's.
    fn crash(
        &mut self,
        k: u8,
        restart: Option<Duration>,
        at: Duration,
        shared: &Shared,
    ) -> Res<()> {
        let node = self
            .nodes
            .get_mut(usize::from(k))
            .ok_or("crash: no such node")?;
        node.crash();
        let who = format!("n{}", k + 1);
        shared.note(&who, "killed (SIGKILL)".into());
        shared.behind(&who, at, "crash");
        match restart {
            Some(d) if node.has_own_clock() => {
                node.restart_after_wall_wait(d)?;
                let ms = d.as_millis();
                shared.note(&who, format!("restart waits {ms} ms by its own wall clock"));
            }
            Some(d) => {
                shared.sleep_until(shared.t0 + at + d);
                node.restart()?;
                shared.note(&who, "restarted, answering".into());
                shared.behind(&who, at + d, "restart");
            }
            None => {}
        }
        Ok(())
    }
}

impl Client<'_> {
    /// A Redlock round: `SET NX PX` sent to every node the client reaches, then the replies read
    /// (each link's latency is the network's: see redlock_links.rs), counted when every node has
    /// answered or the round's reply timeout has passed; held with a majority in time.
    fn redlock_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let p = &self.setup.params;
        let ttl = us(svc.ttl, p);
        let drift = Duration::from_micros(ServiceSpec::drift(ttl.as_micros() as u64));
        let nodes = usize::from(svc.nodes);
        let deadline_in = us(svc.timeout, p);
        let st = self.state::<RedlockClient>()?;
        st.round = (st.round + 1) & 0xfff;
        let ports = st.ports.clone();
        let (sent, sent_wall) = (Instant::now(), SystemTime::now());
        let mut cons = self.send_round(&ports, value, ttl);
        self.say_first(); // its requests are out: a client starting at the same instant may go
                          // The replies are due a round trip over the slowest link; a node it cannot reach never
                          // answers, so then the client counts when the wait is over. The count is at that place on
                          // the client's timeline (in a freeze of its own: when it wakes), so clients stay in step
                          // with the scenario, not with each other's real delays. It sleeps until then and only then
                          // reads (a read blocked in the kernel when the process is stopped would fail with EINTR at
                          // SIGCONT; a sleep resumes).
        let round_trip = cons.iter().map(|c| 2 * self.node_latency(c.0)).max();
        let wait = match round_trip {
            Some(rt) if cons.len() == nodes => rt.min(deadline_in),
            _ => deadline_in,
        };
        self.wait(wait);
        let who = read_round(&mut cons, sent + deadline_in);
        let elapsed = sent.elapsed();
        let validity =
            ttl.as_micros() as i64 - elapsed.as_micros() as i64 - drift.as_micros() as i64;
        let (granted, quorum) = (who.len(), nodes / 2 + 1);
        if granted >= quorum {
            // A majority of the nodes hold its keys (the model's truth), whether or not the client
            // then finds enough validity left to use them.
            self.link.send(&format!("grant {}", self.link.us(sent)));
        }
        let then = if granted >= quorum && validity > 0 {
            "holds the lock"
        } else {
            "unlock all, retry"
        };
        self.note(format!(
            "{granted}/{nodes} nodes OK ({}), validity {} ms → {then}",
            who.join(","),
            validity / 1000
        ));
        if granted >= quorum && validity > 0 {
            return Ok(Some(Held {
                token: None,
                value,
                believed_end: Some(sent_wall + ttl - drift),
            }));
        }
        self.redlock_unlock(&ports, value);
        Ok(None)
    }

    /// The one-way latency of the client's link to node `k` (as redlock_links.rs sets it up).
    fn node_latency(&self, k: usize) -> Duration {
        let p = &self.setup.params;
        let default_us = us(self.sc.service.lock_latency, p).as_micros() as u64;
        let spec = &self.sc.clients[usize::from(self.idx)];
        Duration::from_micros(spec.link(k as u8, default_us, p))
    }

    /// Sends the round's `SET NX PX` to every node the client reaches, on a fresh connection each
    /// (through its link); a node that cannot be reached is left out.
    fn send_round(
        &self,
        ports: &[u16],
        value: i64,
        ttl: Duration,
    ) -> Vec<(usize, redis::Connection)> {
        let reach = self.sc.clients[usize::from(self.idx)].reach;
        let mut set = redis::cmd("SET");
        set.arg(LOCK)
            .arg(value)
            .arg("NX")
            .arg("PX")
            .arg(ttl.as_millis() as u64);
        let packed = set.get_packed_command();
        let mut cons = Vec::new();
        for (k, &port) in ports.iter().enumerate() {
            if reach & (1 << k) == 0 {
                continue; // partitioned away
            }
            if let Ok(mut con) = connect_redis(port, Duration::from_millis(200)) {
                if con.send_packed_command(&packed).is_ok() {
                    cons.push((k, con));
                }
            }
        }
        cons
    }

    /// Unlocks the value on every node the client reaches (value-checked), as the model does: the
    /// requests go out and the client goes on; a thread of its own reads the replies (bounded), so
    /// a link's latency does not hold the script up.
    fn redlock_unlock(&self, ports: &[u16], value: i64) {
        let reach = self.sc.clients[usize::from(self.idx)].reach;
        let mut unlock = redis::cmd("EVAL");
        unlock.arg(RELEASE_LUA).arg(1).arg(LOCK).arg(value);
        let packed = unlock.get_packed_command();
        let mut sent = Vec::new();
        for (k, &port) in ports.iter().enumerate() {
            if reach & (1 << k) == 0 {
                continue;
            }
            if let Ok(mut con) = connect_redis(port, Duration::from_millis(200)) {
                if con.send_packed_command(&packed).is_ok() {
                    sent.push(con);
                }
            }
        }
        std::thread::spawn(move || {
            for mut con in sent {
                let _ = con.set_read_timeout(Some(Duration::from_secs(1)));
                let _ = con.recv_response();
            }
        });
    }
}

/// Reads each node's reply to the round until `deadline` (a reply already in the socket buffer, as
/// after a freeze, is read at once): the names of the nodes that granted.
fn read_round(cons: &mut [(usize, redis::Connection)], deadline: Instant) -> Vec<String> {
    let mut who = Vec::new();
    for (k, con) in cons.iter_mut() {
        let left = deadline.saturating_duration_since(Instant::now());
        let _ = con.set_read_timeout(Some(left.max(Duration::from_millis(5))));
        let reply = con
            .recv_response()
            .ok()
            .and_then(|v| redis::from_redis_value::<Option<String>>(v).ok());
        if matches!(reply, Some(Some(_))) {
            who.push(format!("n{}", *k + 1));
        }
    }
    who
}

/// The Redlock rows with wall clocks that step (see cases.rs's clock cases): ×20, the step (1000, 1100
/// for the restart's) 100 before B's round (1100, 1240), A's write (4000) well after B's: tolerance 50.
fn clock_cases() -> Vec<Case> {
    let row = |id, policy, scale, how, tolerance_ms| Case {
        tolerance_ms,
        ..case(id, policy, &[], scale, how)
    };
    vec![
        row(
            "redlock-clock-jump",
            Policy::None,
            20,
            "5 redis; A reaches n1–n3, B n3–n5; n3's redis-server on a wall clock of its own, stepped +6 s at 1 s",
            50,
        ),
        row(
            "redlock-clock-jump",
            Policy::Version,
            20,
            "as above; version column",
            50,
        ),
        row(
            "redlock-clock-jump-monotonic",
            Policy::None,
            20,
            "as above, but n3 expires keys on a monotonic clock: stood in for by leaving the clock its redis expires by unstepped (no redis expires on CLOCK_MONOTONIC)",
            50,
        ),
        row(
            "redlock-restart-clock-jump",
            Policy::None,
            20,
            "5 redis, no persistence; n3 SIGKILLed at 1 s, restarted by a process that waits 6 s by n3's wall clock, stepped +6 s at 1.1 s",
            50,
        ),
    ]
}

/// Redlock's rounds on links with latency (a proxy per client–node link: real/redlock_links.rs).
/// pause-after-check ×10: the keys expire (3010) 100 before B's round arrives (3110), B's write 2.7 s
/// before A's; pause-before-check ×10: A's five OKs wait in its socket while it is stopped (10 ms to
/// 3.51 s), the keys expire (3010) 100 before B's round; split-vote ×20: who reaches a node first is
/// decided by 20 vs 60 ms links (40 ms apart), the seeded back-offs 80 ms and more apart. Tolerance
/// 50 (20 for the split vote). And the safety table's base run.
fn round_cases() -> Vec<Case> {
    let row = |id, policy, set, scale, how, tolerance_ms| Case {
        tolerance_ms,
        // The split vote's links are 40 ms apart: near enough a tie to run twice.
        repeat: if id == "redlock-split-vote" { 2 } else { 1 },
        ..case(id, policy, set, scale, how)
    };
    vec![
        row(
            "redlock-pause-after-check",
            Policy::None,
            &[],
            10,
            "5 redis, 10 ms links; A's process SIGSTOPped 6 s after its validity check",
            50,
        ),
        row(
            "redlock-pause-after-check",
            Policy::Version,
            &[],
            10,
            "as above; version column",
            50,
        ),
        row(
            "redlock-pause-before-check",
            Policy::None,
            &[],
            10,
            "5 redis, 10 ms links; A's process SIGSTOPped at 10 ms for 3.5 s with the five OKs unread in its sockets",
            50,
        ),
        row(
            "redlock-pause-before-check",
            Policy::Token,
            &[],
            10,
            "as above; token column (Redlock gives none)",
            50,
        ),
        row(
            "redlock-split-vote",
            Policy::None,
            &[],
            20,
            "5 redis; A's links to n1, n2 20 ms, B's to n3, n4, C's to n5, the rest 60 ms; back-offs drawn from the run's seed as the model draws them",
            20,
        ),
        row(
            "redlock-split-vote",
            Policy::None,
            &[("jitter", 0)],
            20,
            "as above, no random share: every round splits, 20 tries each",
            20,
        ),
        // The safety table's base run, no fault, ×10: B's first round (150) finds A's keys, A's
        // release (300) comes 150 later, B's next round at 2.15 s or after.
        row(
            "table-redlock",
            Policy::None,
            &[],
            10,
            "5 redis; no fault (the safety table's base run)",
            50,
        ),
    ]
}

/// Redlock ×3: n3 is back 30 ms after the crash (150 ms); B needs it by its second round (336 ms) to
/// write (≈ 400 ms) well before A (600 ms): 150 ms.
fn crash_cases() -> Vec<Case> {
    let redlock = |id, set, how| Case {
        tolerance_ms: 150,
        ..case(id, Policy::None, set, 3, how)
    };
    vec![
        redlock(
            "redlock-crash-restart",
            &[],
            "5 redis, no persistence; n3 SIGKILLed, restarted",
        ),
        redlock(
            "redlock-crash-restart",
            &[("restart", 300)],
            "as above; restart delayed by the TTL",
        ),
        redlock(
            "redlock-crash-fsync",
            &[],
            "5 redis, appendonly + appendfsync always",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use leaselab::scenario::Scenario;

    use crate::cases::{scale_text, scenario_text};

    #[test]
    fn scaled_files_parse_and_keep_their_prose() {
        let text = scenario_text("redlock-crash-restart").unwrap();
        let s = scale_text(text, 3);
        assert!(s.contains("service: redlock ttl=$ttl lock-latency=3ms persist=none timeout=30ms"));
        assert!(s.contains("param ttl = 900ms in 30ms..180000ms: TTL"));
        assert!(s.contains("expect none restart=900ms: final=390"));
        assert!(s.contains("summary: The same partition: A holds n1, n2, n3 from 10 ms."));
        assert!(Scenario::parse(&s).is_ok());
    }
}
