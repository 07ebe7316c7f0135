//! MySQL's `GET_LOCK`, the client side, against the suite's MariaDB: a named lock held by the
//! client's own connection (`GET_LOCK(name, timeout)`, `RELEASE_LOCK(name)`), freed by the server
//! when that connection ends (closed, `KILL CONNECTION`, or dropped after `wait_timeout` of silence).
//! A fence token, for a fenced policy, comes from a counter row in MariaDB taken through the same
//! connection right after the grant (`UPDATE fence SET n = LAST_INSERT_ID(n + 1)`, then
//! `SELECT LAST_INSERT_ID()`): the connection id is no fence (ids are handed out at connect, not
//! at a grant). The storage stays PostgreSQL's table, as for every other row: the lock and the data
//! are two systems, which is the story.

//!
//! Its server is one MariaDB for the suite (mysql.rs), started before the first MySQL row: GET_LOCK's
//! state is its connections', gone with them. `terminate A` is `KILL CONNECTION` of A's lock
//! connection. What the rows rest on is measured by `leaselab-conformance mariadb-probe`
//! (mysql_probe.rs).

use std::any::Any;
use std::path::Path;
use std::process::ExitCode;
use std::thread::sleep;
use std::time::{Duration, Instant};

use leaselab::scenario::{FaultAction, Scenario, ServiceKind};
use leaselab::store::Policy;
use mysql::prelude::Queryable;

use super::player::{Client, Held, Stop};
use super::record::Shared;
use super::service::{Attempt, Conn, LockServers, RealService};
use super::{us, Setup};
use crate::cases::{case, Case};
use crate::coverage::{not_run, real, Component, Entry};
use crate::mysql::{connect_with, Mariadb};
use crate::servers::Res;

/// MySQL's `GET_LOCK`, on MariaDB.
pub struct MysqlGetLock;

/// The suite's MariaDB, as an attempt uses it.
struct MariadbPort(u16);

/// The real component its rows run on (coverage.rs).
pub(crate) const MARIADB: Component = Component {
    name: "MariaDB",
    version: "10.11",
    from: "Debian 12 `mariadb-server`",
};

/// Its catalogue scenarios in the table of what each runs on (coverage.rs's format).
static COVERAGE: &[Entry] = &[
    real("mysql-get-lock-pause", &MARIADB, "`GET_LOCK`, `wait_timeout`; SIGSTOP"),
    not_run("table-mysql", "MariaDB is here, but the base run is 60 s of a held lock with no fault: over a minute more for what the `mysql-get-lock-pause` rows check with faults"),
];

impl RealService for MysqlGetLock {
    fn coverage(&self) -> &'static [Entry] {
        COVERAGE
    }

    fn kinds(&self) -> &'static [ServiceKind] {
        &[ServiceKind::Mysql]
    }

    fn scenario_text(&self, id: &str) -> Option<&'static str> {
        Some(match id {
            "mysql-get-lock-pause" => {
                include_str!("../../../crate/scenarios/mysql-get-lock-pause.txt")
            }
            _ => return None,
        })
    }

    fn cases(&self) -> Vec<Case> {
        cases()
    }

    /// What the rows rest on, measured against the installed MariaDB (see mysql_probe.rs).
    fn subcommand(&self, name: &str, rest: &[String]) -> Option<ExitCode> {
        match name {
            "mariadb-probe" => Some(crate::mysql_probe::probe_main()),
            "mariadb-probe-holder" => Some(crate::mysql_probe::holder_main(rest)),
            _ => None,
        }
    }

    fn unsupported(&self, sc: &Scenario, setup: &Setup) -> Option<&'static str> {
        let idle = sc.service.idle.resolve(&setup.params);
        (!idle.is_multiple_of(1_000_000))
            .then_some("a MySQL wait_timeout that is not whole seconds")
    }

    fn plays_fault(&self, action: &FaultAction) -> bool {
        matches!(action, FaultAction::Terminate(_))
    }

    fn start_for_suite(&self, work: &Path) -> Res<Option<Box<dyn Any>>> {
        let m = Mariadb::start(&work.join("mariadb"))?;
        eprintln!("conformance: MariaDB {} on 127.0.0.1:{}", m.version, m.port);
        Ok(Some(Box::new(m)))
    }

    fn start<'a>(&self, at: &Attempt<'_, 'a>) -> Res<Box<dyn LockServers + 'a>> {
        let m = at.suite.and_then(|s| s.downcast_ref::<Mariadb>());
        Ok(Box::new(MariadbPort(
            m.ok_or("MariaDB is not running")?.port,
        )))
    }

    /// The lock's own connection, with the scenario's wait_timeout (whole seconds) set on it from
    /// the start; its id, said to the conductor, is what `terminate` kills.
    fn connect(&self, sc: &Scenario, setup: &Setup, _name: char, spec: &str) -> Res<Conn> {
        let port = spec
            .parse()
            .map_err(|_| format!("bad MariaDB spec {spec:?}"))?;
        let wait = Some(sc.service.idle.resolve(&setup.params) / 1_000_000).filter(|&s| s > 0);
        let lock = MysqlLock::connect(port, wait)?;
        super::agent::say(&format!("pid {}", lock.id()));
        Ok(Conn {
            session: None,
            state: Box::new(lock),
        })
    }

    fn blocks(&self) -> bool {
        true
    }

    fn try_acquire(&self, c: &mut Client, value: i64) -> Result<Option<Held>, Stop> {
        c.mysql_try_acquire(value)
    }

    fn release(&self, c: &mut Client, _h: Held) -> Result<(), Stop> {
        c.mysql_release()
    }
}

impl LockServers for MariadbPort {
    fn prepare(&mut self, first_token: u64) -> Res<()> {
        reset(self.0, first_token)
    }

    fn agent_spec(&self, _client: usize) -> String {
        self.0.to_string()
    }

    /// `terminate`: `KILL CONNECTION` of the client's lock connection (its id, as its agent said).
    fn fault(
        &mut self,
        sc: &Scenario,
        _p: &[u64],
        action: FaultAction,
        at: Duration,
        shared: &Shared,
    ) -> Res<()> {
        let FaultAction::Terminate(c) = action else {
            return Err("unsupported fault".into());
        };
        let id = shared
            .with(|st| st.pids[usize::from(c)])
            .ok_or("terminate: the client has no MariaDB connection")?;
        kill(self.0, id as u32)?;
        let name = sc.client_name(c);
        shared.note("admin", format!("KILL CONNECTION {id} ({name}'s)"));
        shared.behind("admin", at, "terminate");
        Ok(())
    }
}

/// MySQL's `GET_LOCK` on a real MariaDB (see src/mysql.rs). Gaps that decide the outcomes: A's
/// connection closed by wait_timeout (1 s after its last statement there, GET_LOCK at 0: 1000 ms) and
/// B's write right after, long before A wakes and writes (2530 ms); with pause=500ms A is done (530 ms) 470 ms before wait_timeout would close it, and with
/// wait=3s A is done (2530 ms) 470 ms before it. So 200 ms.
fn cases() -> Vec<Case> {
    let c = |policy, set, how| Case {
        tolerance_ms: 200,
        ..case("mysql-get-lock-pause", policy, set, 1, how)
    };
    vec![
        c(
            Policy::None,
            &[],
            "MariaDB 10.11 GET_LOCK('leaselab', 10), SET SESSION wait_timeout = 1; A's process SIGSTOPped 2.5 s; PostgreSQL table",
        ),
        c(
            Policy::Token,
            &[],
            "as above; token from a counter row (UPDATE fence SET n = LAST_INSERT_ID(n + 1)); UPDATE … WHERE token <= $1",
        ),
        c(
            Policy::None,
            &[("pause", 500)],
            "as above, A stopped 500 ms: its connection is closed only after its script is over",
        ),
        c(
            Policy::None,
            &[("wait", 3000)],
            "as above, wait_timeout = 3: A wakes and writes before the server closes its connection",
        ),
        // The idle clock runs from A's last statement on its lock connection (GET_LOCK at 0), not from
        // its freeze (20 ms): stopped 985 ms, A is still frozen when its connection is closed (1000
        // ms, ×40: 40 s), wakes at 1005 and writes at 1015, between B's read (1010) and write (1020).
        // Gaps of 5 ms, 200 ms at ×40: 100 ms.
        Case {
            tolerance_ms: 100,
            ..case(
                "mysql-get-lock-pause",
                Policy::None,
                &[("pause", 985)],
                40,
                "as above, A stopped 985 ms (39.4 s), less than wait_timeout (40 s), but idle on its lock connection since GET_LOCK: closed while A is frozen",
            )
        },
    ]
}

/// The lock's name.
pub const NAME: &str = "leaselab";
/// The database of the fence counter.
const DB: &str = "leaselab";

/// One client's lock connection.
pub struct MysqlLock {
    conn: mysql::Conn,
}

/// What a `GET_LOCK` returned: 1 granted, 0 timed out, NULL an error (killed, say).
pub type Got = Option<i64>;

impl MysqlLock {
    /// Connects (its read timeout longer than any wait: the run's bound); with `wait_timeout`, the
    /// session's, in whole seconds (MariaDB's minimum is 1 and it takes no fractions).
    pub fn connect(port: u16, wait_timeout: Option<u64>) -> Res<MysqlLock> {
        let mut conn = connect_with(port, Duration::from_secs(90))?;
        if let Some(s) = wait_timeout {
            conn.query_drop(format!("SET SESSION wait_timeout = {s}"))
                .map_err(|e| format!("SET SESSION wait_timeout: {e}"))?;
        }
        Ok(MysqlLock { conn })
    }

    /// The server's id of this connection (what `KILL CONNECTION` takes).
    pub fn id(&self) -> u32 {
        self.conn.connection_id()
    }

    /// `GET_LOCK(name, timeout)`, the timeout in seconds (fractions allowed: MariaDB waits them).
    pub fn get_lock(&mut self, timeout: Duration) -> Result<Got, String> {
        let t = format!("{:.3}", timeout.as_secs_f64());
        self.conn
            .query_first::<Option<i64>, _>(format!("SELECT GET_LOCK('{NAME}', {t})"))
            .map(Option::flatten)
            .map_err(|e| e.to_string())
    }

    /// A fence token from the counter row, through this connection.
    pub fn fence(&mut self) -> Result<i64, String> {
        self.conn
            .query_drop(format!("UPDATE {DB}.fence SET n = LAST_INSERT_ID(n + 1)"))
            .map_err(|e| format!("UPDATE fence: {e}"))?;
        self.conn
            .query_first::<i64, _>("SELECT LAST_INSERT_ID()")
            .map_err(|e| format!("LAST_INSERT_ID: {e}"))?
            .ok_or_else(|| "LAST_INSERT_ID: no row".into())
    }

    /// `RELEASE_LOCK(name)`: 1 released, 0 held by another connection, NULL no such lock.
    pub fn release(&mut self) -> Result<Option<i64>, String> {
        self.conn
            .query_first::<Option<i64>, _>(format!("SELECT RELEASE_LOCK('{NAME}')"))
            .map(Option::flatten)
            .map_err(|e| e.to_string())
    }
}

/// `KILL CONNECTION id` from an admin connection: the server ends the connection and frees its lock.
pub fn kill(port: u16, id: u32) -> Res<()> {
    let mut admin = connect_with(port, Duration::from_secs(10))?;
    admin
        .query_drop(format!("KILL CONNECTION {id}"))
        .map_err(|e| format!("KILL CONNECTION {id}: {e}"))
}

/// Before a run: the fence counter at `first_token − 1`, and no lock left by an earlier run (a closed
/// connection's thread may still be on its way out; bounded wait).
pub fn reset(port: u16, first_token: u64) -> Res<()> {
    let mut c = connect_with(port, Duration::from_secs(10))?;
    for sql in [
        format!("CREATE DATABASE IF NOT EXISTS {DB}"),
        format!("CREATE TABLE IF NOT EXISTS {DB}.fence (n BIGINT NOT NULL) ENGINE=InnoDB"),
        format!("DELETE FROM {DB}.fence"),
        format!(
            "INSERT INTO {DB}.fence VALUES ({})",
            first_token.saturating_sub(1)
        ),
    ] {
        c.query_drop(&sql).map_err(|e| format!("{sql}: {e}"))?;
    }
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let used: Option<Option<i64>> = c
            .query_first(format!("SELECT IS_USED_LOCK('{NAME}')"))
            .map_err(|e| format!("IS_USED_LOCK: {e}"))?;
        if used.flatten().is_none() {
            return Ok(());
        }
        if Instant::now() >= end {
            return Err("a GET_LOCK of an earlier run is still held after 10 s".into());
        }
        sleep(Duration::from_millis(20));
    }
}

impl Client<'_> {
    /// `GET_LOCK` with the scenario's timeout on the client's lock connection: it waits at the server
    /// (the script goes on from the real grant); a token from the counter row when the scenario has
    /// `tokens=counter`. 0 is a denial (the acquire's retries follow); NULL or an error (the connection
    /// is gone) ends the script.
    pub(super) fn mysql_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let timeout = us(self.sc.service.timeout, self.p());
        let counter = self.sc.service.tokens;
        let lock = self.state::<MysqlLock>()?;
        let secs = timeout.as_secs_f64();
        let got = match lock.get_lock(timeout) {
            Ok(got) => got,
            Err(e) => {
                self.note(format!("GET_LOCK('{NAME}', {secs}) FAILED: {e}"));
                return Err(Stop::GaveUp);
            }
        };
        let token = match got {
            Some(1) if counter => Some(lock.fence()?),
            _ => None,
        };
        let tok = token.map_or(String::new(), |t| format!(", fence token {t}"));
        let shown = got.map_or("NULL".to_string(), |g| g.to_string());
        self.note(format!("GET_LOCK('{NAME}', {secs}) → {shown}{tok}"));
        match got {
            Some(1) => Ok(Some(Held {
                token,
                value,
                believed_end: None,
            })),
            Some(_) => Ok(None),
            None => Err(Stop::GaveUp),
        }
    }

    pub(super) fn mysql_release(&mut self) -> Result<(), Stop> {
        let lock = self.state::<MysqlLock>()?;
        let r = lock.release();
        let shown = match r {
            Ok(Some(v)) => v.to_string(),
            Ok(None) => "NULL".into(),
            Err(e) => format!("FAILED: {e}"),
        };
        self.note(format!("RELEASE_LOCK('{NAME}') → {shown}"));
        Ok(())
    }
}
