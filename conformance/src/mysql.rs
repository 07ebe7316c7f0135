//! MySQL's `GET_LOCK` rows: a throwaway MariaDB server of the suite's own (Debian's `mariadb-server`),
//! `mariadb-install-db` into the work directory and `mariadbd` on a free loopback port, run as the
//! unprivileged `mysql` account when we are root; and the connection the clients and the probe use
//! (the `mysql` crate, synchronous, no TLS, no reconnect). Started only when a MariaDB row runs,
//! stopped (SIGTERM, then SIGKILL) and its directory removed with the work directory on the way out.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use mysql::prelude::Queryable;

use crate::servers::{
    free_port, own_dir, run_as, run_bounded, server_account, signal, wait_exit, wait_ready, Res,
    STOP_WITHIN,
};

/// A server binary in `PATH` or in `/usr/sbin` (Debian's `mariadbd` is there, outside a user's PATH).
fn binary(name: &str) -> Res<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("{name} is missing; run conformance/setup.sh (mariadb-server)"))
}

/// The settings both `mariadb-install-db` and the server run with: no option files (`--no-defaults`),
/// small InnoDB buffers for a fast start (the data is one counter row), no binary log.
fn common_args(dir: &Path) -> Vec<String> {
    let at = |f: &str| dir.join(f).display().to_string();
    vec![
        "--no-defaults".into(),
        format!("--datadir={}", at("data")),
        "--innodb-buffer-pool-size=8M".into(),
        "--innodb-log-file-size=8M".into(),
        "--skip-name-resolve".into(),
    ]
}

/// A MariaDB server in `dir` (data, socket and pid file there), on 127.0.0.1 only; its `root` has no
/// password and connects over TCP from 127.0.0.1.
pub struct Mariadb {
    child: Option<Child>,
    pub port: u16,
    pub version: String,
    log: PathBuf,
}

impl Mariadb {
    pub fn start(dir: &Path) -> Res<Mariadb> {
        let account = server_account("mysql", "MariaDB as")?;
        own_dir(dir, account)?;
        let mut install = Command::new(binary("mariadb-install-db")?);
        install
            .args(common_args(dir))
            .args(["--auth-root-authentication-method=normal", "--skip-test-db"]);
        run_as(&mut install, account);
        let parent = dir.parent().unwrap_or(dir);
        let log = parent.join("mariadb.log");
        run_bounded(
            install,
            "mariadb-install-db",
            &parent.join("mariadb-install.log"),
            Duration::from_secs(120),
        )?;
        let port = free_port()?;
        let out = File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let mut cmd = Command::new(binary("mariadbd")?);
        cmd.args(common_args(dir)).args([
            "--skip-networking=0".to_string(),
            "--bind-address=127.0.0.1".into(),
            format!("--port={port}"),
            format!("--socket={}", dir.join("mariadb.sock").display()),
            format!("--pid-file={}", dir.join("mariadb.pid").display()),
            "--skip-log-bin".into(),
            "--max-connections=60".into(),
            // A throwaway server: durability buys nothing here and costs time.
            "--innodb-flush-log-at-trx-commit=0".into(),
            "--innodb-doublewrite=0".into(),
        ]);
        run_as(&mut cmd, account);
        let child = cmd
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start mariadbd: {e}"))?;
        let mut m = Mariadb {
            child: Some(child),
            port,
            version: String::new(),
            log,
        };
        m.wait_ready()?;
        Ok(m)
    }

    /// Waits (bounded) until the server accepts a connection (and says its version); an early exit
    /// is an error with its log.
    fn wait_ready(&mut self) -> Res<()> {
        let port = self.port;
        let probe = || {
            let mut c = connect(port)?;
            c.query_first::<String, _>("SELECT VERSION()")
                .map_err(|e| e.to_string())
        };
        let every = Duration::from_millis(50);
        let version = wait_ready(&mut self.child, ("mariadbd", &self.log), every, probe)?;
        self.version = version.unwrap_or_default();
        Ok(())
    }
}

impl Drop for Mariadb {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            // SIGTERM: a normal shutdown (the connections end, InnoDB stops). Then SIGKILL if need be.
            signal(c.id(), "TERM");
            if !wait_exit(&mut c, STOP_WITHIN) {
                let _ = c.kill();
            }
            let _ = c.wait();
        }
    }
}

/// A connection to the MariaDB on `port` as `root`, over TCP (never the server's Unix socket: the
/// crate's `prefer_socket` is off), with bounded connect, read and write times. The crate's `Conn`
/// never reconnects by itself: a killed connection stays dead (the probe checks it).
pub fn connect(port: u16) -> Res<mysql::Conn> {
    connect_with(port, Duration::from_secs(60))
}

/// As [`connect`], with a read timeout of `read` (longer than any `GET_LOCK` it will wait in).
pub fn connect_with(port: u16, read: Duration) -> Res<mysql::Conn> {
    let opts = mysql::OptsBuilder::new()
        .ip_or_hostname(Some("127.0.0.1"))
        .tcp_port(port)
        .user(Some("root"))
        .prefer_socket(false)
        .tcp_connect_timeout(Some(Duration::from_secs(5)))
        .read_timeout(Some(read))
        .write_timeout(Some(Duration::from_secs(10)))
        .stmt_cache_size(0);
    mysql::Conn::new(opts).map_err(|e| format!("connect to MariaDB on port {port}: {e}"))
}
