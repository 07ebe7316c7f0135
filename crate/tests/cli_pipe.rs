//! A reader that closes early (`leaselab … | head -1`, `grep -m1`, a pager quit) ends every command
//! quietly: exit status 0, nothing on stderr, no panic (docs/cli.md, "Output into a closed pipe").
//! Each command of `leaselab help` is run with its standard output's reader closed before it starts,
//! so its first write meets the closed pipe whatever the machine's speed; the long outputs (more than
//! a pipe holds) are read a line first, as `head -1` does. A command the help names that has no case
//! here fails the test.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;

/// Held while a pipe is made and a child started: a child another test thread forks meanwhile holds
/// a copy of the pipe's read end until it execs, and a write meeting that copy does not fail.
static SPAWNING: Mutex<()> = Mutex::new(());

/// A scenario file for `check` and `run --file`: the seed's, from the catalogue.
const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/seed-gc-pause.txt");

/// Every command of `leaselab help` with its outputs worth a case (each line: one invocation).
fn cases(file: &str) -> Vec<Vec<String>> {
    let lines: &[&[&str]] = &[
        &[],
        &["help"],
        &["--help"],
        &["-h"],
        &["--version"],
        &["run"],
        &["run", "fenced"],
        &["run", "--json"],
        &["run", "--trace"],
        &["run", "--itf"],
        &["run", "--file", file],
        &["check", file],
        &["scenarios"],
        &["scenarios", "--json"],
        &["scenarios", "--json", "--lang", "bn"],
        &["scenarios", "--markdown"],
        &["sweep", "--x", "ttl=10ms..2s:8", "--y", "pause=0..3s:8"],
        &["sweep", "--format", "json", "--x", "ttl=10ms..2s:8"],
        &["search", "--vary", "pause=0..1s:100ms"],
        &["search", "--json", "--vary", "pause=0..1s:100ms"],
        &["matrix", "--service", "lease", "--service", "etcd"],
        &["matrix", "--json", "--service", "lease"],
        &["estimate", "--ops", "1000"],
        &["estimate", "--json", "--ops", "1000"],
        &["completions", "bash"],
        &["completions", "zsh"],
        &["completions", "fish"],
        &["help", "run"],
        &["run", "--help"],
    ];
    lines
        .iter()
        .map(|l| l.iter().map(|s| (*s).to_string()).collect())
        .collect()
}

fn leaselab(args: &[String]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_leaselab"));
    c.args(args).stdin(Stdio::null()).stderr(Stdio::piped());
    c
}

/// Runs `args` with stdout a pipe whose reader is closed before the command starts: its first write
/// meets the closed pipe, however fast or slow either side is.
fn closed_before(args: &[String]) -> Output {
    let spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
    let (reader, writer) = os_pipe::pipe().unwrap();
    drop(reader);
    let child = leaselab(args).stdout(writer).spawn().unwrap();
    drop(spawning);
    child.wait_with_output().unwrap()
}

/// Runs `args` with stdout a pipe whose reader reads one line and then closes it, as `head -1` does.
/// The command writes more than a pipe holds (64 KiB), so it is still writing when the reader goes.
fn closed_after_a_line(args: &[String]) -> Output {
    let spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
    let mut child = leaselab(args).stdout(Stdio::piped()).spawn().unwrap();
    drop(spawning);
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    reader.read_line(&mut String::new()).unwrap();
    drop(reader);
    child.wait_with_output().unwrap()
}

/// Runs `args` to the end, its output read whole.
fn whole(args: &[&str]) -> Output {
    let _spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
    let args: Vec<String> = args.iter().map(|s| (*s).to_string()).collect();
    leaselab(&args).output().unwrap()
}

fn assert_quiet(args: &[String], out: &Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.is_empty(), "{args:?}: wrote to stderr:\n{err}");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {:?}", out.status);
}

#[test]
fn every_command_into_a_closed_pipe_ends_quietly_with_status_0() {
    for args in cases(FILE) {
        assert_quiet(&args, &closed_before(&args));
    }
}

#[test]
fn long_outputs_read_a_line_then_closed_end_quietly() {
    let long: [&[&str]; 3] = [
        &["scenarios", "--markdown"],
        &["scenarios", "--json"],
        &["sweep", "--x", "ttl=10ms..2s:256", "--y", "pause=0..3s:64"],
    ];
    for args in long {
        let args: Vec<String> = args.iter().map(|s| (*s).to_string()).collect();
        assert_quiet(&args, &closed_after_a_line(&args));
    }
}

#[test]
fn the_cases_cover_every_command_of_the_help() {
    let help = whole(&["help"]);
    let help = String::from_utf8(help.stdout).unwrap();
    let named: BTreeSet<&str> = help
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("leaselab "))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    let covered: BTreeSet<String> = cases("f")
        .into_iter()
        .filter_map(|c| c.first().cloned())
        .collect();
    let missing: Vec<_> = named.iter().filter(|c| !covered.contains(**c)).collect();
    assert!(named.len() >= 7, "the help names its commands: {named:?}");
    assert!(
        missing.is_empty(),
        "commands without a pipe case: {missing:?}"
    );
}

#[test]
fn output_to_an_open_reader_is_whole() {
    // The control: read to the end, the same command prints everything and keeps its own status.
    let out = whole(&["run"]);
    assert_eq!(out.status.code(), Some(1), "the seed's run loses an update");
    assert!(String::from_utf8_lossy(&out.stdout).contains("LOST UPDATE"));
}
