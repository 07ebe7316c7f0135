//! A user's scenario text, for the page (the `user-scenario` wasm; natively for its golden test): parsed
//! into the catalogue's shape, or its errors with line and column, and its expectation lines run — as
//! JSON, so errors cross the wasm boundary as data (`[{line, col, message}]`), not as one string.

use super::catalogue_json::scenario_entry;
use super::json::Json;
use crate::check::{check_expectations, parse, Diagnostic, Verdict};

/// `{"errors": [{"line", "col", "message"}]}`: every error of a text that does not parse.
fn errors_json(errors: &[Diagnostic]) -> String {
    let mut j = Json::new();
    j.begin_obj().key("errors").begin_arr();
    for d in errors {
        j.begin_obj();
        j.key("line").int(d.line as i64);
        j.key("col").int(d.col as i64);
        j.key("message").str(&d.message);
        j.end_obj();
    }
    j.end_arr().end_obj();
    j.finish()
}

/// The text parsed: `{"scenario": {…}}` in the catalogue's shape ([`scenario_entry`]: id, texts,
/// service, clients, parameters with ranges), or `{"errors": […]}`.
pub fn user_scenario_json(text: &str) -> String {
    let sc = match parse(text) {
        Ok(sc) => sc,
        Err(errors) => return errors_json(&errors),
    };
    let mut j = Json::new();
    j.begin_obj().key("scenario");
    scenario_entry(&mut j, &sc);
    j.end_obj();
    j.finish()
}

/// One expectation line's result: `{"line", "head", "ok"}`, and where it fails `"run_error"` (the run
/// itself failed: a limit) and `"message"` (what differs, as `leaselab check` words it).
fn verdict_json(j: &mut Json, v: &Verdict) {
    j.begin_obj();
    j.key("line").int(v.line as i64);
    j.key("head").str(&v.head);
    j.key("ok").bool(v.result.is_ok());
    if let Some(d) = v.diagnostic() {
        j.key("run_error").bool(v.is_error());
        j.key("message").str(&d.message);
    }
    j.end_obj();
}

/// The text's expectation lines run, in order: `{"expects": [{"line", "head", "ok", …}]}` (see
/// [`verdict_json`]), or `{"errors": […]}` for a text that does not parse.
pub fn user_expectations_json(text: &str) -> String {
    let sc = match parse(text) {
        Ok(sc) => sc,
        Err(errors) => return errors_json(&errors),
    };
    let mut j = Json::new();
    j.begin_obj().key("expects").begin_arr();
    for v in &check_expectations(&sc) {
        verdict_json(&mut j, v);
    }
    j.end_arr().end_obj();
    j.finish()
}
