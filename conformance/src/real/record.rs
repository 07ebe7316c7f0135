//! The run's record: what every client (reported by its agent process) and the fault thread did,
//! with real times on the run's one clock.

use std::sync::Mutex;
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
    /// Who got the lock (for a service that grants by majority: who came to hold one), in order.
    pub grants: Vec<u8>,
    /// Each client's belief that it held the lock: (client, from, to).
    pub beliefs: Vec<(u8, Instant, Instant)>,
    /// Moments the clients' lock clients reported (a connection state: Curator's SUSPENDED, LOST):
    /// (client, what, µs since t = 0), in the order they came.
    pub moments: Vec<(u8, String, u64)>,
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

/// What the conductor gathers during a run: the agents' reports, the fault thread's notes.
pub struct Shared {
    pub(super) t0: Instant,
    pub(super) deadline: Instant,
    pub(super) state: Mutex<State>,
}

#[derive(Default)]
pub(super) struct State {
    pub(super) run: RealRun,
    /// Backend pids of the clients' sessions, for `terminate`.
    pub(super) pids: Vec<Option<i32>>,
    /// Grants as `(µs, client)`: put in the order they were made when the run is over.
    pub(super) grants: Vec<(u64, u8)>,
    /// Transcript lines with their times (the agents' arrive a little out of order).
    pub(super) notes: Vec<(u64, String)>,
}

impl Shared {
    /// The record of a run whose clock starts at `t0`.
    pub(super) fn new(t0: Instant, pids: Vec<Option<i32>>, balance: i64) -> Shared {
        Shared {
            t0,
            deadline: t0 + RUN_WITHIN,
            state: Mutex::new(State {
                pids,
                run: RealRun {
                    initial: balance,
                    ..RealRun::default()
                },
                ..State::default()
            }),
        }
    }

    pub(super) fn note(&self, who: &str, text: String) {
        let t = self.t0.elapsed().as_micros() as u64;
        self.note_at(t, who, &text);
    }

    pub(super) fn note_at(&self, us: u64, who: &str, text: &str) {
        let ms = us as f64 / 1e3;
        let line = format!("{ms:8.1} ms  {who}: {text}");
        self.with(|st| st.notes.push((us, line)));
    }

    pub(super) fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        f(&mut self.state.lock().unwrap())
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
        self.late(
            late,
            &format!("{who} ({what} due at {} ms)", nominal.as_millis()),
        );
    }

    /// Someone was `late` behind the timeline (`who`: who, doing what, due when).
    pub(super) fn late(&self, late: Duration, who: &str) {
        self.with(|st| {
            if late > st.run.lateness {
                st.run.lateness = late;
                st.run.late_who = who.to_string();
            }
        });
    }

    /// The run as it happened: transcript, grants and writes in time order.
    pub(super) fn into_run(self) -> RealRun {
        let mut st = self.state.into_inner().unwrap();
        st.notes.sort_by_key(|n| n.0);
        st.run.transcript = st.notes.into_iter().map(|n| n.1).collect();
        st.grants.sort_by_key(|g| g.0);
        st.run.grants = st.grants.into_iter().map(|g| g.1).collect();
        st.run.writes.sort_by_key(|w| w.t);
        st.run
    }
}
