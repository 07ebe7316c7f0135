//! A lock held by a database session (PostgreSQL advisory locks): no TTL — the lock is held until it
//! is released or the holder's session ends. A session ends when an admin terminates it, when the
//! server stops hearing keepalives from a frozen client (if `idle` is set), or when the client
//! disconnects at the end of its script; then the lock is freed (PostgreSQL runs
//! `pg_advisory_unlock_all` at session end) and accesses through that session fail.

use crate::client::Phase;
use crate::sim::{Ctx, Engine, Ev, Tag};
use crate::trace::Kind;

/// Why a session ended, as the trace records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum SessionEnd {
    /// `pg_terminate_backend`: an admin (or a fault) killed it.
    Terminated = 0,
    /// No keepalives while the client was frozen: the server gave up on it.
    KeepaliveTimeout = 1,
    /// The client closed its connection at the end of its script.
    Disconnected = 2,
}

impl Engine {
    pub(super) fn on_session_event(&mut self, ev: Ev) {
        let c = ev.client;
        let st = &self.clients[usize::from(c)];
        match ev.tag {
            Tag::SessionTimeout if st.phase == Phase::Paused => {
                self.end_session(c, SessionEnd::KeepaliveTimeout)
            }
            Tag::Disconnect if !st.session_dead => self.end_session(c, SessionEnd::Disconnected),
            _ => {}
        }
    }

    /// Frozen, the client sends no keepalives: if the server times sessions out, and sooner than the
    /// pause ends, it gives up on the session. Each comparison on its own: "off, or longer than the
    /// pause" is not one interval.
    pub(super) fn session_on_pause(&mut self, ctx: &Ctx, c: u8, d: u64) {
        let on = self.decide(ctx.idle > 0);
        let longer = self.decide(d > ctx.idle);
        if on && longer {
            self.schedule(self.now.plus(ctx.idle), Ev::bare(Tag::SessionTimeout, c));
        }
    }

    /// Its script is over: the client disconnects, which ends its session (and frees a lock it still
    /// holds) — after the messages it already sent.
    pub(super) fn session_on_script_end(&mut self, c: u8) {
        if !self.clients[usize::from(c)].session_dead {
            self.schedule(self.now, Ev::bare(Tag::Disconnect, c));
        }
    }

    /// The client's database session ends: a session lock it holds is freed, and accesses through the
    /// session fail from now on.
    pub(crate) fn end_session(&mut self, c: u8, why: SessionEnd) {
        let freed = self.locks[0].end_session(c, self.now);
        let freed = self.decide(freed);
        self.clients[usize::from(c)].session_dead = true;
        self.record(c, Kind::SessionEnded, 0, i64::from(freed), why as u64, None);
    }
}
