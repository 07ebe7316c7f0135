//! The session lock, PostgreSQL's advisory lock, as a real service: `pg_try_advisory_lock(424242)` on
//! the client's own session; `read via session` / `write … via session` go through that session, the
//! others through a second connection of the client's. The fault `terminate A` is
//! `pg_terminate_backend(A's pid)`; a `pause` longer than the scenario's idle timeout sets the
//! session's `idle_session_timeout` (PostgreSQL ≥ 14), the real counterpart of a keepalive timeout.
//! Its server is the suite's PostgreSQL, the storage's too.

use std::time::Duration;

use leaselab::scenario::{FaultAction, Scenario, ServiceKind};

use super::player::{Client, Held, Stop};
use super::record::Shared;
use super::service::{Attempt, Conn, LockServers, RealService};
use super::{us, Setup, DB, LOCK_KEY};
use crate::coverage::{not_run, real, Component, Entry};
use crate::servers::{connect_pg, Postgres, Res};

/// PostgreSQL's advisory lock on a session.
pub struct PgSession;

/// The session lock's server for an attempt: the suite's PostgreSQL, and the admin connection that
/// terminates a client's session.
struct PgSessions<'a> {
    pg: &'a Postgres,
    admin: Option<postgres::Client>,
}

/// The real component its rows run on (coverage.rs).
pub(crate) const POSTGRES: Component = Component {
    name: "PostgreSQL",
    version: "15",
    from: "Debian 12 `postgresql-15`",
};

/// Its catalogue scenarios in the table of what each runs on (coverage.rs's format).
static COVERAGE: &[Entry] = &[
    real("seed-advisory-lock", &POSTGRES, "advisory lock, `pg_terminate_backend`; and the seed's step 1 verbatim"),
    real("postgres-session", &POSTGRES, "advisory lock; `idle_session_timeout` for the keepalive"),
    real("postgres-terminate", &POSTGRES, "advisory lock; `pg_terminate_backend`, data through the session"),
    real("postgres-terminate-elsewhere", &POSTGRES, "as above, data through another connection; a sequence as token"),
    not_run("table-session", "PostgreSQL is here, but the base run is 36 s of a held lock with no fault: 40 s more for what the `postgres-*` rows check with faults"),
];

impl RealService for PgSession {
    fn coverage(&self) -> &'static [Entry] {
        COVERAGE
    }

    fn kinds(&self) -> &'static [ServiceKind] {
        &[ServiceKind::Session]
    }

    fn plays_fault(&self, action: &FaultAction) -> bool {
        matches!(action, FaultAction::Terminate(_))
    }

    fn client_checks(&self) -> bool {
        true
    }

    fn fence_counter(&self) -> bool {
        true
    }

    fn start<'a>(&self, at: &Attempt<'_, 'a>) -> Res<Box<dyn LockServers + 'a>> {
        Ok(Box::new(PgSessions {
            pg: at.pg,
            admin: None,
        }))
    }

    /// The client's session, its backend pid said to the conductor (for `terminate`).
    fn connect(&self, _sc: &Scenario, _setup: &Setup, name: char, spec: &str) -> Res<Conn> {
        let port = spec
            .parse()
            .map_err(|_| format!("bad session spec {spec:?}"))?;
        let mut s = connect_pg(port, DB, &format!("{name}-session"))?;
        let pid: i32 = s
            .query_one("SELECT pg_backend_pid()", &[])
            .map_err(|e| e.to_string())?
            .get(0);
        super::agent::say(&format!("pid {pid}"));
        Ok(Conn {
            session: Some(s),
            state: Box::new(()),
        })
    }

    fn try_acquire(&self, c: &mut Client, value: i64) -> Result<Option<Held>, Stop> {
        c.session_try_acquire(value)
    }

    fn release(&self, c: &mut Client, _h: Held) -> Result<(), Stop> {
        c.session_release()
    }

    fn before_pause(&self, c: &mut Client, d: Duration) -> Result<(), Stop> {
        let idle = us(c.sc.service.idle, c.p());
        if !idle.is_zero() && d > idle {
            // Frozen, the client sends nothing: the server's idle-session timeout ends the
            // session (PostgreSQL ≥ 14), the real counterpart of a keepalive timeout.
            let ms = idle.as_millis() as i64;
            if let Some(s) = c.session.as_mut() {
                s.batch_execute(&format!("SET idle_session_timeout = {ms}"))
                    .map_err(|e| format!("SET idle_session_timeout: {e}"))?;
            }
        }
        Ok(())
    }
}

impl LockServers for PgSessions<'_> {
    fn prepare(&mut self, _first_token: u64) -> Res<()> {
        self.admin = Some(self.pg.connect(DB, "admin")?);
        Ok(())
    }

    fn agent_spec(&self, _client: usize) -> String {
        self.pg.port.to_string()
    }

    /// `terminate`: `pg_terminate_backend` of the client's session (its pid, as its agent said).
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
        let admin = self
            .admin
            .as_mut()
            .ok_or("terminate: no admin connection")?;
        let name = sc.client_name(c);
        let pid = shared
            .with(|st| st.pids[usize::from(c)])
            .ok_or("terminate: the client has no session")?;
        let ok: bool = admin
            .query_one("SELECT pg_terminate_backend($1)", &[&pid])
            .map_err(|e| format!("pg_terminate_backend: {e}"))?
            .get(0);
        shared.note(
            "admin",
            format!(
                "pg_terminate_backend({name}: pid {pid}) → {}",
                if ok { "t" } else { "f" }
            ),
        );
        shared.behind("admin", at, "terminate");
        Ok(())
    }
}

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
