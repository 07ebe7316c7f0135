//! What a run leaves behind once its queue is empty: the final balance, beliefs still held, the lock
//! services' grants, and (traced runs) the facts of clocks merged into the trace.

use super::{Ctx, Engine, Run};
use crate::clock::Clock;
use crate::time::SimTime;
use crate::trace::{TraceEvent, What};

impl Run {
    /// Empties the run for a new one, keeping the buffers.
    pub(super) fn reset(&mut self, balance: i64) {
        self.initial = balance;
        self.final_balance = balance;
        self.writes.clear();
        self.trace.clear();
        self.leases.clear();
        self.beliefs.clear();
        self.pauses.clear();
        self.held.clear();
        self.majorities.clear();
        self.end = SimTime::ZERO;
        self.events = 0;
        self.sig = 0;
    }

    /// Inserts an event into the trace before the first event later than or as late as `t`.
    fn insert_before(&mut self, t: SimTime, ev: TraceEvent) {
        let at = self.trace.partition_point(|e| e.t < t);
        self.trace.insert(at, ev);
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    pub(super) fn finish(&mut self, ctx: &Ctx) {
        self.run.final_balance = self.store.balance;
        self.run.end = self.now;
        if !self.records_spans() {
            return;
        }
        for c in 0..self.clients.len() {
            // Idle clients still holding on: their belief lasts to the end of the run.
            if self.clients[c].belief_from.is_some() {
                self.end_belief(c as u8, self.now);
            }
        }
        for lock in &self.locks {
            self.run.leases.extend_from_slice(&lock.leases);
        }
        self.run
            .leases
            .extend_from_slice(self.services.grants(ctx.service));
        if self.tracing() {
            self.merge_expiries();
            self.merge_clock_steps(ctx);
        }
    }

    /// Lease expiries are facts of the lock service's clock, not events that change anything: merge
    /// them into the trace (before other events at the same instant).
    fn merge_expiries(&mut self) {
        for l in self.locks.iter().flat_map(|lock| &lock.leases) {
            if !l.released && !l.session_ended && !l.lost && l.ends_at <= self.now {
                let what = What::LeaseExpired { token: l.token };
                let ev = TraceEvent {
                    t: l.ends_at,
                    client: l.client,
                    node: l.node,
                    what,
                };
                self.run.insert_before(l.ends_at, ev);
            }
        }
    }

    /// Clock steps, likewise: each server's (which move expiries; on the node's lane) and each
    /// client's (on the client's lane).
    fn merge_clock_steps(&mut self, ctx: &Ctx) {
        let servers = self.locks.iter().map(|l| (0, l.node, &l.clock, true));
        let clients = ctx
            .sc
            .clients
            .iter()
            .enumerate()
            .map(|(i, c)| (i as u8, 0, &c.clock, false));
        for (client, node, clock, server) in servers.chain(clients) {
            for (at, by_us) in steps_until(clock, self.now) {
                let what = if server {
                    What::ServerClockStep { by_us }
                } else {
                    What::ClockStep { by_us }
                };
                let ev = TraceEvent {
                    t: at,
                    client,
                    node,
                    what,
                };
                self.run.insert_before(at, ev);
            }
        }
    }
}

/// The steps a wall clock took by `end` (none for a monotonic clock).
fn steps_until(clock: &Clock, end: SimTime) -> impl Iterator<Item = (SimTime, i64)> + '_ {
    let steps: &[(u64, i64)] = if clock.monotonic { &[] } else { &clock.steps };
    steps
        .iter()
        .filter(move |s| s.0 <= end.0)
        .map(|&(at, by)| (SimTime(at), by))
}
