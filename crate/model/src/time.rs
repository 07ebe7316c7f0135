//! Virtual time: an integer count of microseconds. Nothing in the core reads a wall clock.

use crate::error::Error;
use std::fmt;

/// A point in true (simulated) time, in microseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// One millisecond in microseconds.
pub const MS: u64 = 1_000;
/// One second in microseconds.
pub const SEC: u64 = 1_000_000;

/// The longest duration any parameter may take: one hour. Larger values are refused, not clamped.
pub const DURATION_US_MAX: u64 = 3_600 * SEC;

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);

    pub fn us(self) -> u64 {
        self.0
    }

    /// `self + d`, saturating: the run's time limit catches anything near the top of the range.
    pub fn plus(self, d_us: u64) -> SimTime {
        SimTime(self.0.saturating_add(d_us))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", Millis(self.0))
    }
}

/// Formats microseconds as milliseconds with at most three decimals and no float arithmetic, so native
/// and wasm print the same digits: `300`, `0.5`, `12.345`.
#[derive(Clone, Copy, Debug)]
pub struct Millis(pub u64);

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / MS;
        let frac = self.0 % MS;
        if frac == 0 {
            write!(f, "{whole}")
        } else {
            let digits = format!("{frac:03}");
            write!(f, "{whole}.{}", digits.trim_end_matches('0'))
        }
    }
}

/// Formats microseconds as seconds the way the seed's Python prints a float: `0.6`, `0.05`, `3.0`.
#[derive(Clone, Copy, Debug)]
pub struct PySeconds(pub u64);

impl fmt::Display for PySeconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / SEC;
        let frac = self.0 % SEC;
        if frac == 0 {
            write!(f, "{whole}.0")
        } else {
            let digits = format!("{frac:06}");
            write!(f, "{whole}.{}", digits.trim_end_matches('0'))
        }
    }
}

/// Formats a duration for people: `300 ms`, `1.5 s`, `250 µs`.
#[derive(Clone, Copy, Debug)]
pub struct Human(pub u64);

impl fmt::Display for Human {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= SEC && self.0 % (SEC / 1000) == 0 {
            write!(f, "{} s", Millis(self.0 / MS))
        } else if self.0 >= MS || self.0 == 0 {
            write!(f, "{} ms", Millis(self.0))
        } else {
            write!(f, "{} µs", self.0)
        }
    }
}

/// Parses a duration: a decimal number with unit `us`/`µs`, `ms` or `s`; a bare number is milliseconds.
/// Exact (no floats): `0.3s` is 300 000 µs. Refuses negatives, garbage, sub-microsecond precision and
/// anything above [`DURATION_US_MAX`].
pub fn parse_duration(text: &str) -> Result<u64, Error> {
    let bad = |why: &str| Error::BadDuration {
        text: text.to_string(),
        why: why.to_string(),
    };
    let s = text.trim();
    if s.is_empty() {
        return Err(bad("it is empty"));
    }
    let (number, unit_us) = if let Some(n) = s.strip_suffix("ms") {
        (n, MS)
    } else if let Some(n) = s.strip_suffix("us").or_else(|| s.strip_suffix("µs")) {
        (n, 1)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, SEC)
    } else {
        (s, MS)
    };
    let number = number.trim_end();
    if number.starts_with('-') {
        return Err(bad("durations cannot be negative"));
    }
    let number = number.strip_prefix('+').unwrap_or(number);
    let (int_part, frac_part) = match number.split_once('.') {
        Some((i, f)) => (i, f),
        None => (number, ""),
    };
    let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if (int_part.is_empty() && frac_part.is_empty())
        || !all_digits(int_part)
        || !all_digits(frac_part)
    {
        return Err(bad(
            "expected a number with unit ms or s, like 300ms, 0.3s or 30s",
        ));
    }
    let too_big = || bad("it is longer than the limit of 1 hour");
    let mut total: u64 = 0;
    for b in int_part.bytes() {
        total = total
            .checked_mul(10)
            .and_then(|t| t.checked_add(u64::from(b - b'0')))
            .ok_or_else(too_big)?;
    }
    total = total.checked_mul(unit_us).ok_or_else(too_big)?;
    let mut scale = unit_us;
    for b in frac_part.bytes() {
        let digit = u64::from(b - b'0');
        if scale % 10 != 0 {
            if digit != 0 {
                return Err(bad("it is finer than one microsecond"));
            }
            continue;
        }
        scale /= 10;
        total = total.checked_add(digit * scale).ok_or_else(too_big)?;
    }
    if total > DURATION_US_MAX {
        return Err(too_big());
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_forms() {
        assert_eq!(parse_duration("300ms").unwrap(), 300 * MS);
        assert_eq!(parse_duration("0.3s").unwrap(), 300 * MS);
        assert_eq!(parse_duration("30s").unwrap(), 30 * SEC);
        assert_eq!(parse_duration("300").unwrap(), 300 * MS);
        assert_eq!(parse_duration("0.5").unwrap(), 500);
        assert_eq!(parse_duration("250us").unwrap(), 250);
        assert_eq!(parse_duration("1.25 ms").unwrap(), 1250);
        assert_eq!(parse_duration("0").unwrap(), 0);
        assert_eq!(parse_duration(".5s").unwrap(), 500 * MS);
    }

    #[test]
    fn refuses_bad_durations_with_a_reason() {
        for bad in [
            "",
            "-5ms",
            "abc",
            "5 minutes",
            "1e3",
            "0.0001ms",
            "3601s",
            "99999999999999999999999s",
            ".",
            "5ms5",
        ] {
            let err = parse_duration(bad).unwrap_err().to_string();
            assert!(err.contains("duration"), "{bad}: {err}");
        }
    }

    #[test]
    fn formats_without_floats() {
        assert_eq!(Millis(300_000).to_string(), "300");
        assert_eq!(Millis(300_500).to_string(), "300.5");
        assert_eq!(Millis(1).to_string(), "0.001");
        assert_eq!(PySeconds(600 * MS).to_string(), "0.6");
        assert_eq!(PySeconds(50 * MS).to_string(), "0.05");
        assert_eq!(PySeconds(3 * SEC).to_string(), "3.0");
        assert_eq!(Human(1_500_000).to_string(), "1.5 s");
        assert_eq!(Human(300_000).to_string(), "300 ms");
        assert_eq!(Human(250).to_string(), "250 µs");
    }
}
