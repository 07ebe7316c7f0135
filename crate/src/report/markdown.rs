//! The scenario catalogue as Markdown (`leaselab scenarios --markdown` → `docs/scenarios.md`).
//!
//! Generated from the compiled catalogue and the scenario files themselves, so the page a reader sees
//! cannot drift from what `cargo test` checks: `crate/tests/docs.rs` fails when `docs/scenarios.md`
//! differs from this output. Native builds only (the wasm carries no scenario text).

use std::fmt::Write as _;

use crate::catalogue;
use crate::scenario::{Expectation, Lost, Scenario};
use crate::time::{Millis, SEC};

/// The command that regenerates `docs/scenarios.md`, quoted by the page itself and by its test.
pub const SCENARIOS_COMMAND: &str =
    "cargo run --release --bin leaselab -- scenarios --markdown > docs/scenarios.md";

/// The whole catalogue as one Markdown page: an index, then a section per scenario.
pub fn scenarios() -> String {
    let mut out = String::new();
    intro(&mut out);
    index(&mut out);
    for (sc, text) in catalogue::catalogue().iter().zip(catalogue::sources()) {
        section(&mut out, sc, text);
    }
    out
}

fn intro(out: &mut String) {
    let _ = writeln!(
        out,
        "<!-- Generated from crate/scenarios/*.txt by `leaselab scenarios --markdown`; do not edit.\n     \
         Regenerate with: {SCENARIOS_COMMAND} -->\n\
         # Scenarios\n\n\
         Scenarios are data: text files in [`crate/scenarios/`](../crate/scenarios/), listed in catalogue \
         order in\n[`index.txt`](../crate/scenarios/index.txt), parsed at build time and compiled into the \
         binary and the wasm.\nThe file format: [scenario-format.md](scenario-format.md) (write your \
         own, and run it with\n`leaselab run --file`). Each file\nholds an English and a Bengali \
         title and summary, its source, its parameters (with defaults and ranges), the\nscript, and the \
         expected outcome per storage policy, which `cargo test` checks (`crate/tests/scenarios.rs`).\n\
         Text marked *derived* is analysis built on the sources, not a claim the sources make. The wasm \
         carries each\nscenario's script, parameters and English title; the prose (summaries, sources, \
         notes, labels, and\neverything in Bengali) is written per language at build time \
         (`leaselab scenarios --json --lang en|bn` →\n`pkg/scenarios.LANG.json`), so the page loads \
         only its reader's language. This page shows the English.\n\n\
         This page is generated from those files; `crate/tests/docs.rs` fails when it is out of date. \
         To add a\nscenario, write its file, add its name to `index.txt`, add a named test line in\n\
         `crate/tests/scenarios.rs`, and regenerate this page:\n\n\
         ```sh\n{SCENARIOS_COMMAND}\n```\n\n\
         In the expectation tables, *flags* are `+retry` (a refused client starts over, up to 3 times), \
         `+naive`\n(the naive switch on: what it does to each service, `leaselab run --help` says) and parameter \
         overrides;\n*final* is the balance at the end, *expected* the ideal guard's final balance, *lost* \
         whose acknowledged\nupdate is missing, *rejected* whose writes the storage refused, *stale* whether \
         a stale write was\naccepted, *grants* who was granted the lock, in order (see [the model](model.md#outcome)). \
         An empty cell is not\nchecked.\n"
    );
}

fn index(out: &mut String) {
    let _ = writeln!(out, "| id | title | group | service |");
    let _ = writeln!(out, "|---|---|---|---|");
    for sc in catalogue::catalogue() {
        let _ = writeln!(
            out,
            "| [`{id}`](#{id}) | {} | {} | {} |",
            cell(&sc.title_en),
            sc.group,
            service(sc),
            id = sc.id
        );
    }
    let _ = writeln!(out);
}

fn section(out: &mut String, sc: &Scenario, text: &str) {
    let _ = writeln!(out, "## {}\n", sc.id);
    let _ = writeln!(out, "**{}**\n", sc.title_en);
    let clients: Vec<String> = sc.clients.iter().map(|c| c.name.to_string()).collect();
    let _ = writeln!(
        out,
        "Group `{}` · service `{}` · clients {} · initial balance {}\n",
        sc.group,
        service(sc),
        clients.join(", "),
        sc.balance
    );
    let _ = writeln!(out, "{}\n", sc.summary_en);
    if !sc.derived.is_empty() {
        let _ = writeln!(out, "*Derived:* {}\n", sc.derived);
    }
    let _ = writeln!(out, "Source: {}\n", sc.source);
    params(out, sc);
    script(out, text);
    expectations(out, sc);
}

fn params(out: &mut String, sc: &Scenario) {
    if sc.params.is_empty() {
        let _ = writeln!(out, "No parameters.\n");
        return;
    }
    let _ = writeln!(out, "| parameter | default | range | label |");
    let _ = writeln!(out, "|---|---|---|---|");
    for p in sc.params.iter() {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} – {} | {} |",
            p.name,
            dur(p.default_us),
            dur(p.min_us),
            dur(p.max_us),
            cell(&p.label_en)
        );
    }
    let _ = writeln!(out);
}

/// The file's script lines as written: the service, nodes, balance, clients and faults.
fn script(out: &mut String, text: &str) {
    const SCRIPT: [&str; 5] = ["service:", "balance:", "node ", "client ", "at "];
    let _ = writeln!(out, "```text");
    for line in text
        .lines()
        .filter(|l| SCRIPT.iter().any(|k| l.starts_with(k)))
    {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "```\n");
}

fn expectations(out: &mut String, sc: &Scenario) {
    let _ = writeln!(
        out,
        "| policy | flags | final | expected | lost | rejected | stale | grants |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    for e in sc.expects.iter() {
        let names = |list: &[u8]| -> String {
            if list.is_empty() {
                return "none".to_string();
            }
            let v: Vec<String> = list
                .iter()
                .map(|c| sc.client_name(*c).to_string())
                .collect();
            v.join(",")
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} | {} | {} |",
            e.policy.name(),
            flags(sc, e),
            opt(e.final_balance),
            opt(e.expected),
            e.lost.map_or(String::new(), |l| match l {
                Lost::Nobody => "none".to_string(),
                Lost::Client(c) => sc.client_name(c).to_string(),
            }),
            e.rejected.as_deref().map_or(String::new(), names),
            e.stale.map_or("", |s| if s { "yes" } else { "no" }),
            e.grants.as_deref().map_or(String::new(), names),
        );
    }
    let _ = writeln!(out);
}

/// `+retry`, `+naive` and overrides, in the file's own notation.
fn flags(sc: &Scenario, e: &Expectation) -> String {
    let mut f = Vec::new();
    if e.retry {
        f.push("+retry".to_string());
    }
    if let Some(naive) = e.naive {
        f.push(if naive { "+naive" } else { "-naive" }.to_string());
    }
    for (i, v) in e.overrides.iter() {
        f.push(format!(
            "{}={}ms",
            sc.params[usize::from(*i)].name,
            Millis(*v)
        ));
    }
    if f.is_empty() {
        String::new()
    } else {
        format!("`{}`", f.join(" "))
    }
}

fn service(sc: &Scenario) -> &'static str {
    sc.service.kind.name()
}

fn opt(v: Option<i64>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

/// Whole seconds as `60 s`, anything else in milliseconds.
fn dur(us: u64) -> String {
    if us >= SEC && us % SEC == 0 {
        format!("{} s", us / SEC)
    } else {
        format!("{} ms", Millis(us))
    }
}

/// Text safe inside a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}
