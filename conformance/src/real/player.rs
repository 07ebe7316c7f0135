//! The client script player: one client, in its agent process (see agent.rs), playing its script
//! against the real lock service and storage, and reporting what it did to the conductor.

use std::time::{Duration, Instant, SystemTime};

use std::any::Any;

use leaselab::client::Op;
use leaselab::scenario::{FaultAction, Scenario};
use leaselab::time::SimTime;
use leaselab::trace::WriteRecord;

use super::agent::Link;
use super::object_storage::ObjectClient;
use super::service::{Conn, RealService};
use super::storage::{read, write, Denied};
use super::{us, Setup};

/// A lock grant as the client holds it.
#[derive(Clone, Copy)]
pub struct Held {
    pub(super) token: Option<i64>,
    /// The unique value of the grant (redis's random value; the `owner` stamp).
    pub(super) value: i64,
    /// When the client believes the lease ends, by its own wall clock (none for a lock with no end):
    /// the wall time it sent the request that granted (or last renewed) the lease, plus the TTL. A
    /// step of that clock moves what the client believes, as in the model.
    pub(super) believed_end: Option<SystemTime>,
}

/// The true instant at which the wall clock, stepped no further and running `rate_ppm` fast (slow
/// if negative, the process's clock: see wallclock.rs), will read `wall`.
pub(super) fn instant_of_wall(wall: SystemTime, rate_ppm: i64) -> Instant {
    let (now, now_wall) = (Instant::now(), SystemTime::now());
    // A wall-clock span is (1 + rate) true ones.
    let true_span = |d: Duration| d.mul_f64(1e6 / (1e6 + rate_ppm as f64));
    match wall.duration_since(now_wall) {
        Ok(ahead) => now + true_span(ahead),
        Err(e) => now.checked_sub(true_span(e.duration())).unwrap_or(now),
    }
}

/// A simple generator of unique lock values (the seeded generator of the simulator plays this part).
pub(super) fn random_value(client: u8) -> i64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut z = nanos
        ^ (u64::from(client) << 56)
        ^ COUNTER
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 1) as i64
}

/// One client playing its script.
pub struct Client<'a> {
    pub(super) sc: &'a Scenario,
    pub(super) setup: &'a Setup,
    /// The real service it plays against.
    pub(super) svc: &'static dyn RealService,
    pub(super) idx: u8,
    pub(super) name: char,
    pub(super) link: &'a Link,
    pub(super) data: Option<postgres::Client>,
    /// The storage, when it is an object store's object instead of PostgreSQL's row
    /// (object_storage.rs).
    pub(super) objects: Option<ObjectClient>,
    /// The lock's own connection to PostgreSQL, when the lock lives there (`via session`).
    pub(super) session: Option<postgres::Client>,
    /// The service's client state (its connection, session, lease…): see [`Client::state`].
    pub(super) state: Box<dyn Any>,
    pub(super) held: Option<Held>,
    pub(super) snapshot: Option<(i64, i64)>,
    pub(super) belief_from: Option<Instant>,
    pub(super) idle: bool,
    pub(super) done: bool,
    /// Where the client is on the scenario's timeline: its start plus every wait its script asked for
    /// (operations take no time in the model). Waits end at `t0 + nominal`, so a slow operation is
    /// made up for by a shorter wait after it, and what cannot be made up shows as lateness.
    pub(super) nominal: Duration,
    /// The scenario's timed freezes of this client (`at T: pause A D`): `[from, to)` on its timeline.
    pub(super) freezes: Vec<(Duration, Duration)>,
    /// Whether it has told the conductor `first` (its first step is done, or its requests are out).
    pub(super) first_said: bool,
}

/// How a script ended early.
pub enum Stop {
    /// Refused or failed access, or denied too often: the client gives up (no retries here).
    GaveUp,
    /// Something in the harness failed: the run is void.
    Error(String),
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Error(e)
    }
}

impl From<&str> for Stop {
    fn from(e: &str) -> Stop {
        Stop::Error(e.to_string())
    }
}

impl<'a> Client<'a> {
    /// How fast its own wall clock runs (ppm; the shim runs it so from t = 0, see wallclock.rs).
    fn clock_rate(&self) -> i64 {
        self.sc.clients[usize::from(self.idx)].clock.rate_ppm
    }

    pub(super) fn new(
        (sc, setup, svc): (&'a Scenario, &'a Setup, &'static dyn RealService),
        idx: u8,
        link: &'a Link,
        (data, objects): (postgres::Client, Option<ObjectClient>),
        conn: Conn,
    ) -> Client<'a> {
        let freezes = sc
            .faults
            .iter()
            .filter_map(|f| match f.action {
                FaultAction::Freeze(c, d) if c == idx => {
                    let at = us(f.at, &setup.params);
                    Some((at, at + us(d, &setup.params)))
                }
                _ => None,
            })
            .collect();
        Client {
            sc,
            setup,
            svc,
            idx,
            name: sc.client_name(idx),
            link,
            data: Some(data),
            objects,
            session: conn.session,
            state: conn.state,
            held: None,
            snapshot: None,
            belief_from: None,
            idle: false,
            done: false,
            nominal: Duration::ZERO,
            freezes,
            first_said: false,
        }
    }

    pub(super) fn note(&self, text: String) {
        self.link.note(&self.name.to_string(), &text);
    }

    pub(super) fn p(&self) -> &[u64] {
        &self.setup.params
    }

    /// Clients that start at the same instant run their first steps in declaration order, as the
    /// simulator's `(time, sequence)` order does: wait until the earlier ones have done theirs.
    /// The conductor says `turn` when they have.
    pub(super) fn start_turn(&self) -> Result<(), String> {
        let spec = &self.sc.clients[usize::from(self.idx)];
        let start = spec.start.resolve(self.p());
        let first =
            (0..usize::from(self.idx)).all(|j| self.sc.clients[j].start.resolve(self.p()) != start);
        if first {
            return Ok(());
        }
        self.link.wait_for("turn", self.link.deadline)
    }

    /// Waits until `d` later on the scenario's timeline.
    pub(super) fn wait(&mut self, d: Duration) {
        self.nominal += d;
        self.thaw_point();
        self.link.sleep_until(self.link.t0 + self.nominal);
    }

    /// A moment of the client's timeline inside one of its timed freezes is, as in the model, the
    /// moment it wakes: what it would have done then waits (the conductor has it stopped).
    pub(super) fn thaw_point(&mut self) {
        for &(from, to) in &self.freezes {
            if from <= self.nominal && self.nominal < to {
                self.nominal = to;
            }
        }
    }

    /// Tells the conductor, once, that a client starting at the same instant may take its turn.
    pub(super) fn say_first(&mut self) {
        if !self.first_said {
            self.first_said = true;
            self.link.send("first");
        }
    }

    pub(super) fn behind(&self, what: &str) {
        self.link.behind(&self.name.to_string(), self.nominal, what);
    }

    pub(super) fn play(&mut self) -> Result<(), String> {
        let spec = &self.sc.clients[usize::from(self.idx)];
        self.wait(us(spec.start, self.p()));
        self.start_turn()?;
        for (k, op) in spec.ops.iter().enumerate() {
            self.thaw_point();
            self.behind(op_name(op));
            let r = self.step(*op);
            self.behind(op_name(op));
            if k == 0 {
                self.say_first();
            }
            match r {
                Ok(()) => {}
                Err(Stop::GaveUp) => {
                    self.end_belief(Instant::now());
                    self.note("gives up".into());
                    self.done = true;
                    return Ok(());
                }
                Err(Stop::Error(e)) => return Err(e),
            }
            if self.idle {
                return Ok(());
            }
        }
        Ok(())
    }

    pub(super) fn step(&mut self, op: Op) -> Result<(), Stop> {
        match op {
            Op::Acquire { every, tries } => self.acquire(us(every, self.p()), tries),
            Op::Read { via_session } => self.read_step(via_session),
            Op::Work(d) => {
                self.wait(us(d, self.p()));
                Ok(())
            }
            Op::Pause(d) => self.pause_step(us(d, self.p())),
            Op::Write {
                debit,
                via_session,
                delay,
            } => {
                self.network_holds(us(delay, self.p()))?;
                self.write_step(debit, via_session)
            }
            Op::Release => {
                if let Some(h) = self.held.take() {
                    self.end_belief(Instant::now());
                    self.release(h)?;
                }
                Ok(())
            }
            Op::Idle => {
                self.note("stays connected, idle".into());
                self.idle = true;
                Ok(())
            }
            Op::Check(need) => self.check_step(us(need, self.p())),
            Op::Renew => self.svc.renew(self),
            // A client library's ops: the suite's players speak the services' protocols themselves,
            // and run no library (issue 44's rows are the lead's, not yet here).
            Op::Owned | Op::Listener => Err(Stop::Error(format!(
                "{} asks a client library, which the suite does not run",
                op_name(&op)
            ))),
        }
    }

    /// `read`: the balance and version under the policy (a refusal or a failure ends the script).
    pub(super) fn read_step(&mut self, via_session: bool) -> Result<(), Stop> {
        let policy = self.setup.policy;
        let held = self.held;
        let got = match self.objects.as_mut() {
            Some(o) => o.read(),
            None => read(self.conn(via_session)?, policy, held),
        };
        match got {
            Ok((balance, version)) => {
                self.snapshot = Some((balance, version));
                self.note(format!(
                    "read {balance}{}",
                    if via_session {
                        " (via its session)"
                    } else {
                        ""
                    }
                ));
                Ok(())
            }
            Err(Denied::Refused) => {
                self.note("read REFUSED by the storage".into());
                Err(Stop::GaveUp)
            }
            Err(Denied::Failed(e)) => {
                self.note(format!("read FAILED: {e}"));
                Err(Stop::GaveUp)
            }
        }
    }

    /// `pause`: the client's process is stopped for `d` by the conductor (SIGSTOP … SIGCONT): its
    /// threads and the processes of its group (a service's session process) stop with it.
    pub(super) fn pause_step(&mut self, d: Duration) -> Result<(), Stop> {
        self.svc.before_pause(self, d)?;
        self.note(format!("pause {} ms: asks to be stopped", d.as_millis()));
        self.nominal += d;
        self.link
            .send(&format!("pause {}", self.nominal.as_micros()));
        self.link.wait_for("resume", self.link.deadline)?;
        self.note("wakes (SIGCONT)".into());
        Ok(())
    }

    /// `check D`: the service's own client's check if it has one, else by its own wall clock, at least
    /// `need` of the lease left; if not, the attempt is given up.
    pub(super) fn check_step(&mut self, need: Duration) -> Result<(), Stop> {
        let svc = self.svc;
        if let Some(own) = svc.check(self, need) {
            return own;
        }
        let now = SystemTime::now();
        let left_ms = |end: SystemTime| match end.duration_since(now) {
            Ok(d) => d.as_millis() as i64,
            Err(e) => -(e.duration().as_millis() as i64),
        };
        let (ok, text) = match self.held.map(|h| h.believed_end) {
            None => (false, "no lease".to_string()),
            Some(None) => (true, "a session lock (no end)".to_string()),
            Some(Some(end)) => (end >= now + need, format!("{} ms left", left_ms(end))),
        };
        self.note(format!(
            "check by its wall clock: {text}, needs {} ms → {}",
            need.as_millis(),
            if ok {
                "goes on"
            } else {
                "does not use the lock"
            }
        ));
        if ok {
            Ok(())
        } else {
            Err(Stop::GaveUp)
        }
    }

    /// `write`: the snapshot minus `debit`, under the policy; the storage's answer is recorded.
    pub(super) fn write_step(&mut self, debit: i64, via_session: bool) -> Result<(), Stop> {
        let (snapshot, version) = self.snapshot.ok_or("write before any read")?;
        let value = snapshot - debit;
        let held = self.held;
        let policy = self.setup.policy;
        let result = match self.objects.as_mut() {
            Some(o) => o.write(value),
            None => write(
                self.conn(via_session)?,
                policy,
                held,
                (snapshot, version),
                value,
            ),
        };
        let accepted = result.is_ok();
        let token = held.and_then(|h| h.token);
        let tok = token.map_or(String::new(), |t| format!(" tok={t}"));
        match &result {
            Ok(()) => self.note(format!("write {value}{tok} → ACCEPTED")),
            Err(Denied::Refused) => {
                self.note(format!("write {value}{tok} → REJECTED by the storage"))
            }
            Err(Denied::Failed(e)) => self.note(format!("write {value}{tok} → FAILED: {e}")),
        }
        let t = SimTime(self.link.t0.elapsed().as_micros() as u64);
        let rec = WriteRecord {
            client: self.idx,
            token: token.unwrap_or(0) as u64,
            snapshot,
            value,
            debit,
            t,
            accepted,
            reason: None,
            stale: false,
        };
        self.link.send(&format!(
            "write {} {} {} {} {} {}",
            rec.token,
            rec.snapshot,
            rec.value,
            rec.debit,
            rec.t.0,
            u8::from(rec.accepted)
        ));
        if accepted {
            Ok(())
        } else {
            Err(Stop::GaveUp)
        }
    }

    pub(super) fn conn(&mut self, via_session: bool) -> Result<&mut postgres::Client, Stop> {
        let c = if via_session {
            self.session.as_mut()
        } else {
            self.data.as_mut()
        };
        c.ok_or_else(|| Stop::Error("no such connection".into()))
    }

    pub(super) fn end_belief(&mut self, to: Instant) {
        if let Some(from) = self.belief_from.take() {
            self.link.send(&format!(
                "belief {} {}",
                self.link.us(from),
                self.link.us(to)
            ));
        }
    }

    pub(super) fn acquire(&mut self, every: Duration, tries: u32) -> Result<(), Stop> {
        let mut n = 0;
        loop {
            n += 1;
            let sent = Instant::now();
            let got = self.try_acquire()?;
            if let Some(h) = got {
                let blocks = self.svc.blocks();
                if blocks {
                    // A lock call that blocks until the lock is free: the wait is the lock
                    // service's, not the client's lateness (the model's grant comes then too). The
                    // script goes on from the real grant.
                    self.nominal = self.nominal.max(self.link.t0.elapsed());
                }
                // Granted when the request reached the server: at the send, but for a lock that blocks
                // when it returned; not when a frozen client read the reply.
                let at = if blocks { Instant::now() } else { sent };
                if !self.svc.reports_grants() {
                    self.link.send(&format!("grant {}", self.link.us(at)));
                }
                self.held = Some(h);
                self.belief_from = Some(Instant::now());
                return Ok(());
            }
            if tries != 0 && n >= tries {
                return Err(Stop::GaveUp);
            }
            if Instant::now() + every >= self.link.deadline {
                return Err(Stop::Error(format!(
                    "still denied after {n} tries when the run's time ran out"
                )));
            }
            self.behind("acquire");
            let backoff = every + self.svc.backoff_share(self);
            self.wait(backoff);
        }
    }

    /// One try at the lock with the scenario's service: `Some` when granted.
    pub(super) fn try_acquire(&mut self) -> Result<Option<Held>, Stop> {
        let value = random_value(self.idx);
        self.svc.try_acquire(self, value)
    }

    pub(super) fn release(&mut self, h: Held) -> Result<(), Stop> {
        self.svc.release(self, h)
    }

    /// The end of the script: idle clients wait for the run to be over; then every connection closes
    /// (which ends a session and frees a lock it still holds, as in the simulator).
    pub(super) fn finish(&mut self) {
        self.link.send("finished");
        if self.idle {
            let until = self.link.deadline + Duration::from_secs(5);
            if let Err(e) = self.link.wait_for("over", until) {
                self.note(format!("stops waiting: {e}"));
            }
        }
        let now = Instant::now();
        if let Some(from) = self.belief_from.take() {
            // Finished while holding: it believes the lease is its own until it runs out by its clock
            // (a session lock has no end of its own: the belief lasts as long as the script).
            let to = self
                .held
                .and_then(|h| h.believed_end)
                .map_or(now, |end| instant_of_wall(end, self.clock_rate()).max(now));
            self.belief_from = Some(from);
            self.end_belief(to);
        }
        if !self.done {
            self.note("done".into());
        }
        self.svc.finish(self);
        self.data.take();
        self.session.take();
        self.state = Box::new(()); // the service's connections close
    }
}

pub(super) fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Acquire { .. } => "acquire",
        Op::Read { .. } => "read",
        Op::Work(_) => "work",
        Op::Pause(_) => "pause",
        Op::Check(_) => "check",
        Op::Write { .. } => "write",
        Op::Release => "release",
        Op::Renew => "renew",
        Op::Idle => "idle",
        Op::Owned => "owned",
        Op::Listener => "listener",
    }
}
