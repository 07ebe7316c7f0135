//! The scenario's faults at their times, each acted out by the lock service's servers (its
//! [`LockServers::fault`](super::service::LockServers::fault): a session's termination, a node's
//! crash and restart, a failover); and the steps of the wall clocks the scenario moves (a server's, a
//! client's). (A timed freeze of a client is the conductor's: see conductor.rs.)

use leaselab::scenario::{FaultAction, Scenario};

use super::record::Shared;
use super::service::LockServers;
use super::wallclock::signed_ms;
use super::{us, ClockOf, WallClock};
use crate::servers::Res;

/// The scenario's faults, at their times, in time order (one at a time: a fault that waits, as a
/// crash for its restart, holds the next one up).
pub(super) fn run(
    sc: &Scenario,
    p: &[u64],
    shared: &Shared,
    lock: &mut dyn LockServers,
) -> Res<()> {
    let mut faults: Vec<_> = sc.faults.iter().collect();
    faults.sort_by_key(|f| f.at.resolve(p));
    // A timed freeze is the conductor's (SIGSTOP … SIGCONT to the client's process group).
    faults.retain(|f| !matches!(f.action, FaultAction::Freeze(..)));
    for f in faults {
        let at = us(f.at, p);
        shared.sleep_until(shared.t0 + at);
        lock.fault(sc, p, f.action, at, shared)?;
    }
    Ok(())
}

/// Steps each wall clock at the times its scenario clock says (true time since t = 0).
pub(super) fn step_clocks(
    sc: &Scenario,
    shared: &Shared,
    clocks: &mut [(ClockOf, WallClock)],
) -> Res<()> {
    let mut steps = Vec::new();
    for (i, (who, _)) in clocks.iter().enumerate() {
        let planned = super::wallclock::steps_of(who.clock(sc))?;
        steps.extend(planned.into_iter().map(|(at, by)| (at, i, by)));
    }
    steps.sort_by_key(|s| s.0);
    for (at, i, by) in steps {
        shared.sleep_until(shared.t0 + at);
        let (who, clock) = &mut clocks[i];
        clock.step(by)?;
        let name = who.name(sc);
        let whose = match who {
            ClockOf::Client(_) => format!("{name}'s process"),
            _ => format!("{name}'s redis-server"),
        };
        shared.note(
            &name,
            format!(
                "wall clock steps {} (CLOCK_REALTIME of {whose}; monotonic unchanged)",
                signed_ms(by)
            ),
        );
        shared.behind("clocks", at, &format!("{name}'s clock step"));
    }
    Ok(())
}
