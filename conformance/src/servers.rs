//! Throwaway servers on loopback ports: the PostgreSQL cluster of the storage (initdb into the work
//! directory, run as an unprivileged user when we are root, since initdb refuses root), and what every
//! server of the suite shares (a free port, a bounded wait for its start, an account, a log's tail).
//! Each service's own server is in a file named for the service (redis_server.rs, for one).
//! Each server is a child process owned by a guard whose `Drop` stops it, so they go away on success,
//! on failure and on a panic. Every wait here is bounded.

use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom};
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How long a server may take to answer after it was started.
pub(crate) const READY_WITHIN: Duration = Duration::from_secs(30);
/// How long a server may take to stop before it is killed.
pub(crate) const STOP_WITHIN: Duration = Duration::from_secs(15);

pub type Res<T> = Result<T, String>;

/// A free TCP port on 127.0.0.1 (the OS picks it; we close it again and the server binds it).
pub fn free_port() -> Res<u16> {
    let l = TcpListener::bind("127.0.0.1:0")
        .map_err(|e| format!("cannot bind a loopback port: {e}"))?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// Waits for `child` to exit, at most `within`; true if it did.
pub(crate) fn wait_exit(child: &mut Child, within: Duration) -> bool {
    let end = Instant::now() + within;
    loop {
        match child.try_wait() {
            Ok(Some(_)) | Err(_) => return true,
            Ok(None) if Instant::now() >= end => return false,
            Ok(None) => sleep(Duration::from_millis(20)),
        }
    }
}

/// Sends `signal` (a name such as `INT`) to a process we started.
pub(crate) fn signal(pid: u32, signal: &str) {
    let _ = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .stderr(Stdio::null())
        .status();
}

/// Runs a command to completion within `within`, or kills it. Its output goes to `log`.
pub(crate) fn run_bounded(mut cmd: Command, what: &str, log: &Path, within: Duration) -> Res<()> {
    let out = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let mut child = cmd
        .stdout(out)
        .stderr(err)
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if !wait_exit(&mut child, within) {
        let _ = child.kill();
        let _ = child.wait();
        return Err(format!(
            "{what} did not finish within {}s (log: {})",
            within.as_secs(),
            log.display()
        ));
    }
    match child.wait() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!(
            "{what} failed ({s}); its output:\n{}",
            tail(log, 2000)
        )),
        Err(e) => Err(format!("{what}: {e}")),
    }
}

/// Waits (bounded by [`READY_WITHIN`]) until a server we just started answers `probe`, trying every
/// `every`, and returns the answer. If `child` exits first it is forgotten (`None`) and that is an
/// error with the tail of its `log`, as is no answer in time. `what` names the server in the errors.
pub(crate) fn wait_ready<T>(
    child: &mut Option<Child>,
    (what, log): (&str, &Path),
    every: Duration,
    mut probe: impl FnMut() -> Res<T>,
) -> Res<T> {
    let end = Instant::now() + READY_WITHIN;
    loop {
        if let Some(Ok(Some(status))) = child.as_mut().map(Child::try_wait) {
            *child = None;
            return Err(format!(
                "{what} exited at start ({status}); its log:\n{}",
                tail(log, 2000)
            ));
        }
        match probe() {
            Ok(answer) => return Ok(answer),
            Err(e) if Instant::now() >= end => {
                return Err(format!(
                    "{what} did not answer within {}s: {e}; its log:\n{}",
                    READY_WITHIN.as_secs(),
                    tail(log, 2000)
                ))
            }
            Err(_) => sleep(every),
        }
    }
}

/// The last `max` bytes of a log file, for error messages.
pub fn tail(path: &Path, max: u64) -> String {
    let Ok(mut f) = File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(max)));
    let mut s = String::new();
    let _ = f.read_to_string(&mut s);
    s
}

/// The unprivileged account a server runs as when we are root: `(uid, gid)` of `user` (`None` when
/// we are not root: the server runs as we do).
pub(crate) fn server_account(user: &str, why: &str) -> Res<Option<(u32, u32)>> {
    let me = Command::new("id")
        .arg("-u")
        .output()
        .map_err(|e| format!("id -u: {e}"))?;
    if String::from_utf8_lossy(&me.stdout).trim() != "0" {
        return Ok(None);
    }
    let passwd = fs::read_to_string("/etc/passwd").map_err(|e| format!("/etc/passwd: {e}"))?;
    for line in passwd.lines() {
        let f: Vec<&str> = line.split(':').collect();
        if f.len() > 3 && f[0] == user {
            let uid = f[2]
                .parse()
                .map_err(|_| format!("bad uid for {user} in /etc/passwd"))?;
            let gid = f[3]
                .parse()
                .map_err(|_| format!("bad gid for {user} in /etc/passwd"))?;
            return Ok(Some((uid, gid)));
        }
    }
    Err(format!(
        "running as root, and there is no `{user}` user to run {why}; run conformance/setup.sh"
    ))
}

/// The unprivileged account PostgreSQL runs as when we are root: `(uid, gid)` of `postgres`.
fn postgres_account() -> Res<Option<(u32, u32)>> {
    server_account("postgres", "PostgreSQL as (initdb refuses root)")
}

/// A directory `dir` of mode 0700 owned by `account` (when we are root and it is given).
pub(crate) fn own_dir(dir: &Path, account: Option<(u32, u32)>) -> Res<()> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700)).map_err(|e| e.to_string())?;
    if let Some((uid, gid)) = account {
        std::os::unix::fs::chown(dir, Some(uid), Some(gid))
            .map_err(|e| format!("chown {}: {e}", dir.display()))?;
    }
    Ok(())
}

/// Runs `cmd` as `account` (when given: we are root), from a directory it can read.
pub(crate) fn run_as(cmd: &mut Command, account: Option<(u32, u32)>) {
    if let Some((uid, gid)) = account {
        cmd.uid(uid)
            .gid(gid)
            .env("HOME", "/tmp")
            .current_dir("/tmp");
    }
}

/// The newest PostgreSQL server binaries Debian installed (`/usr/lib/postgresql/N/bin`).
fn postgres_bin() -> Res<PathBuf> {
    let mut best: Option<(u32, PathBuf)> = None;
    if let Ok(dir) = fs::read_dir("/usr/lib/postgresql") {
        for e in dir.flatten() {
            let bin = e.path().join("bin");
            let v = e.file_name().to_string_lossy().parse::<u32>().unwrap_or(0);
            if bin.join("initdb").exists()
                && bin.join("postgres").exists()
                && best.as_ref().is_none_or(|b| v > b.0)
            {
                best = Some((v, bin));
            }
        }
    }
    best.map(|b| b.1).ok_or_else(|| "PostgreSQL's server binaries are missing (no /usr/lib/postgresql/N/bin/initdb); run conformance/setup.sh".into())
}

/// `initdb` of a throwaway cluster in `data` (as `as_user` says), bounded in time.
fn initdb(bin: &Path, data: &Path, work: &Path, as_user: &dyn Fn(&mut Command)) -> Res<()> {
    let mut initdb = Command::new(bin.join("initdb"));
    initdb.arg("-D").arg(data).args([
        "-U",
        "postgres",
        "-A",
        "trust",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync",
        "--no-instructions",
    ]);
    as_user(&mut initdb);
    run_bounded(
        initdb,
        "initdb",
        &work.join("initdb.log"),
        Duration::from_secs(120),
    )
}

/// A PostgreSQL cluster in `dir`, listening on 127.0.0.1 only (no Unix socket), trust authentication.
pub struct Postgres {
    child: Option<Child>,
    pub port: u16,
    pub version: String,
    log: PathBuf,
}

impl Postgres {
    pub fn start(work: &Path) -> Res<Postgres> {
        let bin = postgres_bin()?;
        let account = postgres_account()?;
        let data = work.join("pg-data");
        own_dir(&data, account)?;
        let as_user = |cmd: &mut Command| run_as(cmd, account);
        initdb(&bin, &data, work, &as_user)?;

        let version = fs::read_to_string(data.join("PG_VERSION"))
            .unwrap_or_default()
            .trim()
            .to_string();
        let port = free_port()?;
        let log = work.join("postgres.log");
        let out = File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let mut cmd = Command::new(bin.join("postgres"));
        cmd.arg("-D").arg(&data).arg("-p").arg(port.to_string());
        for setting in [
            "listen_addresses=127.0.0.1",
            "unix_socket_directories=",
            "max_connections=40",
            // A throwaway cluster: durability buys nothing here and costs time.
            "fsync=off",
            "synchronous_commit=off",
            "full_page_writes=off",
            "log_min_messages=warning",
        ] {
            cmd.arg("-c").arg(setting);
        }
        as_user(&mut cmd);
        let child = cmd
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start postgres: {e}"))?;
        let mut pg = Postgres {
            child: Some(child),
            port,
            version,
            log,
        };
        pg.wait_ready()?;
        Ok(pg)
    }

    /// Waits (bounded) until the server accepts connections; an early exit is an error with its log.
    fn wait_ready(&mut self) -> Res<()> {
        let port = self.port;
        let probe = || connect_pg(port, "postgres", "ready-check");
        let every = Duration::from_millis(100);
        wait_ready(&mut self.child, ("postgres", &self.log), every, probe).map(drop)
    }

    /// A connection to database `db`. Every statement is bounded by `statement_timeout` on the server,
    /// and the socket by a connect timeout.
    pub fn connect(&self, db: &str, app: &str) -> Res<postgres::Client> {
        connect_pg(self.port, db, app)
    }
}

/// A connection to the PostgreSQL on `port` (what a client agent, which has only the port, uses).
pub fn connect_pg(port: u16, db: &str, app: &str) -> Res<postgres::Client> {
    postgres::Config::new()
        .host("127.0.0.1")
        .port(port)
        .user("postgres")
        .dbname(db)
        .application_name(app)
        .connect_timeout(Duration::from_secs(5))
        .options("-c statement_timeout=20000 -c lock_timeout=20000")
        .connect(postgres::NoTls)
        .map_err(|e| format!("connect to postgres (db {db}): {e}"))
}

impl Drop for Postgres {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            // SIGINT: PostgreSQL's fast shutdown (ends the sessions, then exits). Then SIGKILL if need be.
            signal(c.id(), "INT");
            if !wait_exit(&mut c, STOP_WITHIN) {
                let _ = c.kill();
            }
            let _ = c.wait();
        }
    }
}

/// The suite's scratch directory: removed on drop (after the servers in it have stopped: declare it
/// before them, so it drops after them).
pub struct WorkDir {
    pub path: PathBuf,
    keep: bool,
}

impl WorkDir {
    /// `given`: a directory made by the caller (conformance/run.sh, whose trap is the backstop); else
    /// a fresh one under the system's temporary directory.
    pub fn new(given: Option<PathBuf>) -> Res<WorkDir> {
        let path = match given {
            Some(p) => p,
            None => {
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.subsec_nanos())
                    .unwrap_or(0);
                std::env::temp_dir().join(format!(
                    "leaselab-conformance-{}-{nanos}",
                    std::process::id()
                ))
            }
        };
        fs::create_dir_all(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        // PostgreSQL runs as another user when we are root: it must be able to reach its data directory.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o711))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(WorkDir {
            path,
            keep: std::env::var_os("CONFORMANCE_KEEP").is_some(),
        })
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}
