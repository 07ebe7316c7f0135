//! The conductor's side of a run: every client is an agent process of its own (agent.rs), started
//! here in a process group of its own, told when t = 0 is, and listened to over its stdout; its
//! pauses — a script's `pause` and a scenario's timed freeze — are SIGSTOP … SIGCONT to its process
//! group at the scenario's times. Every agent is killed and reaped on the way out, whatever happened
//! (the [`Agents`] guard; PR_SET_PDEATHSIG and conformance/run.sh's backstop if this process dies).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use leaselab::scenario::{FaultAction, Scenario};
use leaselab::time::SimTime;
use leaselab::trace::WriteRecord;

use super::agent::Spec;
use super::delayed_write::{arm_hold, storage_link};
use super::object_storage::ObjectServer;
use super::proxy::Proxy;
use super::record::Shared;
use super::sys::{has_exited, signal_group};
use super::{clock_env, us, ClockOf, Servers, Setup};
use crate::servers::Res;

/// One client's process, seen from here.
struct Proc {
    name: char,
    child: Child,
    stdin: ChildStdin,
    /// Its process group (its own pid): a signal to it reaches a service's session process too.
    pgid: i32,
    pid_file: PathBuf,
    pid: Option<i32>,
    first: bool,
    turn_sent: bool,
    finished: bool,
    exited: bool,
    /// Its storage connection's link of the proxy, when the network holds a write (delayed_write.rs).
    storage_link: Option<Proxy>,
}

/// Every agent of a run; dropping it kills and reaps them all.
pub(super) struct Agents {
    procs: Vec<Proc>,
    /// Every agent's stdout, a line at a time (`None`: it closed, the process is ending).
    lines: Receiver<(usize, Option<String>)>,
}

impl Drop for Agents {
    fn drop(&mut self) {
        let end = Instant::now() + Duration::from_secs(3);
        for p in &mut self.procs {
            signal_group(p.pgid, libc::SIGCONT);
            while !has_exited(p.pgid) && Instant::now() < end {
                std::thread::sleep(Duration::from_millis(10));
            }
            // Whatever is left of its group (a session process still closing) goes too, before the
            // leader is reaped and its pid could be reused.
            signal_group(p.pgid, libc::SIGKILL);
            let _ = p.child.wait();
            let _ = std::fs::remove_file(&p.pid_file);
        }
    }
}

impl Agents {
    /// Starts one agent per client and waits (bounded) until each has connected and said `ready`.
    pub(super) fn spawn(sc: &Scenario, setup: &Setup, servers: &Servers) -> Res<Agents> {
        let dir = servers.work.join("agents");
        std::fs::create_dir_all(&dir).map_err(|e| format!("agents dir: {e}"))?;
        let exe = std::env::current_exe().map_err(|e| format!("own executable: {e}"))?;
        let (tx, lines) = channel();
        let mut agents = Agents {
            procs: Vec::new(),
            lines,
        };
        for i in 0..sc.clients.len() {
            let storage_link = storage_link(sc, &setup.params, servers.pg.port)?;
            let svc = servers.lock.agent_spec(i);
            if svc.contains(';') {
                return Err(format!(
                    "the service's agent spec {svc:?} holds a `;` (a work directory with one?)"
                ));
            }
            let spec = Spec {
                id: sc.id.to_string(),
                scale: setup.scale,
                policy: setup.policy.name().to_string(),
                fence: setup.fence_counter,
                params: setup.params.clone(),
                client: i as u8,
                pg: servers.pg.port,
                pgdata: storage_link.as_ref().map(|l| l.port),
                svc,
                objects: servers.objects.as_ref().map(ObjectServer::spec),
            };
            let mut child = Command::new(&exe)
                .arg("client-agent")
                .arg(spec.text())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .process_group(0)
                .envs(clock_env(&servers.clocks, ClockOf::Client(i as u8)))
                .spawn()
                .map_err(|e| format!("start client-agent: {e}"))?;
            let pid = child.id() as i32;
            let pid_file = dir.join(format!("client-{pid}.pid"));
            let _ = std::fs::write(&pid_file, pid.to_string());
            let stdin = child.stdin.take().ok_or("client-agent: no stdin")?;
            let stdout = child.stdout.take().ok_or("client-agent: no stdout")?;
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                    if tx.send((i, Some(line))).is_err() {
                        return;
                    }
                }
                let _ = tx.send((i, None));
            });
            agents.procs.push(Proc {
                name: sc.client_name(i as u8),
                child,
                stdin,
                pgid: pid,
                pid_file,
                pid: None,
                first: false,
                turn_sent: false,
                finished: false,
                exited: false,
                storage_link,
            });
        }
        agents.wait_ready()?;
        Ok(agents)
    }

    fn wait_ready(&mut self) -> Res<()> {
        let end = Instant::now() + Duration::from_secs(30);
        let mut ready = vec![false; self.procs.len()];
        while ready.iter().any(|r| !r) {
            let left = end.saturating_duration_since(Instant::now());
            let (i, line) = self
                .lines
                .recv_timeout(left)
                .map_err(|_| "the client agents did not get ready within 30 s")?;
            let name = self.procs[i].name;
            let line = line.ok_or_else(|| format!("client {name}'s agent ended before ready"))?;
            match line.split_once(' ').unwrap_or((&line, "")) {
                ("pid", n) => self.procs[i].pid = n.parse().ok(),
                ("ready", _) => ready[i] = true,
                ("error", e) => return Err(format!("client {name}'s agent: {e}")),
                _ => {}
            }
        }
        Ok(())
    }

    /// The backend pids of the clients' sessions (for `terminate`).
    pub(super) fn pids(&self) -> Vec<Option<i32>> {
        self.procs.iter().map(|p| p.pid).collect()
    }

    fn tell(&mut self, i: usize, line: &str) {
        let _ = writeln!(self.procs[i].stdin, "{line}");
        let _ = self.procs[i].stdin.flush();
    }

    /// Tells every agent when t = 0 is (a CLOCK_MONOTONIC reading).
    pub(super) fn start(&mut self, t0_ns: u64) {
        for i in 0..self.procs.len() {
            self.tell(i, &format!("start {t0_ns}"));
        }
    }
}

/// A signal the conductor owes an agent at a time.
#[derive(Clone, Copy)]
enum Sig {
    Stop,
    /// SIGCONT; `resume`: then tell it (a script's pause waits for the word).
    Cont {
        resume: bool,
    },
}

/// The run itself: the agents' reports into `shared`, their pauses, same-instant turns, `over` when
/// every script (and the fault thread: `faults_done`) is over. Returns the errors it met.
pub(super) fn conduct(
    sc: &Scenario,
    p: &[u64],
    agents: &mut Agents,
    shared: &Shared,
    faults_done: impl Fn() -> bool,
) -> Vec<String> {
    let t0 = shared.t0;
    let mut timers: Vec<(Instant, usize, Sig)> = Vec::new();
    for f in sc.faults.iter() {
        if let FaultAction::Freeze(c, d) = f.action {
            let at = t0 + us(f.at, p);
            timers.push((at, usize::from(c), Sig::Stop));
            timers.push((at + us(d, p), usize::from(c), Sig::Cont { resume: false }));
        }
    }
    let mut errors = Vec::new();
    let mut over_sent = false;
    let give_up = shared.deadline + Duration::from_secs(10);
    loop {
        timers.sort_by_key(|t| t.0);
        while timers.first().is_some_and(|t| t.0 <= Instant::now()) {
            let (at, i, sig) = timers.remove(0);
            fire(agents, shared, i, sig, at);
        }
        if agents.procs.iter().all(|a| a.exited) {
            break;
        }
        // (An agent that ended early, on an error, is over too: nobody waits for it.)
        let over = agents.procs.iter().all(|a| a.finished || a.exited);
        if !over_sent && over && faults_done() {
            for i in 0..agents.procs.len() {
                agents.tell(i, "over");
            }
            over_sent = true;
        }
        let now = Instant::now();
        if now > give_up {
            errors.push(format!(
                "the run did not end within {} s",
                (give_up - t0).as_secs()
            ));
            break;
        }
        let next = timers
            .first()
            .map_or(now + Duration::from_millis(50), |t| t.0);
        let wait = next.min(now + Duration::from_millis(50)) - now;
        match agents.lines.recv_timeout(wait) {
            Ok((i, Some(line))) => {
                if let Some(e) = report((sc, p), agents, shared, i, &line, &mut timers) {
                    errors.push(e);
                }
            }
            Ok((i, None)) => agents.procs[i].exited = true,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    errors
}

/// Sends `sig` to agent `i`'s process group (due at `at`) and notes it.
fn fire(agents: &mut Agents, shared: &Shared, i: usize, sig: Sig, at: Instant) {
    let (pgid, name) = (agents.procs[i].pgid, agents.procs[i].name);
    let due = at.saturating_duration_since(shared.t0);
    match sig {
        Sig::Stop => {
            signal_group(pgid, libc::SIGSTOP);
            shared.note(
                &name.to_string(),
                format!("process {pgid} stopped (SIGSTOP)"),
            );
            shared.behind("conductor", due, &format!("SIGSTOP of {name}"));
        }
        Sig::Cont { resume } => {
            signal_group(pgid, libc::SIGCONT);
            shared.note(
                &name.to_string(),
                format!("process {pgid} continued (SIGCONT)"),
            );
            shared.behind("conductor", due, &format!("SIGCONT of {name}"));
            if resume {
                agents.tell(i, "resume");
            }
        }
    }
}

/// One line from agent `i`; an error line is returned.
fn report(
    (sc, p): (&Scenario, &[u64]),
    agents: &mut Agents,
    shared: &Shared,
    i: usize,
    line: &str,
    timers: &mut Vec<(Instant, usize, Sig)>,
) -> Option<String> {
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let n: Vec<i64> = rest
        .split_whitespace()
        .map_while(|w| w.parse().ok())
        .collect();
    let at = |us: i64| shared.t0 + Duration::from_micros(us.max(0) as u64);
    let c = i as u8;
    match (word, n.as_slice()) {
        ("note", [t, ..]) => {
            let text = rest.split_once(' ').map_or("", |x| x.1);
            let (who, text) = text.split_once(' ').unwrap_or(("?", text));
            shared.note_at(*t as u64, who, text);
        }
        ("late", [late, ..]) => {
            let what = rest.split_once(' ').map_or("", |x| x.1);
            shared.late(Duration::from_micros(*late as u64), what);
        }
        ("grant", [t]) => shared.with(|st| st.grants.push((*t as u64, c))),
        ("moment", [t, ..]) => {
            let what = rest.split_once(' ').map_or("", |x| x.1).to_string();
            shared.with(|st| st.run.moments.push((c, what, *t as u64)));
        }
        ("belief", [from, to]) => shared.with(|st| st.run.beliefs.push((c, at(*from), at(*to)))),
        ("write", [token, snapshot, value, debit, t, accepted]) => {
            let rec = WriteRecord {
                client: c,
                token: *token as u64,
                snapshot: *snapshot,
                value: *value,
                debit: *debit,
                t: SimTime(*t as u64),
                accepted: *accepted == 1,
                reason: None,
                stale: false,
            };
            shared.with(|st| st.run.writes.push(rec));
        }
        ("first", _) => {
            agents.procs[i].first = true;
            give_turns(sc, agents, p);
        }
        ("pause", [end]) => {
            fire(agents, shared, i, Sig::Stop, Instant::now());
            timers.push((at(*end), i, Sig::Cont { resume: true }));
        }
        ("hold", [until]) => {
            let link = agents.procs[i].storage_link.as_ref();
            if let Err(e) = arm_hold(link, shared.t0, *until as u64) {
                return Some(e);
            }
            agents.tell(i, "held");
        }
        ("finished", _) => agents.procs[i].finished = true,
        ("error", _) => return Some(rest.to_string()),
        ("exit", _) => {}
        _ => {
            return Some(format!(
                "client {}: unexpected line {line:?}",
                sc.client_name(c)
            ))
        }
    }
    None
}

/// Clients that start at the same instant take their first steps in declaration order: `turn` to
/// each whose earlier same-instant clients have all done theirs.
fn give_turns(sc: &Scenario, agents: &mut Agents, p: &[u64]) {
    let start = |j: usize| sc.clients[j].start.resolve(p);
    for i in 0..agents.procs.len() {
        let earlier: Vec<usize> = (0..i).filter(|&j| start(j) == start(i)).collect();
        if earlier.is_empty() || agents.procs[i].turn_sent {
            continue;
        }
        if earlier.iter().all(|&j| agents.procs[j].first) {
            agents.procs[i].turn_sent = true;
            agents.tell(i, "turn");
        }
    }
}
