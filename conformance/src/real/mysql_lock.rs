//! MySQL's `GET_LOCK`, the client side, against the suite's MariaDB: a named lock held by the
//! client's own connection (`GET_LOCK(name, timeout)`, `RELEASE_LOCK(name)`), freed by the server
//! when that connection ends (closed, `KILL CONNECTION`, or dropped after `wait_timeout` of silence).
//! A fence token, for a fenced policy, comes from a counter row in MariaDB taken through the same
//! connection right after the grant (`UPDATE fence SET n = LAST_INSERT_ID(n + 1)`, then
//! `SELECT LAST_INSERT_ID()`): the connection id is no fence (ids are handed out at connect, not
//! at a grant). The storage stays PostgreSQL's table, as for every other row: the lock and the data
//! are two systems, which is the story.

use std::thread::sleep;
use std::time::{Duration, Instant};

use mysql::prelude::Queryable;

use super::player::{Client, Held, Stop};
use super::us;
use crate::mysql::connect_with;
use crate::servers::Res;

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
        let lock = self.mysql.as_mut().ok_or("no MariaDB connection")?;
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
        let lock = self.mysql.as_mut().ok_or("no MariaDB connection")?;
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
