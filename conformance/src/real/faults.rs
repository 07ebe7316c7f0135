//! The scenario's faults at their times: `terminate` (pg_terminate_backend), a Redlock node's crash and
//! restart. (A timed freeze of a client is the conductor's: see conductor.rs.)

use leaselab::scenario::{FaultAction, Scenario};

use super::record::Shared;
use super::us;
use crate::servers::{Redis, Res};

/// The scenario's faults, at their times.
pub(super) fn run(
    sc: &Scenario,
    p: &[u64],
    shared: &Shared,
    mut admin: postgres::Client,
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
                if let Some(d) = restart {
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
