//! A real ZooKeeper for the ZooKeeper rows: Debian's `zookeeper` (3.8) run standalone on a free loopback
//! port in the work directory and killed on the way out; and each client's session in a process of its
//! own, so that the client's pause is what the story says it is: the process stopped from outside
//! (`SIGSTOP` … `SIGCONT`), its pings stopped with it.
//!
//! The session process is this binary run as `leaselab-conformance zk-agent` ([`agent_main`]), a real
//! ZooKeeper client from crates.io (`zookeeper`) driven line by line over its stdin and stdout:
//!
//! ```text
//! connect ADDR MS   → ok connected           (a session with timeout MS)
//! lock              → ok held CZXID PATH SESSION  (the recipe: ephemeral sequential node, lowest
//!                                             holds, a waiter watches its predecessor; blocks until held)
//! unlock            → ok deleted | err WHY   (deletes the node)
//! quit              → (closes the session and exits)
//! ```
//!
//! and `event STATE` lines whenever the client's connection state changes. In a scripted run the
//! session process is started by the client's own agent process (real/agent.rs) and joins its process
//! group, so the conductor's SIGSTOP of the client stops its session's pings too.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::servers::{free_port, tail, Res};

/// The lock's node; every client's ephemeral sequential node goes under it.
const LOCK_PATH: &str = "/leaselab-lock";
/// Where Debian puts the server and its client library.
const JAR: &str = "/usr/share/java/zookeeper.jar";

/// A throwaway standalone ZooKeeper server.
pub struct Server {
    pub port: u16,
    /// Its directory: the session processes' pid files go there too (conformance/run.sh's backstop).
    pub dir: PathBuf,
    /// As the server reports it (`3.8.0`).
    pub version: String,
    child: Child,
    log: PathBuf,
}

impl Server {
    /// Starts ZooKeeper with its data in `dir` and the given tick, and waits (bounded) until it serves.
    /// The lock's parent node is created here, before any session: the rows' zxids then count only the
    /// clients' own transactions after it.
    pub fn start(dir: PathBuf, tick: Duration) -> Res<Server> {
        std::fs::create_dir_all(dir.join("data")).map_err(|e| format!("zookeeper dir: {e}"))?;
        let port = free_port()?;
        let tick_ms = tick.as_millis();
        let cfg = dir.join("zoo.cfg");
        let text = format!(
            "tickTime={tick_ms}\ndataDir={}\nclientPort={port}\nclientPortAddress=127.0.0.1\n\
             admin.enableServer=false\n4lw.commands.whitelist=srvr\n\
             minSessionTimeout={}\nmaxSessionTimeout={}\n",
            dir.join("data").display(),
            2 * tick_ms,
            20 * tick_ms
        );
        std::fs::write(&cfg, text).map_err(|e| format!("zoo.cfg: {e}"))?;
        let log = dir.join("zookeeper.log");
        let out = std::fs::File::create(&log).map_err(|e| format!("zookeeper log: {e}"))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new("java")
            .args(["-Xmx256m", "-cp", JAR])
            .arg("org.apache.zookeeper.server.ZooKeeperServerMain")
            .arg(&cfg)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("start zookeeper: {e} (is the zookeeper package installed?)"))?;
        std::fs::write(dir.join("zookeeper.pid"), child.id().to_string())
            .map_err(|e| e.to_string())?;
        let mut server = Server {
            port,
            dir: dir.clone(),
            version: String::new(),
            child,
            log,
        };
        server.wait_serving(Duration::from_secs(30))?;
        server.version = version(port);
        let mut setup = Agent::spawn(&server)?;
        setup.connect(Duration::from_millis(20 * tick_ms as u64))?;
        setup.ask("mkparent", Duration::from_secs(5))?;
        Ok(server)
    }

    fn wait_serving(&self, within: Duration) -> Res<()> {
        let end = Instant::now() + within;
        while Instant::now() < end {
            if srvr(self.port).is_ok_and(|s| s.contains("Mode: standalone")) {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(format!(
            "zookeeper did not serve within {} s:\n{}",
            within.as_secs(),
            tail(&self.log, 2000)
        ))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The four-letter `srvr` command's answer (version, mode, zxid).
fn srvr(port: u16) -> Res<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(2)))
        .map_err(|e| e.to_string())?;
    s.write_all(b"srvr").map_err(|e| e.to_string())?;
    let mut out = String::new();
    s.read_to_string(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// The server's version, as `srvr` reports it (`3.8.0`), or empty when it cannot be asked.
fn version(port: u16) -> String {
    srvr(port)
        .ok()
        .and_then(|s| {
            let line = s.lines().next()?.to_string();
            let v = line.strip_prefix("Zookeeper version: ")?;
            Some(v.split(['-', ',']).next()?.to_string())
        })
        .unwrap_or_default()
}

/// One client's session process, seen from the conductor.
pub struct Agent {
    port: u16,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Connection-state changes the client reported, for the transcript.
    pub events: Vec<String>,
}

impl Agent {
    /// Starts a session process for `server` (not yet connected: see [`Agent::connect`]).
    pub fn spawn(server: &Server) -> Res<Agent> {
        Agent::spawn_at(server.port, server.dir.clone())
    }

    /// The same for the server on `port` whose directory is `dir` (from a client agent's process,
    /// whose process group this one joins: a pause stops both).
    pub fn spawn_at(port: u16, dir: PathBuf) -> Res<Agent> {
        let exe = std::env::current_exe().map_err(|e| format!("own executable: {e}"))?;
        let mut child = Command::new(exe)
            .arg("zk-agent")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("start zk-agent: {e}"))?;
        let pid_file = dir.join(format!("zk-agent-{}.pid", child.id()));
        std::fs::write(pid_file, child.id().to_string()).map_err(|e| e.to_string())?;
        let stdin = child.stdin.take().ok_or("zk-agent: no stdin")?;
        let stdout = child.stdout.take().ok_or("zk-agent: no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Ok(Agent {
            port,
            child,
            stdin,
            lines,
            events: Vec::new(),
        })
    }

    /// The process's id, for the signals.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `cmd` and waits (at most `within`) for its answer; `event` lines met on the way are kept.
    fn ask(&mut self, cmd: &str, within: Duration) -> Res<String> {
        writeln!(self.stdin, "{cmd}").map_err(|e| format!("zk-agent {cmd}: {e}"))?;
        let end = Instant::now() + within;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.starts_with("event ") => self.events.push(l[6..].to_string()),
                Ok(l) if l.starts_with("ok") => return Ok(l[2..].trim().to_string()),
                Ok(l) => return Err(format!("zk-agent {cmd}: {}", l.trim_start_matches("err "))),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "zk-agent {cmd}: no answer within {} ms",
                        within.as_millis()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("zk-agent {cmd}: the process ended"))
                }
            }
        }
    }

    /// Opens the session (returns once it is established).
    pub fn connect(&mut self, timeout: Duration) -> Res<()> {
        let cmd = format!("connect 127.0.0.1:{} {}", self.port, timeout.as_millis());
        self.ask(&cmd, Duration::from_secs(10)).map(|_| ())
    }

    /// The lock recipe; blocks (at most `within`) until this client's node is the lowest. Returns the
    /// node's czxid, its path and the session's id (hex).
    pub fn lock(&mut self, within: Duration) -> Res<(i64, String, String)> {
        let s = self.ask("lock", within)?;
        let w: Vec<&str> = s.split_whitespace().collect();
        match (w.as_slice(), w.get(1).and_then(|z| z.parse().ok())) {
            (["held", _, path, session], Some(czxid)) => {
                Ok((czxid, path.to_string(), session.to_string()))
            }
            _ => Err(format!("zk-agent lock: unexpected answer {s:?}")),
        }
    }

    /// Deletes this client's node. An error (the session expired, say) is the server's answer, not a
    /// failure of the run.
    pub fn unlock(&mut self) -> Result<String, String> {
        self.ask("unlock", Duration::from_secs(10))
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = signal("-CONT", self.pid());
        let _ = writeln!(self.stdin, "quit");
        let end = Instant::now() + Duration::from_secs(3);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn signal(sig: &str, pid: u32) -> Res<()> {
    let ok = Command::new("kill")
        .arg(sig)
        .arg(pid.to_string())
        .status()
        .map_err(|e| format!("kill {sig}: {e}"))?
        .success();
    ok.then_some(())
        .ok_or_else(|| format!("kill {sig} {pid} failed"))
}

pub use agent::agent_main;

/// The session process's side.
mod agent {
    use super::LOCK_PATH;
    use std::io::{BufRead, Write};
    use std::process::ExitCode;
    use std::sync::mpsc::channel;
    use std::time::Duration;
    use zookeeper::{Acl, CreateMode, WatchedEvent, ZkError, ZooKeeper};

    fn say(line: &str) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    /// `leaselab-conformance zk-agent`: one ZooKeeper session, driven over stdin (see the module).
    pub fn agent_main() -> ExitCode {
        crate::real::die_with_parent();
        let mut zk: Option<ZooKeeper> = None;
        let mut mine: Option<String> = None;
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let answer = match (words.as_slice(), &zk) {
                (["connect", addr, ms], None) => connect(addr, ms).map(|z| {
                    zk = Some(z);
                    "connected".into()
                }),
                (["mkparent"], Some(z)) => mkparent(z).map(|()| "parent".into()),
                (["lock"], Some(z)) => lock(z).map(|(czxid, owner, path)| {
                    mine = Some(path.clone());
                    format!("held {czxid} {path} {owner:x}")
                }),
                (["unlock"], Some(z)) => match mine.take() {
                    Some(p) => z.delete(&p, None).map(|()| "deleted".into()).map_err(err),
                    None => Err("no node to delete".into()),
                },
                (["quit"], _) => break,
                _ => Err(format!("unexpected command {line:?}")),
            };
            match answer {
                Ok(s) => say(&format!("ok {s}")),
                Err(e) => say(&format!("err {e}")),
            }
        }
        if let Some(z) = zk {
            let _ = z.close();
        }
        ExitCode::SUCCESS
    }

    fn err(e: ZkError) -> String {
        format!("{e:?}")
    }

    fn connect(addr: &str, ms: &str) -> Result<ZooKeeper, String> {
        let ms: u64 = ms.parse().map_err(|_| format!("bad timeout {ms:?}"))?;
        let watcher = |e: WatchedEvent| say(&format!("event {:?}", e.keeper_state));
        let z = ZooKeeper::connect(addr, Duration::from_millis(ms), watcher).map_err(err)?;
        // A first request waits for the session to be established.
        z.exists("/", false).map_err(err)?;
        Ok(z)
    }

    fn mkparent(z: &ZooKeeper) -> Result<(), String> {
        match z.create(
            LOCK_PATH,
            vec![],
            Acl::open_unsafe().clone(),
            CreateMode::Persistent,
        ) {
            Ok(_) | Err(ZkError::NodeExists) => Ok(()),
            Err(e) => Err(err(e)),
        }
    }

    /// The lock recipe (ZooKeeper's "Locks", as Curator's InterProcessMutex runs it): create an
    /// ephemeral sequential node; the lowest holds the lock; otherwise watch the node just before this
    /// one and look again when it goes.
    fn lock(z: &ZooKeeper) -> Result<(i64, i64, String), String> {
        let path = z
            .create(
                &format!("{LOCK_PATH}/lock-"),
                vec![],
                Acl::open_unsafe().clone(),
                CreateMode::EphemeralSequential,
            )
            .map_err(err)?;
        let name = path.rsplit('/').next().unwrap_or_default().to_string();
        loop {
            let mut children = z.get_children(LOCK_PATH, false).map_err(err)?;
            children.sort();
            let at = children
                .iter()
                .position(|c| *c == name)
                .ok_or("this client's node is gone")?;
            if at == 0 {
                let stat = z.exists(&path, false).map_err(err)?.ok_or("node gone")?;
                return Ok((stat.czxid, stat.ephemeral_owner, path));
            }
            let before = format!("{LOCK_PATH}/{}", children[at - 1]);
            let (tx, rx) = channel();
            let watched = z
                .exists_w(&before, move |_: WatchedEvent| {
                    let _ = tx.send(());
                })
                .map_err(err)?;
            if watched.is_some() {
                let _ = rx.recv();
            }
        }
    }
}
