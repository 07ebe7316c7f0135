//! The seed's step 1, verbatim: the same SQL, and like `psql -c` every command of terminal 2 and of
//! the admin runs on a new connection of its own, to the database `postgres`.
//!
//! ```text
//! # Terminal 1 — holder:
//! psql -d postgres -c 'SELECT pg_advisory_lock(424242);'
//! # Terminal 2 (first time):
//! psql -d postgres -c 'SELECT pg_try_advisory_lock(424242);'   # → f
//! # kill terminal 1's session:
//! psql -d postgres -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
//!                      WHERE datname='postgres' AND pid <> pg_backend_pid();"
//! # Terminal 2 — again:
//! psql -d postgres -c 'SELECT pg_try_advisory_lock(424242);'   # → t
//! ```

use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::cases::Verdict;
use crate::servers::{Postgres, Res};

const HOLD: &str = "SELECT pg_advisory_lock(424242);";
const TRY: &str = "SELECT pg_try_advisory_lock(424242);";
const KILL: &str = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                    WHERE datname='postgres' AND pid <> pg_backend_pid();";

/// Runs step 1; returns its outcome and a transcript.
pub fn run(pg: &Postgres) -> Res<(Verdict, Vec<String>)> {
    let mut log = Vec::new();
    let mut granted = Vec::new();
    let mut tries = Vec::new();

    // Terminal 1 keeps its session open.
    let mut holder = pg.connect("postgres", "terminal-1")?;
    holder
        .batch_execute(HOLD)
        .map_err(|e| format!("{HOLD} {e}"))?;
    let holder_pid: i32 = holder
        .query_one("SELECT pg_backend_pid()", &[])
        .map_err(|e| e.to_string())?
        .get(0);
    log.push(format!(
        "terminal 1: {HOLD} → (held; backend pid {holder_pid})"
    ));
    granted.push("A");

    let first = try_once(pg, &mut log)?;
    tries.push(first);
    if first {
        granted.push("B");
    }

    terminate_others(pg, &mut log)?;

    // pg_terminate_backend signals the backend and returns; it releases its locks as it exits.
    // Watch it go (bounded) before terminal 2 tries again, as a person typing would take that long.
    let gone = wait_gone(pg, holder_pid)?;

    let second = try_once(pg, &mut log)?;
    tries.push(second);
    if second {
        granted.push("B");
    }
    // Terminal 1's session is really gone: its next statement fails.
    let alive = holder.simple_query("SELECT 1").is_ok();
    log.push(format!(
        "terminal 1: SELECT 1 → {}",
        if alive {
            "ok (session alive)"
        } else {
            "error (session gone)"
        }
    ));
    Ok((
        Verdict(vec![
            (
                "B's tries",
                tries
                    .iter()
                    .map(|&t| if t { "t" } else { "f" })
                    .collect::<Vec<_>>()
                    .join(" then "),
            ),
            ("granted", granted.join(",")),
            (
                "A's session",
                if gone && !alive { "ended" } else { "alive" }.into(),
            ),
        ]),
        log,
    ))
}

/// Terminal 2: one `pg_try_advisory_lock` on a fresh connection (closed after, as `psql -c` does).
fn try_once(pg: &Postgres, log: &mut Vec<String>) -> Res<bool> {
    let mut t2 = pg.connect("postgres", "terminal-2")?;
    let got: bool = t2
        .query_one(TRY, &[])
        .map_err(|e| format!("{TRY} {e}"))?
        .get(0);
    log.push(format!(
        "terminal 2: {TRY} → {}",
        if got { "t" } else { "f" }
    ));
    Ok(got)
}

/// The admin: `pg_terminate_backend` for every other backend of the database.
fn terminate_others(pg: &Postgres, log: &mut Vec<String>) -> Res<()> {
    let mut admin = pg.connect("postgres", "admin")?;
    let rows = admin
        .query(KILL, &[])
        .map_err(|e| format!("pg_terminate_backend: {e}"))?;
    let killed: Vec<bool> = rows.iter().map(|r| r.get(0)).collect();
    log.push(format!(
        "admin: pg_terminate_backend(pid) … → {}",
        killed
            .iter()
            .map(|&k| if k { "t" } else { "f" })
            .collect::<Vec<_>>()
            .join(" ")
    ));

    Ok(())
}

/// Whether backend `pid` is gone within 10 s.
fn wait_gone(pg: &Postgres, pid: i32) -> Res<bool> {
    let mut watch = pg.connect("leaselab", "watch")?;
    let end = Instant::now() + Duration::from_secs(10);
    let gone = loop {
        let n: i64 = watch
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = $1",
                &[&pid],
            )
            .map_err(|e| e.to_string())?
            .get(0);
        if n == 0 {
            break true;
        }
        if Instant::now() >= end {
            break false;
        }
        sleep(Duration::from_millis(10));
    };

    Ok(gone)
}
