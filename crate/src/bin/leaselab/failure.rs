//! Why a command could not run, and how it says so: bad input is one line on stderr and exit status
//! 2, never a panic; clap's own errors are folded into that one line too, and its help and version,
//! which are answers rather than errors, go to standard output through `stdout.rs`.

use std::io::Write as _;
use std::process::ExitCode;

use clap::error::ErrorKind;

use crate::stdout;

/// Why a command could not run: a bad command line (one line), or a scenario file with errors (each
/// line `PATH:LINE:COL: message`). Exit status 2 either way.
pub enum Failure {
    Usage(String),
    File(Vec<String>),
}

/// A bad command line that `msg` explains.
pub fn usage(msg: impl Into<String>) -> Failure {
    Failure::Usage(msg.into())
}

/// The command's exit status, or its failure reported.
pub fn exit(result: Result<ExitCode, Failure>) -> ExitCode {
    result.unwrap_or_else(report)
}

/// A failure on stderr: one line (`leaselab: …`), or the file's located errors; exit status 2.
pub fn report(failure: Failure) -> ExitCode {
    match failure {
        Failure::Usage(msg) => eprintln!("leaselab: {msg}"),
        Failure::File(lines) => {
            for line in lines {
                eprintln!("{line}");
            }
        }
    }
    ExitCode::from(2)
}

/// What clap stopped at: `--help`, `help` and `--version` print to standard output and exit 0;
/// `leaselab` alone prints the help and exits 2 (it did not say what to do); anything else is bad
/// input, one line on stderr and exit 2. `command` is the command it was parsing, if any.
pub fn clap_error(e: &clap::Error, command: Option<&str>) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = write!(stdout::stdout(), "{}", e.render());
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = write!(stdout::stdout(), "{}", e.render());
            ExitCode::from(2)
        }
        _ => report(usage(one_line(&e.render().to_string(), command))),
    }
}

/// clap's error as one line: its message and tips (a similar flag, the possible values) joined by
/// `; `, the usage it repeats left out, and where to read more.
fn one_line(rendered: &str, command: Option<&str>) -> String {
    let mut out = String::new();
    let mut in_usage = false;
    for line in rendered.lines().map(str::trim) {
        if line.starts_with("Usage: ") {
            in_usage = true;
        } else if line.is_empty() {
            in_usage = false;
        } else if !in_usage && !line.starts_with("For more information") && !dash_dash_tip(line) {
            // A line that ends in `:` introduces the next (the arguments not given).
            let sep = if out.is_empty() || out.ends_with(':') {
                " "
            } else {
                "; "
            };
            out.push_str(sep);
            out.push_str(line.strip_prefix("error: ").unwrap_or(line));
        }
    }
    match command {
        Some(name) => out.push_str(&format!("; see `leaselab {name} --help`")),
        None => out.push_str("; see `leaselab help`"),
    }
    out.trim_start().to_string()
}

/// clap's tip to pass a value that starts with `-` after `--`: never the way here, since every
/// positional argument either takes such values as they are (`check PATH`) or is a word
/// (`fenced|unfenced`, the shell), so an unknown flag is just that.
fn dash_dash_tip(line: &str) -> bool {
    line.starts_with("tip: to pass '") && line.contains("as a value, use '-- ")
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn clap_errors_fold_into_one_line() {
        let rendered = "error: unexpected argument '--tll' found\n\n  tip: a similar argument \
                        exists: '--ttl'\n\nUsage: leaselab run [fenced|unfenced]\n       \
                        [--ttl DUR]\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(rendered, Some("run")),
            "unexpected argument '--tll' found; tip: a similar argument exists: '--ttl'; \
             see `leaselab run --help`"
        );
        let rendered = "error: unexpected argument '--frobnicate' found\n\n  tip: to pass \
                        '--frobnicate' as a value, use '-- --frobnicate'\n\nUsage: leaselab run\n";
        assert_eq!(
            one_line(rendered, Some("run")),
            "unexpected argument '--frobnicate' found; see `leaselab run --help`"
        );
        let rendered = "error: the following required arguments were not provided:\n  <PATH>\n\n\
                        Usage: leaselab check PATH\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(rendered, Some("check")),
            "the following required arguments were not provided: <PATH>; \
             see `leaselab check --help`"
        );
    }
}
