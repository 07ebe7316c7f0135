//! etcd's lock API (`v3lock`, etcd's `concurrency.Mutex`) on a lease the client keeps alive.
//!
//! A client first takes a lease (`LeaseGrant`, TTL on the server), then keeps it alive: a keepalive
//! every `keepalive` (a third of the TTL, as etcd's Go client does), each one renewing the lease to a
//! TTL after it arrives. Its keepalives are its own events: they freeze with it. `Lock` puts the key
//! `lock/<lease id>` attached to the lease; the put makes a new store revision, and that is the key's
//! create revision. The lowest live create revision holds the lock; a waiter waits, on the server, until
//! every key before it is deleted (`Unlock` deletes the key; a lease that expires is revoked, and that
//! deletes its keys). The store revision starts at 1 and grows by one for every put and every
//! delete that removed something — so the holder's create revision is a cluster-wide, strictly
//! increasing fencing token (or, as `contrib/lock` does, the lease ID: `tokens=lease-id`).
//!
//! etcd 3.4 (Debian ships 3.4.23) returns from `Lock` as soon as the keys before the waiter are gone,
//! without checking that the waiter's own key still exists: a waiter whose lease expired while it
//! waited is told it holds the lock (Jepsen, etcd 3.4.3; etcd-io/etcd#11456). etcd 3.5 checks
//! (`ErrSessionExpired`, PR #11408). The naive switch is etcd 3.4's server; off, 3.5's check.
//! At the end of its script a client closes its session, which revokes its lease.
//!
//! Where the real server is coarser than this model: it checks for expired leases every 500 ms, the
//! Go client sends due keepalives on a 500 ms poll, and TTLs are whole seconds (at least 2 s with the
//! default election timeout). docs/conformance.md says how the real rows leave room for that.
//!
//! An injected cut holds every message between the client and the server — lock calls, keepalives,
//! their answers — until one latency after the heal (`Engine::lock_hop`). The client sends its next
//! keepalive only after the answer to the last (keepalive.rs), so a cut longer than the TTL lets the
//! server expire the lease while the client believes it to the end its last answer gave, by its own
//! clock; the held answer then tells it the lease is gone.

use super::keepalive::{ClientSession as Session, KeepAlive, Renewal, ServerSession as ServerLease};
use super::waiters::{Waiter, Waiters};
use super::{LockService, Said, Serve};
use crate::lock::{Grant, LeaseRecord};
use crate::scenario::{own, EtcdToken, Scenario};
use crate::sim::{Ctx, Engine, Ev, Msg, Tag};
use crate::store::Credentials;
use crate::time::{Millis, SimTime};
use crate::trace::{SessionEnd, TraceEvent, What};

/// A fresh cluster's store revision: its first put makes revision 2.
const FIRST_REVISION: u64 = 1;
/// Lease IDs count up from a member's prefix, as etcd's ID generator does (shortened here so that a
/// page can show them as plain numbers).
const LEASE_ID_BASE: u64 = 0x694d_0000;

/// The etcd server's state and each client's session, during a run.
#[derive(Default)]
pub(crate) struct State {
    revision: u64,
    leases_granted: u64,
    /// Per client: its lease on the server.
    leases: Vec<ServerLease>,
    /// Every lock key put in this run, in create-revision order.
    keys: Waiters<Key>,
    /// Per client: what it knows of its session.
    sessions: Vec<Session>,
    /// The lock's truth: one record per client that came to hold the lowest live key.
    pub records: Vec<LeaseRecord>,
    /// The client whose key most recently became the lowest live one (the ideal guard's truth).
    pub owner: Option<u8>,
}

#[derive(Clone, Copy)]
struct Key {
    client: u8,
    rev: u64,
    live: bool,
    /// The client's `Lock` call is still waiting on the server.
    waiting: bool,
    /// Its entry in `records`, once it held the lock.
    record: Option<usize>,
}

/// How a key was deleted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Deleted {
    Unlocked,
    Expired,
    Revoked,
}

impl State {
    pub fn reset(&mut self, clients: usize) {
        self.revision = FIRST_REVISION;
        self.leases_granted = 0;
        self.leases.clear();
        self.leases.resize(clients, ServerLease::default());
        self.keys.clear();
        self.sessions.clear();
        self.sessions.resize(clients, Session::default());
        self.records.clear();
        self.owner = None;
    }

    /// The client holding the lowest live key.
    fn holder(&self) -> Option<u8> {
        self.keys.head().map(|i| self.keys[i].client)
    }
}

impl Waiter for Key {
    fn client(&self) -> u8 {
        self.client
    }

    fn live(&self) -> bool {
        self.live
    }
}

/// etcd's lock API on a lease (see the module's note).
pub(crate) struct Etcd;

impl LockService for Etcd {
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

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). Keepalive ticks and the
/// queue of keys by revision.
pub(super) const DIAGRAM: super::Diagram = {
    use super::Diagram as D;
    D::KA.and(D::QUEUE)
};

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Etcd> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        match (ev.tag, self.msg(ev)) {
            (Tag::SessionOpenAt, _) => self.lease_grant_at(ctx, c),
            (Tag::SessionOpenReply, Msg::Value(id)) => self.on_lease_granted(ctx, c, id),
            (Tag::LockAt, _) => self.lock_at(ctx, c),
            (Tag::LockReply, Msg::Grant(g)) => self.on_lock_reply(ctx, c, g),
            (Tag::UnlockAt, _) => self.unlock_at(ctx, c),
            (Tag::Heartbeat, _) => self.renewal_tick::<Etcd>(ctx, c),
            // A keepalive arrives: a live lease lives a TTL from now; a lease already gone stays gone.
            (Tag::HeartbeatAt, _) => {
                self.renew_session::<Etcd>(ctx, c);
            }
            (Tag::HeartbeatReply, Msg::Renewed(r)) => self.renewal_answered::<Etcd>(ctx, c, r),
            (Tag::SessionExpiry, _) => self.lease_expiry(ctx, c),
            (Tag::SessionCloseAt, _) => self.lease_revoke_at(ctx, c),
            // Unreachable: every etcd event carries its own message.
            _ => unreachable!(),
        }
    }

    /// The client asks for the lock: with a lease first, if it has none.
    fn acquire(&mut self, ctx: &Ctx, c: u8) {
        let tag = if self.etcd().sessions[usize::from(c)].session.is_some() {
            Tag::LockAt
        } else {
            Tag::SessionOpenAt
        };
        self.schedule_hop(ctx, Ev::bare(tag, c));
    }

    /// `Unlock`: the client's key goes (its lease stays, and stays kept alive).
    fn release(&mut self, ctx: &Ctx, c: u8, _value: u64) {
        self.schedule_hop(ctx, Ev::bare(Tag::UnlockAt, c));
    }

    fn rightful(&self, _ctx: &Ctx) -> Option<u8> {
        self.services.etcd.owner
    }

    /// The script is over: the client closes its session, which revokes its lease.
    fn on_script_end(&mut self, ctx: &Ctx, c: u8) {
        if self.etcd().sessions[usize::from(c)].session.take().is_some() {
            self.schedule_hop(ctx, Ev::bare(Tag::SessionCloseAt, c));
        }
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    fn etcd(&mut self) -> &mut State {
        &mut self.services.etcd
    }





    /// `LeaseGrant`: a lease that lives a TTL unless kept alive.
    fn lease_grant_at(&mut self, ctx: &Ctx, c: u8) {
        let st = self.etcd();
        st.leases_granted += 1;
        let id = LEASE_ID_BASE + st.leases_granted;
        self.open_session::<Etcd>(ctx, c, id);
        self.send_hop(ctx, Tag::SessionOpenReply, c, Msg::Value(id));
    }

    /// The lease is the client's: it starts keeping it alive, and asks for the lock.
    fn on_lease_granted(&mut self, ctx: &Ctx, c: u8, id: u64) {
        self.session_opened::<Etcd>(ctx, c, id);
        self.schedule_hop(ctx, Ev::bare(Tag::LockAt, c));
    }

    /// `Lock`: a key attached to the client's lease, queued by its create revision.
    fn lock_at(&mut self, ctx: &Ctx, c: u8) {
        let lease = self.etcd().leases[usize::from(c)];
        if !lease.alive {
            self.refuse_lock(ctx, c);
            return;
        }
        let st = self.etcd();
        let i = match st.keys.of(c) {
            Some(i) => i, // the same lease's key: etcd returns the existing one
            None => {
                st.revision += 1;
                let rev = st.revision;
                st.keys.push(Key {
                    client: c,
                    rev,
                    live: true,
                    waiting: true,
                    record: None,
                })
            }
        };
        st.keys[i].waiting = true;
        let (rev, behind) = (st.keys[i].rev, st.holder());
        if st.keys.before(i).is_some() {
            self.record(c, What::Queued { rev, behind });
        }
        self.wake_waiters(ctx);
    }

    /// The lock call fails: the client's lease is gone.
    fn refuse_lock(&mut self, ctx: &Ctx, c: u8) {
        let denied = What::Denied {
            holder: None,
            session_gone: true,
        };
        self.record(c, denied);
        self.send_hop(ctx, Tag::LockReply, c, Msg::Grant(Grant::NoSession));
    }

    /// Every waiter with no live key before it returns from `Lock` (in create-revision order).
    fn wake_waiters(&mut self, ctx: &Ctx) {
        for i in 0..self.etcd().keys.len() {
            let k = self.etcd().keys[i];
            if k.waiting && self.etcd().keys.before(i).is_none() {
                self.etcd().keys[i].waiting = false;
                self.answer_waiter(ctx, i);
            }
        }
    }

    /// A waiter's turn: it holds the lock if its key is live; if its lease expired meanwhile, etcd 3.5
    /// says so, and etcd 3.4 (naive) tells it it holds the lock all the same.
    fn answer_waiter(&mut self, ctx: &Ctx, i: usize) {
        let k = self.etcd().keys[i];
        let c = k.client;
        let lease = self.etcd().leases[usize::from(c)];
        let token = match own::Etcd::of(&ctx.sc.service).token {
            EtcdToken::Revision => k.rev,
            EtcdToken::LeaseId => lease.id,
        };
        if k.live {
            self.take_ownership(i, token, lease);
        } else if ctx.naive {
            self.record(c, What::StaleGrant { token });
        } else {
            self.refuse_lock(ctx, c);
            return;
        }
        // The client's token: the service's, or the one its library offers (the revision of the
        // response that granted the lock: the store's revision now). The record keeps the service's.
        let revision = self.etcd().revision;
        let grant = Grant::Granted {
            token: crate::libraries::grant_token(ctx.sc, c, token, revision),
            lock_value: lease.id,
            expires_at: lease.expires_at,
        };
        self.send_hop(ctx, Tag::LockReply, c, Msg::Grant(grant));
    }

    /// Key `i` is the lowest live one: its client holds the lock, in truth.
    fn take_ownership(&mut self, i: usize, token: u64, lease: ServerLease) {
        let now = self.now;
        let st = self.etcd();
        let c = st.keys[i].client;
        st.records.push(LeaseRecord {
            client: c,
            node: 0,
            token,
            lock_value: lease.id,
            granted_at: now,
            ends_at: SimTime(u64::MAX),
            released: false,
            session_ended: false,
            lost: false,
        });
        st.keys[i].record = Some(st.records.len() - 1);
        st.owner = Some(c);
        let lease_end = Some(lease.expires_at);
        self.record(c, What::Granted { token, lease_end });
    }

    fn on_lock_reply(&mut self, ctx: &Ctx, c: u8, grant: Grant) {
        let Grant::Granted {
            token, lock_value, ..
        } = grant
        else {
            self.etcd().sessions[usize::from(c)].session = None; // the session is over
            self.abort(ctx, c);
            return;
        };
        let cred = Credentials {
            token: ctx.sc.service.tokens.then_some(token),
            lock_value,
            via_session: false,
        };
        let sent = self.etcd().sessions[usize::from(c)].sent_local;
        self.hold_lease(c, cred, sent.saturating_add(ctx.ttl_local()));
        self.advance(ctx, c);
    }

    fn unlock_at(&mut self, ctx: &Ctx, c: u8) {
        let key = self.etcd().keys.of(c);
        if let Some(i) = key {
            self.delete_key(i, Deleted::Unlocked);
        }
        self.record(
            c,
            What::Released {
                ended_lease: key.is_some(),
            },
        );
        self.wake_waiters(ctx);
    }

    /// Deletes key `i` (one new revision), ending its holder's record.
    fn delete_key(&mut self, i: usize, how: Deleted) {
        let now = self.now;
        let st = self.etcd();
        st.revision += 1;
        st.keys[i].live = false;
        if let Some(r) = st.keys[i].record {
            let rec = &mut st.records[r];
            rec.ends_at = now;
            rec.released = how == Deleted::Unlocked;
            rec.session_ended = how == Deleted::Revoked;
        }
    }

    /// The lease's expiry check: revoke it if no keepalive came in time, else look again then.
    fn lease_expiry(&mut self, ctx: &Ctx, c: u8) {
        if !self.session_expired::<Etcd>(ctx, c) {
            return;
        }
        let key = self.revoke(c, Deleted::Expired);
        let token = key.map_or(0, |k| self.key_token(ctx, k));
        self.record(c, What::LeaseExpired { token });
        self.wake_waiters(ctx);
    }

    /// The client closes its session: its lease is revoked, with its key.
    fn lease_revoke_at(&mut self, ctx: &Ctx, c: u8) {
        if !self.etcd().leases[usize::from(c)].alive {
            return;
        }
        let freed = self.revoke(c, Deleted::Revoked).is_some();
        let cause = SessionEnd::Disconnected;
        self.record(c, What::SessionEnded { cause, freed });
        self.wake_waiters(ctx);
    }

    /// Revokes the client's lease, deleting its live key; returns that key.
    fn revoke(&mut self, c: u8, how: Deleted) -> Option<Key> {
        self.etcd().leases[usize::from(c)].alive = false;
        let i = self.etcd().keys.of(c)?;
        self.delete_key(i, how);
        Some(self.etcd().keys[i])
    }

    fn key_token(&mut self, ctx: &Ctx, k: Key) -> u64 {
        match own::Etcd::of(&ctx.sc.service).token {
            EtcdToken::Revision => k.rev,
            EtcdToken::LeaseId => self.etcd().leases[usize::from(k.client)].id,
        }
    }
}

/// etcd's lease: a TTL from its grant or latest keepalive, checked when due.
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl KeepAlive<Etcd> for Engine {
    fn sessions(&mut self) -> &mut [ServerLease] {
        &mut self.services.etcd.leases
    }

    fn expiry(&mut self, ctx: &Ctx) -> SimTime {
        self.now.plus(ctx.ttl)
    }

    fn answer(&mut self, ctx: &Ctx, c: u8, tag: Tag, msg: Msg) {
        self.send_hop(ctx, tag, c, msg);
    }
}

/// etcd's client sends a keepalive every `keepalive` (a third of the TTL by default).
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Renewal<Etcd> for Engine {
    fn client_session(&mut self, c: u8) -> &mut Session {
        &mut self.services.etcd.sessions[usize::from(c)]
    }

    /// The keepalive interval: a third of the TTL unless the scenario sets one.
    fn renew_every(&mut self, ctx: &Ctx) -> u64 {
        let every = ctx.sc.service.keepalive.resolve(ctx.params);
        let every = if every == 0 { ctx.ttl / 3 } else { every };
        self.floor(every); // a floor of the TTL
        every.max(1)
    }
}

/// etcd's events in the transcript, as its API names them.
fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
    let line = match e.what {
        What::LeaseGranted { lease, .. } => {
            let ttl = Millis(sc.service.ttl.resolve(&sc.defaults()));
            format!("{who}: LeaseGrant(TTL {ttl} ms) → lease {lease:x}")
        }
        What::Queued { rev, behind } => {
            let behind = behind.map_or('?', |h| sc.client_name(h));
            format!("{who}: Lock → key rev {rev} waits behind {behind}'s key")
        }
        What::Granted { token, .. } => format!("{who}: Lock → held{}", held_by(sc, token)),
        What::StaleGrant { token } => format!(
            "{who}: Lock → held{} (etcd 3.4: its lease expired while it waited, its key is gone)",
            held_by(sc, token)
        ),
        What::Denied { .. } => format!("{who}: Lock → error: the session (lease) is gone"),
        What::KeepAlive { lease_end: None } => {
            format!("{who}: keepalive → lease not found: it expired")
        }
        What::KeepAlive { .. } => return Some(Said::Nothing), // the steady ticks
        What::LeaseExpired { token: 0 } => format!("etcd: {who}'s lease expires"),
        What::LeaseExpired { token } => match own::Etcd::of(&sc.service).token {
            EtcdToken::Revision => {
                format!("etcd: {who}'s lease expires; its key (rev {token}) is deleted")
            }
            EtcdToken::LeaseId => format!("etcd: {who}'s lease expires; its key is deleted"),
        },
        What::Released { ended_lease: true } => format!("{who}: Unlock → its key is deleted"),
        What::SessionEnded { freed, .. } => {
            let key = if freed { " and its key" } else { "" };
            format!("{who}: closes its session: the lease{key} revoked")
        }
        _ => return None,
    };
    Some(Said::Line(line))
}

/// `, tok=3` when the holder fences with its token.
fn held_by(sc: &Scenario, token: u64) -> String {
    if !sc.service.tokens {
        return String::new();
    }
    match own::Etcd::of(&sc.service).token {
        EtcdToken::Revision => format!(", tok={token} (its key's revision)"),
        EtcdToken::LeaseId => format!(", version={token:x} (its lease ID)"),
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::What;
    use crate::{catalogue, simulate, Config, Policy};

    #[test]
    fn revisions_count_every_put_and_every_delete() {
        // A's key is put at revision 2 and B's at 3; B's lease expiry deletes B's key (4); C's key is 5.
        let sc = catalogue::find("etcd-waiter-expired-lease").unwrap();
        let mut cfg = Config::new(sc, Policy::None);
        cfg.naive = true;
        let o = simulate(sc, &cfg).unwrap();
        let tokens: Vec<(u8, u64)> = o
            .run
            .trace
            .iter()
            .filter_map(|e| match e.what {
                What::Granted { token, .. } | What::StaleGrant { token } => Some((e.client, token)),
                _ => None,
            })
            .collect();
        assert_eq!(tokens, [(0, 2), (1, 3), (2, 5)]);
    }

    #[test]
    fn a_frozen_client_sends_no_keepalives() {
        let sc = catalogue::find("etcd-lease-pause").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        let a_keepalives: Vec<u64> = o
            .run
            .trace
            .iter()
            .filter(|e| e.client == 0 && matches!(e.what, What::KeepAlive { .. }))
            .map(|e| e.t.0)
            .collect();
        assert_eq!(
            a_keepalives,
            [5_000_000],
            "the one due at 0.67 s waits until A wakes at 5 s"
        );
        let expired = o.run.leases.iter().find(|l| l.client == 0).unwrap();
        assert_eq!(expired.ends_at.0, 2_000_000);
    }
}
