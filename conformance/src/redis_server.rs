//! redis-server instances on loopback ports, each with its own directory (for its append-only file)
//! and, when a scenario steps its wall clock, its own clock (real/wallclock.rs): the redis lease's
//! server, and the nodes of a lock over several (real/redlock_lock.rs). A child process owned by a
//! guard whose `Drop` stops it.

use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::servers::{free_port, signal, wait_exit, wait_ready, Res, STOP_WITHIN};

/// What a redis node keeps across a crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persistence {
    /// `--save '' --appendonly no`: restarts empty.
    None,
    /// `--appendonly yes --appendfsync everysec`.
    EverySec,
    /// `--appendonly yes --appendfsync always`: every write is on disk before the reply.
    Always,
}

/// One redis-server on a loopback port, with its own directory (for the append-only file).
pub struct Redis {
    child: Option<Child>,
    pub port: u16,
    dir: PathBuf,
    persistence: Persistence,
    /// Extra environment (a steppable wall clock's, see real/wallclock.rs), kept for restarts.
    env: Vec<(OsString, OsString)>,
}

impl Redis {
    pub fn start(dir: PathBuf, persistence: Persistence) -> Res<Redis> {
        Redis::start_with(dir, persistence, Vec::new())
    }

    /// A redis-server whose process has `env` too (a wall clock of its own).
    pub fn start_with(
        dir: PathBuf,
        persistence: Persistence,
        env: Vec<(OsString, OsString)>,
    ) -> Res<Redis> {
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut r = Redis {
            child: None,
            port: free_port()?,
            dir,
            persistence,
            env,
        };
        r.spawn()?;
        Ok(r)
    }

    /// redis-server's arguments: loopback, this port and directory, this persistence.
    fn args(&self) -> Vec<OsString> {
        let mut a: Vec<OsString> = [
            "--port",
            &self.port.to_string(),
            "--bind",
            "127.0.0.1",
            "--daemonize",
            "no",
            "--save",
            "",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let mut path = |flag: &str, p: PathBuf| a.extend([flag.into(), p.into_os_string()]);
        path("--dir", self.dir.clone());
        path("--logfile", self.dir.join("redis.log"));
        path("--pidfile", self.dir.join("redis.pid"));
        let persist: &[&str] = match self.persistence {
            Persistence::None => &["--appendonly", "no"],
            Persistence::EverySec => &["--appendonly", "yes", "--appendfsync", "everysec"],
            Persistence::Always => &["--appendonly", "yes", "--appendfsync", "always"],
        };
        a.extend(persist.iter().map(OsString::from));
        a
    }

    fn spawn(&mut self) -> Res<()> {
        let log = self.dir.join("redis.log");
        let mut cmd = Command::new("redis-server");
        cmd.args(self.args()).envs(self.env.iter().cloned());
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot start redis-server: {e} (is it installed? run conformance/setup.sh)"
                )
            })?;
        self.child = Some(child);
        let port = self.port;
        let probe = || {
            let mut c = connect_redis(port, Duration::from_millis(200))?;
            redis::cmd("PING")
                .query::<String>(&mut c)
                .map_err(|e| e.to_string())
        };
        let what = format!("redis-server on port {port}");
        let every = Duration::from_millis(5);
        wait_ready(&mut self.child, (&what, &log), every, probe).map(drop)
    }

    /// A fresh connection with bounded connect, read and write times.
    pub fn connect(&self, timeout: Duration) -> Res<redis::Connection> {
        connect_redis(self.port, timeout)
    }

    /// A crash: SIGKILL, no chance to save anything beyond what its persistence already wrote.
    pub fn crash(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts it again on the same port and directory, and waits until it answers.
    pub fn restart(&mut self) -> Res<()> {
        self.crash();
        self.spawn()
    }

    /// Whether it runs on a wall clock of its own (one the scenario steps).
    pub fn has_own_clock(&self) -> bool {
        !self.env.is_empty()
    }

    /// A restart `delay` later by its own wall clock: a waiting process on that clock (this suite's
    /// `wall-wait`) that becomes the redis-server when the clock reads the mark. Returns at once;
    /// the node answers from then on.
    pub fn restart_after_wall_wait(&mut self, delay: Duration) -> Res<()> {
        self.crash();
        let exe = std::env::current_exe().map_err(|e| format!("own executable: {e}"))?;
        let child = Command::new(exe)
            .arg("wall-wait")
            .arg(delay.as_micros().to_string())
            .arg("redis-server")
            .args(self.args())
            .envs(self.env.iter().cloned())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the delayed restart: {e}"))?;
        self.child = Some(child);
        Ok(())
    }
}

pub fn connect_redis(port: u16, timeout: Duration) -> Res<redis::Connection> {
    use redis::IntoConnectionInfo;
    let info = format!("redis://127.0.0.1:{port}/")
        .into_connection_info()
        .map_err(|e| e.to_string())?;
    // No `CLIENT SETINFO` after connecting: a round trip of its own, which through a link with a
    // latency (a client's link to a node, see real/redlock_links.rs) would hold every round up.
    let settings = info.redis_settings().clone().set_skip_set_lib_name();
    let client =
        redis::Client::open(info.set_redis_settings(settings)).map_err(|e| e.to_string())?;
    let con = client
        .get_connection_with_timeout(timeout)
        .map_err(|e| format!("redis on port {port}: {e}"))?;
    con.set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    con.set_write_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    Ok(con)
}

impl Drop for Redis {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            // SIGTERM: redis exits at once (nothing to save: `--save ''`). Then SIGKILL if need be.
            signal(c.id(), "TERM");
            if !wait_exit(&mut c, STOP_WITHIN) {
                let _ = c.kill();
            }
            let _ = c.wait();
        }
    }
}
