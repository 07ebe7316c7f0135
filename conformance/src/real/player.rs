//! The client script player: one client playing its script against the real lock service and storage.

use std::time::{Duration, Instant};

use leaselab::client::Op;
use leaselab::scenario::{Scenario, ServiceKind};
use leaselab::time::SimTime;
use leaselab::trace::WriteRecord;

use super::etcd_lock::EtcdSession;
use super::record::Shared;
use super::redis_lock::{LOCK, RELEASE_LUA};
use super::storage::{read, write, Denied};
use super::{us, Setup, LOCK_KEY};
use crate::etcd;
use crate::servers::connect_redis;

/// A lock grant as the client holds it.
#[derive(Clone, Copy)]
pub(super) struct Held {
    pub(super) token: Option<i64>,
    /// The unique value of the grant (redis's random value; the `owner` stamp).
    pub(super) value: i64,
    /// When the client believes the lease ends (none for a session lock).
    pub(super) believed_end: Option<Instant>,
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
pub(super) struct Client<'a> {
    pub(super) sc: &'a Scenario,
    pub(super) setup: &'a Setup,
    pub(super) idx: u8,
    pub(super) name: char,
    pub(super) shared: &'a Shared,
    pub(super) data: Option<postgres::Client>,
    pub(super) session: Option<postgres::Client>,
    pub(super) redis_port: Option<u16>,
    pub(super) node_ports: Vec<u16>,
    pub(super) held: Option<Held>,
    pub(super) snapshot: Option<(i64, i64)>,
    pub(super) belief_from: Option<Instant>,
    pub(super) idle: bool,
    pub(super) done: bool,
    /// Where the client is on the scenario's timeline: its start plus every wait its script asked for
    /// (operations take no time in the model). Waits end at `t0 + nominal`, so a slow operation is
    /// made up for by a shorter wait after it, and what cannot be made up shows as lateness.
    pub(super) nominal: Duration,
    /// etcd scenarios: the client's lease, its key, and its keepalive thread.
    pub(super) etcd: Option<EtcdSession>,
    /// ZooKeeper scenarios: the process that holds the client's session.
    pub(super) zk: Option<crate::zk::Agent>,
    /// ZooKeeper: whether that session is open yet.
    pub(super) zk_connected: bool,
}

/// How a script ended early.
pub(super) enum Stop {
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
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        sc: &'a Scenario,
        setup: &'a Setup,
        idx: u8,
        shared: &'a Shared,
        data: postgres::Client,
        session: Option<postgres::Client>,
        redis_port: Option<u16>,
        node_ports: Vec<u16>,
    ) -> Client<'a> {
        Client {
            sc,
            setup,
            idx,
            name: sc.client_name(idx),
            shared,
            data: Some(data),
            session,
            redis_port,
            node_ports,
            held: None,
            snapshot: None,
            belief_from: None,
            idle: false,
            done: false,
            nominal: Duration::ZERO,
            etcd: None,
            zk: None,
            zk_connected: false,
        }
    }

    pub(super) fn note(&self, text: String) {
        self.shared.note(&self.name.to_string(), text);
    }

    pub(super) fn p(&self) -> &[u64] {
        &self.setup.params
    }

    /// Clients that start at the same instant run their first steps in declaration order, as the
    /// simulator's `(time, sequence)` order does: wait until the earlier ones have done theirs.
    pub(super) fn start_turn(&self) {
        let spec = &self.sc.clients[usize::from(self.idx)];
        let start = spec.start.resolve(self.p());
        let earlier: Vec<usize> = (0..usize::from(self.idx))
            .filter(|&j| self.sc.clients[j].start.resolve(self.p()) == start)
            .collect();
        let mut st = self.shared.state.lock().unwrap();
        while earlier.iter().any(|&j| !st.first_done[j]) && Instant::now() < self.shared.deadline {
            st = self
                .shared
                .changed
                .wait_timeout(st, Duration::from_millis(20))
                .unwrap()
                .0;
        }
    }

    /// Waits until `d` later on the scenario's timeline.
    pub(super) fn wait(&mut self, d: Duration) {
        self.nominal += d;
        self.shared.sleep_until(self.shared.t0 + self.nominal);
    }

    pub(super) fn behind(&self, what: &str) {
        self.shared
            .behind(&self.name.to_string(), self.nominal, what);
    }

    pub(super) fn play(&mut self) -> Result<(), String> {
        let spec = &self.sc.clients[usize::from(self.idx)];
        self.wait(us(spec.start, self.p()));
        self.start_turn();
        for (k, op) in spec.ops.iter().enumerate() {
            self.behind(op_name(op));
            let r = self.step(*op);
            self.behind(op_name(op));
            if k == 0 {
                let i = usize::from(self.idx);
                self.shared.with(|st| st.first_done[i] = true);
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
                debit, via_session, ..
            } => self.write_step(debit, via_session),
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
            Op::Check(_) | Op::Renew => Err(Stop::Error("unsupported operation".into())),
        }
    }

    /// `read`: the balance and version under the policy (a refusal or a failure ends the script).
    pub(super) fn read_step(&mut self, via_session: bool) -> Result<(), Stop> {
        let policy = self.setup.policy;
        let held = self.held;
        let conn = self.conn(via_session)?;
        match read(conn, policy, held) {
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

    /// `pause`: the client freezes for `d` (its keepalives with it; a ZooKeeper session's process is
    /// stopped).
    pub(super) fn pause_step(&mut self, d: Duration) -> Result<(), Stop> {
        let idle = us(self.sc.service.idle, self.p());
        if self.sc.service.kind == ServiceKind::Session && !idle.is_zero() && d > idle {
            // Frozen, the client sends nothing: the server's idle-session timeout ends the
            // session (PostgreSQL ≥ 14), the real counterpart of a keepalive timeout.
            let ms = idle.as_millis() as i64;
            if let Some(s) = self.session.as_mut() {
                s.batch_execute(&format!("SET idle_session_timeout = {ms}"))
                    .map_err(|e| format!("SET idle_session_timeout: {e}"))?;
            }
        }
        self.note(format!("pause {} ms", d.as_millis()));
        if let Some(e) = &self.etcd {
            e.freeze_until(self.shared.t0 + self.nominal + d);
        }
        if let Some(z) = &self.zk {
            z.freeze()?;
            self.note(format!("its session's process {} is SIGSTOPped", z.pid()));
        }
        self.wait(d);
        if let Some(z) = &self.zk {
            z.thaw()?;
        }
        self.note("wakes".into());
        Ok(())
    }

    /// `write`: the snapshot minus `debit`, under the policy; the storage's answer is recorded.
    pub(super) fn write_step(&mut self, debit: i64, via_session: bool) -> Result<(), Stop> {
        let (snapshot, version) = self.snapshot.ok_or("write before any read")?;
        let value = snapshot - debit;
        let held = self.held;
        let policy = self.setup.policy;
        let conn = self.conn(via_session)?;
        let result = write(conn, policy, held, (snapshot, version), value);
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
        let t = SimTime(self.shared.t0.elapsed().as_micros() as u64);
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
        self.shared.with(|st| st.run.writes.push(rec));
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
            let i = self.idx;
            self.shared.with(|st| st.run.beliefs.push((i, from, to)));
        }
    }

    pub(super) fn acquire(&mut self, every: Duration, tries: u32) -> Result<(), Stop> {
        let mut n = 0;
        loop {
            n += 1;
            let got = self.try_acquire()?;
            let i = self.idx;
            self.shared
                .with(|st| st.run.attempts.push((i, got.is_some())));
            if let Some(h) = got {
                if matches!(
                    self.sc.service.kind,
                    ServiceKind::Etcd | ServiceKind::Zookeeper
                ) {
                    // etcd's Lock (and ZooKeeper's recipe) blocks until the key before it is gone: the wait is the lock
                    // service's, not the client's lateness (the model's grant comes then too). The
                    // script goes on from the real grant.
                    self.nominal = self.nominal.max(self.shared.t0.elapsed());
                }
                self.shared.with(|st| st.run.grants.push(i));
                self.held = Some(h);
                self.belief_from = Some(Instant::now());
                return Ok(());
            }
            if tries != 0 && n >= tries {
                return Err(Stop::GaveUp);
            }
            if Instant::now() + every >= self.shared.deadline {
                return Err(Stop::Error(format!(
                    "still denied after {n} tries when the run's time ran out"
                )));
            }
            self.behind("acquire");
            self.wait(every);
        }
    }

    /// One try at the lock with the scenario's service: `Some` when granted.
    pub(super) fn try_acquire(&mut self) -> Result<Option<Held>, Stop> {
        let value = random_value(self.idx);
        match self.sc.service.kind {
            ServiceKind::Session => self.session_try_acquire(value),
            ServiceKind::Lease | ServiceKind::Redis => self.redis_try_acquire(value),
            ServiceKind::Etcd => self.etcd_lock(value),
            ServiceKind::Zookeeper => self.zk_lock(),
            ServiceKind::Redlock => self.redlock_try_acquire(value),
        }
    }

    pub(super) fn release(&mut self, h: Held) -> Result<(), Stop> {
        match self.sc.service.kind {
            ServiceKind::Session => {
                let s = self.session.as_mut().ok_or("no session")?;
                match s.query_one("SELECT pg_advisory_unlock($1)", &[&LOCK_KEY]) {
                    Ok(row) => self.note(format!(
                        "pg_advisory_unlock({LOCK_KEY}) → {}",
                        if row.get::<_, bool>(0) { "t" } else { "f" }
                    )),
                    Err(e) => self.note(format!("pg_advisory_unlock({LOCK_KEY}) FAILED: {e}")),
                }
            }
            ServiceKind::Lease | ServiceKind::Redis => {
                let port = self.redis_port.ok_or("no redis")?;
                let mut con = connect_redis(port, Duration::from_secs(2))?;
                let n: i64 = redis::cmd("EVAL")
                    .arg(RELEASE_LUA)
                    .arg(1)
                    .arg(LOCK)
                    .arg(h.value)
                    .query(&mut con)
                    .map_err(|e| format!("release: {e}"))?;
                self.note(format!("release (value-checked DEL) → {n}"));
            }
            ServiceKind::Etcd => {
                let e = self.etcd.as_mut().ok_or("no etcd")?;
                if let Some(key) = e.key.take() {
                    etcd::unlock(e.port, &key)?;
                    self.note("Unlock → its key is deleted".into());
                }
            }
            ServiceKind::Zookeeper => {
                let z = self.zk.as_mut().ok_or("no zookeeper")?;
                match z.unlock() {
                    Ok(_) => self.note("deletes its node".into()),
                    Err(e) => self.note(format!("delete of its node → {e}")),
                }
            }
            ServiceKind::Redlock => {
                self.redlock_unlock(h.value);
                self.note("unlocks every node it reaches".into());
            }
        }
        Ok(())
    }

    /// The end of the script: idle clients wait for the run to be over; then every connection closes
    /// (which ends a session and frees a lock it still holds, as in the simulator).
    pub(super) fn finish(&mut self) {
        let i = self.idx;
        self.shared.with(|st| st.active -= 1);
        if self.idle {
            let mut st = self.shared.state.lock().unwrap();
            while !st.over && Instant::now() < self.shared.deadline + Duration::from_secs(5) {
                st = self
                    .shared
                    .changed
                    .wait_timeout(st, Duration::from_millis(50))
                    .unwrap()
                    .0;
            }
        }
        let now = Instant::now();
        if let Some(from) = self.belief_from.take() {
            // Finished while holding: it believes the lease is its own until it runs out by its clock
            // (a session lock has no end of its own: the belief lasts as long as the script).
            let to = self
                .held
                .and_then(|h| h.believed_end)
                .map_or(now, |end| end.max(now));
            self.shared.with(|st| st.run.beliefs.push((i, from, to)));
        }
        if !self.done {
            self.note("done".into());
        }
        if let Some(mut e) = self.etcd.take() {
            e.close();
        }
        if let Some(z) = self.zk.take() {
            let events = z.events.join(", ");
            if !events.is_empty() {
                self.note(format!("its ZooKeeper client saw: {events}"));
            }
            drop(z); // closes the session (its node with it) and ends the process
        }
        self.data.take();
        self.session.take();
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
    }
}
