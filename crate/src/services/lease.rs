//! One lock server with leases: a grant is live on `[granted_at, granted_at + ttl)` of the server's
//! clock (see [`crate::lock::LeaseService`]); the client asks, waits for the answer, and polls again
//! after `every` when denied. Release and renewal are checked against the grant's lock value. This is
//! the seed's service, and the request/response protocol of a single redis and of a session lock.
//!
//! An injected cut (`cut:A,at=R,for=R`; docs/model.md, "A client cut off"): TCP holds what A and the
//! server send meanwhile — requests, grants, refusals, releases, renewals and their answers — and it
//! arrives one latency after the heal, in the order sent (`Engine::lock_hop`). The server counts a
//! lease from the grant, the client from its request: a grant held past the TTL reaches a client whose
//! lease has run out. The client has no timeout of its own for an answer: it waits.

use super::{LockService, Serve};
use crate::lock::Grant;
use crate::sim::{Ctx, Engine, Ev, Msg, Tag};
use crate::store::Credentials;
use crate::time::SimTime;
use crate::trace::What;

/// The seed's lock service (see the module's note).
pub(crate) struct Lease;

impl LockService for Lease {
    /// Its state is the engine's lock server (`Engine::locks`).
    type State = ();
}

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). The lease bars alone; its
/// events worded by their kinds.
pub(super) const DIAGRAM: super::Diagram = super::Diagram::GENERIC_WORDS;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Lease> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        self.on_lease_event(ctx, ev);
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
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// A polling client's lock request reaches its one server (a service that
    /// `ServiceKind::polls_one_server`): the run loop calls this directly, not the services' dispatch.
    #[inline(always)]
    pub(crate) fn on_poll_request(&mut self, ctx: &Ctx, c: u8) {
        self.acquire_at(ctx, c);
    }

    /// The answer to a polling client's lock request reaches it (see [`Engine::on_poll_request`]).
    #[inline(always)]
    pub(crate) fn on_poll_answer(&mut self, ctx: &Ctx, ev: Ev) {
        self.on_acquire_reply(ctx, ev);
    }

    /// A refusal of a polling client's lock request reaches it (see [`Engine::on_poll_request`]).
    #[inline(always)]
    pub(crate) fn on_poll_refused(&mut self, ctx: &Ctx, c: u8) {
        self.on_acquire_refused(ctx, c);
    }

    /// A polling client's retry timer fires while it waits at its acquire step (the run loop checks
    /// [`Engine::at_acquire_step`]): it asks its one server again. This is what the interpreter's
    /// acquire step does for such a service ([`Engine::advance`], then the services' dispatch to
    /// [`Engine::lease_acquire`]), without the interpreter and the dispatch around it: the every-cell
    /// sweep took 8 % less time in wasm (issue 18, CHANGELOG.md); through the dispatch it would take
    /// 4 % more again.
    pub(crate) fn on_poll_retry(&mut self, ctx: &Ctx, c: u8) {
        self.acquire_sent(ctx, c);
        self.lease_acquire(ctx, c);
    }

    pub(super) fn on_lease_event(&mut self, ctx: &Ctx, ev: Ev) {
        match ev.tag {
            Tag::AcquireAt => self.acquire_at(ctx, ev.client),
            Tag::AcquireReply => self.on_acquire_reply(ctx, ev),
            Tag::AcquireRefused => self.on_acquire_refused(ctx, ev.client),
            Tag::ReleaseAt => self.release_at(ev),
            Tag::RenewAt => self.renew_at(ctx, ev),
            Tag::RenewReply => self.on_renew_reply(ctx, ev),
            // Unreachable: not a lease event.
            _ => unreachable!(),
        }
    }

    pub(super) fn lease_acquire(&mut self, ctx: &Ctx, c: u8) {
        self.schedule_hop(ctx, Ev::bare(Tag::AcquireAt, c));
    }

    pub(super) fn lease_release(&mut self, ctx: &Ctx, c: u8, value: u64) {
        self.send_hop(ctx, Tag::ReleaseAt, c, Msg::Value(value));
    }

    /// The client asks to extend its lease by another TTL; it remembers when it asked, since the
    /// renewed lease is believed to end a TTL after that.
    pub(crate) fn send_renew(&mut self, ctx: &Ctx, c: u8) {
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let sent = clock.local_h(self.now, &mut self.path);
        let Some(lease) = self.clients[usize::from(c)].lease.as_mut() else {
            // Unreachable: only a client holding a lease renews it.
            unreachable!()
        };
        lease.believed_end_local = sent;
        let value = lease.cred.lock_value;
        self.send_hop(ctx, Tag::RenewAt, c, Msg::Value(value));
    }

    // The run loop calls it directly (see `Engine::on_poll_request`). In the lab's wasm (size budgets)
    // out of line; in the build for speed (the `speed` feature: explore's wasm) inline in the run
    // loop, which with the retry (`Engine::on_poll_retry`) and the refusal's handler puts a whole
    // polling round there: the every-cell sweep took 7 % less time in wasm (issue 18,
    // CHANGELOG.md).
    #[cfg_attr(feature = "speed", inline(always))]
    #[cfg_attr(not(feature = "speed"), inline(never))]
    fn acquire_at(&mut self, ctx: &Ctx, c: u8) {
        if self.refuses_request(ctx, c) {
            return self.answer_request(ctx, c, Grant::NoSession);
        }
        // Nearly every request is refused: that answer here, a grant out of line (the every-cell
        // sweep took 3–4 % less time in wasm; issue 18, CHANGELOG.md).
        match self.locks[0].denies(self.now) {
            Some(holder) => self.refuse_request(ctx, c, holder),
            None => self.grant_request(ctx, c),
        }
    }

    /// The lock is held (by `holder`), or a lock-delay runs: a refusal, which carries nothing (no
    /// message through the mailbox for the answer of nearly every poll).
    #[inline(always)]
    pub(super) fn refuse_request(&mut self, ctx: &Ctx, c: u8, holder: Option<u8>) {
        self.floor(grant_word(Grant::Denied { holder }));
        let session_gone = false;
        self.record(
            c,
            What::Denied {
                holder,
                session_gone,
            },
        );
        self.schedule_hop(ctx, Ev::bare(Tag::AcquireRefused, c));
    }

    /// The lock is free: the server grants it.
    #[inline(never)]
    pub(super) fn grant_request(&mut self, ctx: &Ctx, c: u8) {
        let grant = self.locks[0].acquire(c, self.now, None);
        self.answer_request(ctx, c, grant);
    }

    /// A grant, or no session (the request came over a session that has ended): an answer with a
    /// message.
    #[inline(never)]
    pub(super) fn answer_request(&mut self, ctx: &Ctx, c: u8, grant: Grant) {
        self.floor(grant_word(grant));
        let what = match grant {
            Grant::Granted {
                token, expires_at, ..
            } => What::Granted {
                token,
                lease_end: lease_end(expires_at),
            },
            Grant::NoSession => What::Denied {
                holder: None,
                session_gone: true,
            },
            // Unreachable: a refusal is `refuse_request`'s.
            Grant::Denied { .. } => unreachable!(),
        };
        self.record(c, what);
        self.send_hop(ctx, Tag::AcquireReply, c, Msg::Grant(grant));
    }

    // Out of line: a grant (or no session) comes once or twice a run; it reads its grant from the
    // mailbox itself (passed in, the grant went through memory once more).
    #[inline(never)]
    fn on_acquire_reply(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        let Msg::Grant(grant) = self.msg(ev) else {
            // Unreachable: an acquire reply carries a grant.
            unreachable!()
        };
        match grant {
            Grant::Granted {
                token, lock_value, ..
            } => {
                let token = ctx.sc.service.tokens.then_some(token);
                let cred = Credentials {
                    token,
                    lock_value,
                    via_session: false,
                };
                // The lease counts from when the request was sent, by the client's own clock: the
                // careful reading (a quorum client, too, measures validity from the start of acquisition).
                let sent = self.clients[usize::from(c)].acquire_sent_local;
                self.hold_lease(c, cred, sent.saturating_add(ctx.ttl_local()));
                self.advance(ctx, c);
            }
            Grant::NoSession => self.abort(ctx, c),
            // Unreachable: a refusal comes as its own event.
            Grant::Denied { .. } => unreachable!(),
        }
    }

    /// Refused: poll again (inline or out of line as `acquire_at`).
    #[cfg_attr(feature = "speed", inline(always))]
    #[cfg_attr(not(feature = "speed"), inline(never))]
    fn on_acquire_refused(&mut self, ctx: &Ctx, c: u8) {
        self.retry_acquire(ctx, c, 0);
    }

    pub(super) fn release_at(&mut self, ev: Ev) {
        let c = ev.client;
        let Msg::Value(value) = self.msg(ev) else {
            // Unreachable: a release carries the lock value.
            unreachable!()
        };
        let ended = self.locks[0].release(value, self.now);
        let ended = self.decide(ended);
        self.record(c, What::Released { ended_lease: ended });
    }

    fn renew_at(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        let Msg::Value(value) = self.msg(ev) else {
            // Unreachable: a renewal carries the lock value.
            unreachable!()
        };
        let now = self.now;
        let renewed = self.locks[0].renew(value, now);
        self.decide(renewed.is_some());
        match renewed {
            Some(end) => self.record(
                c,
                What::Renewed {
                    lease_end: lease_end(end),
                },
            ),
            None => self.record(c, What::RenewDenied),
        }
        self.send_hop(ctx, Tag::RenewReply, c, Msg::Renewed(renewed));
    }

    /// Renewed: the new lease counts from when the renewal was sent (remembered in the lease's end).
    /// Refused (or the client let go meanwhile): the attempt failed.
    fn on_renew_reply(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        let Msg::Renewed(renewed) = self.msg(ev) else {
            // Unreachable: a renewal's answer says whether it was renewed.
            unreachable!()
        };
        let renewed = renewed.is_some();
        let st = &mut self.clients[usize::from(c)];
        match (renewed, st.lease.as_mut()) {
            (true, Some(lease)) => {
                lease.believed_end_local = lease.believed_end_local.saturating_add(ctx.ttl_local());
                st.pc += 1;
                self.advance(ctx, c);
            }
            _ => self.abort(ctx, c),
        }
    }
}

/// A lease's end as the trace keeps it: `None` for a session lock, which has no TTL.
pub(super) fn lease_end(end: SimTime) -> Option<SimTime> {
    (end.0 != u64::MAX).then_some(end)
}

/// A lock's answer as one word for the signature: granted, refused (and by whom), or no session.
pub(super) fn grant_word(g: Grant) -> u64 {
    match g {
        Grant::Granted { .. } => 1,
        Grant::Denied { holder } => 2 + (holder.map_or(0, |h| u64::from(h) + 1) << 8),
        Grant::NoSession => 3,
    }
}
