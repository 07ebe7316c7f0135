//! A session kept alive by its client, expiring on the server's clock: the part the services with
//! sessions or leases renewed by keepalives, pings or heartbeats share, written once (its users are
//! the services that implement [`KeepAlive`], each in its own file).
//!
//! The server keeps one [`ServerSession`] per client. Opening one arms an expiry check
//! (`Tag::SessionExpiry`); a renewal (a keepalive, ping or heartbeat arriving: `Tag::HeartbeatAt`)
//! moves its expiry on and is answered (`Tag::HeartbeatReply`, `Msg::Renewed`); the check, when it
//! comes due, finds the session renewed meanwhile (and checks again when it is next due) or expired.
//! What differs between the services is a parameter of [`KeepAlive`], implemented on the engine in
//! each service's own file: when a session touched now expires (a TTL, twice the TTL, the TTL rounded
//! up to the server's next tick), when the server checks a session due at a time (then, or at the
//! server's next periodic check), whether a renewal names the session, whether a late one (after
//! the expiry, before the check) still renews it, and how an answer reaches the client. What the
//! services do when a session expires (locks freed, lock-delay, the next waiter) stays their own.
//!
//! On the client's side, some services' clients renew on a timer of their own ([`Renewal`]):
//! armed when the session opens and after each renewal's answer, it freezes with a frozen client
//! (`Tag::Heartbeat` is a client's own event), sends the renewal (`Tag::HeartbeatAt`), and the
//! answer moves the end of the client's lease by its own clock, or tells it the session is gone.
//! A client that learns its session is gone stops believing it holds the lock through
//! `Engine::stop_believing` (so does a client whose connection state says it lost the session).
//!
//! Static dispatch: each shared method is generic over the service's unit type and called as
//! `self.open_session::<S>(ctx, c, id)` with the service's own type; nothing is allocated.

use crate::sim::{Ctx, Engine, Ev, Msg, Phase, Tag};
use crate::time::SimTime;
use crate::trace::What;

/// A client's session (or lease) on the server.
#[derive(Clone, Copy, Default)]
pub(crate) struct ServerSession {
    pub id: u64,
    /// When it expires unless renewed first.
    pub expires_at: SimTime,
    pub alive: bool,
    /// An expiry check is queued for it.
    pub timer: bool,
}

/// What a client knows of its session, and its renewal timer.
#[derive(Clone, Copy, Default)]
pub(crate) struct ClientSession {
    /// Its session, as far as it knows.
    pub session: Option<u64>,
    /// Its own clock when it sent the session's creation or its latest renewal (its lease counts
    /// from then).
    pub sent_local: i64,
    /// A renewal timer of its own is queued.
    pub ticking: bool,
    /// The session its renewal in flight names.
    pub renewing: u64,
}

/// The engine's half of a service `S` whose sessions are kept alive by renewals: its rules, as the
/// shared methods below ask them. Implemented on the engine in `S`'s own file (with the
/// `engine_mode` attribute every `impl Engine` carries).
pub(crate) trait KeepAlive<S> {
    /// A renewal that arrives after the session's expiry, before the server's check, still renews
    /// it (a server that expires sessions only at its periodic check); `false`: the expiry time
    /// decides (a `decide` in the run's signature).
    const RENEWS_LATE: bool = false;

    /// The service's sessions on the server, one per client.
    fn sessions(&mut self) -> &mut [ServerSession];

    /// When a session touched now expires (its floors through `floor`).
    fn expiry(&mut self, ctx: &Ctx) -> SimTime;

    /// When the server checks a session due at `t`.
    fn check_at(&mut self, _ctx: &Ctx, t: SimTime) -> SimTime {
        t
    }

    /// Whether client `c`'s renewal names `session` (a renewal that names a session id renews only
    /// that one; a client that has since made a new one renews the new one).
    fn names(&mut self, _c: u8, _session: &ServerSession) -> bool {
        true
    }

    /// An answer from the server to client `c`, one network hop later (if the network carries it).
    fn answer(&mut self, ctx: &Ctx, c: u8, tag: Tag, msg: Msg);
}

/// The engine's half of a service `S` whose client renews its session on a timer of its own, re-armed
/// by each renewal's answer.
pub(crate) trait Renewal<S>: KeepAlive<S> {
    /// An answer for a session the client has since ended or replaced is ignored (a renewal that
    /// names its session).
    const IGNORES_STALE: bool = false;

    /// What client `c` knows of its session.
    fn client_session(&mut self, c: u8) -> &mut ClientSession;

    /// The wait between renewals (its floors through `floor`).
    fn renew_every(&mut self, ctx: &Ctx) -> u64;
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// A new session `id` for client `c`, live until the service's expiry from now; its expiry
    /// check is armed unless one is queued already. Records the grant; returns its expiry.
    pub(crate) fn open_session<S>(&mut self, ctx: &Ctx, c: u8, id: u64) -> SimTime
    where
        Self: KeepAlive<S>,
    {
        let end = self.expiry(ctx);
        let s = &mut self.sessions()[usize::from(c)];
        let timer = s.timer;
        *s = ServerSession {
            id,
            expires_at: end,
            alive: true,
            timer: true,
        };
        if !timer {
            let at = self.check_at(ctx, end);
            self.schedule(at, Ev::bare(Tag::SessionExpiry, c));
        }
        let what = What::LeaseGranted {
            lease: id,
            lease_end: end,
        };
        self.record(c, what);
        end
    }

    /// Client `c`'s session is touched: it lives until the service's expiry from now.
    pub(crate) fn touch_session<S>(&mut self, ctx: &Ctx, c: u8) -> SimTime
    where
        Self: KeepAlive<S>,
    {
        let end = self.expiry(ctx);
        self.sessions()[usize::from(c)].expires_at = end;
        end
    }

    /// A renewal from client `c` arrives: a live session it names is touched; one gone (or, unless
    /// the service renews late, past its expiry) is not. Recorded and answered; returns the new expiry.
    pub(crate) fn renew_session<S>(&mut self, ctx: &Ctx, c: u8) -> Option<SimTime>
    where
        Self: KeepAlive<S>,
    {
        let now = self.now;
        let s = self.sessions()[usize::from(c)];
        let live = s.alive
            && self.names(c, &s)
            && (<Self as KeepAlive<S>>::RENEWS_LATE || self.decide(now < s.expires_at));
        let renewed = if live {
            Some(self.touch_session::<S>(ctx, c))
        } else {
            None
        };
        self.record(c, What::KeepAlive { lease_end: renewed });
        self.answer(ctx, c, Tag::HeartbeatReply, Msg::Renewed(renewed));
        renewed
    }

    /// The server's expiry check of client `c`'s session: whether it expires now. One renewed
    /// meanwhile is checked again when it is next due; one already ended is left alone. The caller
    /// ends an expired session (it is still marked alive) by its service's own rules.
    pub(crate) fn session_expired<S>(&mut self, ctx: &Ctx, c: u8) -> bool
    where
        Self: KeepAlive<S>,
    {
        let s = self.sessions()[usize::from(c)];
        self.sessions()[usize::from(c)].timer = false;
        if !s.alive {
            return false;
        }
        if !self.decide(self.now >= s.expires_at) {
            self.sessions()[usize::from(c)].timer = true;
            let at = self.check_at(ctx, s.expires_at);
            self.schedule(at, Ev::bare(Tag::SessionExpiry, c));
            return false;
        }
        true
    }

    /// The session `id` is client `c`'s: it counts its lease from when it asked for it, and starts
    /// renewing it.
    pub(crate) fn session_opened<S>(&mut self, ctx: &Ctx, c: u8, id: u64)
    where
        Self: Renewal<S>,
    {
        let sent = self.clients[usize::from(c)].acquire_sent_local;
        let cl = self.client_session(c);
        cl.session = Some(id);
        cl.sent_local = sent;
        self.arm_renewal::<S>(ctx, c);
    }

    /// Client `c`'s renewal timer, unless one is queued.
    fn arm_renewal<S>(&mut self, ctx: &Ctx, c: u8)
    where
        Self: Renewal<S>,
    {
        let every = self.renew_every(ctx);
        let cl = self.client_session(c);
        if !cl.ticking {
            cl.ticking = true;
            self.schedule(self.now.plus(every), Ev::bare(Tag::Heartbeat, c));
        }
    }

    /// Client `c`'s renewal timer: it renews its session, if it still has one and is still running.
    pub(crate) fn renewal_tick<S>(&mut self, ctx: &Ctx, c: u8)
    where
        Self: Renewal<S>,
    {
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let local = clock.local_h(self.now, &mut self.path);
        let done = self.clients[usize::from(c)].phase == Phase::Done;
        let cl = self.client_session(c);
        cl.ticking = false;
        if cl.session.is_none() || done {
            return;
        }
        cl.sent_local = local;
        cl.renewing = cl.session.unwrap_or(0);
        self.schedule_hop(ctx, Ev::bare(Tag::HeartbeatAt, c));
    }

    /// The renewal's answer. Renewed: the client believes its lease (and lock) lasts a TTL from when
    /// it sent the renewal, and renews again in time. Gone: it knows it holds nothing any more (its
    /// credentials stay with what it already sent).
    pub(crate) fn renewal_answered<S>(&mut self, ctx: &Ctx, c: u8, renewed: Option<SimTime>)
    where
        Self: Renewal<S>,
    {
        let cl = *self.client_session(c);
        if <Self as Renewal<S>>::IGNORES_STALE && cl.session != Some(cl.renewing) {
            // The answer for a session it has since ended (a new one, if any, renews itself).
            return;
        }
        let sent = cl.sent_local;
        if renewed.is_some() {
            if let Some(lease) = self.clients[usize::from(c)].lease.as_mut() {
                lease.believed_end_local = sent.saturating_add(ctx.ttl_local());
            }
            self.arm_renewal::<S>(ctx, c);
            return;
        }
        self.client_session(c).session = None;
        self.stop_believing(c, sent); // no time left, by its own reckoning
    }

    /// Client `c` knows it holds nothing any more: its belief ends now, and its lease, by its own
    /// reckoning, at `local` on its clock (its credentials stay with what it already sent).
    pub(crate) fn stop_believing(&mut self, c: u8, local: i64) {
        self.end_belief(c, self.now);
        if let Some(lease) = self.clients[usize::from(c)].lease.as_mut() {
            lease.believed_end_local = local;
        }
    }

    /// As [`Engine::stop_believing`], at its clock's time now (a check fails from now on).
    pub(crate) fn stop_believing_now(&mut self, ctx: &Ctx, c: u8) {
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let local = clock.local_h(self.now, &mut self.path);
        self.stop_believing(c, local);
    }
}
