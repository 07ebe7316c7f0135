//! The session lock's client side: a PostgreSQL advisory lock on the client's own session.

use super::player::{Client, Held, Stop};
use super::LOCK_KEY;

impl Client<'_> {
    /// A session lock: `pg_try_advisory_lock` on the client's session (and a fence token from a
    /// sequence, for a case with a fence counter).
    pub(super) fn session_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let fence = self.setup.fence_counter;
        let s = self.session.as_mut().ok_or("no session")?;
        let got = match s.query_one("SELECT pg_try_advisory_lock($1)", &[&LOCK_KEY]) {
            Ok(row) => row.get::<_, bool>(0),
            Err(e) => {
                self.note(format!("pg_try_advisory_lock({LOCK_KEY}) FAILED: {e}"));
                return Err(Stop::GaveUp);
            }
        };
        let mut token = None;
        if got && fence {
            let t: i64 = s
                .query_one("SELECT nextval('fence')", &[])
                .map_err(|e| format!("nextval: {e}"))?
                .get(0);
            token = Some(t);
        }
        self.note(format!(
            "pg_try_advisory_lock({LOCK_KEY}) → {}{}",
            if got { "t" } else { "f" },
            token.map_or(String::new(), |t| format!(", fence token {t}"))
        ));
        Ok(got.then_some(Held {
            token,
            value,
            believed_end: None,
        }))
    }

    pub(super) fn session_release(&mut self) -> Result<(), Stop> {
        let s = self.session.as_mut().ok_or("no session")?;
        match s.query_one("SELECT pg_advisory_unlock($1)", &[&LOCK_KEY]) {
            Ok(row) => self.note(format!(
                "pg_advisory_unlock({LOCK_KEY}) → {}",
                if row.get::<_, bool>(0) { "t" } else { "f" }
            )),
            Err(e) => self.note(format!("pg_advisory_unlock({LOCK_KEY}) FAILED: {e}")),
        }
        Ok(())
    }
}
