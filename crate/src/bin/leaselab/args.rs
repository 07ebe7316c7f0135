//! The command line's definition: every command, flag and value, with the help clap prints for it
//! (`leaselab COMMAND --help`), its errors and the shells' completions, all from these types.
//! The values are parsed by `parsers.rs`; what depends on the scenario (a parameter's range, an axis,
//! an injection) is checked by the command itself.

use clap::{Args, Parser, Subcommand, ValueEnum};
use leaselab::Policy;

use crate::parsers;

/// Why a distributed lock alone does not protect data: a deterministic simulation of leases, pauses
/// and fencing tokens
#[derive(Parser)]
#[command(
    name = "leaselab",
    bin_name = "leaselab",
    version,
    arg_required_else_help = true,
    args_override_self = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    Run(RunArgs),
    Check(CheckArgs),
    Scenarios(ScenariosArgs),
    Sweep(SweepArgs),
    Search(SearchArgs),
    Matrix(MatrixArgs),
    Estimate(EstimateArgs),
    Completions(CompletionsArgs),
}

/// Runs one scenario and prints its transcript; the default is the seed's run, unfenced
///
/// Exit status: 1 when an update was lost, 0 when not, 2 on bad input.
#[derive(Args)]
pub struct RunArgs {
    /// The seed's argument: fenced is --fencing token, unfenced --fencing none
    #[arg(value_enum, value_name = "fenced|unfenced")]
    pub mode: Option<Mode>,
    /// A second mode: always a conflict, said as such
    #[arg(value_enum, hide = true)]
    pub again: Option<Mode>,
    #[command(flatten)]
    pub source: Source,
    /// The scenario's ttl parameter [default: the scenario's]
    #[arg(long, value_name = "DUR", value_parser = parsers::duration, allow_hyphen_values = true)]
    pub ttl: Option<u64>,
    /// The scenario's pause parameter [default: the scenario's]
    #[arg(long, value_name = "DUR", value_parser = parsers::duration, allow_hyphen_values = true)]
    pub pause: Option<u64>,
    /// The storage policy; must agree with fenced/unfenced if both are given [default: none]
    #[arg(long, value_name = "POLICY", value_parser = parsers::policy(), allow_hyphen_values = true)]
    pub fencing: Option<Policy>,
    #[command(flatten)]
    pub sets: Sets,
    /// A fault the scenario does not declare, at one value each (as search's --inject); repeatable
    #[arg(
        long,
        value_name = "KIND:TARGET,KEY=DUR...",
        allow_hyphen_values = true
    )]
    pub inject: Vec<String>,
    #[command(flatten)]
    pub engine: Engine,
    #[command(flatten)]
    pub output: RunOutput,
}

/// The seed's two modes.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    Fenced,
    Unfenced,
}

/// Where the scenario comes from: the catalogue, or a file of one's own.
#[derive(Args)]
#[group(id = "source", multiple = false)]
pub struct Source {
    /// A scenario id (leaselab scenarios) [default: seed-gc-pause]
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    pub scenario: Option<String>,
    /// A scenario file of your own (docs/scenario-format.md; - reads standard input)
    #[arg(long, value_name = "PATH", allow_hyphen_values = true)]
    pub file: Option<String>,
}

/// `--set NAME=DUR`, repeatable.
#[derive(Args)]
pub struct Sets {
    /// Any parameter of the scenario by name (--set retry=20ms); repeatable; checked against its range
    #[arg(long = "set", value_name = "NAME=DUR", value_parser = parsers::setting, allow_hyphen_values = true)]
    pub set: Vec<(String, u64)>,
}

/// How the clients behave: retries and the naive switch.
#[derive(Args)]
pub struct Engine {
    /// A refused client starts over (re-acquires, re-reads, redoes its work) up to N times, 0 to 10
    #[arg(long, value_name = "N", value_parser = parsers::retries, default_value_t = 0, allow_hyphen_values = true)]
    pub retries: u32,
    #[command(flatten)]
    pub naive: Naive,
}

/// `--naive`'s help: "The naive switch on — NAME: …; NAME: …" (scenarios of those services only).
fn naive_help() -> String {
    format!(
        "The naive switch on — {} ({} scenarios only)",
        leaselab::scenario::naive_meanings(),
        leaselab::scenario::naive_services()
    )
}

/// `--naive` / `--no-naive`: the last one given wins; without either, the scenario's setting.
#[derive(Args)]
#[group(id = "naive-switch", multiple = false)]
pub struct Naive {
    // Its help says what the switch does to each service that has one, as the services' homes word it.
    #[arg(long, overrides_with = "no_naive", help = naive_help())]
    pub naive: bool,
    /// The naive switch off where the scenario has it on (a service line that names an old version)
    #[arg(long, overrides_with = "naive")]
    pub no_naive: bool,
}

impl Naive {
    /// The switch as given: on, off, or the scenario's (`None`).
    pub fn given(&self) -> Option<bool> {
        match (self.naive, self.no_naive) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        }
    }
}

/// What `run` prints: the transcript, or one of these instead.
#[derive(Args)]
#[group(id = "run-output", multiple = false)]
pub struct RunOutput {
    /// Print the whole run as one JSON object instead (docs/run-json.md)
    #[arg(long)]
    pub json: bool,
    /// Print every event with its time first, then the transcript
    #[arg(long)]
    pub trace: bool,
    /// Print the run as an ITF trace instead, for Apalache's and Quint's tools
    #[arg(long)]
    pub itf: bool,
}

/// Checks a scenario file of your own: parses it, runs each expect line, prints one line about it
///
/// Exit status: 0 when the file is valid and every expectation holds, 1 when one does not (each
/// printed on stderr with its line), 2 when the file has errors, each printed as PATH:LINE:COL: message.
#[derive(Args)]
pub struct CheckArgs {
    /// The scenario file (docs/scenario-format.md); - reads standard input
    #[arg(value_name = "PATH", allow_hyphen_values = true)]
    pub path: String,
}

/// Lists every scenario id with its title, in catalogue order
#[derive(Args)]
pub struct ScenariosArgs {
    /// The whole catalogue as JSON; with --lang, that language's prose keyed by id
    #[arg(long)]
    pub json: bool,
    /// The titles (and with --json the prose) in this language
    #[arg(long, value_enum)]
    pub lang: Option<Lang>,
    /// The catalogue as Markdown, as docs/scenarios.md is; alone only
    #[arg(long, conflicts_with_all = ["json", "lang"])]
    pub markdown: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    En,
    Bn,
}

/// Runs a grid of two parameters and prints a row per cell (code 0 safe, 1 safe with a write refused,
/// 2 + i client i's update lost)
///
/// Each cell is exactly what `leaselab run` gives for its values; only the cells near a change are
/// actually run (docs/model.md, "Sweeps are exact").
#[derive(Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub source: Source,
    /// The storage policy
    #[arg(long, value_name = "POLICY", value_parser = parsers::policy(), default_value = "none", allow_hyphen_values = true)]
    pub fencing: Policy,
    /// The horizontal axis: a parameter, its range and 1-1024 steps [default: ttl=10ms..2s:64,
    /// clamped to the parameter's range]
    #[arg(long, value_name = "NAME=FROM..TO:STEPS", allow_hyphen_values = true)]
    pub x: Option<String>,
    /// The vertical axis, another parameter [default: pause=0..3s:64, likewise]
    #[arg(long, value_name = "NAME=FROM..TO:STEPS", allow_hyphen_values = true)]
    pub y: Option<String>,
    #[command(flatten)]
    pub sets: Sets,
    #[command(flatten)]
    pub engine: Engine,
    /// Run every cell (for checking the fast sweep)
    #[arg(long)]
    pub every_cell: bool,
    /// CSV with a header line, or one JSON object
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Csv,
    Json,
}

/// Decides every point of a grid exactly and prints the smallest one that loses an update, with its
/// transcript
///
/// A point's cost is the number of steps from the grid's first corner; ties go to the earlier --vary
/// or --inject. Exit status: 1 when some point loses an update, 0 when none does, 2 on bad input.
#[derive(Args)]
pub struct SearchArgs {
    #[command(flatten)]
    pub source: Source,
    /// The storage policy [default: none]
    #[arg(long, value_name = "POLICY", value_parser = parsers::policy(), allow_hyphen_values = true)]
    pub fencing: Option<Policy>,
    /// A dimension of the grid: the parameter NAME at FROM, FROM + STEP, … up to TO; repeatable
    #[arg(long, value_name = "NAME=FROM..TO:STEP", allow_hyphen_values = true)]
    pub vary: Vec<String>,
    /// A fault the scenario does not declare, whose values (RANGE: FROM..TO:STEP or one DUR) are
    /// dimensions of the grid: freeze:A,at=R,for=R | cut:A,at=R,for=R | delay:A-store,by=R |
    /// delay:A-n2,by=R | delay:lock,by=R | delay:store,by=R | step:A,at=R,back=R (or ahead=R) |
    /// crash:n1,at=R[,restart=R] | failover:server,at=R[,lag=R]; repeatable
    #[arg(
        long,
        value_name = "KIND:TARGET,KEY=RANGE...",
        allow_hyphen_values = true
    )]
    pub inject: Vec<String>,
    #[command(flatten)]
    pub sets: Sets,
    #[command(flatten)]
    pub engine: Engine,
    /// One JSON object instead of the text
    #[arg(long)]
    pub json: bool,
    /// Also write the counterexample's run to PATH as an ITF trace (nothing when the grid is safe)
    #[arg(long, value_name = "PATH", allow_hyphen_values = true)]
    pub itf: Option<String>,
}

/// The field's safety table: every lock service × fault kind × storage policy, each cell decided by
/// the exact search over the service's base scenario (table-NAME)
///
/// A cell is unsafe (with the smallest counterexample and the `leaselab run` arguments that
/// reproduce it), safe within the bounds (moments from 0 to the service's time constant T,
/// magnitudes up to 4 T — a slow link up to T, at most 100 s — in steps of T/100), or n/a with the
/// reason. Exit status 0, 2 on bad input.
#[derive(Args)]
pub struct MatrixArgs {
    /// A row: a lock service [default: every one]; repeatable
    #[arg(long, value_name = "NAME", value_parser = parsers::service(), allow_hyphen_values = true)]
    pub service: Vec<leaselab::scenario::ServiceKind>,
    /// A column: a fault kind [default: every one]; repeatable
    #[arg(long, value_name = "KIND", value_parser = parsers::fault(), allow_hyphen_values = true)]
    pub fault: Vec<leaselab::matrix::Fault>,
    /// A storage policy [default: every one]; repeatable
    #[arg(long, value_name = "POLICY", value_parser = parsers::policy(), allow_hyphen_values = true)]
    pub fencing: Vec<Policy>,
    /// One JSON object instead of the text (docs/matrix.md)
    #[arg(long)]
    pub json: bool,
}

/// How often, at my TTL and my GC pauses? A seeded Monte Carlo over the seed's run
///
/// Prints P(lost update) per operation with a 95 % interval, the expected lost updates per day, and
/// the catalogue's approximation (derived). Exit status 0 unless the input is bad.
#[derive(Args)]
pub struct EstimateArgs {
    /// The storage policy
    #[arg(long, value_name = "POLICY", value_parser = parsers::policy(), default_value = "none", allow_hyphen_values = true)]
    pub fencing: Policy,
    /// The lease [default: 30s]
    #[arg(long, value_name = "DUR", value_parser = parsers::duration, allow_hyphen_values = true)]
    pub ttl: Option<u64>,
    /// B's retry interval [default: 50ms]
    #[arg(long, value_name = "DUR", value_parser = parsers::duration, allow_hyphen_values = true)]
    pub retry: Option<u64>,
    /// B's read-to-write time [default: 0]
    #[arg(long, value_name = "DUR", value_parser = parsers::duration, allow_hyphen_values = true)]
    pub work: Option<u64>,
    #[command(flatten)]
    pub pauses: Pauses,
    /// Contenders per second (Poisson), or one always waiting [default: always]
    #[arg(long, value_name = "N|always", value_parser = parsers::rate, allow_hyphen_values = true)]
    pub rate: Option<f64>,
    /// Operations to simulate, 1 to 10^10
    #[arg(long, value_name = "N", value_parser = parsers::ops, default_value = "1000000", allow_hyphen_values = true)]
    pub ops: u64,
    /// Operations per day, to scale the result
    #[arg(long, value_name = "N", value_parser = parsers::number, default_value = "1000000", allow_hyphen_values = true)]
    pub per_day: f64,
    /// The generator's seed, decimal or 0x… [default: 0x1ea5e]
    #[arg(long, value_name = "N", value_parser = parsers::seed, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// One JSON object: the settings and ops, lost, simulated, over_range, p, low, high, analytic,
    /// per_day
    #[arg(long)]
    pub json: bool,
}

/// The pauses' distribution: a preset or one's own; the last one given wins.
#[derive(Args)]
#[group(id = "pauses", multiple = false)]
pub struct Pauses {
    /// A distribution from the catalogue, printed with its source [default: seed-ratio]
    #[arg(long, value_parser = parsers::preset(), overrides_with_all = ["pareto", "lognormal"])]
    pub preset: Option<String>,
    /// Pareto pauses from SCALE (a DUR) with that shape
    #[arg(long, value_name = "SCALE:SHAPE", value_parser = parsers::dur_pair, overrides_with_all = ["preset", "lognormal"], allow_hyphen_values = true)]
    pub pareto: Option<(f64, f64)>,
    /// Log-normal pauses with that median (a DUR) and sigma
    #[arg(long, value_name = "MEDIAN:SIGMA", value_parser = parsers::dur_pair, overrides_with_all = ["preset", "pareto"], allow_hyphen_values = true)]
    pub lognormal: Option<(f64, f64)>,
}

/// Prints the shell's completions for leaselab (see docs/cli.md for where to put them)
#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}
