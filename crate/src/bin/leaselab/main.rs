//! The `leaselab` command line: run a scenario (built in, or a user's file) and print the seed's
//! transcript, list scenarios, sweep, search, estimate, check a scenario file, or print the shell's
//! completions. A thin shell over the library: parse arguments (clap, `args.rs`), call `simulate`,
//! print, exit 0 / 1 / 2.
// Every write goes through `stdout::stdout()`, which ends quietly when the reader has gone.
#![deny(clippy::print_stdout)]

// The command line is native only: clap is not a dependency of the wasm builds (`wasm-pack test`
// builds this binary for wasm too, where it is an empty `main`).
#[cfg(not(target_arch = "wasm32"))]
mod args;
#[cfg(not(target_arch = "wasm32"))]
mod check;
#[cfg(not(target_arch = "wasm32"))]
mod completions;
#[cfg(not(target_arch = "wasm32"))]
mod estimate;
#[cfg(not(target_arch = "wasm32"))]
mod failure;
#[cfg(not(target_arch = "wasm32"))]
mod matrix;
#[cfg(not(target_arch = "wasm32"))]
mod parsers;
#[cfg(not(target_arch = "wasm32"))]
mod run;
#[cfg(not(target_arch = "wasm32"))]
mod scenarios;
#[cfg(not(target_arch = "wasm32"))]
mod search;
#[cfg(not(target_arch = "wasm32"))]
mod source;
#[cfg(not(target_arch = "wasm32"))]
mod stdout;
#[cfg(not(target_arch = "wasm32"))]
mod sweep;
#[cfg(not(target_arch = "wasm32"))]
mod trace;
#[cfg(not(target_arch = "wasm32"))]
mod usage;

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::FromArgMatches as _;
    let mut cmd = usage::command();
    let parsed = cmd
        .try_get_matches_from_mut(std::env::args_os())
        .and_then(|m| Ok((args::Cli::from_arg_matches(&m)?, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            // The command the error is about, to point at its help.
            let first = std::env::args_os()
                .nth(1)
                .and_then(|a| a.into_string().ok());
            let command = first.filter(|c| c != "help" && cmd.find_subcommand(c).is_some());
            return failure::clap_error(&e, command.as_deref());
        }
    };
    let Some((_, sub)) = matches.subcommand() else {
        // clap requires a command; were it ever missing, that is bad input too.
        return failure::report(failure::Failure::Usage("missing command".into()));
    };
    failure::exit(dispatch(cli.command, sub, &cmd))
}

/// Runs the command; `m` is its own matches (for the order of repeated flags), `cmd` the whole
/// command line's definition, built (for the completions).
#[cfg(not(target_arch = "wasm32"))]
fn dispatch(
    command: args::Command,
    m: &clap::ArgMatches,
    cmd: &clap::Command,
) -> Result<std::process::ExitCode, failure::Failure> {
    use args::Command;
    match command {
        Command::Run(a) => run::run(&a, m),
        Command::Check(a) => check::check(&a),
        Command::Scenarios(a) => Ok(scenarios::scenarios(&a)),
        Command::Sweep(a) => sweep::sweep(&a, m),
        Command::Search(a) => search::search(&a, m),
        Command::Matrix(a) => matrix::matrix(&a),
        Command::Estimate(a) => estimate::estimate(&a),
        Command::Completions(a) => Ok(completions::completions(&a, cmd)),
    }
}
