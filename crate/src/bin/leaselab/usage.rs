//! The usage lines, generated from the definitions in `args.rs`: each command's, with every flag
//! (clap's own would say `[OPTIONS]`), shown in its `--help` and errors, and all of them together as
//! `leaselab help`, which docs/cli.md's usage block is (a test compares them).

use clap::builder::PossibleValue;
use clap::{Arg, ArgAction, ArgGroup, Command, CommandFactory as _};

use crate::args::Cli;

/// Usage lines are wrapped to this many columns (not counting their indent).
const WIDTH: usize = 98;

/// What `leaselab help` says after the usage.
const NOTES: &str = "\
DUR is a number with unit ms or s (300ms, 0.3s, 30s; also us); a bare number is milliseconds.
POLICY is one of: none, token, first-touch, version, etag, owner, equal-token (fenced = token,
unfenced = none).
Exit status: 0 safe, 1 an update was lost (run, search) or an expectation does not hold (check),
2 bad input (one line on stderr).
`leaselab help COMMAND` (or COMMAND --help) tells what a command's flags mean; docs/cli.md tells all.";

/// The command line: `args.rs`'s definitions with each command's usage written out in full and
/// `leaselab help` the summary of them all.
pub fn command() -> Command {
    let cmd = Cli::command().mut_subcommands(|sub| {
        let usage = usage_lines(&sub).join(&format!("\n{}", " ".repeat("Usage: ".len())));
        sub.override_usage(usage)
    });
    let help = summary(&cmd);
    cmd.override_help(help)
}

/// `leaselab help`: every command's usage, then the notes common to all.
pub fn summary(cmd: &Command) -> String {
    let mut out = String::from("usage:\n");
    for sub in cmd.get_subcommands() {
        for line in usage_lines(sub) {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out.push_str("  leaselab help [COMMAND]\n");
    out.push_str("  leaselab --version\n\n");
    out.push_str(NOTES);
    out.push('\n');
    out
}

/// `leaselab NAME` and each argument of the command (a group of alternatives as `[A | B]`), wrapped
/// at `WIDTH`, the lines after the first aligned after `leaselab NAME `.
pub fn usage_lines(sub: &Command) -> Vec<String> {
    let head = format!("leaselab {}", sub.get_name());
    let pad = " ".repeat(head.len() + 1);
    let (mut lines, mut line) = (Vec::new(), head);
    for item in items(sub) {
        if line.len() + 1 + item.len() > WIDTH {
            lines.push(std::mem::replace(&mut line, format!("{pad}{item}")));
        } else {
            line.push(' ');
            line.push_str(&item);
        }
    }
    lines.push(line);
    lines
}

/// The command's arguments as usage shows them, in the order they are defined.
fn items(sub: &Command) -> Vec<String> {
    let groups: Vec<Vec<&str>> = sub
        .get_groups()
        .filter(|g| !ArgGroup::clone(g).is_multiple())
        .map(|g| g.get_args().map(|id| id.as_str()).collect())
        .collect();
    let mut shown: Vec<&str> = Vec::new();
    let mut items = Vec::new();
    for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
        let id = arg.get_id().as_str();
        if shown.contains(&id) || ["help", "version"].contains(&id) {
            continue;
        }
        match groups.iter().find(|g| g.contains(&id)) {
            Some(group) => {
                let alternatives: Vec<String> = group
                    .iter()
                    .filter_map(|id| sub.get_arguments().find(|a| a.get_id() == *id))
                    .map(bare)
                    .collect();
                items.push(format!("[{}]", alternatives.join(" | ")));
                shown.extend(group);
            }
            None if arg.is_required_set() => items.push(bare(arg)),
            None => items.push(format!("[{}]{}", bare(arg), repeated(arg))),
        }
    }
    items
}

/// An argument without brackets: `--ttl DUR`, `--json`, `PATH`, `fenced|unfenced`.
fn bare(arg: &Arg) -> String {
    let takes_value = arg.get_action().takes_values();
    let value = takes_value.then(|| value_of(arg));
    match (arg.get_long(), value) {
        (Some(long), Some(value)) => format!("--{long} {value}"),
        (Some(long), None) => format!("--{long}"),
        (None, value) => value.unwrap_or_else(|| arg.get_id().to_string()),
    }
}

/// An argument's value: its few possible values (`en|bn`), or its name (`POLICY`, `DUR`).
fn value_of(arg: &Arg) -> String {
    let possible: Vec<PossibleValue> = arg
        .get_possible_values()
        .into_iter()
        .filter(|v| !v.is_hide_set())
        .collect();
    if !possible.is_empty() && possible.len() <= 4 {
        let names: Vec<&str> = possible.iter().map(PossibleValue::get_name).collect();
        return names.join("|");
    }
    match arg.get_value_names() {
        Some([name, ..]) => name.to_string(),
        _ => arg.get_id().to_string().to_uppercase(),
    }
}

/// `...` after a flag that may be given again.
fn repeated(arg: &Arg) -> &'static str {
    if matches!(arg.get_action(), ArgAction::Append) {
        "..."
    } else {
        ""
    }
}
