//! Apache Curator for the Curator rows: Debian's Curator 5.4 (`libcurator-framework-java`,
//! `libcurator-recipes-java`) in a JVM of its own per client, over the suite's ZooKeeper (zk.rs).
//!
//! The client is conformance/curator/CuratorAgent.java, embedded in this binary and compiled by the
//! suite with `javac` into its work directory once per suite ([`build`]); nothing is installed. A
//! client's agent (real/agent.rs) starts its JVM ([`Agent::spawn`]) and drives it line by line (the
//! protocol is the Java file's head): `connect`, `lock`, `check`, `unlock`, `wait-lost`, `quit`; the
//! JVM reports each state Curator's `ConnectionStateListener` is told of with its CLOCK_MONOTONIC
//! time (`event STATE NANOS`), so the moments of SUSPENDED and LOST are Curator's own.
//!
//! The JVM dies with the client's agent: it is started through `setpriv --pdeathsig KILL` (the
//! kernel's PR_SET_PDEATHSIG, kept across the exec of `java`), it joins the agent's process group
//! (a TERM or KILL to the group reaches it), it leaves a pid file where conformance/run.sh's backstop
//! looks for ZooKeeper's client processes, and it exits when its stdin closes.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::servers::{run_bounded, tail, Res};

/// The client's source, compiled by the suite.
const SOURCE: &str = include_str!("../curator/CuratorAgent.java");
/// Debian's Curator jars; their manifests name the rest (curator-client, ZooKeeper, Guava, SLF4J).
const CLASSPATH: &str = "/usr/share/java/curator-framework.jar:/usr/share/java/curator-recipes.jar";
/// How long `javac` may take.
const COMPILE_WITHIN: Duration = Duration::from_secs(120);
/// How long a JVM may take to load Curator and say `ready`.
const READY_WITHIN: Duration = Duration::from_secs(30);

/// Compiles the client into `work/curator-agent` and returns the directory of its class.
pub fn build(work: &Path) -> Res<PathBuf> {
    let dir = work.join("curator-agent");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let src = dir.join("CuratorAgent.java");
    std::fs::write(&src, SOURCE).map_err(|e| format!("{}: {e}", src.display()))?;
    for jar in CLASSPATH.split(':') {
        if !Path::new(jar).is_file() {
            return Err(format!(
                "{jar} is missing: install libcurator-framework-java and libcurator-recipes-java (conformance/setup.sh does)"
            ));
        }
    }
    let mut javac = Command::new("javac");
    javac.arg("-d").arg(&dir).args(["-cp", CLASSPATH]).arg(&src);
    let log = dir.join("javac.log");
    run_bounded(javac, "javac (default-jdk-headless)", &log, COMPILE_WITHIN)
        .map_err(|e| format!("compiling the Curator client: {e}\n{}", tail(&log, 2000)))?;
    Ok(dir)
}

/// A connection state Curator reported, with its CLOCK_MONOTONIC time (ns).
pub struct Event {
    pub state: String,
    pub at_ns: u64,
}

/// One client's Curator JVM, seen from the client's agent.
pub struct Agent {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Connection states in the order Curator reported them (not yet taken by [`Agent::take_events`]).
    events: Vec<Event>,
    /// What its release thread said (`info` lines), for the transcript.
    pub infos: Vec<String>,
}

impl Agent {
    /// Starts the JVM with the classes in `classes`, its pid file and log in `dir`; returns once it is
    /// `ready` (Curator's classes loaded, not yet connected).
    pub fn spawn(classes: &Path, dir: &Path) -> Res<Agent> {
        let log = std::fs::File::create(dir.join(format!("curator-{}.log", std::process::id())))
            .map_err(|e| format!("curator log: {e}"))?;
        let cp = format!("{}:{CLASSPATH}", classes.display());
        let mut child = Command::new("setpriv")
            .args([
                "--pdeathsig",
                "KILL",
                "--",
                "java",
                "-Xmx128m",
                "-XX:TieredStopAtLevel=1",
            ])
            .args(["-cp", &cp, "CuratorAgent"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("start the Curator client (setpriv, java): {e}"))?;
        // Named as the ZooKeeper client processes are, where conformance/run.sh's backstop looks.
        let pid_file = dir.join(format!("zk-agent-{}.pid", child.id()));
        std::fs::write(pid_file, child.id().to_string()).map_err(|e| e.to_string())?;
        let stdin = child.stdin.take().ok_or("curator: no stdin")?;
        let stdout = child.stdout.take().ok_or("curator: no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut agent = Agent {
            child,
            stdin,
            lines,
            events: Vec::new(),
            infos: Vec::new(),
        };
        agent.answer("ready", READY_WITHIN)?;
        Ok(agent)
    }

    /// Keeps an `event` or `info` line; false for any other.
    fn keep(&mut self, line: &str) -> bool {
        if let Some(rest) = line.strip_prefix("event ") {
            let (state, at) = rest.split_once(' ').unwrap_or((rest, ""));
            let at_ns = at.parse().unwrap_or(0);
            let state = state.to_string();
            self.events.push(Event { state, at_ns });
            return true;
        }
        if let Some(rest) = line.strip_prefix("info ") {
            self.infos.push(rest.to_string());
            return true;
        }
        false
    }

    /// Waits (at most `within`) for a line that starts with `word`; events met on the way are kept.
    fn answer(&mut self, word: &str, within: Duration) -> Res<String> {
        let end = Instant::now() + within;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if self.keep(&l) => {}
                Ok(l) if l.starts_with(word) => return Ok(l[word.len()..].trim().to_string()),
                Ok(l) if l.starts_with("SLF4J") => {} // its logger's notice, on stdout
                Ok(l) => return Err(format!("curator: {}", l.trim_start_matches("err "))),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "curator: no {word:?} within {} ms",
                        within.as_millis()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("curator: the JVM ended".to_string())
                }
            }
        }
    }

    /// Sends `cmd` and waits (at most `within`) for its `ok` answer.
    pub fn ask(&mut self, cmd: &str, within: Duration) -> Res<String> {
        writeln!(self.stdin, "{cmd}").map_err(|e| format!("curator {cmd}: {e}"))?;
        self.answer("ok", within).map_err(|e| format!("{cmd}: {e}"))
    }

    /// The connection states reported so far and not yet taken (without waiting).
    pub fn take_events(&mut self) -> Vec<Event> {
        while let Ok(l) = self.lines.try_recv() {
            self.keep(&l);
        }
        std::mem::take(&mut self.events)
    }
}

impl Drop for Agent {
    /// `quit` (Curator closes its client), then a bounded wait, then SIGKILL.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        if !crate::servers::wait_exit(&mut self.child, Duration::from_secs(3)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
