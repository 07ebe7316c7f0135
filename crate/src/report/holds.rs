//! When a write's writer stopped holding the lock, by the lock service's truth: the fact the page's
//! safety margin explains ("A wrote 300 ms after its lease ended"), computed here once so the page
//! does no lock arithmetic of its own.

use crate::lock::LeaseRecord;
use crate::outcome::Outcome;
use crate::time::SimTime;
use crate::trace::{Kind, TraceEvent, What, WriteRecord};

/// The end of the writer's hold on the lock that covered (or should have covered) write `w`: with one
/// lock server, the end of its latest lease granted by the time the write landed; with a quorum service's nodes,
/// when the keys of its latest acquisition dropped below a majority. `None` when it never held the lock, or
/// still holds it at the end of the run (a session lock).
pub fn held_until(o: &Outcome, w: &WriteRecord) -> Option<SimTime> {
    if o.scenario.service.nodes > 1 {
        return majority_until(o, w);
    }
    let mine = |l: &&LeaseRecord| l.client == w.client && l.granted_at <= w.t;
    let lease = o.run.leases.iter().rev().find(mine)?;
    (lease.ends_at <= o.run.end).then_some(lease.ends_at)
}

/// A quorum service: the client's keys from the round it acquired with (granted between its requests and its
/// count) keep it a majority holder until all but `quorum − 1` of them have ended.
fn majority_until(o: &Outcome, w: &WriteRecord) -> Option<SimTime> {
    let mine = |e: &&TraceEvent| e.client == w.client && e.t <= w.t;
    let mut before = o.run.trace.iter().rev().filter(mine);
    let acquired = before.find(|e| matches!(e.what, What::Round { acquired: true, .. }))?;
    let sent = before.find(|e| e.kind() == Kind::AcquireSent);
    let from = sent.map_or(SimTime::ZERO, |e| e.t);
    let keys = || {
        o.run
            .leases
            .iter()
            .filter(|l| l.client == w.client && l.granted_at >= from && l.granted_at <= acquired.t)
    };
    let quorum = usize::from(o.scenario.service.quorum());
    // The quorum-th latest end (no sort: a round has at most one key per node).
    let nth_latest = keys().map(|l| l.ends_at).find(|&end| {
        let later = keys().filter(|l| l.ends_at > end).count();
        let same = keys().filter(|l| l.ends_at == end).count();
        later < quorum && quorum <= later + same
    });
    Some(nth_latest.unwrap_or(acquired.t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{catalogue, simulate, Config, Policy};

    /// (client, write time, held until) of each write, in ms.
    fn holds(id: &str) -> Vec<(u8, u64, Option<u64>)> {
        let sc = catalogue::find(id).unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
        let ms = |t: SimTime| t.0 / 1000;
        o.run
            .writes
            .iter()
            .map(|w| (w.client, ms(w.t), held_until(&o, w).map(ms)))
            .collect()
    }

    #[test]
    fn the_seeds_late_write_lands_300_ms_after_its_lease() {
        // B's lease runs 300..600 ms; A's ran 0..300 ms, and A wrote at 600 ms.
        assert_eq!(
            holds("seed-gc-pause"),
            [(1, 300, Some(600)), (0, 600, Some(300))]
        );
    }

    #[test]
    fn a_redlock_writer_holds_until_its_majority_is_gone() {
        // A's keys on n1..n3 from 10 ms: n3 crashes and forgets its key at 50 ms, leaving A a minority.
        let a = holds("redlock-crash-restart")
            .into_iter()
            .find(|w| w.0 == 0)
            .unwrap();
        assert_eq!(a, (0, 200, Some(50)));
    }
}
