//! The client script interpreter: runs a client's operations from its `pc` until one has to wait, and
//! what happens when an attempt fails (start over, or give up) or the script ends.

use super::Phase;
use super::{Ctx, Engine, Ev, Msg, Tag, WriteMsg};
use crate::client::{Dur, Op};
use crate::store::Credentials;
use crate::time::SimTime;
use crate::trace::{Span, What};

/// After an operation: go on with the next one, or wait for an event.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Next,
    Wait,
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// `Step` (start, after work, after a retry timer) and `Wake` (a script's pause ends).
    // Out of line, as every handler the run loop calls: see `Engine::handle`.
    #[inline(never)]
    pub(super) fn on_script_event(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        if ev.tag == Tag::Wake {
            #[cfg(feature = "libraries")]
            if let Some(Op::Pause(d)) = ctx.sc.clients[usize::from(c)]
                .ops
                .get(self.clients[usize::from(c)].pc)
            {
                let paused = d.resolve(ctx.params);
                self.lib_on_wake(ctx, c, paused);
            }
            let st = &mut self.clients[usize::from(c)];
            st.phase = Phase::Waiting;
            st.woke = true;
            st.pc += 1;
            self.record(c, What::PauseEnd);
        } else if self.clients[usize::from(c)].phase == Phase::NotStarted {
            self.record(c, What::Start);
        }
        self.advance(ctx, c);
    }

    /// Runs the client's operations from its `pc` until one has to wait.
    pub(crate) fn advance(&mut self, ctx: &Ctx, c: u8) {
        let spec = &ctx.sc.clients[usize::from(c)];
        loop {
            let st = &mut self.clients[usize::from(c)];
            st.phase = Phase::Waiting;
            let Some(&op) = spec.ops.get(st.pc) else {
                self.finish_client(ctx, c);
                return;
            };
            let flow = match op {
                Op::Acquire { .. } => self.op_acquire(ctx, c),
                Op::Read { via_session } => self.op_read(ctx, c, via_session),
                Op::Work(d) => self.op_work(ctx, c, d),
                Op::Pause(d) => self.op_pause(ctx, c, d),
                Op::Check(need) => self.op_check(ctx, c, need),
                Op::Write {
                    debit,
                    delay,
                    via_session,
                } => self.op_write(ctx, c, debit, delay, via_session),
                Op::Release => self.op_release(ctx, c),
                Op::Idle => self.op_idle(c),
                Op::Renew => self.op_renew(ctx, c),
                #[cfg(feature = "libraries")]
                Op::Owned | Op::Listener => self.op_library(ctx, c, op),
                // A build without libraries never meets these (check_config refuses a scenario that
                // names a library, and only such a client has them): matched with `idle`, so that
                // the impossible arm costs the page's wasm no code.
                #[cfg(not(feature = "libraries"))]
                Op::Owned | Op::Listener => self.op_idle(c),
            };
            if flow == Flow::Wait {
                return;
            }
        }
    }

    fn op_acquire(&mut self, ctx: &Ctx, c: u8) -> Flow {
        self.acquire_sent(ctx, c);
        self.send_acquire(ctx, c);
        Flow::Wait
    }

    /// The client sends an acquire request now: one more try, sent at this reading of its own clock.
    #[inline(always)]
    pub(crate) fn acquire_sent(&mut self, ctx: &Ctx, c: u8) {
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let local = clock.local_h(self.now, &mut self.path);
        let st = &mut self.clients[usize::from(c)];
        st.tries += 1;
        st.acquire_sent_local = local;
        self.record(c, What::AcquireSent);
    }

    /// Whether client `c` waits at an acquire step, so that its `Step` is another attempt: what
    /// [`Engine::advance`] would run next is [`Engine::op_acquire`].
    #[inline(always)]
    pub(crate) fn at_acquire_step(&self, ctx: &Ctx, c: u8) -> bool {
        let st = &self.clients[usize::from(c)];
        let ops = &ctx.sc.clients[usize::from(c)].ops;
        st.phase == Phase::Waiting && matches!(ops.get(st.pc), Some(Op::Acquire { .. }))
    }

    /// The credentials the client's accesses carry: its lease's, if it holds one.
    fn credentials(&self, c: u8, via_session: bool) -> Credentials {
        let lease = self.clients[usize::from(c)].lease;
        Credentials {
            via_session,
            ..lease.map(|l| l.cred).unwrap_or_default()
        }
    }

    fn op_read(&mut self, ctx: &Ctx, c: u8, via_session: bool) -> Flow {
        let cred = self.credentials(c, via_session);
        self.send(
            self.now.plus(ctx.store_latency),
            Tag::ReadAt,
            c,
            Msg::Cred(cred),
        );
        Flow::Wait
    }

    fn op_work(&mut self, ctx: &Ctx, c: u8, d: Dur) -> Flow {
        let d = d.resolve(ctx.params);
        self.clients[usize::from(c)].pc += 1;
        if self.decide(d > 0) {
            self.schedule(self.now.plus(d), Ev::bare(Tag::Step, c));
            return Flow::Wait;
        }
        Flow::Next
    }

    /// A stop-the-world pause: a fault, so it happens on the first attempt only.
    fn op_pause(&mut self, ctx: &Ctx, c: u8, d: Dur) -> Flow {
        let d = d.resolve(ctx.params);
        let st = &mut self.clients[usize::from(c)];
        if st.attempt > 0 {
            st.pc += 1;
            return Flow::Next;
        }
        st.phase = Phase::Paused;
        // Frozen: its own timers (keepalives) and replies wait until it wakes.
        st.frozen_until = self.now.plus(d);
        self.begin_pause(c, d);
        self.schedule(self.now.plus(d), Ev::bare(Tag::Wake, c));
        self.on_pause(ctx, c, d);
        Flow::Wait
    }

    /// The careful client's check, by its own clock, that enough of the lease is left.
    fn op_check(&mut self, ctx: &Ctx, c: u8, need: Dur) -> Flow {
        let need = need.resolve(ctx.params);
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let lease = self.clients[usize::from(c)].lease;
        let left_us = lease.map(|l| l.believed_end_local - clock.local_h(self.now, &mut self.path));
        let ok = self.decide(left_us.is_some_and(|left| left >= need as i64));
        self.record(
            c,
            What::Check {
                ok,
                left_us,
                need_us: need,
            },
        );
        if !ok {
            self.abort(ctx, c);
            return Flow::Wait;
        }
        self.clients[usize::from(c)].pc += 1;
        Flow::Next
    }

    /// Writes `snapshot − debit`; the network may hold the message (a fault: first attempt only).
    fn op_write(&mut self, ctx: &Ctx, c: u8, debit: i64, delay: Dur, via_session: bool) -> Flow {
        let now = self.now;
        let st = &self.clients[usize::from(c)];
        let (snapshot, version_read) = st.snapshot.unwrap_or((0, 0));
        let hold = if st.attempt == 0 {
            delay.resolve(ctx.params)
        } else {
            0
        };
        let value = snapshot - debit;
        let cred = self.credentials(c, via_session);
        let token = cred.token.unwrap_or(0);
        self.record(
            c,
            What::WriteSent {
                token,
                value,
                held_us: hold,
            },
        );
        if hold > 0 && self.records_spans() {
            self.run.held.push(Span {
                client: c,
                from: now,
                to: now.plus(hold),
                tag: value,
            });
        }
        let msg = WriteMsg {
            cred,
            version_read,
            value,
            debit,
            snapshot,
        };
        let at = now.plus(ctx.store_latency).plus(hold);
        self.send(at, Tag::WriteAt, c, Msg::Write(msg));
        Flow::Wait
    }

    fn op_release(&mut self, ctx: &Ctx, c: u8) -> Flow {
        if let Some(lease) = self.clients[usize::from(c)].lease {
            self.end_belief(c, self.now); // while the lease (and its token) is still known
            self.clients[usize::from(c)].lease = None;
            #[cfg(feature = "libraries")]
            self.lib_on_release(ctx, c);
            self.send_release(ctx, c, lease.cred.lock_value);
        }
        self.clients[usize::from(c)].pc += 1;
        Flow::Next
    }

    /// Connected and silent: no more events of its own; its belief lasts to the end.
    fn op_idle(&mut self, c: u8) -> Flow {
        self.clients[usize::from(c)].phase = Phase::Done;
        self.record(c, What::Done);
        Flow::Wait
    }

    fn op_renew(&mut self, ctx: &Ctx, c: u8) -> Flow {
        if self.clients[usize::from(c)].lease.is_none() {
            self.abort(ctx, c);
            return Flow::Wait;
        }
        self.send_renew(ctx, c);
        Flow::Wait
    }

    /// `owned` and `listener`: the library answers (noted in the trace); a no gives the attempt up, as
    /// a failed check does.
    #[cfg(feature = "libraries")]
    fn op_library(&mut self, ctx: &Ctx, c: u8, op: Op) -> Flow {
        let ok = if op == Op::Owned {
            self.op_owned(ctx, c)
        } else {
            Some(self.op_listener(ctx, c))
        };
        let Some(ok) = ok else {
            return Flow::Wait; // asked of the server: its answer moves the client on
        };
        if !ok {
            self.abort(ctx, c);
            return Flow::Wait;
        }
        self.clients[usize::from(c)].pc += 1;
        Flow::Next
    }

    /// Client `c` freezes now for `d` (a script's pause or a timed fault): the trace notes it with the
    /// token it holds and the value it read, and the timeline draws it.
    pub(crate) fn begin_pause(&mut self, c: u8, d: u64) {
        let now = self.now;
        let st = &self.clients[usize::from(c)];
        let token = st.lease.and_then(|l| l.cred.token).unwrap_or(0);
        let read = st.snapshot.map(|s| s.0);
        self.record(
            c,
            What::PauseStart {
                token,
                read,
                dur_us: d,
            },
        );
        if self.records_spans() {
            self.run.pauses.push(Span {
                client: c,
                from: now,
                to: now.plus(d),
                tag: 0,
            });
        }
    }

    /// The client has learned it lost the lock (or let it go): its belief ends at `to`.
    pub(crate) fn end_belief(&mut self, c: u8, to: SimTime) {
        let spans = self.records_spans();
        let st = &mut self.clients[usize::from(c)];
        if let Some(from) = st.belief_from.take().filter(|_| spans) {
            let token = st.lease.and_then(|l| l.cred.token).unwrap_or(0);
            self.run.beliefs.push(Span {
                client: c,
                from,
                to,
                tag: token as i64,
            });
        }
    }

    /// The attempt failed (refused access, failed check, lost renewal): start over or give up.
    pub(crate) fn abort(&mut self, ctx: &Ctx, c: u8) {
        self.end_belief(c, self.now);
        let st = &mut self.clients[usize::from(c)];
        if st.attempt >= ctx.retries {
            st.phase = Phase::Done;
            st.lease = None;
            self.record(c, What::GaveUp);
            return;
        }
        st.attempt += 1;
        st.tries = 0;
        st.session_dead = false; // starting over means a new connection
        st.snapshot = None;
        st.woke = false;
        st.pc = ctx.sc.clients[usize::from(c)].restart_pc();
        let attempt = st.attempt;
        if let Some(lease) = st.lease.take() {
            // Hand back whatever it may still hold before asking again (value-checked: harmless if gone).
            self.send_release(ctx, c, lease.cred.lock_value);
        }
        self.record(c, What::Retry { attempt });
        self.advance(ctx, c);
    }

    /// Denied at an acquire step: try again after `every`, or give up when out of tries; `extra` is
    /// added to the wait (a service's seeded jitter).
    // Inline: see `Engine::schedule`.
    #[inline(always)]
    pub(crate) fn retry_acquire(&mut self, ctx: &Ctx, c: u8, extra: u64) {
        let st = &mut self.clients[usize::from(c)];
        let Op::Acquire { every, tries } = ctx.sc.clients[usize::from(c)].ops[st.pc] else {
            // Unreachable: an acquire is answered only while the client is at an acquire step.
            unreachable!()
        };
        if tries != 0 && st.tries >= tries {
            st.phase = Phase::Done;
            self.record(c, What::GaveUp);
            return;
        }
        let every = every.resolve(ctx.params);
        let skip = if tries == 0 && self.skipping() && ctx.service.polls_one_server() {
            self.plan_skip(ctx, c, every)
        } else {
            None
        };
        match skip {
            Some(sk) => {
                self.clients[usize::from(c)].tries += sk.polls as u32;
                self.schedule(SimTime(sk.last), Ev::bare(Tag::Step, c));
                self.skip = Some(sk);
            }
            None => self.schedule(self.now.plus(every).plus(extra), Ev::bare(Tag::Step, c)),
        }
    }

    /// The script is over: a belief it did not release lasts until the lease runs out by its clock.
    fn finish_client(&mut self, ctx: &Ctx, c: u8) {
        let now = self.now;
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let st = &mut self.clients[usize::from(c)];
        st.phase = Phase::Done;
        if let (Some(from), Some(lease)) = (st.belief_from.take(), st.lease) {
            // (A session lock has no end of its own: the belief lasts as long as the script.)
            let to = if ctx.ttl == u64::MAX {
                now
            } else {
                clock.true_time_of(lease.believed_end_local).max(now)
            };
            let tag = lease.cred.token.unwrap_or(0) as i64;
            if self.records_spans() {
                self.run.beliefs.push(Span {
                    client: c,
                    from,
                    to,
                    tag,
                });
            }
        }
        self.record(c, What::Done);
        self.on_script_end(ctx, c);
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// The client learns it holds the lock: it keeps the grant's credentials, believes the lease ends at
    /// `believed_end_local` by its own clock, and moves past its acquire step.
    pub(crate) fn hold_lease(&mut self, c: u8, cred: Credentials, believed_end_local: i64) {
        let now = self.now;
        let st = &mut self.clients[usize::from(c)];
        st.lease = Some(super::HeldLease {
            cred,
            since: now,
            believed_end_local,
        });
        st.belief_from = Some(now);
        st.pc += 1;
        #[cfg(feature = "libraries")]
        self.lib_on_hold(c);
    }
}
