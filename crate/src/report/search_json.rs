//! A search's answer as JSON (`leaselab search --json`): `{"safe", "combinations", "runs",
//! "behaviours": null | M, "counterexample": null | {"params": {NAME: value_ms, …}, "cost", "run"}}`,
//! the run being the counterexample's run JSON ([`super::json`]); `behaviours` the distinct
//! behaviours among the runs when every point was decided ([`crate::search::Found::behaviours`]).

use super::Json;
use crate::outcome::Outcome;
use crate::search::{Dim, Found};

/// `found` as JSON; `run` is the counterexample's outcome (present exactly when there is one).
pub fn search_json(found: &Found, dims: &[Dim], run: Option<&Outcome>) -> String {
    let mut j = Json::new();
    j.begin_obj();
    j.key("safe").bool(found.counterexample.is_none());
    j.key("combinations").raw(&found.combinations.to_string());
    j.key("runs").raw(&found.runs.to_string());
    j.key("behaviours");
    match &found.behaviours {
        Some(keys) => j.raw(&keys.len().to_string()),
        None => j.null(),
    };
    j.key("counterexample");
    match (&found.counterexample, run) {
        (Some(c), Some(o)) => {
            j.begin_obj();
            j.key("params").begin_obj();
            for d in dims {
                j.key(&o.scenario.params[d.param].name)
                    .ms(c.params[d.param]);
            }
            j.end_obj();
            j.key("cost").raw(&c.cost.to_string());
            j.key("run").raw(&super::json(o));
            j.end_obj();
        }
        _ => {
            j.null();
        }
    }
    j.end_obj();
    j.finish()
}
