//! A write the network holds (`write … delay D`): each client's storage connection goes through a
//! link of the suite's proxy (proxy.rs) of its own, run by the conductor, outside the client's
//! process. At such a write the client asks the conductor to hold its link's requests until D after
//! the write's place on the timeline, waits for the conductor's word that the hold is in force, and
//! only then sends the write: its bytes wait in the proxy and reach PostgreSQL at the instant the
//! model's message arrives, and the statement runs then. The client waits for the answer meanwhile,
//! as the model's client does.

use std::time::{Duration, Instant};

use leaselab::client::Op;
use leaselab::scenario::Scenario;

use super::player::{Client, Stop};
use super::proxy::{Dir, Proxy};
use super::us;
use crate::servers::Res;

/// Whether any client of `sc` has a write the network holds (then every client's storage connection
/// goes through a link of the proxy).
pub(super) fn has_delayed_write(sc: &Scenario, p: &[u64]) -> bool {
    sc.clients
        .iter()
        .flat_map(|c| c.ops.iter())
        .any(|op| matches!(op, Op::Write { delay, .. } if !us(*delay, p).is_zero()))
}

/// A client's link to the storage, when the scenario needs one.
pub(super) fn storage_link(sc: &Scenario, p: &[u64], pg_port: u16) -> Res<Option<Proxy>> {
    if !has_delayed_write(sc, p) {
        return Ok(None);
    }
    Proxy::start(pg_port).map(Some)
}

/// The conductor's side of `hold UNTIL`: the client's requests that reach its link before `t0 +
/// until_us` wait there until then.
pub(super) fn arm_hold(link: Option<&Proxy>, t0: Instant, until_us: u64) -> Res<()> {
    let link = link.ok_or("a hold asked for on a client with no storage link")?;
    link.hold_until(Dir::Up, t0 + Duration::from_micros(until_us));
    Ok(())
}

impl Client<'_> {
    /// Before a write the network holds for `d`: the hold is armed on the client's storage link (the
    /// conductor says `held` once it is), and the client's timeline moves on to the write's arrival.
    pub(super) fn network_holds(&mut self, d: Duration) -> Result<(), Stop> {
        if d.is_zero() {
            return Ok(());
        }
        let until = self.nominal + d;
        self.link.send(&format!("hold {}", until.as_micros()));
        self.link.wait_for("held", self.link.deadline)?;
        self.note(format!(
            "sends its write; the network holds it {} ms, until {} ms",
            d.as_millis(),
            until.as_millis()
        ));
        self.nominal = until;
        Ok(())
    }
}
