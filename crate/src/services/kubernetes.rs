//! Kubernetes leader election: client-go's `LeaderElector` on a `coordination.k8s.io/v1` Lease.
//!
//! The API server keeps one Lease object: `holderIdentity`, `leaseDurationSeconds`, `acquireTime`,
//! `renewTime`, `leaseTransitions`, and its `resourceVersion`, which every write changes. Writes are
//! optimistic: an update carries the resourceVersion the client read, and the server refuses it (409
//! Conflict) if the object changed since; a create fails if the object exists. The server never
//! expires anything: a lease ends only when a candidate overwrites it.
//!
//! Each client runs `tryAcquireOrRenew` (tools/leaderelection/leaderelection.go): it gets the Lease;
//! when the record differs from the one it last observed, it sets `observedTime` to now **by its own
//! clock**; it may write itself in as holder only when the record names no holder, or names itself,
//! or `observedTime + leaseDuration` is no longer after now. Expiry is judged by observation, not by
//! `renewTime`. A candidate tries every RetryPeriod; a takeover adds one to `leaseTransitions`.
//! The leader renews every RetryPeriod (the fast path: an update on the version it last wrote, with a
//! get first only if that conflicts) and, when no renewal succeeds within RenewDeadline of the
//! round's start, stops leading (`OnStoppedLeading`).
//!
//! The naive switch is client-go before Kubernetes 1.12 (`client-go=1.11`): its renew loop checked
//! the deadline only between calls, so a renew request the API server never answers holds the leader
//! in place until the request itself fails — after the server's 60 s request timeout, longer than the
//! lease (kubernetes/kubernetes#44887). Kubernetes 1.12 (kubernetes#65094, client-go commit
//! 57f617c) stops leading at the deadline whatever the call is doing.
//!
//! No token: client-go gives the leader nothing to fence with (its package doc: it "does not guarantee
//! that only one client is acting as a leader (a.k.a. fencing)"). `tokens=transitions` lets the
//! holder present the record's `leaseTransitions` — one more at every change of holder, and the
//! resourceVersion check lets only one candidate make each change — as a token a storage can check.
//!
//! Left out: the acquire loop's jitter (`wait.JitterUntil`, JitterFactor 1.2: each wait is one to
//! 2.2 retry periods): the lab's candidate polls every RetryPeriod, the earliest client-go allows, so it
//! takes over as soon as client-go could. Timers run on true time; only the observation's comparison
//! reads the client's clock.
//!
//! A cut (an injected `cut:A,at=R,for=R`, or a scenario's `at D: cut A n1`) drops every request and
//! answer between the client and its API server until the heal (`k8s_linked`): a leader's renewals
//! fail to arrive, and it stops leading at RenewDeadline (or, naive, keeps leading, as above).

use super::{LockService, Said, Serve};
use crate::lock::LeaseRecord;
use crate::scenario::{own, Scenario};
use crate::sim::{Ctx, Engine, Ev, Msg, Phase, Tag};
use crate::store::Credentials;
use crate::time::{Millis, SimTime};
use crate::trace::{TraceEvent, What};

/// Holder identities (client-go's `hostname_uuid`), as numbers a page can show: one per client.
const IDENTITY_BASE: u64 = 0x6b38_0000;

/// The API server's Lease object and each client's elector, during a run.
#[derive(Default)]
pub(crate) struct State {
    /// The Lease's resourceVersion: one more at every write (0: the object does not exist yet).
    rv: u64,
    holder: Option<u8>,
    transitions: u64,
    /// The holder's entry in `records`.
    record: Option<usize>,
    electors: Vec<Elector>,
    /// The lock's truth: one record per client the Lease named as holder.
    pub records: Vec<LeaseRecord>,
    /// The client the Lease names now, or last named (the ideal guard's truth).
    pub owner: Option<u8>,
}

/// A request to the API server.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
enum Want {
    #[default]
    Get,
    Create,
    /// An update naming the client holder, from another holder or none (`leaseTransitions` + 1).
    Take,
    /// An update by the holder itself (a renewal).
    Renew,
    /// An update that empties `holderIdentity` (client-go's `ReleaseOnCancel`).
    Release,
}

/// What the client's elector is doing.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Role {
    #[default]
    Idle,
    Acquiring,
    Leading,
}

#[derive(Clone, Copy, Default)]
struct Elector {
    role: Role,
    /// The record it last observed (its resourceVersion, 0 for none; its holder) and when it saw
    /// it change, by its own clock (client-go's `observedRecord`, `observedTime`).
    seen_rv: u64,
    seen_holder: Option<u8>,
    seen_local: i64,
    /// The server's answer to its Get: the record as it was then.
    got_rv: u64,
    got_holder: Option<u8>,
    /// The request it sent last and the resourceVersion an update of it expects.
    sent: Want,
    sent_rv: u64,
    /// Waiting for the answer to `sent`, which fails unanswered at `req_timeout`.
    req: bool,
    req_timeout: SimTime,
    /// `sent` or its answer is on the network.
    wire: bool,
    /// Its timeout timer is queued.
    armed: bool,
    /// The answer to a request it stopped waiting for is still on its way.
    stale: bool,
    /// A try to make once that stale answer is in.
    deferred: bool,
    /// This renew round's deadline (`None` between rounds).
    deadline: Option<SimTime>,
    /// Its renew (or in-round retry) timer is queued.
    ticking: bool,
}

impl State {
    pub fn reset(&mut self, clients: usize) {
        self.rv = 0;
        self.holder = None;
        self.transitions = 0;
        self.record = None;
        self.electors.clear();
        self.electors.resize(clients, Elector::default());
        self.records.clear();
        self.owner = None;
    }
}

/// client-go's leader election on a Lease (see the module's note).
pub(crate) struct Kubernetes;

impl LockService for Kubernetes {
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

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). Renewals; expiry is judged
/// by each candidate's observation of the Lease.
pub(super) const DIAGRAM: super::Diagram = {
    use super::Diagram as D;
    D::KA.and(D::OBSERVES)
};

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Kubernetes> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        self.on_k8s_event(ctx, ev);
    }

    fn acquire(&mut self, ctx: &Ctx, c: u8) {
        self.k8s_acquire(ctx, c);
    }

    fn release(&mut self, ctx: &Ctx, c: u8, _value: u64) {
        self.k8s_release(ctx, c);
    }

    fn rightful(&self, _ctx: &Ctx) -> Option<u8> {
        self.services.kubernetes.owner
    }

    fn on_script_end(&mut self, _ctx: &Ctx, c: u8) {
        self.k8s_on_script_end(c);
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    fn k8s(&mut self) -> &mut State {
        &mut self.services.kubernetes
    }

    fn elector(&mut self, c: u8) -> &mut Elector {
        &mut self.services.kubernetes.electors[usize::from(c)]
    }

    fn on_k8s_event(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        match (ev.tag, self.msg(ev)) {
            (Tag::LockAt, _) => self.k8s_get_at(ctx, c),
            (Tag::LockReply, _) => self.k8s_got(ctx, c),
            (Tag::HeartbeatAt, _) => self.k8s_update_at(ctx, c),
            (Tag::HeartbeatReply, Msg::Value(rv)) => self.k8s_updated(ctx, c, rv),
            (Tag::Heartbeat, _) => self.k8s_renew_timer(ctx, c),
            (Tag::ConnTimeout, _) => self.k8s_request_timeout(ctx, c),
            (Tag::ConnLost, _) => self.k8s_deadline(ctx, c),
            // Unreachable: every Kubernetes event carries its own message.
            _ => unreachable!(),
        }
    }

    /// The acquire step: `acquire`'s loop of `tryAcquireOrRenew`, one try now.
    fn k8s_acquire(&mut self, ctx: &Ctx, c: u8) {
        self.elector(c).role = Role::Acquiring;
        self.k8s_try(ctx, c);
    }

    /// The client lets go (client-go's `ReleaseOnCancel`): it stops renewing and empties the holder.
    /// A request still pending (a renew the server does not answer) keeps the old client-go from
    /// releasing until it returns, when the release would conflict anyway: the lab sends none then.
    fn k8s_release(&mut self, ctx: &Ctx, c: u8) {
        let e = *self.elector(c);
        self.k8s_stop(c);
        if e.role == Role::Leading && !e.req && !e.stale {
            self.k8s_request(ctx, c, Want::Release, e.seen_rv);
        }
    }

    /// The script is over: the process exits, and its elector with it.
    fn k8s_on_script_end(&mut self, c: u8) {
        self.k8s_stop(c);
    }

    fn k8s_stop(&mut self, c: u8) {
        let e = self.elector(c);
        e.role = Role::Idle;
        e.deadline = None;
        e.deferred = false;
    }

    /// Whether the client and its API server can reach each other (a partition cuts `n1`).
    fn k8s_linked(&self, c: u8) -> bool {
        self.reach(c) & 1 != 0
    }

    /// One `tryAcquireOrRenew`: the leader's fast path (an update on the version it last wrote, while
    /// its own lease is valid by its clock), else a get first.
    fn k8s_try(&mut self, ctx: &Ctx, c: u8) {
        let e = *self.elector(c);
        if e.req || e.stale {
            self.elector(c).deferred = true; // after the answer it still waits for
            return;
        }
        if e.seen_holder == Some(c) && self.k8s_valid(ctx, c) {
            self.k8s_request(ctx, c, Want::Renew, e.seen_rv);
        } else {
            self.k8s_request(ctx, c, Want::Get, 0);
        }
    }

    /// Whether the lease the client observed is still valid by its own clock: `observedTime +
    /// leaseDuration` is after now.
    fn k8s_valid(&mut self, ctx: &Ctx, c: u8) -> bool {
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let local = clock.local_h(self.now, &mut self.path);
        let until = self.elector(c).seen_local.saturating_add(ctx.ttl_local());
        self.decide(until > local)
    }

    /// Sends a request (lost if the network is cut); it fails if no answer comes within the timeout.
    /// (The client's timer is queued only for a request or answer the network drops — an answered
    /// call never reaches it — and a leader's only when it times out before the round's deadline,
    /// which queues it otherwise: a run ends with its last event, and a timer nobody waits for
    /// would stretch it.)
    fn k8s_request(&mut self, ctx: &Ctx, c: u8, want: Want, rv: u64) {
        let now = self.now;
        let timeout = own::Kubernetes::of(&ctx.sc.service).request_timeout.resolve(ctx.params);
        let linked = self.k8s_linked(c);
        let e = self.elector(c);
        e.sent = want;
        e.sent_rv = rv;
        e.req = true;
        e.req_timeout = now.plus(timeout);
        e.wire = linked;
        e.armed = false;
        if !linked {
            self.k8s_arm(c);
        } else {
            let tag = if want == Want::Get {
                Tag::LockAt
            } else {
                Tag::HeartbeatAt
            };
            self.schedule(now.plus(ctx.lock_latency), Ev::bare(tag, c));
        }
    }

    /// An answer from the API server to the client, if the network carries it.
    fn k8s_answer(&mut self, ctx: &Ctx, c: u8, tag: Tag, msg: Msg) {
        if self.k8s_linked(c) {
            self.send(self.now.plus(ctx.lock_latency), tag, c, msg);
            return;
        }
        self.elector(c).wire = false;
        if self.elector(c).req {
            self.k8s_arm(c);
        }
    }

    /// Queues the timeout of the pending call — unless a leader's round ends first (the deadline
    /// queues it then, if the leader still waits).
    fn k8s_arm(&mut self, c: u8) {
        let e = *self.elector(c);
        if let Some(deadline) = e.deadline.filter(|_| e.role == Role::Leading) {
            if !self.decide(e.req_timeout < deadline) {
                return;
            }
        }
        self.k8s_arm_now(c);
    }

    fn k8s_arm_now(&mut self, c: u8) {
        let now = self.now;
        let due = self.elector(c).req_timeout;
        self.elector(c).armed = true;
        let at = if self.decide(due >= now) { due } else { now };
        self.schedule(at, Ev::bare(Tag::ConnTimeout, c));
    }

    /// A Get arrives: the answer is the record as it is now.
    fn k8s_get_at(&mut self, ctx: &Ctx, c: u8) {
        let st = self.k8s();
        let (rv, holder) = (st.rv, st.holder);
        let e = self.elector(c);
        e.got_rv = rv;
        e.got_holder = holder;
        self.k8s_answer(ctx, c, Tag::LockReply, Msg::Value(rv));
    }

    /// An update (or create) arrives: applied if the object is as the client read it, else 409.
    fn k8s_update_at(&mut self, ctx: &Ctx, c: u8) {
        let e = *self.elector(c);
        let st = self.k8s();
        let fresh = match e.sent {
            Want::Create => st.rv == 0,
            Want::Release => st.rv == e.sent_rv && st.holder == Some(c),
            _ => st.rv != 0 && st.rv == e.sent_rv,
        };
        if !fresh {
            self.k8s_answer(ctx, c, Tag::HeartbeatReply, Msg::Value(0));
            return;
        }
        st.rv += 1;
        let rv = st.rv;
        match e.sent {
            Want::Renew => {
                let lease_end = Some(self.now.plus(ctx.ttl));
                self.record(c, What::KeepAlive { lease_end });
            }
            Want::Release => {
                self.k8s_end_record(true);
                self.k8s().holder = None;
                self.record(c, What::Released { ended_lease: true });
            }
            _ => self.k8s_take(ctx, c, e.sent == Want::Take),
        }
        self.k8s_answer(ctx, c, Tag::HeartbeatReply, Msg::Value(rv));
    }

    /// The Lease names client `c` from now: the old holder's record ends, `c`'s begins.
    fn k8s_take(&mut self, ctx: &Ctx, c: u8, take: bool) {
        let now = self.now;
        // A leader whose renew round takes the Lease back from another holder (or from none, after a
        // release) counts it as a renewal, as client-go does: it never learns that it lost the lock, and
        // what it read is from before the other's tenure. So the ideal guard names nobody then.
        let retaken = take && self.elector(c).role == Role::Leading;
        self.k8s_end_record(false);
        let st = self.k8s();
        if take {
            st.transitions += 1;
        }
        let token = if ctx.sc.service.tokens {
            st.transitions
        } else {
            0
        };
        st.holder = Some(c);
        st.records.push(LeaseRecord {
            client: c,
            node: 0,
            token,
            lock_value: IDENTITY_BASE + u64::from(c),
            granted_at: now,
            ends_at: SimTime(u64::MAX),
            released: false,
            session_ended: false,
            lost: false,
        });
        st.record = Some(st.records.len() - 1);
        st.owner = (!retaken).then_some(c);
        self.record(
            c,
            What::Granted {
                token,
                lease_end: None,
            },
        );
    }

    /// The current holder's record ends now (overwritten by another, or released).
    fn k8s_end_record(&mut self, released: bool) {
        let now = self.now;
        let st = self.k8s();
        if let Some(r) = st.record.take() {
            st.records[r].ends_at = now;
            st.records[r].released = released;
        }
    }

    /// The answer to a Get: observe the record, then stop (held by another, and valid as the client
    /// sees it) or write itself in.
    fn k8s_got(&mut self, ctx: &Ctx, c: u8) {
        if !self.k8s_answered(c) {
            return self.k8s_after(ctx, c);
        }
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let local = clock.local_h(self.now, &mut self.path);
        let e = *self.elector(c);
        if e.got_rv != e.seen_rv {
            let el = self.elector(c);
            el.seen_rv = e.got_rv;
            el.seen_holder = e.got_holder;
            el.seen_local = local;
            if let Some(h) = e.got_holder.filter(|&h| h != c) {
                let behind = Some(h);
                self.record(
                    c,
                    What::Queued {
                        rev: e.got_rv,
                        behind,
                    },
                );
            }
        }
        if e.role == Role::Idle {
            return self.k8s_after(ctx, c);
        }
        if e.got_rv == 0 {
            return self.k8s_request(ctx, c, Want::Create, 0);
        }
        if let Some(h) = e.got_holder.filter(|&h| h != c) {
            if self.k8s_valid(ctx, c) {
                let denied = What::Denied {
                    holder: Some(h),
                    session_gone: false,
                };
                self.record(c, denied);
                return self.k8s_failed(ctx, c);
            }
        }
        let want = if e.got_holder == Some(c) {
            Want::Renew
        } else {
            Want::Take
        };
        self.k8s_request(ctx, c, want, e.got_rv);
    }

    /// The answer to an update: `rv` the new resourceVersion, 0 for a conflict.
    fn k8s_updated(&mut self, ctx: &Ctx, c: u8, rv: u64) {
        if !self.k8s_answered(c) {
            return self.k8s_after(ctx, c);
        }
        let e = *self.elector(c);
        if e.sent == Want::Release || e.role == Role::Idle {
            return self.k8s_after(ctx, c);
        }
        if rv == 0 {
            if e.sent == Want::Renew && e.seen_holder == Some(c) && e.role == Role::Leading {
                // The fast path's conflict: the slow path gets the record first.
                return self.k8s_request(ctx, c, Want::Get, 0);
            }
            return self.k8s_failed(ctx, c);
        }
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let local = clock.local_h(self.now, &mut self.path);
        let el = self.elector(c);
        el.seen_rv = rv;
        el.seen_holder = Some(c);
        el.seen_local = local;
        self.k8s_succeeded(ctx, c);
    }

    /// An answer reached the client: whether it still waited for it (else it is the stale answer of a
    /// call it gave up on).
    fn k8s_answered(&mut self, c: u8) -> bool {
        let e = self.elector(c);
        e.wire = false;
        if e.req {
            e.req = false;
            return true;
        }
        e.stale = false;
        false
    }

    /// After an answer the client no longer needs: a try it put off goes now.
    fn k8s_after(&mut self, ctx: &Ctx, c: u8) {
        let e = self.elector(c);
        if std::mem::take(&mut e.deferred) && e.role != Role::Idle {
            self.k8s_try(ctx, c);
        }
    }

    /// A try succeeded: the candidate leads (OnStartedLeading), or the leader's round is over.
    fn k8s_succeeded(&mut self, ctx: &Ctx, c: u8) {
        let retry = own::Kubernetes::of(&ctx.sc.service).retry_period.resolve(ctx.params);
        let e = self.elector(c);
        let acquired = e.role == Role::Acquiring;
        e.role = Role::Leading;
        e.deadline = None;
        e.deferred = false; // this success is the try it put off
        if acquired {
            let cred = Credentials {
                token: ctx.sc.service.tokens.then(|| self.k8s().transitions),
                lock_value: IDENTITY_BASE + u64::from(c),
                via_session: false,
            };
            self.hold_lease(c, cred, i64::MAX); // leading until it stops
        }
        self.k8s_tick(c, retry);
        if acquired {
            self.advance(ctx, c);
        }
    }

    /// A try failed: a candidate tries again a retry period later; the leader too, unless its round's
    /// deadline has passed — then it stops leading.
    fn k8s_failed(&mut self, ctx: &Ctx, c: u8) {
        let retry = own::Kubernetes::of(&ctx.sc.service).retry_period.resolve(ctx.params);
        let e = *self.elector(c);
        if e.deferred && e.role == Role::Acquiring {
            self.elector(c).deferred = false;
            return self.k8s_try(ctx, c); // the try it put off, instead of the next poll
        }
        match e.role {
            Role::Idle => {}
            Role::Acquiring => self.k8s_poll_again(ctx, c, retry),
            Role::Leading => {
                let due = e.deadline.unwrap_or(SimTime(0));
                if self.decide(self.now >= due) {
                    self.k8s_stop_leading(ctx, c);
                } else {
                    self.k8s_tick(c, retry);
                }
            }
        }
    }

    /// The acquire loop's next try, as the script's acquire step (a `tries` limit ends it).
    fn k8s_poll_again(&mut self, ctx: &Ctx, c: u8, retry: u64) {
        let st = &self.clients[usize::from(c)];
        let tries = match ctx.sc.clients[usize::from(c)].ops.get(st.pc) {
            Some(crate::client::Op::Acquire { tries, .. }) => *tries,
            _ => 0,
        };
        if tries != 0 && st.tries >= tries {
            self.clients[usize::from(c)].phase = Phase::Done;
            self.elector(c).role = Role::Idle;
            self.record(c, What::GaveUp);
            return;
        }
        self.schedule(self.now.plus(retry), Ev::bare(Tag::Step, c));
    }

    fn k8s_tick(&mut self, c: u8, after: u64) {
        let e = self.elector(c);
        if !e.ticking {
            e.ticking = true;
            self.schedule(self.now.plus(after), Ev::bare(Tag::Heartbeat, c));
        }
    }

    /// The leader's renew timer: a new round (with its deadline) or the round's next try.
    fn k8s_renew_timer(&mut self, ctx: &Ctx, c: u8) {
        let done = self.clients[usize::from(c)].phase == Phase::Done;
        let e = self.elector(c);
        e.ticking = false;
        if e.role != Role::Leading || done {
            return;
        }
        if e.deadline.is_none() {
            let renew = own::Kubernetes::of(&ctx.sc.service).renew_deadline.resolve(ctx.params);
            let due = self.now.plus(renew);
            self.elector(c).deadline = Some(due);
            self.schedule(due, Ev::bare(Tag::ConnLost, c));
        }
        self.k8s_try(ctx, c);
    }

    /// The round's deadline: between tries the leader stops leading; during a call, client-go 1.12
    /// abandons the call and stops, and 1.11 (naive) waits for the call to return.
    fn k8s_deadline(&mut self, ctx: &Ctx, c: u8) {
        let e = *self.elector(c);
        let Some(due) = e.deadline.filter(|_| e.role == Role::Leading) else {
            return;
        };
        if !self.decide(self.now >= due) {
            return; // an earlier round's timer
        }
        if e.req {
            if ctx.naive {
                if !e.armed && !e.wire {
                    self.k8s_arm_now(c); // it waits for the call to fail
                }
                return;
            }
            let el = self.elector(c);
            el.req = false;
            el.stale = el.wire;
        }
        self.k8s_stop_leading(ctx, c);
    }

    /// A request the API server never answered fails (the client's call returns an error).
    fn k8s_request_timeout(&mut self, ctx: &Ctx, c: u8) {
        let e = *self.elector(c);
        if !e.req || !self.decide(self.now >= e.req_timeout) {
            return;
        }
        let el = self.elector(c);
        el.req = false;
        el.stale = el.wire;
        el.armed = false;
        if e.sent == Want::Renew {
            // The call fails (the old client-go's leader learns it only now, a minute on).
            self.record(c, What::KeepAlive { lease_end: None });
        }
        if e.sent != Want::Release {
            self.k8s_failed(ctx, c);
        }
    }

    /// `OnStoppedLeading`: the client knows it leads no more (a check fails from now on).
    fn k8s_stop_leading(&mut self, ctx: &Ctx, c: u8) {
        self.k8s_stop(c);
        self.record(c, What::RenewDenied);
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let local = clock.local_h(self.now, &mut self.path);
        self.end_belief(c, self.now);
        if let Some(lease) = self.clients[usize::from(c)].lease.as_mut() {
            lease.believed_end_local = local;
        }
    }
}

/// Kubernetes's events in the transcript, in client-go's and the API's words.
fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
    let d = sc.defaults();
    let line = match e.what {
        What::Granted { token, .. } => {
            let tok = if sc.service.tokens {
                format!(", leaseTransitions {token}: tok={token}")
            } else {
                String::new()
            };
            format!("{who}: update Lease → holderIdentity {who}{tok}: it leads")
        }
        What::Queued { rev, behind } => {
            let h = behind.map_or('?', |h| sc.client_name(h));
            // (The transcript has the scenario, not the run's parameters: no number here.)
            format!(
                "{who}: get Lease → held by {h}, resourceVersion {rev} new to {who}: it waits a lease duration from now, by its own clock"
            )
        }
        What::Denied { holder, .. } => {
            let h = holder.map_or('?', |h| sc.client_name(h));
            format!("{who}: get Lease → held by {h}, not yet expired as {who} observed it")
        }
        What::KeepAlive { lease_end: None } => {
            let t = Millis(own::Kubernetes::of(&sc.service).request_timeout.resolve(&d));
            format!("{who}: renew → no answer: the request fails after {t} ms")
        }
        What::KeepAlive { .. } => return Some(Said::Nothing), // the steady renewals
        What::RenewDenied => {
            let t = Millis(own::Kubernetes::of(&sc.service).renew_deadline.resolve(&d));
            format!("{who}: failed to renew within the renew deadline ({t} ms): OnStoppedLeading")
        }
        What::Released { ended_lease: true } => {
            format!("{who}: update Lease → holderIdentity empty (released)")
        }
        What::Partition { cut, .. } => {
            let how = if cut {
                "cut off from"
            } else {
                "reconnected to"
            };
            format!("network: {who} {how} its API server")
        }
        _ => return None,
    };
    Some(Said::Line(line))
}

#[cfg(test)]
mod tests {
    use crate::scenario::{Lost, Scenario};
    use crate::trace::{Kind, What};
    use crate::{catalogue, simulate, Config, Policy};

    fn at(o: &crate::Outcome, kind: Kind, client: u8) -> Vec<u64> {
        let t = o
            .run
            .trace
            .iter()
            .filter(|e| e.kind() == kind && e.client == client);
        t.map(|e| e.t.0 / 1000).collect()
    }

    #[test]
    fn the_candidate_takes_over_a_lease_duration_after_it_last_saw_a_change() {
        let sc = catalogue::find("k8s-lease-slow-renew").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        // A renews at 2, 4 and 6 s; B, polling at 1, 3, 5, 7 s…, sees each change one poll later.
        assert_eq!(at(&o, Kind::KeepAlive, 0), [2_000, 4_000, 6_000]);
        assert_eq!(at(&o, Kind::Queued, 1), [1_000, 3_000, 5_000, 7_000]);
        // Observed at 7 s: valid while 7 + 15 s is after now; B's poll at 23 s takes over.
        assert_eq!(at(&o, Kind::Granted, 1), [23_000]);
        assert_eq!(o.lost, Lost::Client(1));
    }

    #[test]
    fn client_go_1_12_stops_leading_at_the_renew_deadline() {
        let sc = catalogue::find("k8s-lease-slow-renew").unwrap();
        let mut cfg = Config::new(sc, Policy::None);
        cfg.naive = false;
        let o = simulate(sc, &cfg).unwrap();
        // The round that starts at 8 s (a retry period after the renewal at 6 s) ends at 18 s.
        assert_eq!(at(&o, Kind::RenewDenied, 0), [18_000]);
        assert_eq!(o.lost, Lost::Nobody);
        assert_eq!(o.run.final_balance, 450);
    }

    #[test]
    fn lease_transitions_fence_when_the_storage_checks_them() {
        let text = include_str!("../../scenarios/k8s-lease-slow-renew.txt");
        let sc =
            Scenario::parse(&text.replace("client-go=1.11", "client-go=1.11 tokens=transitions"))
                .unwrap();
        let o = simulate(&sc, &Config::new(&sc, Policy::Token)).unwrap();
        let tokens: Vec<u64> = o
            .run
            .trace
            .iter()
            .filter_map(|e| match e.what {
                What::Granted { token, .. } => Some(token),
                _ => None,
            })
            .collect();
        assert_eq!(tokens, [0, 1], "a create leaves 0; B's takeover makes it 1");
        assert_eq!(o.lost, Lost::Nobody);
        assert_eq!(o.run.final_balance, 450);
    }
}
