//! One small error type. Every message names the offending input and says what was expected.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A duration that does not parse or is out of range.
    BadDuration { text: String, why: String },
    /// A scenario id that is not in the catalogue.
    UnknownScenario { id: String, known: String },
    /// A storage policy name that does not exist.
    UnknownPolicy { name: String },
    /// A parameter the scenario does not have.
    UnknownParam {
        scenario: String,
        name: String,
        known: String,
    },
    /// A parameter value outside the scenario's declared range.
    ParamOutOfRange {
        name: String,
        value_us: u64,
        min_us: u64,
        max_us: u64,
    },
    /// A value that is not allowed for some other reason (retries, grid sizes, …).
    BadValue { what: String, why: String },
    /// A scenario file that does not parse. `line` and `col` count from 1 (`col` in characters);
    /// `line` 0 is the file as a whole (a missing `id:`, no clients).
    Scenario {
        id: String,
        line: usize,
        col: usize,
        why: String,
    },
    /// A run that hit one of the engine's limits (events per run, simulated time).
    Limit { what: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::time::Human;
        match self {
            Error::BadDuration { text, why } => write!(f, "bad duration \"{text}\": {why}"),
            Error::UnknownScenario { id, known } => {
                write!(f, "unknown scenario \"{id}\"; expected one of: {known}")
            }
            Error::UnknownPolicy { name } => write!(
                f,
                "unknown fencing policy \"{name}\"; expected one of: none, token, first-touch, version, etag, owner, equal-token"
            ),
            Error::UnknownParam { scenario, name, known } => {
                write!(f, "scenario \"{scenario}\" has no parameter \"{name}\"; it has: {known}")
            }
            Error::ParamOutOfRange { name, value_us, min_us, max_us } => write!(
                f,
                "{name} = {} is out of range; expected {} to {}",
                Human(*value_us),
                Human(*min_us),
                Human(*max_us)
            ),
            Error::BadValue { what, why } => write!(f, "bad {what}: {why}"),
            Error::Scenario { id, line, why, .. } => {
                write!(f, "scenario \"{id}\", line {line}: {why}")
            }
            Error::Limit { what } => write!(f, "run stopped at a limit: {what}"),
        }
    }
}

impl std::error::Error for Error {}
