//! ZooKeeper's lock recipe, as Curator's `InterProcessMutex` runs it, on a session kept alive by pings.
//!
//! A client opens a session (a `createSession` transaction: one zxid) with timeout T. Every request
//! touches the session; idle, the client pings every T/3, and its pings freeze with it. The server
//! expires a session that was not touched for T — at the first tick after it, since sessions expire
//! in `tickTime` buckets — in one `closeSession` transaction that deletes its ephemeral nodes.
//! To lock, a client creates an ephemeral sequential node under the lock (one zxid: its `czxid`, the
//! fencing token); the lowest sequence holds the lock; any other watches the node just before its own
//! and, when that one is deleted, lists the children again. Unlocking deletes the node; closing the
//! session at the end of its script deletes it too.
//!
//! Curator's connection states, on the client: two thirds of T without a reply from the server (the
//! client's read timeout) make it SUSPENDED; still suspended a further T later, Curator declares the
//! session LOST (its simulated expiration, `sessionExpirationPercent` 100). A reply that says the
//! session is gone makes it LOST at once. With the default error policy a client treats SUSPENDED as
//! losing the lock; tolerating SUSPENDED (`suspended=tolerate`) it keeps acting until LOST — after the
//! server may already have expired its session and let another client in (CURATOR-460, PR 262).
//!
//! Coarser in the real system: the Java client pings after T/3 minus up to a second of idleness, and
//! reconnects after a random wait of up to a second.
//!
//! A cut (an injected `cut:A,at=R,for=R`, or a scenario's `at D: cut A n1`) drops what the link
//! carries until the heal — pings, requests, answers, watch events (`zk_linked`) — and Curator goes
//! SUSPENDED, then LOST, by its own timers while the server expires the session. Left out: the
//! reconnect — the Java client sends its watches again (`SetWatches`) and Curator retries a request
//! lost to CONNECTIONLOSS; here a waiter whose watch event or request the cut dropped waits, pinging,
//! until the run stops at its time limit.

use super::keepalive::{KeepAlive, ServerSession};
use super::waiters::{Waiter, Waiters};
use super::{LockService, Said, Serve};
use crate::lock::{Grant, LeaseRecord};
use crate::scenario::{own, Scenario};
use crate::sim::{Ctx, Engine, Ev, Msg, Phase, Tag};
use crate::store::Credentials;
use crate::time::{Millis, SimTime};
use crate::trace::{Connection, SessionEnd, TraceEvent, What};

/// Session IDs count up from the server's prefix (shortened so that a page can show them).
const SESSION_ID_BASE: u64 = 0x1000_0000;

/// The ZooKeeper server's state and each client's connection, during a run.
#[derive(Default)]
pub(crate) struct State {
    /// The last transaction's id (a fresh standalone server starts at 0).
    zxid: u64,
    /// The lock node's child version: the next sequence number.
    cversion: u64,
    sessions: Vec<ServerSession>,
    /// The lock's children, in creation (sequence) order.
    nodes: Waiters<Node>,
    conns: Vec<Conn>,
    /// The lock's truth: one record per client whose node became the lowest.
    pub records: Vec<LeaseRecord>,
    pub owner: Option<u8>,
}

#[derive(Clone, Copy)]
struct Node {
    client: u8,
    seq: u64,
    czxid: u64,
    live: bool,
    record: Option<usize>,
    /// Clients watching it (bit mask).
    watchers: u8,
}

/// What a client knows of its connection.
#[derive(Clone, Copy, Default)]
struct Conn {
    open: bool,
    last_heard: SimTime,
    state: Link,
    ticking: bool,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Link {
    #[default]
    Connected,
    Suspended,
    Lost,
}

impl State {
    pub fn reset(&mut self, clients: usize) {
        self.zxid = 0;
        self.cversion = 0;
        self.sessions.clear();
        self.sessions.resize(clients, ServerSession::default());
        self.nodes.clear();
        self.conns.clear();
        self.conns.resize(clients, Conn::default());
        self.records.clear();
        self.owner = None;
    }

    fn live_node(&self, c: u8) -> Option<usize> {
        self.nodes.of(c)
    }
}

impl Waiter for Node {
    fn client(&self) -> u8 {
        self.client
    }

    fn live(&self) -> bool {
        self.live
    }
}

/// ZooKeeper's lock recipe on a pinged session (see the module's note).
pub(crate) struct Zookeeper;

impl LockService for Zookeeper {
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

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). Pings, the queue of
/// sequential nodes, Curator's connection states.
pub(super) const DIAGRAM: super::Diagram = {
    use super::Diagram as D;
    D::KA.and(D::QUEUE).and(D::CONN)
};

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Zookeeper> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        match (ev.tag, self.msg(ev)) {
            (Tag::SessionOpenAt, _) => self.zk_open_at(ctx, c),
            (Tag::SessionOpenReply, _) => self.zk_opened(ctx, c),
            (Tag::LockAt, _) => self.zk_create_at(ctx, c),
            (Tag::ChildrenAt, _) => self.zk_children_at(ctx, c),
            (Tag::LockReply, Msg::Grant(g)) => self.zk_lock_reply(ctx, c, g),
            (Tag::WatchFired, _) => self.zk_send(ctx, c, Tag::ChildrenAt),
            (Tag::UnlockAt, _) => self.zk_delete_at(ctx, c),
            (Tag::Heartbeat, _) => self.zk_ping(ctx, c),
            // A ping arrives: a live session is touched; an expired one is reported gone.
            (Tag::HeartbeatAt, _) => {
                self.renew_session::<Zookeeper>(ctx, c);
            }
            (Tag::HeartbeatReply, Msg::Renewed(r)) => self.zk_ping_reply(ctx, c, r.is_some()),
            (Tag::ConnTimeout, _) => self.zk_read_timeout(ctx, c),
            (Tag::ConnLost, _) => self.zk_conn_lost(ctx, c),
            (Tag::SessionExpiry, _) => self.zk_expiry(ctx, c),
            (Tag::SessionCloseAt, _) => self.zk_close_at(ctx, c),
            // Unreachable: every ZooKeeper event carries its own message.
            _ => unreachable!(),
        }
    }

    fn acquire(&mut self, ctx: &Ctx, c: u8) {
        let tag = if self.zk().conns[usize::from(c)].open {
            Tag::LockAt
        } else {
            Tag::SessionOpenAt
        };
        self.zk_send(ctx, c, tag);
    }

    fn release(&mut self, ctx: &Ctx, c: u8, _value: u64) {
        self.zk_send(ctx, c, Tag::UnlockAt);
    }

    fn rightful(&self, _ctx: &Ctx) -> Option<u8> {
        self.services.zookeeper.owner
    }

    fn on_script_end(&mut self, ctx: &Ctx, c: u8) {
        let conn = &mut self.zk().conns[usize::from(c)];
        if std::mem::take(&mut conn.open) {
            self.zk_send(ctx, c, Tag::SessionCloseAt);
        }
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    fn zk(&mut self) -> &mut State {
        &mut self.services.zookeeper
    }


    /// Whether the client and the server can reach each other (a partition cuts `n1`).
    fn zk_linked(&self, c: u8) -> bool {
        self.reach(c) & 1 != 0
    }

    /// A request from the client to the server, if the network carries it.
    fn zk_send(&mut self, ctx: &Ctx, c: u8, tag: Tag) {
        if self.zk_linked(c) {
            self.schedule(self.now.plus(ctx.lock_latency), Ev::bare(tag, c));
        }
    }

    /// An answer from the server to the client, if the network carries it.
    fn zk_answer(&mut self, ctx: &Ctx, c: u8, tag: Tag, msg: Msg) {
        if self.zk_linked(c) {
            self.send(self.now.plus(ctx.lock_latency), tag, c, msg);
        }
    }

    /// As [`Engine::zk_answer`], for an event that carries nothing (a watch firing).
    fn zk_notify(&mut self, ctx: &Ctx, c: u8, tag: Tag) {
        if self.zk_linked(c) {
            self.schedule(self.now.plus(ctx.lock_latency), Ev::bare(tag, c));
        }
    }




    fn zk_open_at(&mut self, ctx: &Ctx, c: u8) {
        let st = self.zk();
        st.zxid += 1; // createSession
        let id = SESSION_ID_BASE + st.zxid;
        self.open_session::<Zookeeper>(ctx, c, id);
        self.zk_answer(ctx, c, Tag::SessionOpenReply, Msg::Value(id));
    }

    /// Connected: the client starts pinging and watching for silence, then creates its node.
    fn zk_opened(&mut self, ctx: &Ctx, c: u8) {
        let now = self.now;
        let every = self.zk_third(ctx);
        let conn = &mut self.zk().conns[usize::from(c)];
        let ticking = conn.ticking;
        *conn = Conn {
            open: true,
            last_heard: now,
            state: Link::Connected,
            ticking: true,
        };
        if !ticking {
            self.schedule(now.plus(every), Ev::bare(Tag::Heartbeat, c));
            self.schedule(now.plus(2 * every), Ev::bare(Tag::ConnTimeout, c));
        }
        self.zk_send(ctx, c, Tag::LockAt);
    }

    /// A third of the session timeout: the ping interval (and two of them the read timeout).
    fn zk_third(&mut self, ctx: &Ctx) -> u64 {
        let third = ctx.ttl / 3;
        self.floor(third); // a floor of the timeout
        third.max(1)
    }

    /// `create -e -s lock/lock-`: a node with the next sequence; then, as the recipe does, the
    /// children: the lowest holds the lock, any other watches its predecessor.
    fn zk_create_at(&mut self, ctx: &Ctx, c: u8) {
        if !self.zk().sessions[usize::from(c)].alive {
            self.zk_refuse(ctx, c);
            return;
        }
        self.touch_session::<Zookeeper>(ctx, c); // every request touches the session
        let st = self.zk();
        if st.live_node(c).is_none() {
            st.zxid += 1;
            st.nodes.push(Node {
                client: c,
                seq: st.cversion,
                czxid: st.zxid,
                live: true,
                record: None,
                watchers: 0,
            });
            st.cversion += 1;
        }
        self.zk_promote(ctx);
        self.zk_children_at(ctx, c);
    }

    /// The client's request fails: its session is gone.
    fn zk_refuse(&mut self, ctx: &Ctx, c: u8) {
        let denied = What::Denied {
            holder: None,
            session_gone: true,
        };
        self.record(c, denied);
        self.zk_answer(ctx, c, Tag::LockReply, Msg::Grant(Grant::NoSession));
    }

    /// `getChildren`: the client's node is the lowest (it holds the lock), or it watches the one before.
    fn zk_children_at(&mut self, ctx: &Ctx, c: u8) {
        let Some(i) = self.zk().live_node(c) else {
            self.zk_refuse(ctx, c);
            return;
        };
        self.touch_session::<Zookeeper>(ctx, c); // every request touches the session
        let node = self.zk().nodes[i];
        let token = if ctx.sc.service.tokens { node.czxid } else { 0 };
        let grant = match self.zk().nodes.before(i) {
            None => Grant::Granted {
                token,
                lock_value: self.zk().sessions[usize::from(c)].id,
                expires_at: SimTime(u64::MAX),
            },
            Some(p) => {
                let st = self.zk();
                st.nodes[p].watchers |= 1 << c;
                let behind = Some(st.nodes[p].client);
                self.record(
                    c,
                    What::Queued {
                        rev: node.seq,
                        behind,
                    },
                );
                Grant::Denied { holder: behind }
            }
        };
        self.zk_answer(ctx, c, Tag::LockReply, Msg::Grant(grant));
    }

    /// The lowest live node's client holds the lock, in truth, from the moment it is the lowest.
    fn zk_promote(&mut self, ctx: &Ctx) {
        let now = self.now;
        let st = self.zk();
        let Some(i) = st.nodes.head() else {
            return;
        };
        if st.nodes[i].record.is_some() {
            return;
        }
        let n = st.nodes[i];
        let token = if ctx.sc.service.tokens { n.czxid } else { 0 };
        st.records.push(LeaseRecord {
            client: n.client,
            node: 0,
            token,
            lock_value: st.sessions[usize::from(n.client)].id,
            granted_at: now,
            ends_at: SimTime(u64::MAX),
            released: false,
            session_ended: false,
            lost: false,
        });
        st.nodes[i].record = Some(st.records.len() - 1);
        st.owner = Some(n.client);
        let lease_end = None; // no TTL: the lock lasts as long as the session
        self.record(n.client, What::Granted { token, lease_end });
    }

    fn zk_lock_reply(&mut self, ctx: &Ctx, c: u8, grant: Grant) {
        match grant {
            Grant::Granted {
                token, lock_value, ..
            } => {
                let cred = Credentials {
                    token: ctx.sc.service.tokens.then_some(token),
                    lock_value,
                    via_session: false,
                };
                self.hold_lease(c, cred, i64::MAX); // held while the session lasts
                self.advance(ctx, c);
            }
            Grant::Denied { .. } => {} // it waits for its watch to fire
            Grant::NoSession => {
                self.zk().conns[usize::from(c)].open = false;
                self.abort(ctx, c);
            }
        }
    }

    fn zk_delete_at(&mut self, ctx: &Ctx, c: u8) {
        self.touch_session::<Zookeeper>(ctx, c); // every request touches the session
        let node = self.zk().live_node(c);
        if let Some(i) = node {
            self.zk().zxid += 1;
            self.zk_delete(ctx, i, SessionEnd::Disconnected, true);
        }
        let ended_lease = node.is_some();
        self.record(c, What::Released { ended_lease });
        self.zk_promote(ctx);
    }

    /// Deletes node `i` (in the current transaction): its record ends, its watchers hear of it.
    fn zk_delete(&mut self, ctx: &Ctx, i: usize, why: SessionEnd, released: bool) {
        let now = self.now;
        let st = self.zk();
        let n = st.nodes[i];
        st.nodes[i].live = false;
        if let Some(r) = n.record {
            let rec = &mut st.records[r];
            rec.ends_at = now;
            rec.released = released;
            rec.session_ended = !released && why != SessionEnd::IdleTimeout;
        }
        for w in (0..8u8).filter(|w| n.watchers & (1 << w) != 0) {
            self.zk_notify(ctx, w, Tag::WatchFired);
        }
    }

    /// The client's ping timer: it pings (lost if the network is cut) while its session is open.
    fn zk_ping(&mut self, ctx: &Ctx, c: u8) {
        let done = self.clients[usize::from(c)].phase == Phase::Done;
        let conn = &mut self.zk().conns[usize::from(c)];
        if !conn.open || done {
            conn.ticking = false;
            return;
        }
        if !self.zk_library_down(c) {
            self.zk_send(ctx, c, Tag::HeartbeatAt);
        }
        let every = self.zk_third(ctx);
        self.schedule(self.now.plus(every), Ev::bare(Tag::Heartbeat, c));
    }

    /// The server answered: the client hears it (reconnected if it was suspended), or learns its session
    /// expired (LOST).
    fn zk_ping_reply(&mut self, ctx: &Ctx, c: u8, live: bool) {
        let now = self.now;
        let conn = &mut self.zk().conns[usize::from(c)];
        conn.last_heard = now;
        let suspended = conn.state == Link::Suspended;
        #[cfg(feature = "libraries")]
        self.lib_on_session_answer(c, live);
        if !live {
            self.zk_set_link(ctx, c, Link::Lost);
        } else if suspended {
            self.zk_set_link(ctx, c, Link::Connected);
        }
    }

    /// The client's read timeout: silent for two thirds of T, it is SUSPENDED.
    fn zk_read_timeout(&mut self, ctx: &Ctx, c: u8) {
        let conn = self.zk().conns[usize::from(c)];
        if !conn.open || conn.state == Link::Lost {
            return;
        }
        let read_timeout = 2 * self.zk_third(ctx);
        let due = conn.last_heard.plus(read_timeout);
        let silent = self.decide(self.now >= due);
        if silent && conn.state == Link::Connected {
            self.zk_set_link(ctx, c, Link::Suspended);
            self.schedule(self.now.plus(ctx.ttl), Ev::bare(Tag::ConnLost, c));
        }
        let next = if silent {
            self.now.plus(read_timeout)
        } else {
            due
        };
        self.schedule(next, Ev::bare(Tag::ConnTimeout, c));
    }

    /// Curator's simulated expiration: still SUSPENDED a session timeout later, it is LOST.
    fn zk_conn_lost(&mut self, ctx: &Ctx, c: u8) {
        if self.zk().conns[usize::from(c)].state == Link::Suspended {
            self.zk_set_link(ctx, c, Link::Lost);
        }
    }

    /// Whether the client's library has its connection down (it sends no pings then).
    fn zk_library_down(&self, c: u8) -> bool {
        #[cfg(feature = "libraries")]
        return self.lib_down(c);
        #[cfg(not(feature = "libraries"))]
        return {
            let _ = c;
            false
        };
    }

    /// A change of Curator's connection state; the client lets go of its lock when the state means
    /// it must (LOST always; SUSPENDED unless it tolerates it). A client that calls a library of its
    /// own hears what that library says, when it says it (`crate::libraries`): here only the
    /// connection's state changes.
    fn zk_set_link(&mut self, ctx: &Ctx, c: u8, state: Link) {
        let conn = &mut self.zk().conns[usize::from(c)];
        conn.state = state;
        if state == Link::Lost {
            conn.open = false;
        }
        if crate::libraries::speaks_for(ctx.sc, c) {
            return;
        }
        let (what, lets_go) = match state {
            Link::Suspended => (Connection::Suspended, !own::Zookeeper::of(&ctx.sc.service).tolerate_suspended),
            Link::Lost => (Connection::Lost, true),
            Link::Connected => (Connection::Reconnected, false),
        };
        self.record(c, What::Connection { state: what });
        if lets_go {
            self.stop_believing_now(ctx, c);
        }
    }

    /// The server's session check: untouched for T (to the tick), the session expires and its
    /// ephemeral node goes with it, in one transaction.
    fn zk_expiry(&mut self, ctx: &Ctx, c: u8) {
        if !self.session_expired::<Zookeeper>(ctx, c) {
            return;
        }
        let token = self.zk_end_session(ctx, c, SessionEnd::IdleTimeout);
        self.record(c, What::LeaseExpired { token });
        self.zk_promote(ctx);
    }

    fn zk_close_at(&mut self, ctx: &Ctx, c: u8) {
        if !self.zk().sessions[usize::from(c)].alive {
            return;
        }
        let had = self.zk().live_node(c).is_some();
        self.zk_end_session(ctx, c, SessionEnd::Disconnected);
        let cause = SessionEnd::Disconnected;
        self.record(c, What::SessionEnded { cause, freed: had });
        self.zk_promote(ctx);
    }

    /// `closeSession` (one zxid): the session and its ephemeral node go. Returns the node's token.
    fn zk_end_session(&mut self, ctx: &Ctx, c: u8, why: SessionEnd) -> u64 {
        let st = self.zk();
        st.zxid += 1;
        st.sessions[usize::from(c)].alive = false;
        let Some(i) = st.live_node(c) else {
            return 0;
        };
        let token = if ctx.sc.service.tokens {
            st.nodes[i].czxid
        } else {
            0
        };
        self.zk_delete(ctx, i, why, false);
        token
    }
}

/// ZooKeeper's session: it expires T after it was last touched, at the first tick after that
/// (sessions expire in `tickTime` buckets); the server's answers reach a client the network carries.
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl KeepAlive<Zookeeper> for Engine {
    fn sessions(&mut self) -> &mut [ServerSession] {
        &mut self.services.zookeeper.sessions
    }

    /// T from now, rounded up to the next tick.
    fn expiry(&mut self, ctx: &Ctx) -> SimTime {
        let due = self.now.plus(ctx.ttl);
        let tick = ctx.sc.service.tick.resolve(ctx.params);
        if tick == 0 {
            return due;
        }
        let buckets = due.0 / tick;
        self.floor(buckets); // a floor of a time
        SimTime((buckets + 1) * tick)
    }

    fn answer(&mut self, ctx: &Ctx, c: u8, tag: Tag, msg: Msg) {
        self.zk_answer(ctx, c, tag, msg);
    }
}

/// ZooKeeper's events in the transcript, as its API and Curator name them.
fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
    let line = match e.what {
        What::LeaseGranted { lease, .. } => {
            let t = Millis(sc.service.ttl.resolve(&sc.defaults()));
            format!("{who}: connects (session {lease:x}, timeout {t} ms)")
        }
        What::Queued { rev, behind } => {
            let behind = behind.map_or('?', |h| sc.client_name(h));
            format!("{who}: create lock-{rev:010} → not the lowest: watches {behind}'s node")
        }
        What::Granted { token, .. } => {
            format!("zookeeper: {who}'s node is the lowest{}", czxid(sc, token))
        }
        What::Denied { .. } => format!("{who}: → SESSIONEXPIRED"),
        What::KeepAlive { lease_end: None } => format!("{who}: ping → the session has expired"),
        What::KeepAlive { .. } => return Some(Said::Nothing), // the steady pings
        What::LeaseExpired { .. } => {
            format!("zookeeper: {who}'s session expires; its ephemeral node is deleted")
        }
        What::Released { ended_lease: true } => format!("{who}: deletes its node"),
        What::SessionEnded { .. } => format!("{who}: closes its session"),
        What::Connection { state } => {
            let s = match state {
                Connection::Suspended => "SUSPENDED (no reply for 2/3 of the session timeout)",
                Connection::Lost => "LOST",
                Connection::Reconnected => "RECONNECTED",
            };
            #[cfg(feature = "libraries")]
            let library = sc.clients[usize::from(e.client)].library;
            #[cfg(not(feature = "libraries"))]
            let library: Option<crate::scenario::LibraryKind> = None; // none runs in this build
            match library {
                Some(lib) => format!("{who}: {}'s listener hears {}", lib.name(), s.split(' ').next().unwrap_or(s)),
                None => format!("{who}: connection state {s}"),
            }
        }
        What::Partition { cut, .. } => {
            let how = if cut {
                "cut off from"
            } else {
                "reconnected to"
            };
            format!("network: {who} {how} zookeeper")
        }
        _ => return None,
    };
    Some(Said::Line(line))
}

/// `, czxid 0x5` when the holder fences with its node's czxid.
fn czxid(sc: &Scenario, token: u64) -> String {
    if sc.service.tokens {
        format!(" (czxid {token:#x}: tok={token})")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::{Lost, Scenario};
    use crate::trace::Kind;
    use crate::{catalogue, simulate, Config, Policy};

    #[test]
    fn a_session_expires_at_the_first_tick_after_its_timeout() {
        let sc = catalogue::find("zk-session-expiry").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        let expired = o
            .run
            .trace
            .iter()
            .find(|e| e.kind() == Kind::LeaseExpired)
            .unwrap();
        assert_eq!(
            expired.t.0, 8_000_000,
            "untouched since 0, timeout 6 s, tick 2 s"
        );
        let b = o.run.leases.iter().find(|l| l.client == 1).unwrap();
        assert_eq!(
            b.granted_at.0, 8_000_000,
            "B's node is the lowest once A's is gone"
        );
    }

    #[test]
    fn the_default_error_policy_lets_go_at_suspended() {
        let text = include_str!("../../scenarios/curator-suspended.txt");
        let strict = Scenario::parse(&text.replace(" suspended=tolerate", "")).unwrap();
        let o = simulate(&strict, &Config::new(&strict, Policy::None)).unwrap();
        assert_eq!(
            o.lost,
            Lost::Nobody,
            "A's check fails after SUSPENDED at 6 s"
        );
        assert_eq!(o.run.final_balance, 450);
        let suspended = o
            .run
            .trace
            .iter()
            .find(|e| e.kind() == Kind::Suspended)
            .unwrap();
        assert_eq!(
            suspended.t.0, 6_000_000,
            "4 s without a reply after the ping at 2 s"
        );
        let lost = o.run.trace.iter().find(|e| e.kind() == Kind::Lost).unwrap();
        assert_eq!(
            lost.t.0, 12_000_000,
            "Curator's LOST a session timeout later"
        );
    }
}
