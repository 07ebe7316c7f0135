//! etcd's probe row: the installed etcd's answer to Jepsen's case, outside any scenario's script.

use std::path::Path;

use leaselab::scenario::Lost;
use leaselab::store::Policy;
use leaselab::{catalogue, simulate, Config};

use crate::{etcd, Row};

/// The installed etcd's answer to Jepsen's case: does `Lock` return to a waiter whose lease expired?
/// The model says etcd 3.4 returns (the naive switch) and 3.5 fails (its check): the row agrees when the
/// installed etcd does what the model says of its version, and shows what that means for the scenario.
pub(super) fn waiter_row(work: &Path, verbose: bool) -> Row {
    let mut row = Row::blank(
        "etcd-waiter-expired-lease (probe)",
        "the installed etcd's Lock, for a waiter whose lease expired while it waited",
    );
    let version = etcd::version().unwrap_or_default();
    let model_returns = version.starts_with("3.4.");
    let sim = waiter_sim();
    let real =
        etcd::Etcd::start(work.join("etcd-probe")).and_then(|e| etcd::waiter_check_probe(e.port));
    match (sim, real) {
        (Ok((v34, v35)), Ok((returns, log))) => {
            let verdict = if model_returns { v34 } else { v35 };
            let says = |r: bool| {
                if r {
                    "Lock returns (naive=1)"
                } else {
                    "Lock fails (naive=0)"
                }
            };
            row.sim = format!(
                "etcd {version}: {}; the scenario: {verdict}",
                says(model_returns)
            );
            row.real = format!("etcd {version}: {}", says(returns));
            row.agree = Some(returns == model_returns);
            if verbose || row.agree != Some(true) {
                row.detail = log;
            }
        }
        (Err(e), _) | (_, Err(e)) => row.detail.push(e),
    }
    eprintln!("conformance: etcd waiter probe — {}", row.real);
    row
}

/// The catalogue's `etcd-waiter-expired-lease` under `none`: its verdict with etcd 3.4's lock (naive)
/// and with 3.5's check.
fn waiter_sim() -> Result<(String, String), String> {
    let sc = catalogue::find("etcd-waiter-expired-lease").map_err(|e| e.to_string())?;
    let say = |naive| -> Result<String, String> {
        let mut cfg = Config::new(sc, Policy::None);
        cfg.naive = naive;
        let o = simulate(sc, &cfg).map_err(|e| e.to_string())?;
        Ok(match o.lost {
            Lost::Client(c) => format!("lost update {}", sc.client_name(c)),
            Lost::Nobody => "safe".into(),
        })
    };
    Ok((say(true)?, say(false)?))
}
