//! Hazelcast's `FencedLock` on a CP session (the CP Subsystem's Raft-based lock).
//!
//! A client's first lock call opens a CP session on the lock's CP group (`CreateSessionOp`); from
//! then on its session manager commits a heartbeat every `heartbeat` (session-heartbeat-interval-
//! seconds, 5 s) for as long as the session is in use — while the client holds the lock or waits for
//! it. The heartbeat timer is the client's own: it freezes with a frozen client. The group's leader
//! checks for expired sessions every `check` (`RaftSessionService`, 1 s) and closes a session whose
//! last heartbeat is `session-ttl` (session-time-to-live-seconds, 300 s) old, releasing its lock.
//! A heartbeat that arrives after the expiration time but before the check still renews the session:
//! only a session already closed refuses it.
//!
//! `lock()` / `lockAndGetFence()` is one Raft operation: the lock is free (the caller owns it), the
//! caller already owns it (reentrant: the same fence), or the caller's call waits on the server in a
//! FIFO queue. When the owner unlocks, or its session closes, the first waiter becomes the owner. The
//! fence is the Raft commit index of the owner's lock call (`Lock.acquire`: `owner.commitIndex()`) —
//! for a waiter the index of the call it made when it joined the queue — so fences grow with every
//! new owner. Every operation the model has takes one index: session creation, lock, unlock,
//! heartbeat, session expiry and close.
//!
//! The client finds out its session was closed on its next call: a heartbeat answered with
//! `SessionExpiredException` (the session manager forgets the session: the client knows it lost the
//! lock), or a lock or unlock, which fails with `LockOwnershipLostException` if it held the lock on
//! that session (`AbstractFencedLockProxy`). A lock call on a closed session by a client that held
//! nothing is retried on a new session, as the proxy does. Until then it acts on the fence it has:
//! only the storage can refuse it. At the end of its script a client closes its session.
//!
//! Left out: the rest of the Raft log (thread-id generation for clients, leader changes, whose new
//! term shifts every session's expiry by a heartbeat interval), a fixed-rate timer's catch-up burst
//! after a pause (one heartbeat tells the client the same), and the idle-session sweep every 30 s
//! (it closes only sessions that hold nothing).
//!
//! An injected cut holds the client's calls, heartbeats and their answers until one latency after the
//! heal (`Engine::lock_hop`): a cut longer than the session TTL closes the session on the server
//! (the lock with it), and the held heartbeat's answer tells the client.

use super::keepalive::{KeepAlive, ServerSession};
use super::waiters::Fifo;
use super::{LockService, Said, Serve};
use crate::lock::{Grant, LeaseRecord};
use crate::scenario::Scenario;
use crate::sim::{Ctx, Engine, Ev, Msg, Phase, Tag};
use crate::store::Credentials;
use crate::time::{Millis, SimTime};
use crate::trace::{SessionEnd, TraceEvent, What};

/// The CP group's state and each client's session manager, during a run.
#[derive(Default)]
pub(crate) struct State {
    /// The CP group's Raft log: the index of the last committed operation.
    commit: u64,
    sessions_created: u64,
    /// Per client: its CP session on the group.
    sessions: Vec<ServerSession>,
    /// The lock's current owner (with its lock count and fence), if it is held.
    holder: Option<Holder>,
    /// Lock calls waiting on the server, first come first served: the client and its call's index.
    waiters: Fifo<(u8, u64)>,
    /// Per client: what its session manager and lock proxy know.
    clients: Vec<Proxy>,
    /// The lock's truth: one record per owner.
    pub records: Vec<LeaseRecord>,
    /// The latest client to become the owner (the ideal guard's truth).
    pub owner: Option<u8>,
}

#[derive(Clone, Copy)]
struct Holder {
    client: u8,
    count: u32,
    fence: u64,
    record: usize,
}

#[derive(Clone, Copy, Default)]
struct Proxy {
    /// The session it believes open.
    session: Option<u64>,
    /// The session it acquired the lock on (`lockedSessionIds`).
    locked: Option<u64>,
    /// Holding or waiting for the lock: its session is in use, so it heartbeats.
    in_use: bool,
    /// Its heartbeat timer is queued.
    ticking: bool,
    /// A heartbeat is on its way (one at a time: its answer has one mailbox slot).
    in_flight: bool,
}

impl State {
    pub fn reset(&mut self, clients: usize) {
        self.commit = 0;
        self.sessions_created = 0;
        self.sessions.clear();
        self.sessions.resize(clients, ServerSession::default());
        self.holder = None;
        self.waiters.clear();
        self.clients.clear();
        self.clients.resize(clients, Proxy::default());
        self.records.clear();
        self.owner = None;
    }

    /// One more operation committed to the group's log: its index.
    fn commit(&mut self) -> u64 {
        self.commit += 1;
        self.commit
    }
}

/// Hazelcast's FencedLock on a CP session (see the module's note).
pub(crate) struct Hazelcast;

impl LockService for Hazelcast {
    type State = State;

    fn reset(state: &mut State, clients: usize) {
        state.reset(clients);
    }

    fn grants(state: &State) -> &[LeaseRecord] {
        &state.records
    }

    fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
        say(sc, e, who)
    }
}

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). Heartbeats, the CP group's
/// queue of lock calls by commit index; its TTL is the CP session's.
pub(super) const DIAGRAM: super::Diagram = {
    use super::Diagram as D;
    D::KA.and(D::QUEUE).and(D::SESSION_TTL)
};

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Hazelcast> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        match (ev.tag, self.msg(ev)) {
            (Tag::SessionOpenAt, _) => self.hz_open_at(ctx, c),
            (Tag::SessionOpenReply, Msg::Value(id)) => self.hz_opened(ctx, c, id),
            (Tag::LockAt, _) => self.hz_lock_at(ctx, c),
            (Tag::LockReply, Msg::Grant(g)) => self.hz_lock_reply(ctx, c, g),
            (Tag::UnlockAt, _) => self.hz_unlock_at(ctx, c),
            (Tag::Heartbeat, _) => self.hz_heartbeat(ctx, c),
            (Tag::HeartbeatAt, _) => self.hz_heartbeat_at(ctx, c),
            (Tag::HeartbeatReply, Msg::Renewed(r)) => self.hz_heartbeat_reply(ctx, c, r.is_some()),
            (Tag::SessionExpiry, _) => self.hz_expiry(ctx, c),
            (Tag::SessionCloseAt, _) => self.hz_close_at(ctx, c),
            // Unreachable: every Hazelcast event carries its own message.
            _ => unreachable!(),
        }
    }

    /// `lockAndGetFence()`: on the client's session, or on a new one if it has none.
    fn acquire(&mut self, ctx: &Ctx, c: u8) {
        let p = &mut self.hz().clients[usize::from(c)];
        let tag = if p.session.is_some() {
            p.in_use = true;
            Tag::LockAt
        } else {
            Tag::SessionOpenAt
        };
        self.hz_send(ctx, c, tag);
    }

    /// `unlock()`: the proxy forgets the session it locked on, whatever the group answers.
    fn release(&mut self, ctx: &Ctx, c: u8, _value: u64) {
        let p = &mut self.hz().clients[usize::from(c)];
        p.locked = None;
        p.in_use = false;
        self.hz_send(ctx, c, Tag::UnlockAt);
    }

    fn rightful(&self, _ctx: &Ctx) -> Option<u8> {
        self.services.hazelcast.owner
    }

    /// The script is over: the client shuts down, closing its session.
    fn on_script_end(&mut self, ctx: &Ctx, c: u8) {
        if self.hz().clients[usize::from(c)].session.take().is_some() {
            self.hz_send(ctx, c, Tag::SessionCloseAt);
        }
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    fn hz(&mut self) -> &mut State {
        &mut self.services.hazelcast
    }


    fn hz_send(&mut self, ctx: &Ctx, c: u8, tag: Tag) {
        self.schedule_hop(ctx, Ev::bare(tag, c));
    }

    fn hz_answer(&mut self, ctx: &Ctx, c: u8, tag: Tag, msg: Msg) {
        self.send_hop(ctx, tag, c, msg);
    }




    /// `CreateSessionOp`: a new session, live for a TTL unless heartbeats keep it.
    fn hz_open_at(&mut self, ctx: &Ctx, c: u8) {
        let st = self.hz();
        st.commit();
        st.sessions_created += 1;
        let id = st.sessions_created;
        self.open_session::<Hazelcast>(ctx, c, id);
        self.hz_answer(ctx, c, Tag::SessionOpenReply, Msg::Value(id));
    }

    /// The session is the client's: its heartbeat timer starts, and it sends its lock call — unless
    /// it had locked on a session that is gone (`LockOwnershipLostException`).
    fn hz_opened(&mut self, ctx: &Ctx, c: u8, id: u64) {
        let every = self.hz_interval(ctx);
        let p = &mut self.hz().clients[usize::from(c)];
        p.session = Some(id);
        if p.locked.take().is_some() {
            let denied = What::Denied {
                holder: None,
                session_gone: true,
            };
            self.record(c, denied);
            self.abort(ctx, c);
            return;
        }
        p.in_use = true;
        if !std::mem::replace(&mut p.ticking, true) {
            self.schedule(self.now.plus(every), Ev::bare(Tag::Heartbeat, c));
        }
        self.hz_send(ctx, c, Tag::LockAt);
    }

    fn hz_interval(&mut self, ctx: &Ctx) -> u64 {
        ctx.sc.service.keepalive.resolve(ctx.params).max(1)
    }

    /// `LockOp` on the group: owned now, reentrant, queued, or refused (the session is closed).
    fn hz_lock_at(&mut self, ctx: &Ctx, c: u8) {
        if !self.hz().sessions[usize::from(c)].alive {
            let denied = What::Denied {
                holder: None,
                session_gone: true,
            };
            self.record(c, denied);
            self.hz_answer(ctx, c, Tag::LockReply, Msg::Grant(Grant::NoSession));
            return;
        }
        let st = self.hz();
        let index = st.commit();
        match st.holder {
            None => self.hz_own(ctx, c, index),
            Some(h) if h.client == c => {
                let fence = h.fence;
                self.hz().holder = Some(Holder {
                    count: h.count + 1,
                    ..h
                });
                self.hz_grant(ctx, c, fence);
            }
            Some(h) => {
                self.hz().waiters.push((c, index));
                let behind = Some(h.client);
                self.record(c, What::Queued { rev: index, behind });
            }
        }
    }

    /// Client `c` owns the lock with the fence of its lock call (index `index`).
    fn hz_own(&mut self, ctx: &Ctx, c: u8, index: u64) {
        let now = self.now;
        let token = if ctx.sc.service.tokens { index } else { 0 };
        let st = self.hz();
        let session = st.sessions[usize::from(c)].id;
        st.records.push(LeaseRecord {
            client: c,
            node: 0,
            token,
            lock_value: session,
            granted_at: now,
            ends_at: SimTime(u64::MAX),
            released: false,
            session_ended: false,
            lost: false,
        });
        st.holder = Some(Holder {
            client: c,
            count: 1,
            fence: token,
            record: st.records.len() - 1,
        });
        st.owner = Some(c);
        let lease_end = None; // no TTL: the lock lasts as long as the session
        self.record(c, What::Granted { token, lease_end });
        self.hz_grant(ctx, c, token);
    }

    fn hz_grant(&mut self, ctx: &Ctx, c: u8, fence: u64) {
        let grant = Grant::Granted {
            token: fence,
            lock_value: self.hz().sessions[usize::from(c)].id,
            expires_at: SimTime(u64::MAX),
        };
        self.hz_answer(ctx, c, Tag::LockReply, Msg::Grant(grant));
    }

    /// The lock call's answer: the fence, or `SessionExpiredException` — which costs a client that had
    /// locked on that session its lock (`LockOwnershipLostException`), and makes any other retry on a
    /// new session.
    fn hz_lock_reply(&mut self, ctx: &Ctx, c: u8, grant: Grant) {
        let Grant::Granted {
            token, lock_value, ..
        } = grant
        else {
            let p = &mut self.hz().clients[usize::from(c)];
            p.session = None;
            p.in_use = false;
            if p.locked.take().is_some() {
                self.abort(ctx, c);
            } else {
                self.hz_send(ctx, c, Tag::SessionOpenAt);
            }
            return;
        };
        self.hz().clients[usize::from(c)].locked = Some(lock_value);
        let cred = Credentials {
            token: ctx.sc.service.tokens.then_some(token),
            lock_value,
            via_session: false,
        };
        self.hold_lease(c, cred, i64::MAX); // held while the session lives: no end by its clock
        self.advance(ctx, c);
    }

    /// `UnlockOp`: the owner's count goes down, and at zero the first waiter owns the lock. From a
    /// closed session, or a client that is not the owner, it fails.
    fn hz_unlock_at(&mut self, ctx: &Ctx, c: u8) {
        let alive = self.hz().sessions[usize::from(c)].alive;
        let holder = self.hz().holder.filter(|h| h.client == c && alive);
        let Some(h) = holder else {
            self.record(c, What::Released { ended_lease: false });
            return;
        };
        self.hz().commit();
        if h.count > 1 {
            self.hz().holder = Some(Holder {
                count: h.count - 1,
                ..h
            });
            return;
        }
        self.hz_free(h, false);
        self.record(c, What::Released { ended_lease: true });
        self.hz_next_owner(ctx);
    }

    /// The owner's record ends now (released, or its session closed).
    fn hz_free(&mut self, h: Holder, session_ended: bool) {
        let now = self.now;
        let st = self.hz();
        st.holder = None;
        let rec = &mut st.records[h.record];
        rec.ends_at = now;
        rec.released = !session_ended;
        rec.session_ended = session_ended;
    }

    /// The lock is free: the first waiter, if any, owns it with the fence of its waiting call.
    fn hz_next_owner(&mut self, ctx: &Ctx) {
        let st = self.hz();
        if st.holder.is_some() {
            return;
        }
        if let Some((w, index)) = st.waiters.next() {
            self.hz_own(ctx, w, index);
        }
    }

    /// The client's heartbeat timer (fixed rate): it commits a heartbeat if its session is in use.
    fn hz_heartbeat(&mut self, ctx: &Ctx, c: u8) {
        let done = self.clients[usize::from(c)].phase == Phase::Done;
        let every = self.hz_interval(ctx);
        let p = &mut self.hz().clients[usize::from(c)];
        if p.session.is_none() || done {
            p.ticking = false;
            return;
        }
        let send = p.in_use && !p.in_flight;
        p.in_flight |= send;
        if send {
            self.hz_send(ctx, c, Tag::HeartbeatAt);
        }
        self.schedule(self.now.plus(every), Ev::bare(Tag::Heartbeat, c));
    }

    /// `HeartbeatSessionOp` (one index): an open session lives a TTL from now; a closed one is gone
    /// for good.
    fn hz_heartbeat_at(&mut self, ctx: &Ctx, c: u8) {
        if self.renew_session::<Hazelcast>(ctx, c).is_some() {
            self.hz().commit();
        }
    }

    /// `SessionExpiredException`: the session manager forgets the session, and the client knows it
    /// holds nothing any more.
    fn hz_heartbeat_reply(&mut self, ctx: &Ctx, c: u8, live: bool) {
        let p = &mut self.hz().clients[usize::from(c)];
        p.in_flight = false;
        if live {
            return;
        }
        p.session = None;
        self.stop_believing_now(ctx, c);
    }

    /// The leader's expired-session check: a session whose expiration time has come is closed and its
    /// lock released (`ExpireSessionsOp`); one heartbeated meanwhile is looked at again later.
    fn hz_expiry(&mut self, ctx: &Ctx, c: u8) {
        if !self.session_expired::<Hazelcast>(ctx, c) {
            return;
        }
        let token = self.hz_close(ctx, c).map_or(0, |h| h.fence);
        self.record(c, What::LeaseExpired { token });
        self.hz_next_owner(ctx);
    }

    /// `CloseSessionOp` at the client's shutdown.
    fn hz_close_at(&mut self, ctx: &Ctx, c: u8) {
        if !self.hz().sessions[usize::from(c)].alive {
            return;
        }
        let freed = self.hz_close(ctx, c).is_some();
        let cause = SessionEnd::Disconnected;
        self.record(c, What::SessionEnded { cause, freed });
        self.hz_next_owner(ctx);
    }

    /// Closes the client's session (one index): its lock is released, and its waiting calls fail.
    /// Returns the lock it held.
    fn hz_close(&mut self, ctx: &Ctx, c: u8) -> Option<Holder> {
        let st = self.hz();
        st.commit();
        st.sessions[usize::from(c)].alive = false;
        if st.waiters.leave(c).is_some() {
            self.hz_answer(ctx, c, Tag::LockReply, Msg::Grant(Grant::NoSession));
        }
        let held = self.hz().holder.filter(|h| h.client == c)?;
        self.hz_free(held, true);
        Some(held)
    }
}

/// Hazelcast's CP session: it lives a TTL from its creation or latest heartbeat, the leader checks
/// for expired sessions every `check`, and a heartbeat that comes before the check renews it even
/// after its expiration time.
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl KeepAlive<Hazelcast> for Engine {
    const RENEWS_LATE: bool = true;

    fn sessions(&mut self) -> &mut [ServerSession] {
        &mut self.services.hazelcast.sessions
    }

    fn expiry(&mut self, ctx: &Ctx) -> SimTime {
        self.now.plus(ctx.ttl)
    }

    /// The first expiry check at or after `t` (checks run every `check` from the start).
    fn check_at(&mut self, ctx: &Ctx, t: SimTime) -> SimTime {
        let period = ctx.sc.service.tick.resolve(ctx.params).max(1);
        let checks = t.0.div_ceil(period);
        self.floor(checks); // a ceiling of a time: a count of periods
        SimTime(checks * period)
    }

    fn answer(&mut self, ctx: &Ctx, c: u8, tag: Tag, msg: Msg) {
        self.hz_answer(ctx, c, tag, msg);
    }
}

/// Hazelcast's events in the transcript, as its API and exceptions name them.
fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
    let line = match e.what {
        What::LeaseGranted { lease, .. } => {
            let ttl = Millis(sc.service.ttl.resolve(&sc.defaults()));
            format!("{who}: CP session {lease} created (TTL {ttl} ms after its last heartbeat)")
        }
        What::Queued { rev, behind } => {
            let behind = behind.map_or('?', |h| sc.client_name(h));
            format!("{who}: lock() (commit {rev}) waits on the CP group behind {behind}")
        }
        What::Granted { token, .. } => {
            format!("hazelcast: {who} owns the lock{}", fence(sc, token))
        }
        What::Denied { .. } => format!("{who}: lock() → SessionExpiredException"),
        What::KeepAlive { lease_end: None } => {
            format!("{who}: heartbeat → SessionExpiredException: its session is closed")
        }
        What::KeepAlive { .. } => return Some(Said::Nothing), // the steady heartbeats
        What::LeaseExpired { token: 0 } => format!("hazelcast: {who}'s CP session expires"),
        What::LeaseExpired { .. } => {
            format!("hazelcast: no heartbeat from {who} for the session TTL: its session is closed and its lock released")
        }
        What::Released { ended_lease: true } => format!("{who}: unlock()"),
        What::Released { ended_lease: false } => {
            format!("{who}: unlock() → LockOwnershipLostException: its session was closed")
        }
        What::SessionEnded { freed, .. } => {
            let lock = if freed { ", releasing its lock" } else { "" };
            format!("{who}: shuts down: its CP session is closed{lock}")
        }
        _ => return None,
    };
    Some(Said::Line(line))
}

/// `, fence=4` when the holder fences with its fence.
fn fence(sc: &Scenario, token: u64) -> String {
    if sc.service.tokens {
        format!(" (lockAndGetFence → {token}: tok={token})")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;
    use crate::trace::{Kind, What};
    use crate::{catalogue, simulate, Config, Policy};

    #[test]
    fn the_fence_is_the_commit_index_of_the_owners_lock_call() {
        // A's session is index 1 and its lock 2; B's session 3 and its waiting lock 4; B's heartbeats
        // at 7 s and 12 s are 5 and 6, A's expiry 7: B owns the lock with its call's index, 4.
        let sc = catalogue::find("hazelcast-fenced-lock").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        let grants: Vec<(u8, u64, u64)> = o
            .run
            .trace
            .iter()
            .filter_map(|e| match e.what {
                What::Granted { token, .. } => Some((e.client, token, e.t.0)),
                _ => None,
            })
            .collect();
        assert_eq!(grants, [(0, 2, 0), (1, 4, 15_000_000)]);
    }

    #[test]
    fn a_frozen_client_sends_no_heartbeats_and_its_session_closes_at_the_check() {
        let sc = catalogue::find("hazelcast-fenced-lock").unwrap();
        let mut cfg = Config::new(sc, Policy::None);
        cfg.params = vec![15_500_000, 25_000_000]; // a TTL of 15.5 s: the check at 16 s closes it
        let o = simulate(sc, &cfg).unwrap();
        let a_heartbeats: Vec<u64> = o
            .run
            .trace
            .iter()
            .filter(|e| e.client == 0 && matches!(e.what, What::KeepAlive { .. }))
            .map(|e| e.t.0)
            .collect();
        assert_eq!(
            a_heartbeats,
            [25_000_000],
            "the one due at 5 s waits until A wakes"
        );
        let expired = o
            .run
            .trace
            .iter()
            .find(|e| e.kind() == Kind::LeaseExpired)
            .unwrap();
        assert_eq!((expired.client, expired.t.0), (0, 16_000_000));
    }

    #[test]
    fn a_session_ttl_not_longer_than_the_heartbeat_is_refused() {
        let base = "id: t\ntitle: t\nsummary: s\nservice: hazelcast session-ttl=5s heartbeat=5s\nclient A: acquire; read; write 1\n";
        let err = Scenario::parse(base).unwrap_err().to_string();
        assert!(err.contains("longer than heartbeat"), "{err}");
        let err = Scenario::parse(&base.replace("hazelcast", "etcd"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("needs `service: hazelcast`"), "{err}");
        let ok = Scenario::parse(&base.replace("=5s heartbeat", "=6s heartbeat"));
        assert!(ok.is_ok(), "{:?}", ok.err());
    }
}
