//! `leaselab check PATH`: a scenario file of one's own, parsed and its expectations run.

use std::io::Write as _;
use std::process::ExitCode;

use crate::args::CheckArgs;
use crate::failure::Failure;
use crate::source::{load_scenario, shown_path};
use crate::stdout;

/// The file's errors (exit 2), or a summary and the expectation lines that do not hold (exit 1 if
/// any, else 0).
pub fn check(a: &CheckArgs) -> Result<ExitCode, Failure> {
    let path = a.path.as_str();
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
