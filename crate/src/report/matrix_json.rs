//! The safety table as JSON (`leaselab matrix --json`, docs/matrix.md): `{"bounds": {SERVICE:
//! {"scenario", "time": {"name", "ms"}, "step_ms"}}, "cells": [{"service", "fault", "fencing",
//! "verdict", "scenario", "reason", "at_ms": [from, to], "magnitude_ms": [from, to],
//! "combinations", "runs", "behaviours", "cost", "params", "run_args", "link", "real"}]}`.

use super::Json;
use crate::matrix::{Cell, Row, Table};

/// `table` as JSON.
pub fn matrix_json(table: &Table) -> String {
    let mut j = Json::new();
    j.begin_obj();
    j.key("bounds").begin_obj();
    for row in &table.rows {
        j.key(row.service.name()).begin_obj();
        j.key("scenario").str(row.scenario);
        j.key("time").begin_obj();
        j.key("name").str(row.time_name);
        j.key("ms").ms(row.time_us);
        j.end_obj();
        j.key("step_ms").ms(row.step_us());
        j.end_obj();
    }
    j.end_obj();
    j.key("cells").begin_arr();
    for cell in &table.cells {
        let row = table.rows.iter().find(|r| r.service == cell.service);
        cell_json(&mut j, cell, row);
    }
    j.end_arr();
    j.end_obj();
    j.finish()
}

fn cell_json(j: &mut Json, c: &Cell, row: Option<&Row>) {
    j.begin_obj();
    j.key("service").str(c.service.name());
    j.key("fault").str(c.fault.name());
    j.key("fencing").str(c.fencing.name());
    j.key("verdict").str(c.verdict.name());
    j.key("scenario").str(c.scenario);
    j.key("reason").str(&c.reason);
    if let Some(r) = row {
        j.key("at_ms").begin_arr().ms(0).ms(r.time_us).end_arr();
        let reach = c.fault.magnitude_max_us(r.time_us);
        j.key("magnitude_ms").begin_arr().ms(0).ms(reach).end_arr();
    }
    j.key("combinations").raw(&c.combinations.to_string());
    j.key("runs").raw(&c.runs.to_string());
    j.key("behaviours");
    match c.behaviours {
        Some(n) => j.raw(&n.to_string()),
        None => j.null(),
    };
    j.key("cost");
    match c.cost {
        Some(n) => j.raw(&n.to_string()),
        None => j.null(),
    };
    j.key("params").begin_obj();
    for (name, us) in &c.params {
        j.key(name).ms(*us);
    }
    j.end_obj();
    j.key("run_args").begin_arr();
    for arg in c.run_args() {
        j.str(&arg);
    }
    j.end_arr();
    j.key("link").str(&c.link());
    j.key("real").begin_arr();
    for row in &c.real {
        j.str(row);
    }
    j.end_arr();
    j.end_obj();
}
