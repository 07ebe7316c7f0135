//! The scenario's faults at their times: `terminate` (pg_terminate_backend), a Redlock node's crash and
//! restart; and the steps of the wall clocks the scenario moves (a redis-server's, a client's). (A
//! timed freeze of a client is the conductor's: see conductor.rs.)

use leaselab::scenario::{FaultAction, Scenario};

use super::record::Shared;
use super::wallclock::signed_ms;
use super::{us, ClockOf, WallClock};
use crate::servers::{Redis, Res};

/// The scenario's faults, at their times.
pub(super) fn run(
    sc: &Scenario,
    p: &[u64],
    shared: &Shared,
    (mut admin, mysql): (postgres::Client, Option<u16>),
    nodes: &mut [Redis],
) -> Res<()> {
    let mut faults: Vec<_> = sc.faults.iter().collect();
    faults.sort_by_key(|f| f.at.resolve(p));
    // A timed freeze is the conductor's (SIGSTOP … SIGCONT to the client's process group), a
    // failover failover.rs's.
    faults.retain(|f| !matches!(f.action, FaultAction::Freeze(..) | FaultAction::Failover));
    for f in faults {
        let at = us(f.at, p);
        shared.sleep_until(shared.t0 + at);
        match f.action {
            FaultAction::Terminate(c) if mysql.is_some() => {
                terminate_mysql(sc, shared, mysql, c)?;
                shared.behind("admin", at, "terminate");
            }
            FaultAction::Terminate(c) => {
                let name = sc.client_name(c);
                let pid = shared
                    .with(|st| st.pids[usize::from(c)])
                    .ok_or("terminate: the client has no session")?;
                let ok: bool = admin
                    .query_one("SELECT pg_terminate_backend($1)", &[&pid])
                    .map_err(|e| format!("pg_terminate_backend: {e}"))?
                    .get(0);
                shared.note(
                    "admin",
                    format!(
                        "pg_terminate_backend({name}: pid {pid}) → {}",
                        if ok { "t" } else { "f" }
                    ),
                );
                shared.behind("admin", at, "terminate");
            }
            FaultAction::Crash(k, restart) => {
                let node = nodes.get_mut(usize::from(k)).ok_or("crash: no such node")?;
                node.crash();
                let who = format!("n{}", k + 1);
                shared.note(&who, "killed (SIGKILL)".into());
                shared.behind(&who, at, "crash");
                match restart {
                    Some(d) if node.has_own_clock() => {
                        node.restart_after_wall_wait(us(d, p))?;
                        let ms = us(d, p).as_millis();
                        shared.note(&who, format!("restart waits {ms} ms by its own wall clock"));
                    }
                    _ => {}
                }
                if let Some(d) = restart.filter(|_| !node.has_own_clock()) {
                    shared.sleep_until(shared.t0 + at + us(d, p));
                    node.restart()?;
                    shared.note(&who, "restarted, answering".into());
                    shared.behind(&who, at + us(d, p), "restart");
                }
            }
            FaultAction::Restart(k) => {
                nodes
                    .get_mut(usize::from(k))
                    .ok_or("restart: no such node")?
                    .restart()?;
                shared.note(&format!("n{}", k + 1), "restarted, answering".into());
                shared.behind(&format!("n{}", k + 1), at, "restart");
            }
            _ => return Err("unsupported fault".into()),
        }
    }
    Ok(())
}

/// `terminate` of a MySQL client: `KILL CONNECTION` of its lock connection (its id, as its agent said).
fn terminate_mysql(sc: &Scenario, shared: &Shared, port: Option<u16>, c: u8) -> Res<()> {
    let id = shared
        .with(|st| st.pids[usize::from(c)])
        .ok_or("terminate: the client has no MariaDB connection")?;
    super::mysql_lock::kill(port.ok_or("no MariaDB")?, id as u32)?;
    let name = sc.client_name(c);
    shared.note("admin", format!("KILL CONNECTION {id} ({name}'s)"));
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
