//! A lock held by a database session (PostgreSQL advisory locks): no TTL — the lock is held until it
//! is released or the holder's session ends. A session ends when an admin terminates it, when the
//! server stops hearing keepalives from a frozen client (if `idle` is set), or when the client
//! disconnects at the end of its script; then the lock is freed (PostgreSQL runs
//! `pg_advisory_unlock_all` at session end) and accesses through that session fail.
//!
//! An injected cut (`cut:A,at=R,for=R`): TCP holds what A and the server send meanwhile, and it arrives
//! one latency after the heal (`Engine::lock_hop`; a disconnect at the end of A's script, after it);
//! the server hears no keepalives either, so a cut longer than `idle` ends the session, as a freeze
//! does.

use super::{LockService, Said, Serve};
use crate::scenario::Scenario;
use crate::sim::Phase;
use crate::sim::{Ctx, Engine, Ev, Tag};
use crate::trace::{SessionEnd, TraceEvent, What};

/// A PostgreSQL advisory lock (see the module's note).
pub(crate) struct Session;

impl LockService for Session {
    /// Its state is the engine's lock server (`Engine::locks`) and the clients' `session_dead`.
    type State = ();

    fn say(_sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
        say(e, who)
    }
}

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). The lease bars alone; its
/// events worded by their kinds.
pub(super) const DIAGRAM: super::Diagram = super::Diagram::GENERIC_WORDS;

/// The request/reply protocol is the lease service's; the session's own events are its end.
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Session> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        match ev.tag {
            Tag::SessionTimeout | Tag::Disconnect => self.on_session_event(ev),
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

    /// Frozen, the client sends no keepalives: if the server times sessions out, and sooner than the
    /// pause ends, it gives up on the session. Each comparison on its own: "off, or longer than the
    /// pause" is not one interval.
    fn on_pause(&mut self, ctx: &Ctx, c: u8, d: u64) {
        self.session_unheard_for(ctx, c, d);
    }

    /// Cut off, the client's keepalives do not reach the server either: as for a pause.
    fn on_cut(&mut self, ctx: &Ctx, c: u8, d: u64) {
        self.session_unheard_for(ctx, c, d);
    }

    fn on_script_end(&mut self, ctx: &Ctx, c: u8) {
        self.session_on_script_end(ctx, c);
    }

    fn on_terminate(&mut self, _ctx: &Ctx, c: u8) {
        self.end_session(c, SessionEnd::Terminated);
    }

    /// Its session is gone: the request fails without reaching the lock.
    fn refuses_request(&self, _ctx: &Ctx, c: u8) -> bool {
        self.clients[usize::from(c)].session_dead
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    pub(super) fn on_session_event(&mut self, ev: Ev) {
        let c = ev.client;
        let dead = self.clients[usize::from(c)].session_dead;
        match ev.tag {
            Tag::SessionTimeout if self.still_unheard(c) => {
                self.end_session(c, SessionEnd::IdleTimeout)
            }
            Tag::Disconnect if !dead => self.end_session(c, SessionEnd::Disconnected),
            _ => {}
        }
    }

    /// Whether the server still hears nothing from client `c`: frozen by its script's pause, or by a
    /// freeze from outside it (whose phase is the script's own), or cut off from the server.
    fn still_unheard(&mut self, c: u8) -> bool {
        let st = &self.clients[usize::from(c)];
        let (paused, until) = (st.phase == Phase::Paused, st.frozen_until);
        paused || self.decide(self.now < until) || self.cut_off(c).is_some()
    }

    /// The server hears nothing from client `c` for `d`: if it times sessions out, and sooner than
    /// that, it gives up on the session. Each comparison on its own: "off, or longer than `d`" is
    /// not one interval.
    fn session_unheard_for(&mut self, ctx: &Ctx, c: u8, d: u64) {
        let on = self.decide(ctx.idle > 0);
        let longer = self.decide(d > ctx.idle);
        if on && longer {
            self.schedule(self.now.plus(ctx.idle), Ev::bare(Tag::SessionTimeout, c));
        }
    }


    /// Its script is over: the client disconnects, which ends its session (and frees a lock it still
    /// holds) — after the messages it already sent: cut off, after those that wait for the link.
    pub(super) fn session_on_script_end(&mut self, ctx: &Ctx, c: u8) {
        if !self.clients[usize::from(c)].session_dead {
            let at = match self.cut_off(c) {
                Some(heal) => heal.plus(ctx.lock_latency),
                None => self.now,
            };
            self.schedule(at, Ev::bare(Tag::Disconnect, c));
        }
    }

    /// The client's database session ends: a session lock it holds is freed, and accesses through the
    /// session fail from now on.
    pub(crate) fn end_session(&mut self, c: u8, why: SessionEnd) {
        let freed = self.locks[0].end_session(c, self.now);
        let freed = self.decide(freed);
        self.clients[usize::from(c)].session_dead = true;
        self.record(c, What::SessionEnded { cause: why, freed });
    }
}

/// The seed's step 1, as the two psql terminals would show it, and how sessions end.
fn say(e: &TraceEvent, who: char) -> Option<Said> {
    let line = match e.what {
        What::Granted { .. } => format!("{who}: pg_try_advisory_lock(424242) → t"),
        What::Denied {
            session_gone: true, ..
        } => {
            format!("{who}: pg_try_advisory_lock(424242) → ERROR: the session is gone")
        }
        What::Denied { .. } => format!("{who}: pg_try_advisory_lock(424242) → f"),
        What::Released { ended_lease: true } => format!("{who}: pg_advisory_unlock(424242) → t"),
        What::SessionEnded {
            cause: SessionEnd::Disconnected,
            freed: false,
        } => {
            return Some(Said::Nothing); // a plain disconnect at the end
        }
        What::SessionEnded { cause, freed } => {
            let freed = if freed { ", the lock is free" } else { "" };
            match cause {
                SessionEnd::Terminated => {
                    format!("admin: pg_terminate_backend({who}) → t; {who}'s session ends{freed}")
                }
                SessionEnd::IdleTimeout => {
                    format!("server: {who} sent no keepalives; its session ends{freed}")
                }
                SessionEnd::Disconnected => format!("{who}: disconnects; its session ends{freed}"),
            }
        }
        _ => return None,
    };
    Some(Said::Line(line))
}
