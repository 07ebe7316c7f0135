//! The values the flags take, parsed by the library's own functions as clap reads them: a bad value
//! is an error naming its flag (clap's `invalid value 'X' for '--FLAG <VALUE>': why`).

use clap::builder::{PossibleValuesParser, TypedValueParser};
use leaselab::estimate::PRESETS;
use leaselab::matrix::Fault;
use leaselab::scenario::ServiceKind;
use leaselab::sim::RETRIES_MAX;
use leaselab::time::parse_duration;
use leaselab::Policy;

/// A `DUR` (`300ms`, `0.3s`, a bare number of milliseconds) in microseconds.
pub fn duration(v: &str) -> Result<u64, String> {
    parse_duration(v).map_err(|e| e.to_string())
}

/// `--set NAME=DUR` → (name, microseconds).
pub fn setting(v: &str) -> Result<(String, u64), String> {
    let (name, value) = v
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=DUR, got \"{v}\""))?;
    Ok((name.to_string(), duration(value)?))
}

/// `--retries N`, 0 to the engine's limit.
pub fn retries(v: &str) -> Result<u32, String> {
    v.parse()
        .ok()
        .filter(|n| *n <= RETRIES_MAX)
        .ok_or_else(|| format!("expected a whole number from 0 to {RETRIES_MAX}, got \"{v}\""))
}

/// `POLICY`: one of the storage policies by name (their names are the completions too).
pub fn policy() -> impl TypedValueParser<Value = Policy> {
    PossibleValuesParser::new(Policy::ALL.map(Policy::name)).try_map(|name| Policy::parse(&name))
}

/// `--service NAME`: a lock service by its name in scenario files.
pub fn service() -> impl TypedValueParser<Value = ServiceKind> {
    PossibleValuesParser::new(ServiceKind::ALL.map(ServiceKind::name)).try_map(|name| {
        let mut all = ServiceKind::ALL.into_iter();
        all.find(|k| k.name() == name)
            .ok_or(format!("no service {name}"))
    })
}

/// `--fault KIND`: a column of the safety table.
pub fn fault() -> impl TypedValueParser<Value = Fault> {
    PossibleValuesParser::new(Fault::ALL.map(Fault::name)).try_map(|name| Fault::parse(&name))
}

/// `--preset ID`: one of the estimate's pause presets.
pub fn preset() -> PossibleValuesParser {
    PossibleValuesParser::new(PRESETS.iter().map(|p| p.id))
}

/// A non-negative finite number.
pub fn number(v: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| format!("expected a number ≥ 0, got \"{v}\""))
}

/// `DUR:NUMBER`, a distribution's scale (µs) and shape.
pub fn dur_pair(v: &str) -> Result<(f64, f64), String> {
    let (a, b) = v
        .split_once(':')
        .ok_or_else(|| format!("expected DUR:NUMBER like 50ms:2, got \"{v}\""))?;
    Ok((duration(a)? as f64, number(b)?))
}

/// Contenders per second, or `always` (0: one always waiting).
pub fn rate(v: &str) -> Result<f64, String> {
    if v == "always" {
        return Ok(0.0);
    }
    let rate = number(v)?;
    if rate == 0.0 {
        return Err("0 contenders never conflict; give a positive rate or `always`".into());
    }
    Ok(rate)
}

/// `--ops N`: how many operations to simulate, 1 to 10¹⁰.
pub fn ops(v: &str) -> Result<u64, String> {
    v.parse()
        .ok()
        .filter(|n| (1..=10_000_000_000u64).contains(n))
        .ok_or_else(|| format!("expected 1 to 1e10, got \"{v}\""))
}

/// A seed in decimal or `0x` hexadecimal.
pub fn seed(v: &str) -> Result<u64, String> {
    let parsed = match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    };
    parsed.ok_or_else(|| format!("expected a whole number (or 0x…), got \"{v}\""))
}
