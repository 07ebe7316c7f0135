//! The storage: one row `account(balance, version, token, owner)` in PostgreSQL; each policy is one
//! conditional statement, so the guard is enforced by PostgreSQL itself.

use std::thread::sleep;
use std::time::{Duration, Instant};

use leaselab::store::Policy;

use super::player::Held;
use super::DB;
use crate::servers::{Postgres, Res};

/// Why an access did not go through.
pub(super) enum Denied {
    /// The storage's guard refused it (the conditional statement matched no row).
    Refused,
    /// The connection failed: for an access through a terminated session, the session is gone.
    Failed(String),
}

/// A read under `policy`: `(balance, version)`.
pub(super) fn read(
    conn: &mut postgres::Client,
    policy: Policy,
    held: Option<Held>,
) -> Result<(i64, i64), Denied> {
    let token = held.and_then(|h| h.token);
    let value = held.map(|h| h.value);
    let row = match (policy, token) {
        // first-touch: every access with a token raises the highest token seen; a lower one is refused.
        (Policy::FirstTouch, Some(t)) => conn.query_opt(
            "UPDATE account SET token = $1 WHERE id = 1 AND token <= $1 RETURNING balance, version",
            &[&t],
        ),
        // owner: the reader stamps the resource with its lock value.
        (Policy::Owner, _) => conn.query_opt(
            "UPDATE account SET owner = $1 WHERE id = 1 RETURNING balance, version",
            &[&value],
        ),
        _ => conn.query_opt("SELECT balance, version FROM account WHERE id = 1", &[]),
    };
    match row {
        Ok(Some(r)) => Ok((r.get(0), r.get(1))),
        Ok(None) => Err(Denied::Refused),
        Err(e) => Err(Denied::Failed(e.to_string())),
    }
}

/// A write of `value` under `policy`, by a client whose read returned `read` (balance, version).
pub(super) fn write(
    conn: &mut postgres::Client,
    policy: Policy,
    held: Option<Held>,
    read: (i64, i64),
    value: i64,
) -> Result<(), Denied> {
    let (balance_read, version_read) = read;
    let token = held.and_then(|h| h.token);
    let owner = held.map(|h| h.value);
    const SET: &str = "UPDATE account SET balance = $1, version = version + 1";
    let n = match (policy, token) {
        // token: refuse a token lower than the highest seen on a write (an equal one passes).
        (Policy::Token | Policy::FirstTouch, Some(t)) => conn.execute(
            &format!("{SET}, token = $2 WHERE id = 1 AND token <= $2"),
            &[&value, &t],
        ),
        // equal-token: the first write's token is kept; only exactly that one passes after it.
        (Policy::EqualToken, Some(t)) => conn.execute(
            &format!("{SET}, token = $2 WHERE id = 1 AND (token = 0 OR token = $2)"),
            &[&value, &t],
        ),
        // version: compare-and-set on the version read.
        (Policy::Version, _) => conn.execute(
            &format!("{SET} WHERE id = 1 AND version = $2"),
            &[&value, &version_read],
        ),
        // etag: S3's If-Match on a content-derived ETag — the MD5 of the content, as S3's for a
        // simple upload; equal content, equal ETag.
        (Policy::Etag, _) => conn.execute(
            &format!("{SET} WHERE id = 1 AND md5(balance::text) = md5($2::bigint::text)"),
            &[&value, &balance_read],
        ),
        // owner: the stamp must still be the writer's own.
        (Policy::Owner, _) => conn.execute(
            &format!("{SET} WHERE id = 1 AND owner = $2"),
            &[&value, &owner],
        ),
        // none (and token policies when the lock service hands out no tokens): last write wins.
        _ => conn.execute(&format!("{SET} WHERE id = 1"), &[&value]),
    };
    match n {
        Ok(1) => Ok(()),
        Ok(_) => Err(Denied::Refused),
        Err(e) => Err(Denied::Failed(e.to_string())),
    }
}

/// Resets the storage (and its fence sequence, at `first_token`) before a run. Waits (bounded) until no advisory lock of
/// an earlier run is left: a closed connection's backend may still be on its way out.
pub fn reset(pg: &Postgres, balance: i64, first_token: u64) -> Res<()> {
    let mut c = pg.connect(DB, "conformance-reset")?;
    c.batch_execute(
        "CREATE TABLE IF NOT EXISTS account (id int PRIMARY KEY, balance bigint NOT NULL, \
           version bigint NOT NULL, token bigint NOT NULL, owner bigint);
         CREATE SEQUENCE IF NOT EXISTS fence;
         TRUNCATE account;",
    )
    .map_err(|e| format!("reset storage: {e}"))?;
    c.execute(
        "INSERT INTO account VALUES (1, $1, 0, 0, NULL)",
        &[&balance],
    )
    .map_err(|e| format!("reset storage: {e}"))?;
    c.execute(
        "SELECT setval('fence', $1, false)",
        &[&(first_token as i64)],
    )
    .map_err(|e| format!("reset fence: {e}"))?;
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let row = c
            .query_one(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'",
                &[],
            )
            .map_err(|e| format!("pg_locks: {e}"))?;
        if row.get::<_, i64>(0) == 0 {
            break;
        }
        if Instant::now() >= end {
            return Err("an advisory lock of an earlier run is still held after 10 s".into());
        }
        sleep(Duration::from_millis(20));
    }
    Ok(())
}
