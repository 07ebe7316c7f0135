//! Rendering an outcome: the transcript in the seed's format ([`transcript()`]), the run as JSON
//! ([`run_json`]), the catalogue as JSON ([`catalogue_json()`]), all with one hand-written JSON writer
//! (`json`: the wasm build carries no serde). All are pure functions of their input, so native and
//! wasm print the same bytes.

pub mod catalogue_json;
pub mod holds;
pub mod itf;
pub mod json;
// Native only: the catalogue as docs/scenarios.md (the wasm carries no scenario file texts).
#[cfg(not(target_arch = "wasm32"))]
pub mod markdown;
pub mod matrix_json;
pub mod run_json;
pub mod search_json;
pub mod transcript;
// A user's scenario text for the page: natively (its golden test) and in the `user-scenario` wasm.
#[cfg(any(not(target_arch = "wasm32"), feature = "user-scenario"))]
pub mod user_json;

pub use catalogue_json::{catalogue_json, catalogue_texts_json};
#[cfg(any(not(target_arch = "wasm32"), feature = "estimate"))]
pub use catalogue_json::{estimate_form_json, estimate_json, presets_json};
pub use itf::itf;
pub use json::Json;
pub use matrix_json::matrix_json;
pub use run_json::json;
pub use search_json::search_json;
pub use transcript::transcript;
#[cfg(any(not(target_arch = "wasm32"), feature = "user-scenario"))]
pub use user_json::{user_expectations_json, user_scenario_json};

use crate::outcome::Outcome;
use crate::scenario::{Lost, Scenario};

/// The scenario an outcome was made from.
fn scenario_of<'s>(o: &Outcome<'s>) -> &'s Scenario {
    o.scenario
}

/// The service's name in JSON and scenario files.
fn service_name(sc: &Scenario) -> &'static str {
    sc.service.kind.name()
}

/// ` tok=N` where the service hands out tokens; nothing where it does not.
fn tok(sc: &Scenario, token: u64) -> String {
    match (sc.service.tokens, sc.service.own.token_in_hex()) {
        (false, _) => String::new(),
        // An ID as the token (a lease's): the service prints its IDs in hex.
        (true, true) => format!(" version={token:x}"),
        (true, false) => format!(" tok={token}"),
    }
}

/// The seed-style trail of accepted writes: `[('B', 450), ('A', 440)]`.
pub fn trail(o: &Outcome) -> String {
    let sc = scenario_of(o);
    let items: Vec<String> = o
        .run
        .writes
        .iter()
        .filter(|w| w.accepted)
        .map(|w| format!("('{}', {})", sc.client_name(w.client), w.value))
        .collect();
    format!("[{}]", crate::text::join(&items, ", "))
}

/// The verdict line: `PASS [fenced] — [('B', 450)]` or `LOST UPDATE [unfenced] — …`.
pub fn verdict_line(o: &Outcome) -> String {
    let sc = scenario_of(o);
    let label = o.policy.seed_label();
    if o.lost_update {
        let victim = match o.lost {
            Lost::Client(c) => {
                let w = o.run.writes.iter().find(|w| w.accepted && w.client == c);
                let value = w.map_or(String::new(), |w| format!(" ({})", w.value));
                format!(
                    "{}'s write{value} was acknowledged, then overwritten",
                    sc.client_name(c)
                )
            }
            Lost::Nobody => "an acknowledged write is missing".to_string(),
        };
        format!("LOST UPDATE [{label}] — {victim}: {}", trail(o))
    } else {
        format!("PASS [{label}] — {}", trail(o))
    }
}

/// The exit status the CLI uses: 1 for a lost update, 0 otherwise.
pub fn exit_code(o: &Outcome) -> i32 {
    i32::from(o.lost_update)
}
