//! MySQL's (and MariaDB's) named locks, as the reference manual's "Locking Functions" describe them.
//!
//! `GET_LOCK(name, timeout)` takes an exclusive lock on a name for the client's session (its
//! connection): it returns 1 at once if no session holds the name, and otherwise waits at the
//! server up to `timeout` seconds for it — 1 when it gets the lock, 0 when the timeout runs out
//! (`timeout = 0` is a try). The lock has no TTL. It is released by `RELEASE_LOCK(name)`, or
//! implicitly when the session ends, "either normally or abnormally": the client disconnects, an
//! admin runs `KILL CONNECTION`, or the server closes a connection that has been idle for
//! `wait_timeout` seconds (whole seconds, 8 hours by default). Idle is between statements: the
//! server's clock starts when it finishes the connection's last statement (its socket read times
//! out), whatever the client does meanwhile — work, or freeze — and a connection blocked in
//! `GET_LOCK` is not idle (measured against MariaDB: docs/conformance.md). The lock is then granted to the next session waiting in `GET_LOCK`, in the order
//! they asked (since MySQL 5.7 and MariaDB 10.0 user-level locks are metadata locks, granted to
//! pending requests in turn).
//!
//! There is no fencing token: the only number a holder could send is its connection id
//! (`CONNECTION_ID()`, `IS_USED_LOCK(name)`), which names a connection and is not ordered with the
//! grants. A fence needs a counter of its own: `tokens=counter` is a row incremented under the lock
//! (`UPDATE fence SET n = LAST_INSERT_ID(n + 1)`), one per grant.
//!
//! What it shares with a PostgreSQL advisory lock (`session.rs`) — a lock held by a connection, the
//! connection's end — is that service's code; the lease server's request and answer (`lease.rs`)
//! carry the requests. Its own part is the wait at the server.
//!
//! An injected cut holds its statements and their answers until one latency after the heal (the
//! lease server's hops, `Engine::lock_hop`). Both of the server's timeouts count from what arrives: a
//! `GET_LOCK`'s wait from the held call's arrival, `wait_timeout` from the last statement that
//! arrived. The server has no keepalive of its own to miss, so a cut ends no connection by itself.

use super::waiters::Fifo;
use super::{LockService, Said, Serve};
use crate::lock::Grant;
use crate::scenario::Scenario;
use crate::sim::{Ctx, Engine, Ev, Tag};
use crate::trace::{SessionEnd, TraceEvent, What};

/// MySQL's `GET_LOCK` (see the module's note).
pub(crate) struct Mysql;

/// The server's connections: those blocked in `GET_LOCK`, and each one's statements, during a run.
#[derive(Default)]
pub(crate) struct State {
    /// Clients waiting for the lock, in the order they asked.
    waiting: Fifo<u8>,
    /// Per client: the number of its connection's latest statement, which a wait's timeout and an
    /// idle check carry (one of an earlier statement is not this one's).
    stmt: Vec<u16>,
}

impl State {
    fn reset(&mut self, clients: usize) {
        self.waiting.clear();
        self.stmt.clear();
        self.stmt.resize(clients, 0);
    }

    /// A statement of `c`'s reaches the server: its number.
    fn statement(&mut self, c: u8) -> u16 {
        let n = &mut self.stmt[usize::from(c)];
        *n = n.wrapping_add(1);
        *n
    }
}

impl LockService for Mysql {
    type State = State;

    fn reset(state: &mut State, clients: usize) {
        state.reset(clients);
    }

    fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
        say(sc, e, who)
    }
}

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). The lease bars alone (a lock
/// held by a connection: no marks of its own).
pub(super) const DIAGRAM: super::Diagram = super::Diagram::PLAIN;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Mysql> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        match ev.tag {
            Tag::AcquireAt => self.get_lock_at(ctx, ev.client),
            Tag::WaitTimeout => self.wait_timeout(ctx, ev),
            Tag::ReleaseAt => {
                self.services.mysql.statement(ev.client);
                self.release_at(ev);
                self.idle_from(ctx, ev.client);
                self.hand_on(ctx);
            }
            Tag::IdleTimeout => self.idle_timeout(ctx, ev),
            Tag::Disconnect => {
                self.on_session_event(ev);
                self.hand_on(ctx);
            }
            _ => self.on_lease_event(ctx, ev),
        }
    }

    fn acquire(&mut self, ctx: &Ctx, c: u8) {
        self.lease_acquire(ctx, c);
    }

    fn release(&mut self, ctx: &Ctx, c: u8, value: u64) {
        self.lease_release(ctx, c, value);
    }

    fn rightful(&self, _ctx: &Ctx) -> Option<u8> {
        self.locks[0].latest_grantee()
    }

    fn on_script_end(&mut self, ctx: &Ctx, c: u8) {
        self.session_on_script_end(ctx, c);
    }

    /// `KILL CONNECTION`: a `GET_LOCK` it was blocked in fails; a lock it held goes to the next.
    fn on_terminate(&mut self, ctx: &Ctx, c: u8) {
        self.end_session(c, SessionEnd::Terminated);
        if self.services.mysql.waiting.leave(c).is_some() {
            self.answer_request(ctx, c, Grant::NoSession);
        }
        self.hand_on(ctx);
    }

    fn refuses_request(&self, _ctx: &Ctx, c: u8) -> bool {
        self.clients[usize::from(c)].session_dead
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// `GET_LOCK` reaches the server: granted if the name is free; otherwise 0 at once for a try, or
    /// the session waits.
    fn get_lock_at(&mut self, ctx: &Ctx, c: u8) {
        if self.clients[usize::from(c)].session_dead {
            return self.answer_request(ctx, c, Grant::NoSession);
        }
        let wait = self.services.mysql.statement(c);
        let Some(holder) = self.locks[0].denies(self.now) else {
            self.grant_request(ctx, c);
            return self.idle_from(ctx, c);
        };
        if self.decide(ctx.timeout == 0) {
            self.refuse_request(ctx, c, holder);
            return self.idle_from(ctx, c);
        }
        let st = &mut self.services.mysql;
        st.waiting.push(c);
        let place = st.waiting.len() as u64;
        self.record(
            c,
            What::Queued {
                rev: place,
                behind: holder,
            },
        );
        let at = self.now.plus(ctx.timeout);
        self.schedule(at, Ev::inline(Tag::WaitTimeout, c, wait));
    }

    /// The timeout of a wait: `GET_LOCK` returns 0, unless this wait already ended with the lock.
    fn wait_timeout(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        let st = &mut self.services.mysql;
        if st.stmt[usize::from(c)] != ev.inline_payload() || st.waiting.leave(c).is_none() {
            return;
        }
        let holder = self.locks[0].denies(self.now).flatten();
        self.refuse_request(ctx, c, holder);
        self.idle_from(ctx, c);
    }

    /// The server has finished a statement of `c`'s: with a `wait_timeout`, it closes the connection
    /// if no other statement comes within it.
    fn idle_from(&mut self, ctx: &Ctx, c: u8) {
        if self.decide(ctx.idle > 0) {
            let n = self.services.mysql.stmt[usize::from(c)];
            self.schedule(self.now.plus(ctx.idle), Ev::inline(Tag::IdleTimeout, c, n));
        }
    }

    /// `wait_timeout` after a statement: closed, unless another statement came since (or the
    /// connection is gone already).
    fn idle_timeout(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        let idle = self.services.mysql.stmt[usize::from(c)] == ev.inline_payload();
        if idle && !self.clients[usize::from(c)].session_dead {
            self.end_session(c, SessionEnd::IdleTimeout);
            self.hand_on(ctx);
        }
    }

    /// The name may be free now (a release, a connection's end): the first session still waiting
    /// gets it.
    fn hand_on(&mut self, ctx: &Ctx) {
        if self.services.mysql.waiting.is_empty() || self.locks[0].denies(self.now).is_some() {
            return;
        }
        if let Some(c) = self.services.mysql.waiting.next() {
            self.grant_request(ctx, c);
            self.idle_from(ctx, c);
        }
    }
}

/// The two clients' SQL, as a console would show it, and how connections end.
fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
    let line = match e.what {
        What::Granted { .. } => format!("{who}: SELECT GET_LOCK('lock', …) → 1"),
        What::Denied {
            session_gone: true, ..
        } => format!("{who}: SELECT GET_LOCK('lock', …) → ERROR 2013: lost connection"),
        What::Denied { .. } => format!("{who}: SELECT GET_LOCK('lock', …) → 0"),
        What::Queued { behind, .. } => {
            let holder = behind.map_or('?', |h| sc.client_name(h));
            format!("{who}: SELECT GET_LOCK('lock', …) waits: {holder}'s connection holds it")
        }
        What::Released { ended_lease: true } => format!("{who}: SELECT RELEASE_LOCK('lock') → 1"),
        What::SessionEnded {
            cause: SessionEnd::Disconnected,
            freed: false,
        } => return Some(Said::Nothing),
        What::SessionEnded { cause, freed } => {
            let freed = if freed { "; the lock is free" } else { "" };
            match cause {
                SessionEnd::Terminated => format!("admin: KILL CONNECTION ({who}'s){freed}"),
                SessionEnd::IdleTimeout => {
                    format!("server: {who}'s connection idle past wait_timeout, closed{freed}")
                }
                SessionEnd::Disconnected => format!("{who}: disconnects{freed}"),
            }
        }
        _ => return None,
    };
    Some(Said::Line(line))
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;
    use crate::trace::Kind;
    use crate::{catalogue, simulate, Config, Policy};

    fn times(o: &crate::Outcome<'_>, client: u8, kind: Kind) -> Vec<u64> {
        let at = |e: &&crate::trace::TraceEvent| e.client == client && e.kind() == kind;
        o.run
            .trace
            .iter()
            .filter(at)
            .map(|e| e.t.0 / 1000)
            .collect()
    }

    fn run(service: &str, clients: &str) -> crate::Outcome<'static> {
        let text = format!("id: t\ntitle: t\nsummary: t\nservice: mysql {service}\n{clients}");
        let sc: &'static Scenario = Box::leak(Box::new(Scenario::parse(&text).unwrap()));
        simulate(sc, &Config::new(sc, Policy::None)).unwrap()
    }

    #[test]
    fn wait_timeout_closes_the_frozen_holders_connection_and_the_waiter_gets_the_lock_at_once() {
        let sc = catalogue::find("mysql-get-lock-pause").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        assert_eq!(
            times(&o, 0, Kind::SessionEnded),
            [1_000],
            "1 s after the server answered A's GET_LOCK: idle is between statements"
        );
        assert_eq!(times(&o, 1, Kind::Queued), [300], "B's GET_LOCK waits at the server");
        assert_eq!(times(&o, 1, Kind::Granted), [1_000], "the moment A's connection is closed");
        assert_eq!(o.run.leases[1].token, 2, "the counter row's second value");
    }

    #[test]
    fn a_try_returns_0_at_once_and_a_wait_returns_0_when_its_timeout_runs_out() {
        let clients = "client A: acquire; work 5s; release\n\
                       client B: start 1s; acquire every 1500ms tries 2\n";
        let o = run("", clients);
        assert_eq!(times(&o, 1, Kind::Denied), [1_000, 2_500], "GET_LOCK(name, 0) is a try");
        let o = run("timeout=3s", clients);
        assert_eq!(times(&o, 1, Kind::Queued), [1_000]);
        assert_eq!(times(&o, 1, Kind::Denied), [4_000], "0 after its 3 s");
        assert_eq!(
            times(&o, 1, Kind::Granted),
            [5_500],
            "its second GET_LOCK, 1.5 s after the 0; A released at 5 s"
        );
    }

    #[test]
    fn waiters_get_the_lock_in_the_order_they_asked() {
        let clients = "client A: acquire; work 1s; release\n\
                       client B: start 200ms; acquire; work 1s; release\n\
                       client C: start 100ms; acquire; work 1s; release\n";
        let o = run("timeout=10s", clients);
        assert_eq!(times(&o, 2, Kind::Granted), [1_000], "C asked first");
        assert_eq!(times(&o, 1, Kind::Granted), [2_000]);
    }

    #[test]
    fn kill_connection_frees_the_lock_and_fails_a_waiting_get_lock() {
        let clients = "client A: acquire; work 5s; release\n\
                       client B: start 100ms; acquire; work 1s; release\n\
                       client C: start 200ms; acquire\n\
                       at 300ms: terminate C\n\
                       at 1s: terminate A\n";
        let o = run("timeout=10s", clients);
        assert_eq!(times(&o, 2, Kind::Denied), [300], "C's GET_LOCK fails with its connection");
        assert_eq!(times(&o, 1, Kind::Granted), [1_000], "A's kill hands the lock to B");
    }

    #[test]
    fn idle_is_between_statements_whatever_the_client_does_and_a_wait_is_not_idle() {
        let clients = "client A: acquire; work 1500ms; release\n\
                       client B: acquire every 10ms tries 1; work 10ms; release\n";
        // B's GET_LOCK (at 0, after A's) waits 3 s and more: a statement running, not idle.
        let o = run("wait-timeout=1s timeout=5s", clients);
        assert_eq!(times(&o, 0, Kind::SessionEnded), [1_000], "A works, sends nothing: closed");
        assert_eq!(times(&o, 1, Kind::Granted), [1_000], "B waited past its wait_timeout");
        assert_eq!(times(&o, 1, Kind::SessionEnded), [1_010], "B's own script's end");
    }
}
