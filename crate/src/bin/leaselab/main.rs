//! The `leaselab` command line: run a scenario (built in, or a user's file) and print the seed's
//! transcript, list scenarios, sweep, estimate, or check a scenario file.
//! A thin shell over the library: parse arguments, call `simulate`, print, exit 0 / 1 / 2.
// Every write goes through `stdout::stdout()`, which ends quietly when the reader has gone.
#![deny(clippy::print_stdout)]

mod stdout;

use std::io::Write as _;
use std::process::ExitCode;

use leaselab::catalogue;
use leaselab::inject::Injected;
use leaselab::report;
use leaselab::scenario::Scenario;
use leaselab::sim::RETRIES_MAX;
use leaselab::sweep::{Axis, AXIS_MAX};
use leaselab::time::{parse_duration, Millis};
use leaselab::{simulate, Config, Policy};

const USAGE: &str = "\
usage:
  leaselab run [fenced|unfenced] [--scenario ID | --file PATH] [--ttl DUR] [--pause DUR]
               [--fencing POLICY] [--set NAME=DUR]... [--inject KIND:TARGET,KEY=DUR...]...
               [--retries N] [--naive | --no-naive] [--json | --trace | --itf]
  leaselab check PATH
  leaselab scenarios [--json] [--lang en|bn] | leaselab scenarios --markdown
  leaselab sweep [--scenario ID | --file PATH] [--fencing POLICY] [--x NAME=FROM..TO:STEPS]
                 [--y NAME=FROM..TO:STEPS] [--set NAME=DUR]... [--retries N] [--naive | --no-naive]
                 [--every-cell] [--format csv|json]
  leaselab search [--scenario ID | --file PATH] [--fencing POLICY] --vary NAME=FROM..TO:STEP [--vary ...]
                  [--inject KIND:TARGET,KEY=RANGE...]... [--set NAME=DUR]... [--retries N]
                  [--naive | --no-naive] [--json] [--itf PATH]
  leaselab estimate [--fencing POLICY] [--ttl DUR] [--retry DUR] [--work DUR]
                    [--preset g1|cms-full|zgc|seed-ratio | --pareto SCALE:SHAPE | --lognormal MEDIAN:SIGMA]
                    [--rate N|always] [--ops N] [--per-day N] [--seed N] [--json]
  leaselab help

DUR is a number with unit ms or s (300ms, 0.3s, 30s); a bare number is milliseconds.
POLICY is one of: none, token, first-touch, version, etag, owner, equal-token (fenced = token, unfenced = none).
`estimate` draws pauses for the seed's run (Monte Carlo, seeded) and prints P(lost update) per operation
with a 95 % interval, the expected lost updates per day, and the catalogue's approximation (derived).
--naive: Redlock clients trust a majority of OKs without checking the validity left; etcd's lock
         returns without checking that the waiter's own key still exists (etcd 3.4). --no-naive turns
         it off where a scenario has it on (an etcd 3.4 scenario); by default, the scenario's setting.
`run` exits 1 when an update was lost, 0 when not, 2 on bad input.
--file PATH runs a scenario file (docs/scenario-format.md; `-` reads standard input). `check PATH`
parses it, runs its expectation lines and prints a summary: exit 0 when all hold, 1 when one does not,
2 when the file has errors, each printed as PATH:LINE:COL: message.
`sweep` runs a grid (default: ttl=10ms..2s:64 by pause=0..3s:64) and prints one row per cell:
code 0 safe, 1 safe with a write refused, 2+i client i's update lost. It runs only the cells where the
run's path changes and fills the rest (exact: tested against --every-cell, which runs every cell).
`search` decides every point of the --vary grid exactly and prints the smallest one that loses an
update (cost: the sum of the steps from each FROM; ties to the earlier --vary) and its transcript:
exit 1 when one does, 0 when none of the grid's points does, 2 on bad input.
--inject adds a fault the scenario does not declare, its values a grid's dimensions (RANGE is
FROM..TO:STEP or one DUR): freeze:A,at=R,for=R | delay:A-store,by=R | delay:A-n2,by=R (Redlock) |
delay:lock,by=R | delay:store,by=R | step:A,at=R,back=R (or ahead=R; A, server or a Redlock node n2).
Each adds parameters (freeze_A_at, freeze_A_for, delay_A_store, step_A_back, …); `run --inject`
takes one value each, to reproduce a point (docs/cli.md). `run --itf` prints the run as an ITF trace
(Apalache, Quint); `search --itf PATH` writes the counterexample's there (nothing when safe).";

/// A bad command line: one line on stderr, exit status 2.
struct Usage(String);

/// Why a command could not run: a bad command line, or a scenario file with errors (each line
/// `PATH:LINE:COL: message`). Exit status 2 either way.
enum Failure {
    Usage(Usage),
    File(Vec<String>),
}

impl From<Usage> for Failure {
    fn from(u: Usage) -> Failure {
        Failure::Usage(u)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(code) => code,
        Err(Failure::Usage(Usage(msg))) => {
            eprintln!("leaselab: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::File(lines)) => {
            for line in lines {
                eprintln!("{line}");
            }
            ExitCode::from(2)
        }
    }
}

fn dispatch(args: &[String]) -> Result<ExitCode, Failure> {
    match args.first().map(String::as_str) {
        None => {
            let _ = writeln!(stdout::stdout(), "{USAGE}");
            Ok(ExitCode::from(2))
        }
        Some("run") => run(&args[1..]),
        Some("check") => check(&args[1..]),
        Some("scenarios") => Ok(scenarios(&args[1..])?),
        Some("sweep") => sweep(&args[1..]),
        Some("search") => search(&args[1..]),
        Some("estimate") => Ok(estimate(&args[1..])?),
        Some("help" | "--help" | "-h") => {
            let _ = writeln!(stdout::stdout(), "{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        Some("--version" | "-V") => {
            let _ = writeln!(stdout::stdout(), "leaselab {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        Some(other) => Err(Usage(format!(
            "unknown command {other:?}; expected run, check, scenarios, sweep, search, estimate or help"
        ))
        .into()),
    }
}

/// Splits `--flag=value` and `--flag value`; returns the flag and its value.
fn take_value<'a>(
    flag: &str,
    inline: Option<&'a str>,
    rest: &mut impl Iterator<Item = &'a String>,
) -> Result<&'a str, Usage> {
    match inline {
        Some(v) => Ok(v),
        None => rest
            .next()
            .map(String::as_str)
            .ok_or_else(|| Usage(format!("{flag} needs a value"))),
    }
}

/// Splits `--flag=value` into the flag and its inline value; anything else is a flag alone.
fn split_flag(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((f, v)) if f.starts_with("--") => (f, Some(v)),
        _ => (arg, None),
    }
}

fn parse_fencing(v: &str) -> Result<Policy, Usage> {
    Policy::parse(v).map_err(|e| Usage(format!("--fencing: {e}")))
}

fn parse_retries(v: &str) -> Result<u32, Usage> {
    v.parse().ok().filter(|n| *n <= RETRIES_MAX).ok_or_else(|| {
        Usage(format!(
            "--retries: expected a whole number from 0 to {RETRIES_MAX}, got \"{v}\""
        ))
    })
}

/// `--set NAME=DUR` → (name, duration text).
fn parse_set(v: &str) -> Result<(String, String), Usage> {
    let (name, value) = v
        .split_once('=')
        .ok_or_else(|| Usage(format!("--set: expected NAME=DUR, got \"{v}\"")))?;
    Ok((name.to_string(), value.to_string()))
}

/// Applies parameter settings `(name, duration text, the flag that gave it)` to `params`.
fn apply_sets(
    sc: &Scenario,
    params: &mut [u64],
    sets: &[(String, String, &str)],
) -> Result<(), Usage> {
    for (name, value, flag) in sets {
        let us = parse_duration(value).map_err(|e| Usage(format!("{flag}: {e}")))?;
        sc.set_param(params, name, us)
            .map_err(|e| Usage(format!("{flag}: {e}")))?;
    }
    Ok(())
}

/// `--naive` / `--no-naive` only mean something for Redlock clients and etcd's lock; without either,
/// the scenario's default.
fn check_naive(sc: &Scenario, naive: Option<bool>) -> Result<bool, Usage> {
    if naive.is_some() && !sc.service.kind.has_naive() {
        return Err(Usage(format!(
            "--naive, --no-naive: scenario {} uses neither redlock nor etcd; the switch applies to those",
            sc.id
        )));
    }
    Ok(naive.unwrap_or(sc.service.naive_default))
}

/// What `run` was asked for.
#[derive(Default)]
struct RunArgs<'a> {
    /// `fenced` or `unfenced`, as the seed's script takes it.
    mode: Option<(&'a str, Policy)>,
    fencing: Option<Policy>,
    scenario_id: Option<&'a str>,
    file: Option<&'a str>,
    sets: Vec<(String, String, &'static str)>,
    /// `--inject KIND:TARGET,KEY=DUR…`: faults the scenario does not declare, one value each.
    injects: Vec<&'a str>,
    retries: u32,
    naive: Option<bool>,
    json: bool,
    trace: bool,
    /// Print the run as an ITF trace (Apalache, Quint).
    itf: bool,
}

fn parse_run_args(args: &[String]) -> Result<RunArgs<'_>, Usage> {
    let mut a = RunArgs::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = split_flag(arg);
        match flag {
            "fenced" | "unfenced" => {
                let policy = if flag == "fenced" {
                    Policy::Token
                } else {
                    Policy::None
                };
                if let Some((prev, _)) = a.mode {
                    return Err(Usage(format!(
                        "{prev:?} and {flag:?} conflict; give one of fenced or unfenced"
                    )));
                }
                a.mode = Some((flag, policy));
            }
            "--scenario" => a.scenario_id = Some(take_value(flag, inline, &mut it)?),
            "--file" => a.file = Some(take_value(flag, inline, &mut it)?),
            "--fencing" => a.fencing = Some(parse_fencing(take_value(flag, inline, &mut it)?)?),
            "--ttl" | "--pause" => {
                let v = take_value(flag, inline, &mut it)?;
                let name: &'static str = if flag == "--ttl" { "--ttl" } else { "--pause" };
                a.sets.push((flag[2..].to_string(), v.to_string(), name));
            }
            "--set" => {
                let (name, value) = parse_set(take_value(flag, inline, &mut it)?)?;
                a.sets.push((name, value, "--set"));
            }
            "--inject" => a.injects.push(take_value(flag, inline, &mut it)?),
            "--retries" => a.retries = parse_retries(take_value(flag, inline, &mut it)?)?,
            "--naive" => a.naive = Some(true),
            "--no-naive" => a.naive = Some(false),
            "--json" => a.json = true,
            "--trace" => a.trace = true,
            "--itf" => a.itf = true,
            other if other.starts_with('-') => {
                return Err(Usage(format!(
                    "unknown option {other:?}; see `leaselab help`"
                )));
            }
            other => {
                return Err(Usage(format!(
                    "unexpected argument {other:?}; expected fenced, unfenced or an option"
                )));
            }
        }
    }
    if u8::from(a.json) + u8::from(a.trace) + u8::from(a.itf) > 1 {
        return Err(Usage("--json, --trace and --itf conflict; give one".into()));
    }
    one_source(a.scenario_id, a.file)?;
    Ok(a)
}

/// The storage policy from `fenced`/`unfenced` and `--fencing`, which must agree when both are given.
fn run_policy(a: &RunArgs) -> Result<Policy, Usage> {
    Ok(match (a.mode, a.fencing) {
        (Some((m, p)), Some(f)) if p != f => {
            return Err(Usage(format!(
                "{m:?} conflicts with --fencing {}; give one",
                f.name()
            )));
        }
        (_, Some(f)) => f,
        (Some((_, p)), None) => p,
        (None, None) => Policy::None,
    })
}

/// `--scenario` and `--file` name the scenario two ways: one at most.
fn one_source(id: Option<&str>, file: Option<&str>) -> Result<(), Usage> {
    if id.is_some() && file.is_some() {
        return Err(Usage("--scenario and --file conflict; give one".into()));
    }
    Ok(())
}

/// The text of a scenario file (`-`: standard input), or why it cannot be read, located.
fn read_scenario(path: &str) -> Result<String, Failure> {
    let text = if path == "-" {
        leaselab::check::read_text(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| Usage(format!("--file: cannot read \"{path}\": {e}")))?;
        leaselab::check::read_text(file)
    };
    text.map_err(|d| Failure::File(vec![d.located(shown_path(path))]))
}

/// How errors name a file: standard input as `<stdin>`.
fn shown_path(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// A scenario file, parsed; every error in it, located, if it does not parse.
fn load_scenario(path: &str) -> Result<Scenario, Failure> {
    let text = read_scenario(path)?;
    leaselab::check::parse(&text).map_err(|errors| {
        let errors = errors.iter().map(|d| d.located(shown_path(path)));
        Failure::File(errors.collect())
    })
}

/// The scenario `--file` reads, or else the catalogue's `--scenario` (by default the seed's).
fn scenario_for<'c>(
    file: Option<&str>,
    id: Option<&str>,
    owned: &'c mut Option<Scenario>,
) -> Result<&'c Scenario, Failure> {
    if let Some(path) = file {
        return Ok(owned.insert(load_scenario(path)?));
    }
    Ok(catalogue::find(id.unwrap_or(catalogue::DEFAULT_ID))
        .map_err(|e| Usage(format!("--scenario: {e}")))?)
}

/// `check PATH`: the file's errors (exit 2), or a summary and the expectation lines that do not hold
/// (exit 1 if any, else 0).
fn check(args: &[String]) -> Result<ExitCode, Failure> {
    let [path] = args else {
        return Err(Usage(
            "check takes one argument: the scenario file (or - for standard input)".into(),
        )
        .into());
    };
    let sc = load_scenario(path)?;
    let verdicts = leaselab::check::check_expectations(&sc);
    let shown = shown_path(path);
    let problems: Vec<String> = verdicts
        .iter()
        .filter_map(|v| v.diagnostic())
        .map(|d| d.located(shown))
        .collect();
    if verdicts.iter().any(|v| v.is_error()) {
        return Err(Failure::File(problems));
    }
    for line in &problems {
        eprintln!("{line}");
    }
    let _ = writeln!(
        stdout::stdout(),
        "{shown}: {}",
        leaselab::check::summary(&sc, &verdicts)
    );
    Ok(ExitCode::from(u8::from(!problems.is_empty())))
}

fn run(args: &[String]) -> Result<ExitCode, Failure> {
    let a = parse_run_args(args)?;
    let policy = run_policy(&a)?;
    let mut owned = None;
    let sc = scenario_for(a.file, a.scenario_id, &mut owned)?;
    let inj = run_injections(sc, &a.injects)?;
    let sc = inj.as_ref().map_or(sc, |i| &i.scenario);
    let mut cfg = Config::new(sc, policy);
    cfg.retries = a.retries;
    cfg.naive = check_naive(sc, a.naive)?;
    apply_sets(sc, &mut cfg.params, &a.sets)?;
    let at = inj.as_ref().map(|i| i.scenario_at(&cfg.params));
    let sc = at.as_ref().unwrap_or(sc);
    let outcome = simulate(sc, &cfg).map_err(|e| Usage(e.to_string()))?;
    let mut out = stdout::stdout();
    if a.json {
        let _ = writeln!(out, "{}", report::json(&outcome));
    } else if a.itf {
        let _ = writeln!(out, "{}", report::itf(&outcome));
    } else {
        if a.trace {
            print_trace(&mut out, sc, &outcome);
        }
        for line in report::transcript(&outcome) {
            let _ = writeln!(out, "{line}");
        }
    }
    Ok(ExitCode::from(report::exit_code(&outcome) as u8))
}

/// `run --inject`: the scenario with these faults, each at one value (`None` without any).
fn run_injections(sc: &Scenario, injects: &[&str]) -> Result<Option<Injected>, Usage> {
    if injects.is_empty() {
        return Ok(None);
    }
    let mut inj = Injected::none(sc);
    for text in injects {
        inj.add(text).map_err(|e| Usage(format!("--inject: {e}")))?;
    }
    if let Some(d) = inj.dims.iter().find(|d| d.count > 1) {
        let name = &inj.scenario.params[d.param].name;
        return Err(Usage(format!(
            "--inject: {name} has {} values; run takes one (KEY=DUR), search a range",
            d.count
        )));
    }
    Ok(Some(inj))
}

fn print_trace(out: &mut impl std::io::Write, sc: &Scenario, o: &leaselab::Outcome) {
    use leaselab::trace::Kind;
    for e in &o.run.trace {
        let kind = e.kind();
        // Events of the lock servers themselves name the server; others name the client.
        let server = matches!(
            kind,
            Kind::ServerClockStep | Kind::NodeCrashed | Kind::NodeRestarted | Kind::Failover
        );
        let redlock = sc.service.nodes > 1 && kind.lane() == "lock" && kind != Kind::Partition;
        let actor = match (server, redlock) {
            (true, true) => format!("n{}", e.node + 1),
            (true, false) => "server".to_string(),
            (false, true) => format!("{} @n{}", sc.client_name(e.client), e.node + 1),
            (false, false) => sc.client_name(e.client).to_string(),
        };
        let (t, lane, name) = (Millis(e.t.0).to_string(), kind.lane(), kind.name());
        let detail = trace_detail(e.what);
        let _ = writeln!(out, "{t:>10} ms  {lane:<8} {actor} {name}{detail}");
    }
    let _ = writeln!(out);
}

/// The facts `--trace` prints after an event's name: its token, the value read or written, why it
/// was refused, a Redlock round's count and validity.
fn trace_detail(what: leaselab::trace::What) -> String {
    use leaselab::store::Refusal;
    use leaselab::trace::What;
    let (token, value, reason) = match what {
        What::Granted { token, .. } | What::LeaseExpired { token } => (token, None, None),
        What::PauseStart { token, .. } => (token, None, None),
        What::Read { token, value, .. } | What::WriteSent { token, value, .. } => {
            (token, Some(value), None)
        }
        What::WriteAccepted { token, value } => (token, Some(value), None),
        What::WriteRejected {
            token,
            value,
            reason,
        } => (token, Some(value), Some(reason)),
        What::ReadRejected { token, reason } => (token, None, Some(reason)),
        What::Denied {
            session_gone: true, ..
        } => (0, None, Some(Refusal::SessionGone)),
        _ => (0, None, None),
    };
    let mut detail = String::new();
    if token != 0 {
        detail.push_str(&format!(" tok={token}"));
    }
    if let Some(v) = value {
        detail.push_str(&format!(" value={v}"));
    }
    if let Some(r) = reason {
        detail.push_str(&format!(" ({})", r.name()));
    }
    if let What::Round {
        granted_nodes,
        validity_us,
        ..
    } = what
    {
        detail.push_str(&format!(" nodes={granted_nodes} validity_us={validity_us}"));
    }
    detail
}

/// What `estimate` was asked for.
struct EstimateArgs {
    spec: leaselab::estimate::Spec,
    ops: u64,
    per_day: f64,
    json: bool,
    /// Where the pause distribution's numbers come from (a preset's source), or empty.
    source: &'static str,
}

/// A non-negative finite number.
fn number(flag: &str, v: &str) -> Result<f64, Usage> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| Usage(format!("{flag}: expected a number ≥ 0, got \"{v}\"")))
}

/// `DUR:NUMBER`, a distribution's scale (µs) and shape.
fn dur_pair(flag: &str, v: &str) -> Result<(f64, f64), Usage> {
    let (a, b) = v.split_once(':').ok_or_else(|| {
        Usage(format!(
            "{flag}: expected DUR:NUMBER like 50ms:2, got \"{v}\""
        ))
    })?;
    let a = parse_duration(a).map_err(|e| Usage(format!("{flag}: {e}")))?;
    Ok((a as f64, number(flag, b)?))
}

/// `estimate`'s options that take a value.
const ESTIMATE_FLAGS: &[&str] = &[
    "--fencing",
    "--ttl",
    "--retry",
    "--work",
    "--preset",
    "--pareto",
    "--lognormal",
    "--rate",
    "--ops",
    "--per-day",
    "--seed",
];

fn parse_estimate_args(args: &[String]) -> Result<EstimateArgs, Usage> {
    use leaselab::estimate::{preset_of, PauseDist, Spec, PRESETS};
    let spec = Spec::new(Policy::None);
    let source = preset_of(&spec.dist).map_or("", |p| p.source);
    let mut a = EstimateArgs {
        spec,
        ops: 1_000_000,
        per_day: 1_000_000.0,
        json: false,
        source,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = split_flag(arg);
        if flag == "--json" {
            a.json = true;
            continue;
        }
        if !ESTIMATE_FLAGS.contains(&flag) {
            return Err(Usage(format!(
                "unknown option {flag:?}; see `leaselab help`"
            )));
        }
        let v = take_value(flag, inline, &mut it)?;
        match flag {
            "--fencing" => a.spec.policy = parse_fencing(v)?,
            "--ttl" | "--retry" | "--work" => {
                let us = parse_duration(v).map_err(|e| Usage(format!("{flag}: {e}")))?;
                match flag {
                    "--ttl" => a.spec.ttl_us = us,
                    "--retry" => a.spec.retry_us = us,
                    _ => a.spec.work_us = us,
                }
            }
            "--preset" => {
                let p = PRESETS.iter().find(|p| p.id == v).ok_or_else(|| {
                    let known: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
                    Usage(format!(
                        "--preset: unknown preset \"{v}\"; expected one of {}",
                        known.join(", ")
                    ))
                })?;
                (a.spec.dist, a.source) = (p.dist, p.source);
            }
            "--pareto" => {
                let (scale_us, shape) = dur_pair(flag, v)?;
                (a.spec.dist, a.source) = (PauseDist::Pareto { scale_us, shape }, "");
            }
            "--lognormal" => {
                let (median_us, sigma) = dur_pair(flag, v)?;
                (a.spec.dist, a.source) = (PauseDist::LogNormal { median_us, sigma }, "");
            }
            "--rate" => a.spec.rate_per_s = parse_rate(v)?,
            "--ops" => {
                a.ops = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=10_000_000_000u64).contains(n))
                    .ok_or_else(|| Usage(format!("--ops: expected 1 to 1e10, got \"{v}\"")))?;
            }
            "--per-day" => a.per_day = number(flag, v)?,
            "--seed" => a.spec.seed = parse_seed(v)?,
            _ => unreachable!("every flag of ESTIMATE_FLAGS has an arm"),
        }
    }
    Ok(a)
}

/// Contenders per second, or `always` (0: one always waiting).
fn parse_rate(v: &str) -> Result<f64, Usage> {
    if v == "always" {
        return Ok(0.0);
    }
    let rate = number("--rate", v)?;
    if rate == 0.0 {
        return Err(Usage(
            "--rate: 0 contenders never conflict; give a positive rate or `always`".into(),
        ));
    }
    Ok(rate)
}

/// A seed in decimal or `0x` hexadecimal.
fn parse_seed(v: &str) -> Result<u64, Usage> {
    let parsed = match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    };
    parsed.ok_or_else(|| {
        Usage(format!(
            "--seed: expected a whole number (or 0x…), got \"{v}\""
        ))
    })
}

fn estimate(args: &[String]) -> Result<ExitCode, Usage> {
    use leaselab::estimate::Estimator;
    let a = parse_estimate_args(args)?;
    let mut est = Estimator::new(a.spec).map_err(|e| Usage(e.to_string()))?;
    est.step(a.ops).map_err(|e| Usage(e.to_string()))?;
    let r = est.result();
    let mut out = stdout::stdout();
    if a.json {
        let _ = writeln!(out, "{}", report::estimate_json(&a.spec, &r, a.per_day));
    } else {
        print_estimate(&mut out, &a, &r);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_estimate(
    out: &mut impl std::io::Write,
    a: &EstimateArgs,
    r: &leaselab::estimate::Estimate,
) {
    use leaselab::estimate::PauseDist;
    let (spec, per_day) = (&a.spec, a.per_day);
    let dist = match spec.dist {
        PauseDist::Pareto { scale_us, shape } => {
            format!("Pareto from {} ms, shape {shape}", Millis(scale_us as u64))
        }
        PauseDist::LogNormal { median_us, sigma } => {
            format!(
                "log-normal, median {} ms, sigma {sigma}",
                Millis(median_us as u64)
            )
        }
    };
    let contender = if spec.rate_per_s == 0.0 {
        "a contender always waiting".to_string()
    } else {
        format!("{} contenders/s", spec.rate_per_s)
    };
    let _ = writeln!(
        out,
        "P(lost update) per operation: {:.3e} (95% interval {:.3e} – {:.3e}); {} of {} operations",
        r.p, r.low, r.high, r.lost, r.ops
    );
    let _ = writeln!(
        out,
        "lost updates per day at {per_day} operations/day: {:.3} ({:.3} – {:.3})",
        r.p * per_day,
        r.low * per_day,
        r.high * per_day
    );
    let _ = writeln!(out, "approximation (derived): {:.3e}", r.analytic);
    let _ = writeln!(
        out,
        "pauses: {dist}; {contender}; TTL {} ms; retry {} ms; B's work {} ms; fencing {}; seed {:#x}",
        Millis(spec.ttl_us),
        Millis(spec.retry_us),
        Millis(spec.work_us),
        spec.policy.name(),
        spec.seed
    );
    if !a.source.is_empty() {
        let _ = writeln!(out, "preset: {}", a.source);
    }
    let _ = writeln!(out, "run by the engine: {} operations (the rest provably safe); pauses over an hour, counted as lost: {}", r.simulated, r.over_range);
}

fn scenarios(args: &[String]) -> Result<ExitCode, Usage> {
    let (mut json, mut lang) = (false, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            // The catalogue as docs/scenarios.md (English only), generated so it cannot drift.
            // (`wasm-pack test` builds this binary for wasm too, where the module is left out.)
            #[cfg(not(target_arch = "wasm32"))]
            "--markdown" if args.len() == 1 => {
                let _ = write!(stdout::stdout(), "{}", leaselab::report::markdown::scenarios());
                return Ok(ExitCode::SUCCESS);
            }
            "--lang" => match it.next().map(String::as_str) {
                Some(l @ ("en" | "bn")) => lang = Some(l),
                Some(other) => {
                    return Err(Usage(format!(
                        "--lang: unknown language {other:?}; expected en or bn"
                    )))
                }
                None => return Err(Usage("--lang: missing value; expected en or bn".into())),
            },
            other => {
                return Err(Usage(format!(
                    "unexpected argument {other:?}; `scenarios` takes --json and --lang en|bn, or --markdown alone"
                )))
            }
        }
    }
    if json {
        // The whole catalogue; or, with --lang, that language's prose keyed by id (the file the page
        // loads beside the wasm).
        let out = match lang.and_then(report::catalogue_texts_json) {
            Some(texts) => texts,
            None => report::catalogue_json(),
        };
        let _ = writeln!(stdout::stdout(), "{out}");
        return Ok(ExitCode::SUCCESS);
    }
    let width = catalogue::catalogue()
        .iter()
        .map(|s| s.id.len())
        .max()
        .unwrap_or(0);
    let mut out = stdout::stdout();
    for sc in catalogue::catalogue() {
        let title = if lang == Some("bn") {
            &sc.title_bn
        } else {
            &sc.title_en
        };
        let _ = writeln!(out, "{:<width$}  {}", sc.id, title);
    }
    Ok(ExitCode::SUCCESS)
}

/// `NAME=FROM..TO:STEPS`, e.g. `ttl=10ms..2s:256`.
fn parse_axis(flag: &str, text: &str, sc: &Scenario) -> Result<Axis, Usage> {
    let bad = |why: String| Usage(format!("{flag}: {why}"));
    let (name, rest) = text
        .split_once('=')
        .ok_or_else(|| bad(format!("expected NAME=FROM..TO:STEPS, got \"{text}\"")))?;
    let (range, steps) = rest
        .rsplit_once(':')
        .ok_or_else(|| bad("missing :STEPS".into()))?;
    let (from, to) = range
        .split_once("..")
        .ok_or_else(|| bad("expected FROM..TO".into()))?;
    let from = parse_duration(from).map_err(|e| bad(e.to_string()))?;
    let to = parse_duration(to).map_err(|e| bad(e.to_string()))?;
    let steps: usize = steps
        .parse()
        .ok()
        .filter(|n| (1..=AXIS_MAX).contains(n))
        .ok_or_else(|| {
            bad(format!(
                "STEPS must be a whole number from 1 to {AXIS_MAX}, got \"{steps}\""
            ))
        })?;
    Axis::new(sc, name, from, to, steps).map_err(|e| bad(e.to_string()))
}

/// What `sweep` was asked for.
struct SweepArgs<'a> {
    scenario_id: Option<&'a str>,
    file: Option<&'a str>,
    policy: Policy,
    x: Option<&'a str>,
    y: Option<&'a str>,
    sets: Vec<(String, String, &'static str)>,
    retries: u32,
    naive: Option<bool>,
    json: bool,
    every_cell: bool,
}

fn parse_sweep_args(args: &[String]) -> Result<SweepArgs<'_>, Usage> {
    let mut a = SweepArgs {
        scenario_id: None,
        file: None,
        policy: Policy::None,
        x: None,
        y: None,
        sets: Vec::new(),
        retries: 0,
        naive: None,
        json: false,
        every_cell: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = split_flag(arg);
        match flag {
            "--scenario" => a.scenario_id = Some(take_value(flag, inline, &mut it)?),
            "--file" => a.file = Some(take_value(flag, inline, &mut it)?),
            "--fencing" => a.policy = parse_fencing(take_value(flag, inline, &mut it)?)?,
            "--every-cell" => a.every_cell = true,
            "--x" => a.x = Some(take_value(flag, inline, &mut it)?),
            "--y" => a.y = Some(take_value(flag, inline, &mut it)?),
            "--set" => {
                let (name, value) = parse_set(take_value(flag, inline, &mut it)?)?;
                a.sets.push((name, value, "--set"));
            }
            "--retries" => a.retries = parse_retries(take_value(flag, inline, &mut it)?)?,
            "--naive" => a.naive = Some(true),
            "--no-naive" => a.naive = Some(false),
            "--format" => {
                a.json = match take_value(flag, inline, &mut it)? {
                    "csv" => false,
                    "json" => true,
                    other => {
                        return Err(Usage(format!(
                            "--format: expected csv or json, got \"{other}\""
                        )))
                    }
                }
            }
            other => {
                return Err(Usage(format!(
                    "unexpected argument \"{other}\"; see `leaselab help`"
                )))
            }
        }
    }
    Ok(a)
}

/// The axis a `--x`/`--y` gives, or the default one (`name` from `from` to `to` in 64 steps, within
/// the parameter's range).
fn sweep_axis(
    flag: &str,
    spec: Option<&str>,
    sc: &Scenario,
    (name, from, to): (&str, u64, u64),
) -> Result<Axis, Usage> {
    if let Some(text) = spec {
        return parse_axis(flag, text, sc);
    }
    let i = sc.param_index(name).ok_or_else(|| {
        Usage(format!(
            "scenario {} has no parameter {name}; give --x/--y (it has: {})",
            sc.id,
            sc.param_names()
        ))
    })?;
    let p = &sc.params[i];
    Axis::new(
        sc,
        name,
        from.clamp(p.min_us, p.max_us),
        to.clamp(p.min_us, p.max_us),
        64,
    )
    .map_err(|e| Usage(e.to_string()))
}

fn sweep(args: &[String]) -> Result<ExitCode, Failure> {
    let a = parse_sweep_args(args)?;
    one_source(a.scenario_id, a.file)?;
    let mut owned = None;
    let sc = scenario_for(a.file, a.scenario_id, &mut owned)?;
    let mut params = sc.defaults();
    apply_sets(sc, &mut params, &a.sets)?;
    let x = sweep_axis("--x", a.x, sc, ("ttl", 10_000, 2_000_000))?;
    let y = sweep_axis("--y", a.y, sc, ("pause", 0, 3_000_000))?;
    if x.param == y.param {
        return Err(Usage("--x and --y must be different parameters".into()).into());
    }
    let mut cells = Vec::new();
    let base = Config {
        params,
        retries: a.retries,
        naive: check_naive(sc, a.naive)?,
        ..Config::new(sc, a.policy)
    };
    let run = if a.every_cell {
        leaselab::sweep::sweep_every_cell
    } else {
        leaselab::sweep::sweep
    };
    run(sc, &base, &x, &y, &mut cells).map_err(|e| Usage(e.to_string()))?;
    let mut out = stdout::stdout();
    if a.json {
        let _ = writeln!(out, "{}", sweep_json(sc, a.policy, &x, &y, &cells));
    } else {
        print_sweep_csv(&mut out, sc, &x, &y, &cells);
    }
    Ok(ExitCode::SUCCESS)
}

fn sweep_json(
    sc: &Scenario,
    policy: Policy,
    x: &Axis,
    y: &Axis,
    cells: &[leaselab::outcome::Summary],
) -> String {
    let (xn, yn) = (&sc.params[x.param].name, &sc.params[y.param].name);
    let mut j = report::Json::new();
    j.begin_obj();
    j.key("scenario").str(&sc.id);
    j.key("fencing").str(policy.name());
    j.key("x").str(xn);
    j.key("y").str(yn);
    j.key("cells").begin_arr();
    for (i, c) in cells.iter().enumerate() {
        let (xi, yi) = (i % x.steps, i / x.steps);
        j.begin_obj();
        j.key(&format!("{xn}_ms")).ms(x.value(xi));
        j.key(&format!("{yn}_ms")).ms(y.value(yi));
        j.key("final").int(c.final_balance);
        j.key("lost_update").bool(c.lost_update);
        j.key("code").int(i64::from(c.code()));
        j.end_obj();
    }
    j.end_arr();
    j.end_obj();
    j.finish()
}

fn print_sweep_csv(
    out: &mut impl std::io::Write,
    sc: &Scenario,
    x: &Axis,
    y: &Axis,
    cells: &[leaselab::outcome::Summary],
) {
    let (xn, yn) = (&sc.params[x.param].name, &sc.params[y.param].name);
    let _ = writeln!(out, "{xn}_ms,{yn}_ms,final,lost_update,code");
    for (i, c) in cells.iter().enumerate() {
        let (xi, yi) = (i % x.steps, i / x.steps);
        let (xv, yv) = (Millis(x.value(xi)), Millis(y.value(yi)));
        let _ = writeln!(
            out,
            "{xv},{yv},{},{},{}",
            c.final_balance,
            c.lost_update,
            c.code()
        );
    }
}

/// What `search` was asked for.
#[derive(Default)]
struct SearchArgs<'a> {
    scenario_id: Option<&'a str>,
    file: Option<&'a str>,
    policy: Option<Policy>,
    /// The `--vary` (false) and `--inject` (true) flags, in the order given: the tie order.
    axes: Vec<(bool, &'a str)>,
    sets: Vec<(String, String, &'static str)>,
    retries: u32,
    naive: Option<bool>,
    json: bool,
    /// Write the counterexample's run as an ITF trace to this file.
    itf: Option<&'a str>,
}

fn parse_search_args(args: &[String]) -> Result<SearchArgs<'_>, Usage> {
    let mut a = SearchArgs::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = split_flag(arg);
        match flag {
            "--scenario" => a.scenario_id = Some(take_value(flag, inline, &mut it)?),
            "--file" => a.file = Some(take_value(flag, inline, &mut it)?),
            "--fencing" => a.policy = Some(parse_fencing(take_value(flag, inline, &mut it)?)?),
            "--vary" => a.axes.push((false, take_value(flag, inline, &mut it)?)),
            "--inject" => a.axes.push((true, take_value(flag, inline, &mut it)?)),
            "--set" => {
                let (name, value) = parse_set(take_value(flag, inline, &mut it)?)?;
                a.sets.push((name, value, "--set"));
            }
            "--retries" => a.retries = parse_retries(take_value(flag, inline, &mut it)?)?,
            "--naive" => a.naive = Some(true),
            "--no-naive" => a.naive = Some(false),
            "--json" => a.json = true,
            "--itf" => a.itf = Some(take_value(flag, inline, &mut it)?),
            other => {
                return Err(Usage(format!(
                    "unexpected argument \"{other}\"; see `leaselab help`"
                )))
            }
        }
    }
    if a.axes.is_empty() {
        return Err(Usage(
            "search needs at least one --vary NAME=FROM..TO:STEP or --inject KIND:TARGET,KEY=RANGE"
                .into(),
        ));
    }
    one_source(a.scenario_id, a.file)?;
    Ok(a)
}

/// `NAME=FROM..TO:STEP`, e.g. `pause=0..2s:10ms`: the values FROM, FROM + STEP, … up to TO.
fn parse_vary(text: &str, sc: &Scenario) -> Result<leaselab::search::Dim, Usage> {
    let bad = |why: String| Usage(format!("--vary: {why}"));
    let expected = || bad(format!("expected NAME=FROM..TO:STEP, got \"{text}\""));
    let (name, rest) = text.split_once('=').ok_or_else(expected)?;
    let (range, step) = rest.rsplit_once(':').ok_or_else(expected)?;
    let (from, to) = range.split_once("..").ok_or_else(expected)?;
    let dur = |v: &str| parse_duration(v).map_err(|e| bad(e.to_string()));
    leaselab::search::Dim::new(sc, name, dur(from)?, dur(to)?, dur(step)?)
        .map_err(|e| bad(e.to_string()))
}

/// The scenario with the `--inject`ed faults, and the grid's dimensions in the order the flags came.
fn search_grid(
    sc: &Scenario,
    axes: &[(bool, &str)],
) -> Result<(Injected, Vec<leaselab::search::Dim>), Usage> {
    let mut inj = Injected::none(sc);
    let mut dims = Vec::new();
    for &(inject, text) in axes {
        if inject {
            let n = inj.add(text).map_err(|e| Usage(format!("--inject: {e}")))?;
            dims.extend_from_slice(&inj.dims[inj.dims.len() - n..]);
        } else {
            dims.push(parse_vary(text, &inj.scenario)?);
        }
    }
    Ok((inj, dims))
}

fn search(args: &[String]) -> Result<ExitCode, Failure> {
    let a = parse_search_args(args)?;
    let mut owned = None;
    let sc = scenario_for(a.file, a.scenario_id, &mut owned)?;
    let (inj, dims) = search_grid(sc, &a.axes)?;
    let sc = &inj.scenario;
    if let Some((name, ..)) = a.sets.iter().find(|(name, ..)| {
        let i = sc.param_index(name);
        dims.iter().any(|d| Some(d.param) == i)
    }) {
        return Err(Usage(format!("--set: {name} is also varied; give it one way")).into());
    }
    let mut base = Config::new(sc, a.policy.unwrap_or(Policy::None));
    (base.retries, base.naive) = (a.retries, check_naive(sc, a.naive)?);
    apply_sets(sc, &mut base.params, &a.sets)?;
    let found =
        leaselab::search::search_injected(&inj, &base, &dims).map_err(|e| Usage(e.to_string()))?;
    // The counterexample's scenario: injected clock steps written in at its point.
    let at = found
        .counterexample
        .as_ref()
        .map(|c| inj.scenario_at(&c.params));
    let outcome = match (&found.counterexample, &at) {
        (Some(c), Some(at)) => {
            let cfg = Config {
                params: c.params.clone(),
                ..base.clone()
            };
            Some(simulate(at, &cfg).map_err(|e| Usage(e.to_string()))?)
        }
        _ => None,
    };
    if let (Some(path), Some(o)) = (a.itf, &outcome) {
        std::fs::write(path, report::itf(o) + "\n")
            .map_err(|e| Usage(format!("--itf: cannot write \"{path}\": {e}")))?;
    }
    let mut out = stdout::stdout();
    if a.json {
        let _ = writeln!(
            out,
            "{}",
            report::search_json(&found, &dims, outcome.as_ref())
        );
    } else {
        print_search(&mut out, &found, &dims, outcome.as_ref());
    }
    Ok(ExitCode::from(u8::from(outcome.is_some())))
}

/// The summary line, then the counterexample's transcript.
fn print_search(
    out: &mut impl std::io::Write,
    found: &leaselab::search::Found,
    dims: &[leaselab::search::Dim],
    outcome: Option<&leaselab::Outcome>,
) {
    let (n, runs) = (found.combinations, found.runs);
    let (Some(c), Some(o)) = (&found.counterexample, outcome) else {
        let behaviours = found.behaviours.as_ref().map_or(0, Vec::len);
        let _ = writeln!(
            out,
            "no lost update at any of the grid's {n} combinations \
             (at least {behaviours} distinct behaviours, {runs} engine runs)"
        );
        return;
    };
    let at: Vec<String> = dims
        .iter()
        .map(|d| {
            let name = &o.scenario.params[d.param].name;
            format!("{name}={}ms", Millis(c.params[d.param]))
        })
        .collect();
    let _ = writeln!(
        out,
        "lost update: the smallest of {n} combinations is {} (cost {}; {runs} engine runs)",
        at.join(" "),
        c.cost
    );
    for line in report::transcript(o) {
        let _ = writeln!(out, "{line}");
    }
}
