//! Consul's sessions and KV locks, as the Go client's `api.Lock` (`api/lock.go`) uses them.
//!
//! A client creates a session with a TTL (`DefaultLockSessionTTL`, 15 s) and renews it every half TTL
//! (`RenewPeriodic` in `api/session.go`); its renewals are its own timers, so they freeze with it. The
//! TTL is a lower bound: the server arms the session's timer for TTL × `SessionTTLMultiplier` (2) at
//! creation and at every renewal (`resetSessionTimer`, `agent/consul/session_ttl.go`), and invalidates
//! the session when it fires. The client believes its lock lasts a TTL after it sent its latest
//! renewal (the careful reading of the contract: the server promises no expiry before the TTL).
//!
//! The lock is one KV key. `api.Lock` reads it with a blocking query; while a session holds it, the
//! query waits until the key changes. Then `PUT key?acquire=SESSION` succeeds if no session holds the
//! key and no lock-delay is in force on it (`kvsLockTxn` in the state store, the lock-delay check in
//! the KV endpoint); each successful acquire by a new session increments the key's `LockIndex`, which
//! is the fencing token (the sequencer of Key, LockIndex, Session). A failed acquire waits
//! `DefaultLockRetryTime` (5 s) before reading the key again, so that a lock-delay is not hot-looped.
//! `Unlock` is `PUT key?release=SESSION`, after which the client destroys its session.
//! A session invalidated with the default behavior `release` frees its keys and — destroyed or timed
//! out alike — closes each for the session's lock-delay (15 s by default, at most 60 s).
//!
//! Left out, because nothing here turns on them: the blocking query's own timeout
//! (`DefaultLockWaitTime`, 15 s, after which the client simply asks again), `monitorLock`'s query
//! that tells a holder it lost the key (it reaches a frozen client no sooner than its renewal's
//! "session not found"), health checks (`api.Lock` creates its session with none but the node's
//! `serfHealth`, which a paused process does not fail), and Raft: one server, no leader changes.
//!
//! An injected cut holds every message between the client and the server (session calls, renewals,
//! the key's blocking queries, their answers) until one latency after the heal (`Engine::lock_hop`):
//! a cut longer than the session's TTL (twice, as the server reckons it) invalidates the session on
//! the server, and the held renewal's answer tells the client.

use super::keepalive::{ClientSession as Client, KeepAlive, Renewal, ServerSession};
use super::{LockService, Said, Serve};
use crate::lock::{Grant, LeaseRecord};
use crate::scenario::Scenario;
use crate::sim::{Ctx, Engine, Ev, Msg, Tag};
use crate::store::Credentials;
use crate::time::{Millis, SimTime, SEC};
use crate::trace::{SessionEnd, TraceEvent, What};

/// `api.DefaultLockRetryTime`: the wait after a failed acquire before the key is read again.
const LOCK_RETRY_US: u64 = 5 * SEC;
/// `structs.SessionTTLMultiplier`: the server's timer runs this many TTLs after the last renewal.
const TTL_MULTIPLIER: u64 = 2;
/// Session IDs (UUIDs in Consul), shortened to numbers a page can show.
const SESSION_ID_BASE: u64 = 0xc0_0000;

/// The Consul server's state and each client's session, during a run.
#[derive(Default)]
pub(crate) struct State {
    /// The Raft index: one more for every write (session create and destroy, acquire, release).
    index: u64,
    key: Key,
    /// Per client: its session on the server.
    sessions: Vec<ServerSession>,
    /// Per client: what it knows of its session.
    clients: Vec<Client>,
    /// The lock's truth: one record per grant.
    pub records: Vec<LeaseRecord>,
    /// The latest client granted the key (the ideal guard's truth).
    pub owner: Option<u8>,
}

/// The lock's KV key.
#[derive(Clone, Copy, Default)]
struct Key {
    /// The client whose session holds it.
    holder: Option<u8>,
    lock_index: u64,
    modify_index: u64,
    /// No acquire before this (the lock-delay of the last session invalidated while holding it).
    delay_until: SimTime,
    /// The holder's entry in `records`.
    record: usize,
    /// Clients whose blocking query waits for the key to change (bit mask).
    waiters: u8,
}

impl State {
    pub fn reset(&mut self, clients: usize) {
        self.index = 0;
        self.key = Key::default();
        self.sessions.clear();
        self.sessions.resize(clients, ServerSession::default());
        self.clients.clear();
        self.clients.resize(clients, Client::default());
        self.records.clear();
        self.owner = None;
    }

    fn write(&mut self) -> u64 {
        self.index += 1;
        self.index
    }
}

/// Consul's KV lock on a session (see the module's note).
pub(crate) struct Consul;

impl LockService for Consul {
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

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). Session renewals;
/// invalidation releases the key under lock-delay; its TTL is the session's.
pub(super) const DIAGRAM: super::Diagram = {
    use super::Diagram as D;
    D::KA.and(D::SESSION_TTL).and(D::LOCK_DELAY)
};

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Consul> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        match (ev.tag, self.msg(ev)) {
            (Tag::SessionOpenAt, _) => self.session_create_at(ctx, c),
            (Tag::SessionOpenReply, Msg::Value(id)) => self.on_session_created(ctx, c, id),
            (Tag::LockAt, _) => self.kv_get_at(ctx, c),
            (Tag::WatchFired, _) => self.consul_send(ctx, c, Tag::AcquireAt),
            (Tag::AcquireAt, _) => self.kv_acquire_at(ctx, c),
            (Tag::AcquireReply, Msg::Grant(g)) => self.on_kv_acquire(ctx, c, g),
            (Tag::UnlockAt, _) => self.kv_release_at(ctx, c),
            (Tag::Heartbeat, _) => self.renewal_tick::<Consul>(ctx, c),
            // `PUT /v1/session/renew/:id`: a live session's timer is re-armed for TTL × 2 from now;
            // a session already invalidated (or replaced by a newer one of the client's) is not found.
            (Tag::HeartbeatAt, _) => {
                self.renew_session::<Consul>(ctx, c);
            }
            // Renewed: the lock is believed to last a TTL from when the renewal was sent. Not found:
            // `RenewPeriodic` returns `ErrSessionExpired`, and the client knows it holds nothing.
            (Tag::HeartbeatReply, Msg::Renewed(r)) => self.renewal_answered::<Consul>(ctx, c, r),
            (Tag::SessionExpiry, _) => self.session_timer(ctx, c),
            (Tag::SessionCloseAt, _) => self.session_destroy_at(ctx, c),
            // Unreachable: every Consul event carries its own message.
            _ => unreachable!(),
        }
    }

    /// `Lock()`: a session first, if the client has none; then the key is read.
    fn acquire(&mut self, ctx: &Ctx, c: u8) {
        let tag = if self.consul().clients[usize::from(c)].session.is_some() {
            Tag::LockAt
        } else {
            Tag::SessionOpenAt
        };
        self.consul_send(ctx, c, tag);
    }

    /// `Unlock()`: `PUT ?release`, then the session is destroyed (its renewals stop).
    fn release(&mut self, ctx: &Ctx, c: u8, _value: u64) {
        self.consul_send(ctx, c, Tag::UnlockAt);
        self.consul_on_script_end(ctx, c);
    }

    fn rightful(&self, _ctx: &Ctx) -> Option<u8> {
        self.services.consul.owner
    }

    fn on_script_end(&mut self, ctx: &Ctx, c: u8) {
        self.consul_on_script_end(ctx, c);
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    fn consul(&mut self) -> &mut State {
        &mut self.services.consul
    }


    /// A request from the client to the server (or an answer back), one network hop later.
    fn consul_send(&mut self, ctx: &Ctx, c: u8, tag: Tag) {
        self.schedule_hop(ctx, Ev::bare(tag, c));
    }

    fn consul_answer(&mut self, ctx: &Ctx, c: u8, tag: Tag, msg: Msg) {
        self.send_hop(ctx, tag, c, msg);
    }

    /// As [`Engine::consul_answer`], for an event that carries nothing (a watch firing).
    fn consul_notify(&mut self, ctx: &Ctx, c: u8, tag: Tag) {
        self.schedule_hop(ctx, Ev::bare(tag, c));
    }



    /// The script is over: a session still open is destroyed.
    fn consul_on_script_end(&mut self, ctx: &Ctx, c: u8) {
        if self.consul().clients[usize::from(c)]
            .session
            .take()
            .is_some()
        {
            self.consul_send(ctx, c, Tag::SessionCloseAt);
        }
    }

    /// `PUT /v1/session/create` with the TTL: the server arms its timer.
    fn session_create_at(&mut self, ctx: &Ctx, c: u8) {
        let id = SESSION_ID_BASE + self.consul().write();
        self.open_session::<Consul>(ctx, c, id);
        self.consul_answer(ctx, c, Tag::SessionOpenReply, Msg::Value(id));
    }

    /// The session is the client's: it starts renewing it, and reads the lock's key.
    fn on_session_created(&mut self, ctx: &Ctx, c: u8, id: u64) {
        self.session_opened::<Consul>(ctx, c, id);
        self.consul_send(ctx, c, Tag::LockAt);
    }

    /// `GET key` (a blocking query): held by another session, it waits for the key to change; free,
    /// it returns at once and the client tries to acquire.
    fn kv_get_at(&mut self, ctx: &Ctx, c: u8) {
        let key = self.consul().key;
        match key.holder {
            Some(h) if h != c => {
                self.consul().key.waiters |= 1 << c;
                let what = What::Queued {
                    rev: key.modify_index,
                    behind: Some(h),
                };
                self.record(c, what);
            }
            _ => self.consul_notify(ctx, c, Tag::WatchFired),
        }
    }

    /// The key changed: every blocking query waiting on it returns.
    fn consul_wake_waiters(&mut self, ctx: &Ctx) {
        let waiters = std::mem::take(&mut self.consul().key.waiters);
        for w in (0..8u8).filter(|w| waiters & (1 << w) != 0) {
            self.consul_notify(ctx, w, Tag::WatchFired);
        }
    }

    /// `PUT key?acquire=SESSION`: refused for a session that is gone, a key another session holds, or a
    /// key under lock-delay; granted otherwise, with the next `LockIndex` for a new holder.
    fn kv_acquire_at(&mut self, ctx: &Ctx, c: u8) {
        let now = self.now;
        let (session, key) = {
            let st = self.consul();
            (st.sessions[usize::from(c)], st.key)
        };
        let grant = if !session.alive {
            Grant::NoSession
        } else if key.holder.is_some_and(|h| h != c) {
            Grant::Denied { holder: key.holder }
        } else if key.holder.is_none() && self.decide(now < key.delay_until) {
            Grant::Denied { holder: None }
        } else {
            self.grant_key(ctx, c, session)
        };
        match grant {
            Grant::Granted { .. } => {}
            Grant::Denied { holder } => {
                let what = What::Denied {
                    holder,
                    session_gone: false,
                };
                self.record(c, what);
            }
            Grant::NoSession => {
                let what = What::Denied {
                    holder: None,
                    session_gone: true,
                };
                self.record(c, what);
            }
        }
        self.consul_answer(ctx, c, Tag::AcquireReply, Msg::Grant(grant));
    }

    /// The key is the session's: a new holder raises `LockIndex` (the same session keeps its own).
    fn grant_key(&mut self, ctx: &Ctx, c: u8, session: ServerSession) -> Grant {
        let now = self.now;
        let st = self.consul();
        let index = st.write();
        let k = &mut st.key;
        k.modify_index = index;
        if k.holder != Some(c) {
            k.lock_index += 1;
            k.holder = Some(c);
            st.records.push(LeaseRecord {
                client: c,
                node: 0,
                token: if ctx.sc.service.tokens {
                    st.key.lock_index
                } else {
                    0
                },
                lock_value: session.id,
                granted_at: now,
                ends_at: SimTime(u64::MAX),
                released: false,
                session_ended: false,
                lost: false,
            });
            st.key.record = st.records.len() - 1;
        }
        st.owner = Some(c);
        let token = st.records[st.key.record].token;
        let lease_end = Some(session.expires_at);
        self.record(c, What::Granted { token, lease_end });
        Grant::Granted {
            token,
            lock_value: session.id,
            expires_at: session.expires_at,
        }
    }

    /// Granted: it holds the lock until a TTL after its latest renewal, by its own reckoning. Refused:
    /// it reads the key again after `DefaultLockRetryTime`. Its session gone: the attempt failed.
    fn on_kv_acquire(&mut self, ctx: &Ctx, c: u8, grant: Grant) {
        match grant {
            Grant::Granted {
                token, lock_value, ..
            } => {
                let cred = Credentials {
                    token: ctx.sc.service.tokens.then_some(token),
                    lock_value,
                    via_session: false,
                };
                let sent = self.consul().clients[usize::from(c)].sent_local;
                self.hold_lease(c, cred, sent.saturating_add(ctx.ttl_local()));
                self.advance(ctx, c);
            }
            Grant::Denied { .. } => {
                self.schedule(self.now.plus(LOCK_RETRY_US), Ev::bare(Tag::Step, c));
            }
            Grant::NoSession => {
                self.consul().clients[usize::from(c)].session = None;
                self.abort(ctx, c);
            }
        }
    }

    /// `PUT key?release=SESSION`: frees the key if this session holds it (no lock-delay: it let go).
    fn kv_release_at(&mut self, ctx: &Ctx, c: u8) {
        let held = self.consul().key.holder == Some(c);
        if held {
            self.free_key(ctx, false);
        }
        self.record(c, What::Released { ended_lease: held });
    }

    /// The key loses its holder: by release, or (`invalidated`) with its session, which closes it for
    /// the lock-delay. Returns the holder's token. The blocking queries waiting on the key return.
    fn free_key(&mut self, ctx: &Ctx, invalidated: bool) -> u64 {
        let now = self.now;
        let delay = ctx.sc.service.lock_delay.resolve(ctx.params);
        let st = self.consul();
        let index = st.write();
        let k = &mut st.key;
        k.holder = None;
        k.modify_index = index;
        if invalidated {
            k.delay_until = now.plus(delay);
        }
        let rec = &mut st.records[k.record];
        rec.ends_at = now;
        rec.released = !invalidated;
        let token = rec.token;
        self.consul_wake_waiters(ctx);
        token
    }

    /// The server's session timer: invalidate the session if no renewal re-armed it, else wait again.
    fn session_timer(&mut self, ctx: &Ctx, c: u8) {
        if !self.session_expired::<Consul>(ctx, c) {
            return;
        }
        let token = self.invalidate(ctx, c);
        self.record(c, What::LeaseExpired { token });
    }

    /// `PUT /v1/session/destroy`: the session is invalidated (its key, if held, released under
    /// lock-delay).
    fn session_destroy_at(&mut self, ctx: &Ctx, c: u8) {
        if !self.consul().sessions[usize::from(c)].alive {
            return;
        }
        let freed = self.consul().key.holder == Some(c);
        self.invalidate(ctx, c);
        if freed {
            let st = self.consul();
            st.records[st.key.record].session_ended = true;
        }
        let cause = SessionEnd::Disconnected;
        self.record(c, What::SessionEnded { cause, freed });
    }

    /// The session is invalidated (behavior `release`): its key, if it holds it, is freed and closed for
    /// the lock-delay. Returns the key's token (0 if it held none).
    fn invalidate(&mut self, ctx: &Ctx, c: u8) -> u64 {
        let st = self.consul();
        st.write();
        st.sessions[usize::from(c)].alive = false;
        if st.key.holder != Some(c) {
            return 0;
        }
        self.free_key(ctx, true)
    }
}

/// Consul's session: the server's timer runs TTL × `SessionTTLMultiplier` from the creation or the
/// latest renewal, and a renewal names the session it renews.
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl KeepAlive<Consul> for Engine {
    fn sessions(&mut self) -> &mut [ServerSession] {
        &mut self.services.consul.sessions
    }

    fn expiry(&mut self, ctx: &Ctx) -> SimTime {
        self.now.plus(ctx.ttl.saturating_mul(TTL_MULTIPLIER))
    }

    fn names(&mut self, c: u8, session: &ServerSession) -> bool {
        self.services.consul.clients[usize::from(c)].renewing == session.id
    }

    fn answer(&mut self, ctx: &Ctx, c: u8, tag: Tag, msg: Msg) {
        self.consul_answer(ctx, c, tag, msg);
    }
}

/// Consul's client renews every half TTL (`RenewPeriodic`); `PUT /v1/session/renew/:id` names the
/// session, so an answer for one it has since destroyed is ignored.
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Renewal<Consul> for Engine {
    const IGNORES_STALE: bool = true;

    fn client_session(&mut self, c: u8) -> &mut Client {
        &mut self.services.consul.clients[usize::from(c)]
    }

    /// Half the TTL: `RenewPeriodic`'s wait between renewals.
    fn renew_every(&mut self, ctx: &Ctx) -> u64 {
        let half = ctx.ttl / 2;
        self.floor(half); // a floor of the TTL
        half.max(1)
    }
}

/// Consul's events in the transcript, in its API's words.
fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
    let line = match e.what {
        What::LeaseGranted { lease, .. } => {
            let ttl = Millis(sc.service.ttl.resolve(&sc.defaults()));
            format!("{who}: session create (TTL {ttl} ms) → session {lease:x}")
        }
        What::Queued { behind, .. } => {
            let behind = behind.map_or('?', |h| sc.client_name(h));
            format!("{who}: GET key → held by {behind}'s session: the blocking query waits")
        }
        What::Granted { token, .. } => {
            format!("{who}: PUT ?acquire → true{}", lock_index(sc, token))
        }
        What::Denied {
            holder: None,
            session_gone: false,
        } => format!("{who}: PUT ?acquire → false (lock-delay): retry in 5 s"),
        What::Denied {
            session_gone: true, ..
        } => format!("{who}: PUT ?acquire → error: invalid session"),
        What::Denied { .. } => format!("{who}: PUT ?acquire → false (held): retry in 5 s"),
        What::KeepAlive { lease_end: None } => {
            format!("{who}: session renew → 404: the session is gone")
        }
        What::KeepAlive { .. } => return Some(Said::Nothing), // the steady renewals
        What::LeaseExpired { .. } => format!(
            "consul: no renewal from {who} for 2 × TTL: its session is invalidated, and a lock it \
             held is released under lock-delay"
        ),
        What::Released { ended_lease: true } => format!("{who}: PUT ?release → the key is free"),
        What::SessionEnded { freed, .. } => {
            let key = if freed {
                ": its lock released, lock-delay starts"
            } else {
                ""
            };
            format!("{who}: session destroy{key}")
        }
        _ => return None,
    };
    Some(Said::Line(line))
}

/// `, tok=3 (LockIndex)` when the holder fences with the key's LockIndex.
fn lock_index(sc: &Scenario, token: u64) -> String {
    if sc.service.tokens {
        format!(", tok={token} (LockIndex)")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;
    use crate::trace::{Kind, What};
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

    #[test]
    fn the_server_waits_twice_the_ttl_and_the_lock_delay_retries_every_five_seconds() {
        let sc = catalogue::find("consul-lock-delay-exceeded").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        assert_eq!(
            times(&o, 0, Kind::LeaseExpired),
            [30_000],
            "TTL 15 s × SessionTTLMultiplier 2, from the session's creation at 0"
        );
        assert_eq!(
            times(&o, 1, Kind::Denied),
            [30_000, 35_000, 40_000],
            "B's query returns when the key is released; DefaultLockRetryTime 5 s after each refusal"
        );
        let b = o.run.leases.iter().find(|l| l.client == 1).unwrap();
        assert_eq!(
            (b.granted_at.0, b.token),
            (45_000_000, 2),
            "lock-delay 15 s from 30 s; LockIndex 2"
        );
        assert_eq!(
            times(&o, 1, Kind::KeepAlive)[..2],
            [8_500, 16_000],
            "RenewPeriodic: every TTL/2 from B's session at 1 s"
        );
    }

    #[test]
    fn a_frozen_holder_renews_only_when_it_wakes_and_learns_its_session_is_gone() {
        let sc = catalogue::find("consul-lock-delay").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        assert!(times(&o, 0, Kind::KeepAlive).is_empty());
        assert_eq!(
            times(&o, 0, Kind::KeepAliveFailed),
            [40_000],
            "the 7.5 s renewal waits until A wakes"
        );
        let a = o.run.beliefs.iter().find(|b| b.client == 0).unwrap();
        assert_eq!(a.to.0, 40_000_000, "A believes until the 404");
    }

    #[test]
    fn a_release_frees_the_key_at_once_and_the_waiter_gets_the_next_lock_index() {
        let text = "id: t\ntitle: t\nsummary: t\nservice: consul\n\
                    client A: acquire; read; work 2s; write 1; release\n\
                    client B: start 1s; acquire; read; write 1; release\n";
        let sc = Scenario::parse(text).unwrap();
        let o = simulate(&sc, &Config::new(&sc, Policy::Token)).unwrap();
        let grants: Vec<(u8, u64, u64)> = o
            .run
            .leases
            .iter()
            .map(|l| (l.client, l.token, l.granted_at.0))
            .collect();
        assert_eq!(
            grants,
            [(0, 1, 0), (1, 2, 2_000_000)],
            "B's blocking query returns at A's release, and no lock-delay follows a release"
        );
        let queued = |e: &crate::trace::TraceEvent| {
            matches!(
                e.what,
                What::Queued {
                    behind: Some(0),
                    ..
                }
            )
        };
        assert!(o.run.trace.iter().any(queued));
    }

    #[test]
    fn settings_out_of_consuls_bounds_are_errors() {
        for bad in ["ttl=5s", "lock-delay=61s", "tokens=yes"] {
            let text =
                format!("id: t\ntitle: t\nsummary: t\nservice: consul {bad}\nclient A: acquire\n");
            assert!(Scenario::parse(&text).is_err(), "{bad}");
        }
        let ranged = "id: t\ntitle: t\nsummary: t\nparam ttl = 15s in 1s..60s: TTL\n\
                      service: consul ttl=$ttl\nclient A: acquire\n";
        assert!(
            Scenario::parse(ranged).is_err(),
            "a slider that reaches below 10 s"
        );
    }
}
