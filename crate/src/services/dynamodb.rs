//! The DynamoDB lock client (awslabs' `AmazonDynamoDBLockClient`): a lock is an item in a table, and
//! nothing on the server ever expires it.
//!
//! The item carries its owner and a record version number (RVN), a random GUID the client draws for
//! every write (`generateRecordVersionNumber`: "an increasing sequence ID ... doesn't work"), so a
//! condition on it can only ask "still the same?". `acquireLock` reads the item (`GetItem`): none
//! there, a put conditional on `attribute_not_exists` takes it. Held by another, the waiter notes the
//! RVN it saw and the time, **on its own clock**, after the read returned, and polls again every
//! `refreshPeriod` (the acquire step's `every`). A different RVN (the holder heartbeated) starts
//! its wait again; the same RVN for more than `leaseDuration` since it first saw it means the lock
//! is stale: a put conditional on that RVN takes it over. The call gives up (LockNotGranted) once it
//! has polled for `leaseDuration + additionalTimeToWaitForLock` (`wait`) in all.
//!
//! The holder's background thread heartbeats every `heartbeatPeriod`: an update conditional on its
//! owner name and current RVN that writes a new RVN. It is the client's own timer, so it freezes with
//! the client (a GC pause stops it). Before each heartbeat the holder checks its own lock item: more
//! than `leaseDuration` since its last successful write, by its clock, and it lets go ("Cannot send
//! heartbeat because lock is not granted"); a heartbeat refused because the RVN changed tells it the
//! lock was taken over. Release is a delete conditional on the RVN; a heartbeat and a release of one
//! lock never overlap (both are `synchronized` on the lock item in the Java client), so a release
//! waits for a heartbeat in flight and then uses the new RVN.
//!
//! The RVN is the token the client fences with (`tokens=rvn`): drawn from the run's seed, 32 bits
//! here so that the page can print it. It has no order: the storage's `token` policy compares two
//! random numbers. Where the real client differs, and why it does not matter here: its heartbeat
//! thread ticks from the lock client's creation (here from the grant: a phase, no more), a heartbeat
//! whose round trip exceeds the period is sent late rather than skipped, and a put that loses a race
//! throws back to the polling loop, as here.
//!
//! An injected cut holds the client's calls and their answers until one latency after the heal
//! (`Engine::lock_hop`). A held heartbeat leaves the item's RVN unchanged, so a waiter that watches it
//! for the lease duration takes the lock meanwhile. The client's acquire budget is counted between
//! its polls, by its own clock, and the model has it; the SDK's request timeouts and retries are left
//! out: a held call waits.

use super::{LockService, Said, Serve};
use crate::client::Op;
use crate::lock::LeaseRecord;
use crate::scenario::Scenario;
use crate::sim::{Ctx, Engine, Ev, Msg, Phase, Tag};
use crate::store::Credentials;
use crate::time::{Millis, SimTime};
use crate::trace::{TraceEvent, What};

/// Mixed into the run's seed for the RVNs, so that they differ from the other services' draws.
const RVN_SALT: u64 = 0xd1a0_0000_5eed_0000;

/// The lock table's one item and each client's lock client, during a run.
#[derive(Default)]
pub(crate) struct State {
    item: Option<Item>,
    clients: Vec<LockClient>,
    /// The lock's truth: one record per client whose put took the item.
    pub records: Vec<LeaseRecord>,
    rng: u64,
    draws: u64,
}

/// The lock item: who wrote it last and with which RVN (its entry in `records`).
#[derive(Clone, Copy)]
struct Item {
    owner: u8,
    rvn: u64,
    record: usize,
}

/// What a waiter remembers of the item it is waiting out (`lockTryingToBeAcquired`).
#[derive(Clone, Copy)]
struct Seen {
    rvn: u64,
    /// Its own clock when the read that showed this RVN returned.
    lookup_local: i64,
}

/// The lock a client holds, as its lock client knows it.
#[derive(Clone, Copy)]
struct Held {
    rvn: u64,
    /// Its own clock when it sent the latest write that succeeded (the lease counts from there).
    sent_local: i64,
}

#[derive(Clone, Copy, Default)]
struct LockClient {
    /// An `acquireLock` call is under way.
    calling: bool,
    call_start_local: i64,
    /// How long the call may poll: `wait`, plus the lease once it has seen the lock held.
    budget_us: u64,
    seen: Option<Seen>,
    /// The put in flight: its condition (`None`: no item) and the RVN it writes.
    put_if: Option<u64>,
    put_rvn: u64,
    put_sent_local: i64,
    held: Option<Held>,
    /// A heartbeat timer is queued.
    ticking: bool,
    /// A heartbeat is in flight: the new RVN, and when it was sent.
    beat: Option<Held>,
    /// A release waits for the heartbeat in flight.
    release_after_beat: bool,
    /// The RVN a release is conditional on: the latest the client wrote (0: none to release). A
    /// client that let go still sends the delete, as `releaseLock` does.
    release_rvn: u64,
}

impl State {
    pub fn reset(&mut self, clients: usize) {
        self.item = None;
        self.clients.clear();
        self.clients.resize(clients, LockClient::default());
        self.records.clear();
        self.draws = 0;
    }

    /// The ideal guard's truth: the client whose put took the item last, until it deletes it.
    pub fn owner(&self) -> Option<u8> {
        self.item.map(|it| it.owner)
    }
}

/// A GetItem's answer in one number: 0 for no item, else the RVN and the owner's index + 1 above it.
fn pack(item: Option<Item>) -> u64 {
    item.map_or(0, |it| it.rvn | (u64::from(it.owner) + 1) << 32)
}

fn unpack(v: u64) -> Option<(u8, u64)> {
    (v != 0).then(|| (((v >> 32) - 1) as u8, v & 0xffff_ffff))
}

/// The DynamoDB lock client (see the module's note).
pub(crate) struct Dynamodb;

impl LockService for Dynamodb {
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

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). Heartbeats; its token is a
/// random record version number.
pub(super) const DIAGRAM: super::Diagram = {
    use super::Diagram as D;
    D::KA.and(D::RANDOM_TOKENS)
};

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Dynamodb> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        match (ev.tag, self.msg(ev)) {
            (Tag::AcquireAt, _) => self.get_item_at(ctx, c),
            (Tag::AcquireReply, Msg::Value(v)) => self.on_get_item(ctx, c, unpack(v)),
            (Tag::LockAt, _) => self.put_item_at(ctx, c),
            (Tag::LockReply, Msg::Accepted(ok)) => self.on_put_item(ctx, c, ok),
            (Tag::Heartbeat, _) => self.heartbeat_timer(ctx, c),
            (Tag::HeartbeatAt, _) => self.heartbeat_at(ctx, c),
            (Tag::HeartbeatReply, Msg::Accepted(ok)) => self.on_heartbeat(ctx, c, ok),
            (Tag::UnlockAt, _) => self.delete_item_at(c),
            // Unreachable: every DynamoDB event carries its own message.
            _ => unreachable!(),
        }
    }

    /// One poll of `acquireLock` (the script's acquire step, again after each refresh period): GetItem.
    fn acquire(&mut self, ctx: &Ctx, c: u8) {
        let sent = self.clients[usize::from(c)].acquire_sent_local;
        let wait = ctx.timeout;
        let cl = self.ddb_client(c);
        if !cl.calling {
            *cl = LockClient {
                calling: true,
                call_start_local: sent,
                budget_us: wait,
                seen: None,
                ..*cl
            };
        }
        self.schedule_hop(ctx, Ev::bare(Tag::AcquireAt, c));
    }

    /// `releaseLock`: a delete conditional on the RVN, after the heartbeat in flight, if any.
    fn release(&mut self, ctx: &Ctx, c: u8, _value: u64) {
        let cl = self.ddb_client(c);
        if cl.beat.is_some() {
            cl.release_after_beat = true;
            return;
        }
        self.send_delete(ctx, c);
    }

    fn rightful(&self, _ctx: &Ctx) -> Option<u8> {
        self.services.dynamodb.owner()
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    fn ddb(&mut self) -> &mut State {
        &mut self.services.dynamodb
    }

    fn ddb_client(&mut self, c: u8) -> &mut LockClient {
        &mut self.ddb().clients[usize::from(c)]
    }

    /// The client's own clock now.
    fn local_now(&mut self, ctx: &Ctx, c: u8) -> i64 {
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        clock.local_h(self.now, &mut self.path)
    }

    /// A fresh RVN from the run's seed: 32 bits, never 0.
    fn draw_rvn(&mut self) -> u64 {
        let seed = self.seed;
        let st = self.ddb();
        if st.draws == 0 {
            st.rng = seed ^ RVN_SALT;
        }
        st.draws += 1;
        st.rng = crate::rng::splitmix64(st.rng);
        (st.rng >> 32).max(1)
    }



    fn get_item_at(&mut self, ctx: &Ctx, c: u8) {
        let v = pack(self.ddb().item);
        self.send_hop(ctx, Tag::AcquireReply, c, Msg::Value(v));
    }

    /// The item as the waiter read it: none (put), the RVN it has been waiting out for longer than
    /// the lease (take it over), or a wait that goes on (or starts again on a new RVN).
    fn on_get_item(&mut self, ctx: &Ctx, c: u8, item: Option<(u8, u64)>) {
        let Some((owner, rvn)) = item else {
            self.send_put(ctx, c, None);
            return;
        };
        let now_local = self.local_now(ctx, c);
        let lease = ctx.ttl_local();
        let cl = *self.ddb_client(c);
        match cl.seen {
            Some(s) if s.rvn == rvn => {
                if self.decide(now_local - s.lookup_local > lease) {
                    self.send_put(ctx, c, Some(rvn));
                    return;
                }
                self.record(
                    c,
                    What::Denied {
                        holder: Some(owner),
                        session_gone: false,
                    },
                );
            }
            _ => {
                let first = cl.seen.is_none();
                let cl = self.ddb_client(c);
                cl.seen = Some(Seen {
                    rvn,
                    lookup_local: now_local,
                });
                if first {
                    cl.budget_us = cl.budget_us.saturating_add(ctx.ttl); // once, as the client does
                }
                self.record(
                    c,
                    What::Queued {
                        rev: rvn,
                        behind: Some(owner),
                    },
                );
            }
        }
        self.poll_again(ctx, c, now_local);
    }

    /// Sleeps a refresh period and reads again, unless the call has polled for its whole budget.
    fn poll_again(&mut self, ctx: &Ctx, c: u8, now_local: i64) {
        let cl = *self.ddb_client(c);
        let budget = i64::try_from(cl.budget_us).unwrap_or(i64::MAX);
        if self.decide(now_local - cl.call_start_local > budget) {
            self.ddb_client(c).calling = false;
            self.abort(ctx, c); // LockNotGrantedException: the caller starts over or gives up
            return;
        }
        let pc = self.clients[usize::from(c)].pc;
        let Op::Acquire { every, .. } = ctx.sc.clients[usize::from(c)].ops[pc] else {
            // Unreachable: a poll is answered only while the client is at its acquire step.
            unreachable!()
        };
        let refresh = every.resolve(ctx.params);
        self.schedule(self.now.plus(refresh), Ev::bare(Tag::Step, c));
    }

    /// A put of a new item with a fresh RVN, conditional on `put_if` (`None`: no item there).
    fn send_put(&mut self, ctx: &Ctx, c: u8, put_if: Option<u64>) {
        let rvn = self.draw_rvn();
        let now_local = self.local_now(ctx, c);
        let cl = self.ddb_client(c);
        cl.put_if = put_if;
        cl.put_rvn = rvn;
        cl.put_sent_local = now_local; // the writer counts from before the put, to err early
        self.schedule_hop(ctx, Ev::bare(Tag::LockAt, c));
    }

    fn put_item_at(&mut self, ctx: &Ctx, c: u8) {
        let cl = *self.ddb_client(c);
        let item = self.ddb().item;
        let ok = match (item, cl.put_if) {
            (None, None) => true,
            (Some(it), Some(rvn)) => it.rvn == rvn,
            _ => false,
        };
        if ok {
            if let Some(old) = item {
                self.take_over(ctx, old);
            }
            self.take_item(ctx, c, cl.put_rvn);
        } else {
            let holder = item.map(|it| it.owner);
            self.record(
                c,
                What::Denied {
                    holder,
                    session_gone: false,
                },
            );
        }
        self.send_hop(ctx, Tag::LockReply, c, Msg::Accepted(ok));
    }

    /// The old owner's lock ends here, by the waiter's judgement; nobody tells the old owner.
    fn take_over(&mut self, ctx: &Ctx, old: Item) {
        let now = self.now;
        self.ddb().records[old.record].ends_at = now;
        let token = if ctx.sc.service.tokens { old.rvn } else { 0 };
        self.record(old.owner, What::LeaseExpired { token });
    }

    fn take_item(&mut self, ctx: &Ctx, c: u8, rvn: u64) {
        let now = self.now;
        let token = if ctx.sc.service.tokens { rvn } else { 0 };
        let st = self.ddb();
        st.records.push(LeaseRecord {
            client: c,
            node: 0,
            token,
            lock_value: rvn,
            granted_at: now,
            ends_at: SimTime(u64::MAX),
            released: false,
            session_ended: false,
            lost: false,
        });
        let record = st.records.len() - 1;
        st.item = Some(Item {
            owner: c,
            rvn,
            record,
        });
        let lease_end = Some(now.plus(ctx.ttl)); // when a waiter that saw this RVN may take it
        self.record(c, What::Granted { token, lease_end });
    }

    /// The put's answer: the lock is the client's, or (someone else was quicker) it polls on.
    fn on_put_item(&mut self, ctx: &Ctx, c: u8, ok: bool) {
        if !ok {
            let now_local = self.local_now(ctx, c);
            self.poll_again(ctx, c, now_local);
            return;
        }
        let cl = self.ddb_client(c);
        cl.calling = false;
        cl.held = Some(Held {
            rvn: cl.put_rvn,
            sent_local: cl.put_sent_local,
        });
        cl.release_rvn = cl.put_rvn;
        let (rvn, sent) = (cl.put_rvn, cl.put_sent_local);
        let cred = Credentials {
            token: ctx.sc.service.tokens.then_some(rvn),
            lock_value: rvn,
            via_session: false,
        };
        self.hold_lease(c, cred, sent.saturating_add(ctx.ttl_local()));
        self.start_heartbeats(ctx, c);
        self.advance(ctx, c);
    }

    fn heartbeat_period(ctx: &Ctx) -> u64 {
        ctx.sc.service.keepalive.resolve(ctx.params)
    }

    fn start_heartbeats(&mut self, ctx: &Ctx, c: u8) {
        let every = Self::heartbeat_period(ctx);
        // heartbeat=0: no heartbeat thread (createHeartbeatBackgroundThread=false).
        if self.decide(every > 0) && !self.ddb_client(c).ticking {
            self.ddb_client(c).ticking = true;
            self.schedule(self.now.plus(every), Ev::bare(Tag::Heartbeat, c));
        }
    }

    /// The heartbeat thread wakes: it checks its lock by its own clock, then writes a new RVN.
    fn heartbeat_timer(&mut self, ctx: &Ctx, c: u8) {
        let done = self.clients[usize::from(c)].phase == Phase::Done;
        let cl = *self.ddb_client(c);
        let Some(held) = cl.held.filter(|_| !done) else {
            self.ddb_client(c).ticking = false;
            return;
        };
        let every = Self::heartbeat_period(ctx);
        self.schedule(self.now.plus(every), Ev::bare(Tag::Heartbeat, c));
        if cl.beat.is_some() {
            return; // the one in flight has not come back
        }
        let now_local = self.local_now(ctx, c);
        if self.decide(now_local - held.sent_local > ctx.ttl_local()) {
            self.let_go(c, now_local); // "Cannot send heartbeat because lock is not granted"
            return;
        }
        let rvn = self.draw_rvn();
        self.ddb_client(c).beat = Some(Held {
            rvn,
            sent_local: now_local,
        });
        self.schedule_hop(ctx, Ev::bare(Tag::HeartbeatAt, c));
    }

    /// The client stops believing it holds the lock.
    fn let_go(&mut self, c: u8, now_local: i64) {
        self.ddb_client(c).held = None;
        self.end_belief(c, self.now);
        if let Some(lease) = self.clients[usize::from(c)].lease.as_mut() {
            lease.believed_end_local = now_local; // no time left, by its own reckoning
        }
    }

    /// The heartbeat's conditional update: the item must still be the client's, with its RVN.
    fn heartbeat_at(&mut self, ctx: &Ctx, c: u8) {
        let cl = *self.ddb_client(c);
        let now = self.now;
        let st = self.ddb();
        let mut ok = false;
        if let (Some(held), Some(beat), Some(it)) = (cl.held, cl.beat, st.item.as_mut()) {
            ok = it.owner == c && it.rvn == held.rvn;
            if ok {
                it.rvn = beat.rvn;
            }
        }
        let lease_end = ok.then(|| now.plus(ctx.ttl));
        self.record(c, What::KeepAlive { lease_end });
        self.send_hop(ctx, Tag::HeartbeatReply, c, Msg::Accepted(ok));
    }

    /// The heartbeat's answer: the new RVN is the client's (and its token), or the lock is gone.
    fn on_heartbeat(&mut self, ctx: &Ctx, c: u8, ok: bool) {
        let cl = self.ddb_client(c);
        let Some(beat) = cl.beat.take() else {
            return; // (a reply answers the heartbeat in flight: there is one)
        };
        let release = std::mem::take(&mut cl.release_after_beat);
        if ok && cl.held.is_some() {
            cl.held = Some(beat);
            cl.release_rvn = beat.rvn;
            if let Some(lease) = self.clients[usize::from(c)].lease.as_mut() {
                lease.believed_end_local = beat.sent_local.saturating_add(ctx.ttl_local());
                if ctx.sc.service.tokens {
                    lease.cred.token = Some(beat.rvn);
                }
            }
        } else if !ok {
            self.let_go(c, beat.sent_local);
        }
        if release {
            self.send_delete(ctx, c);
        }
    }


    fn send_delete(&mut self, ctx: &Ctx, c: u8) {
        let cl = self.ddb_client(c);
        cl.held = None;
        if cl.release_rvn == 0 {
            return; // nothing it ever wrote is left to delete
        }
        self.schedule_hop(ctx, Ev::bare(Tag::UnlockAt, c));
    }

    fn delete_item_at(&mut self, c: u8) {
        let now = self.now;
        let rvn = std::mem::take(&mut self.ddb_client(c).release_rvn);
        let st = self.ddb();
        let ended = st.item.filter(|it| it.owner == c && it.rvn == rvn);
        if let Some(it) = ended {
            st.item = None;
            let rec = &mut st.records[it.record];
            rec.ends_at = now;
            rec.released = true;
        }
        let ended_lease = ended.is_some();
        self.record(c, What::Released { ended_lease });
    }
}

/// The DynamoDB lock client's events in the transcript, as its API and exceptions name them.
fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
    let lease = Millis(sc.service.ttl.resolve(&sc.defaults()));
    let line = match e.what {
        What::Queued { rev, behind } => {
            let h = behind.map_or('?', |h| sc.client_name(h));
            format!(
                "{who}: GetItem → {h} holds the lock ({}); {who} waits {lease} ms by its own clock for it to stay unchanged",
                rvn(sc, rev)
            )
        }
        What::Denied { .. } => return Some(Said::Nothing), // the polls, every refresh period
        What::Granted { token, .. } => {
            let t = if sc.service.tokens { format!(", {}", rvn(sc, token)) } else { String::new() };
            format!("{who}: PutItem → holds the lock{t}")
        }
        What::LeaseExpired { token } => format!(
            "dynamodb: {who}'s item ({}) unchanged for {lease} ms on the waiter's clock: the waiter takes it over; nobody tells {who}",
            rvn(sc, token)
        ),
        What::KeepAlive { lease_end: None } => format!(
            "{who}: heartbeat → ConditionalCheckFailed: the item is not its any more; {who} stops heartbeating"
        ),
        What::KeepAlive { .. } => return Some(Said::Nothing), // the steady heartbeats
        What::Released { ended_lease: true } => format!("{who}: DeleteItem → released"),
        What::Released { ended_lease: false } => format!(
            "{who}: DeleteItem → ConditionalCheckFailed: the lock was taken over"
        ),
        _ => return None,
    };
    Some(Said::Line(line))
}

/// `RVN 1234` where the scenario fences with the RVN; `a new RVN` where it does not.
fn rvn(sc: &Scenario, token: u64) -> String {
    if sc.service.tokens {
        format!("RVN {token}")
    } else {
        "its RVN".into()
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::{Kind, What};
    use crate::{catalogue, simulate, Config, Policy};

    #[test]
    fn the_waiter_takes_over_after_seeing_the_same_rvn_for_the_lease() {
        // B first reads A's item at 7 s; it polls every second and needs more than 20 s unchanged.
        let sc = catalogue::find("dynamodb-heartbeat-pause").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        let b = o.run.leases.iter().find(|l| l.client == 1).unwrap();
        assert_eq!(b.granted_at.0, 28_000_000);
        let a = o.run.leases.iter().find(|l| l.client == 0).unwrap();
        assert_eq!(
            a.ends_at.0, 28_000_000,
            "A's item is taken over, not expired by a server"
        );
    }

    #[test]
    fn a_frozen_holder_sends_no_heartbeats_and_every_write_draws_a_new_rvn() {
        let sc = catalogue::find("dynamodb-heartbeat-pause").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        let a_beats: Vec<u64> = o
            .run
            .trace
            .iter()
            .filter(|e| e.client == 0 && e.kind() == Kind::KeepAlive)
            .map(|e| e.t.0)
            .collect();
        assert_eq!(a_beats, [5_000_000], "frozen 6–36 s; at 36 s it lets go");
        // Three RVNs: A's put, A's heartbeat, B's put; each is the token of the moment.
        let tokens: Vec<u64> = o
            .run
            .trace
            .iter()
            .filter_map(|e| match e.what {
                What::Granted { token, .. } => Some(token),
                _ => None,
            })
            .collect();
        assert_eq!(tokens.len(), 2);
        assert_ne!(tokens[0], tokens[1]);
        assert!(tokens.iter().all(|&t| t > 0 && t <= u64::from(u32::MAX)));
    }
}
