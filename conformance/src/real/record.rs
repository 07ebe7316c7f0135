//! The run's shared record: what every client and the fault thread did, with real times, and the
//! state they coordinate through (same-instant starts, idle clients, session pids).

use std::sync::{Condvar, Mutex};
use std::thread::sleep;
use std::time::{Duration, Instant};

use leaselab::sim::Run;
use leaselab::trace::WriteRecord;

use super::RUN_WITHIN;

/// What happened, in the order it happened.
#[derive(Default)]
pub struct RealRun {
    pub initial: i64,
    pub final_balance: i64,
    pub writes: Vec<WriteRecord>,
    /// Who got the lock (for Redlock: who came to hold a majority), in order.
    pub grants: Vec<u8>,
    /// Each acquire attempt: (client, granted).
    pub attempts: Vec<(u8, bool)>,
    /// Each client's belief that it held the lock: (client, from, to).
    pub beliefs: Vec<(u8, Instant, Instant)>,
    /// A transcript with real times, for the report when a row disagrees.
    pub transcript: Vec<String>,
    /// How far the real run fell behind the scenario's timeline at worst, and who did: operations take
    /// no time in the model, so a slow statement or a late wake-up (a busy machine) shows here.
    pub lateness: Duration,
    pub late_who: String,
}

impl RealRun {
    /// The run as leaselab's own `Run`, so that the simulator's definitions of lost update and victim
    /// apply to it unchanged.
    pub fn as_sim_run(&self) -> Run {
        Run {
            initial: self.initial,
            final_balance: self.final_balance,
            writes: self.writes.clone(),
            ..Run::default()
        }
    }

    /// Two different clients believed at the same time that they held the lock.
    pub fn overlap(&self) -> bool {
        self.beliefs.iter().enumerate().any(|(i, a)| {
            self.beliefs[i + 1..]
                .iter()
                .any(|b| a.0 != b.0 && a.1.max(b.1) < a.2.min(b.2))
        })
    }
}

/// Shared by the threads of one run.
pub(super) struct Shared {
    pub(super) t0: Instant,
    pub(super) deadline: Instant,
    pub(super) state: Mutex<State>,
    pub(super) changed: Condvar,
}

#[derive(Default)]
pub(super) struct State {
    pub(super) run: RealRun,
    /// Clients that finished their first operation (for same-instant starts, see `start_turn`).
    pub(super) first_done: Vec<bool>,
    /// Clients and fault threads still running their scripts (idle clients count as done).
    pub(super) active: usize,
    /// Set once every script is over: idle clients disconnect.
    pub(super) over: bool,
    /// Backend pids of the clients' sessions, for `terminate`.
    pub(super) pids: Vec<Option<i32>>,
}

impl Shared {
    /// How long until the run's deadline (a blocking lock call waits at most this long).
    pub(super) fn time_left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    pub(super) fn note(&self, who: &str, text: String) {
        let ms = self.t0.elapsed().as_secs_f64() * 1e3;
        self.state
            .lock()
            .unwrap()
            .run
            .transcript
            .push(format!("{ms:8.1} ms  {who}: {text}"));
    }

    pub(super) fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut st = self.state.lock().unwrap();
        let out = f(&mut st);
        self.changed.notify_all();
        out
    }

    pub(super) fn sleep_until(&self, at: Instant) {
        let now = Instant::now();
        if at > now {
            sleep(at - now);
        }
    }

    /// Notes how far `who` is behind its place `nominal` on the scenario's timeline.
    pub(super) fn behind(&self, who: &str, nominal: Duration, what: &str) {
        let late = self.t0.elapsed().saturating_sub(nominal);
        let mut st = self.state.lock().unwrap();
        if late > st.run.lateness {
            st.run.lateness = late;
            st.run.late_who = format!("{who} ({what} due at {} ms)", nominal.as_millis());
        }
    }
}

impl Shared {
    /// The shared state of a run whose clock starts at `t0`, for `n` clients and the fault thread.
    pub(super) fn new(t0: Instant, n: usize, pids: Vec<Option<i32>>, balance: i64) -> Shared {
        Shared {
            t0,
            deadline: t0 + RUN_WITHIN,
            state: Mutex::new(State {
                first_done: vec![false; n],
                active: n + 1,
                pids,
                run: RealRun {
                    initial: balance,
                    ..RealRun::default()
                },
                ..State::default()
            }),
            changed: Condvar::new(),
        }
    }
}
