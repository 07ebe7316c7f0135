//! The `leaselab` command line: run a scenario and print the seed's transcript, or list scenarios.
//! A thin shell over the library: parse arguments, call `simulate`, print, exit 0 / 1 / 2.

use std::io::Write as _;
use std::process::ExitCode;

use leaselab::report;
use leaselab::catalogue;
use leaselab::scenario::Scenario;
use leaselab::sim::RETRIES_MAX;
use leaselab::time::{parse_duration, Millis};
use leaselab::{simulate, Config, Policy};

const USAGE: &str = "\
usage:
  leaselab run [fenced|unfenced] [--scenario ID] [--ttl DUR] [--pause DUR] [--fencing POLICY]
               [--set NAME=DUR]... [--retries N] [--json | --trace]
  leaselab scenarios [--json]
  leaselab help

DUR is a number with unit ms or s (300ms, 0.3s, 30s); a bare number is milliseconds.
POLICY is one of: none, token, first-touch, version, owner (fenced = token, unfenced = none).
`run` exits 1 when an update was lost, 0 when not, 2 on bad input.";

/// A bad command line: one line on stderr, exit status 2.
struct Usage(String);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            eprintln!("leaselab: {msg}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(args: &[String]) -> Result<ExitCode, Usage> {
    match args.first().map(String::as_str) {
        None => {
            println!("{USAGE}");
            Ok(ExitCode::from(2))
        }
        Some("run") => run(&args[1..]),
        Some("scenarios") => scenarios(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        Some("--version" | "-V") => {
            println!("leaselab {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        Some(other) => Err(Usage(format!("unknown command {other:?}; expected run, scenarios or help"))),
    }
}

/// Splits `--flag=value` and `--flag value`; returns the flag and its value.
fn take_value<'a>(flag: &str, inline: Option<&'a str>, rest: &mut impl Iterator<Item = &'a String>) -> Result<&'a str, Usage> {
    match inline {
        Some(v) => Ok(v),
        None => rest.next().map(String::as_str).ok_or_else(|| Usage(format!("{flag} needs a value"))),
    }
}

fn run(args: &[String]) -> Result<ExitCode, Usage> {
    let mut mode: Option<(&str, Policy)> = None;
    let mut fencing: Option<Policy> = None;
    let mut scenario_id: Option<&str> = None;
    let mut sets: Vec<(String, String, &'static str)> = Vec::new();
    let mut retries = 0u32;
    let mut json = false;
    let mut trace = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (arg.as_str(), None),
        };
        match flag {
            "fenced" | "unfenced" => {
                let policy = if flag == "fenced" { Policy::Token } else { Policy::None };
                if let Some((prev, _)) = mode {
                    return Err(Usage(format!("{prev:?} and {flag:?} conflict; give one of fenced or unfenced")));
                }
                mode = Some((flag, policy));
            }
            "--scenario" => scenario_id = Some(take_value(flag, inline, &mut it)?),
            "--fencing" => {
                let v = take_value(flag, inline, &mut it)?;
                fencing = Some(Policy::parse(v).map_err(|e| Usage(format!("--fencing: {e}")))?);
            }
            "--ttl" | "--pause" => {
                let v = take_value(flag, inline, &mut it)?;
                sets.push((flag[2..].to_string(), v.to_string(), if flag == "--ttl" { "--ttl" } else { "--pause" }));
            }
            "--set" => {
                let v = take_value(flag, inline, &mut it)?;
                let (name, value) = v
                    .split_once('=')
                    .ok_or_else(|| Usage(format!("--set: expected NAME=DUR, got {v:?}")))?;
                sets.push((name.to_string(), value.to_string(), "--set"));
            }
            "--retries" => {
                let v = take_value(flag, inline, &mut it)?;
                retries = v
                    .parse()
                    .ok()
                    .filter(|n| *n <= RETRIES_MAX)
                    .ok_or_else(|| Usage(format!("--retries: expected a whole number from 0 to {RETRIES_MAX}, got {v:?}")))?;
            }
            "--json" => json = true,
            "--trace" => trace = true,
            other if other.starts_with('-') => {
                return Err(Usage(format!("unknown option {other:?}; see `leaselab help`")));
            }
            other => {
                return Err(Usage(format!("unexpected argument {other:?}; expected fenced, unfenced or an option")));
            }
        }
    }
    if json && trace {
        return Err(Usage("--json and --trace conflict; give one".into()));
    }
    let policy = match (mode, fencing) {
        (Some((m, p)), Some(f)) if p != f => {
            return Err(Usage(format!("{m:?} conflicts with --fencing {}; give one", f.name())));
        }
        (_, Some(f)) => f,
        (Some((_, p)), None) => p,
        (None, None) => Policy::None,
    };
    let sc = catalogue::find(scenario_id.unwrap_or(catalogue::DEFAULT_ID)).map_err(|e| Usage(format!("--scenario: {e}")))?;
    let mut cfg = Config::new(sc, policy);
    cfg.retries = retries;
    for (name, value, flag) in &sets {
        let us = parse_duration(value).map_err(|e| Usage(format!("{flag}: {e}")))?;
        sc.set_param(&mut cfg.params, name, us).map_err(|e| Usage(format!("{flag}: {e}")))?;
    }
    let outcome = simulate(sc, &cfg).map_err(|e| Usage(e.to_string()))?;
    let mut out = std::io::stdout().lock();
    if json {
        let _ = writeln!(out, "{}", report::json(&outcome));
    } else {
        if trace {
            print_trace(&mut out, sc, &outcome);
        }
        for line in report::transcript(&outcome) {
            let _ = writeln!(out, "{line}");
        }
    }
    Ok(ExitCode::from(report::exit_code(&outcome) as u8))
}

fn print_trace(out: &mut impl std::io::Write, sc: &Scenario, o: &leaselab::Outcome) {
    for e in &o.run.trace {
        let mut detail = String::new();
        if e.token != 0 {
            detail.push_str(&format!(" tok={}", e.token));
        }
        match e.kind.name() {
            "read" | "write-sent" | "write-accepted" | "write-rejected" => detail.push_str(&format!(" value={}", e.value)),
            _ => {}
        }
        if let Some(r) = e.reason {
            detail.push_str(&format!(" ({})", r.name()));
        }
        let _ = writeln!(
            out,
            "{:>10} ms  {:<8} {} {}{}",
            Millis(e.t.0).to_string(),
            e.kind.lane(),
            sc.client_name(e.client),
            e.kind.name(),
            detail
        );
    }
    let _ = writeln!(out);
}

fn scenarios(args: &[String]) -> Result<ExitCode, Usage> {
    let json = match args {
        [] => false,
        [flag] if flag == "--json" => true,
        [other, ..] => return Err(Usage(format!("unexpected argument {other:?}; `scenarios` takes only --json"))),
    };
    if json {
        println!("{}", report::catalogue_json());
        return Ok(ExitCode::SUCCESS);
    }
    let width = catalogue::catalogue().iter().map(|s| s.id.len()).max().unwrap_or(0);
    for sc in catalogue::catalogue() {
        println!("{:<width$}  {}", sc.id, sc.title_en);
    }
    Ok(ExitCode::SUCCESS)
}
