//! A bounded fuzz run of the scenario parser and engine, without cargo-fuzz (CI runs it for a fixed
//! time): seeded mutations of the catalogue's files and random bytes, each parsed, checked and run as
//! `tests/fuzz.rs` does, until the time is up.
//!
//! ```sh
//! cargo run --profile checked --example fuzz_scenarios -- [--seconds 20] [--seed N] [--cases N]
//! ```
//!
//! A panic, or a case that runs past [`HANG_MS`], prints its seed, writes its text to
//! `target/fuzz-failure.txt` and exits 1; `--seed N --cases 1` replays it. `make fuzz` builds it with
//! the `checked` profile (Cargo.toml), where an arithmetic overflow or a debug assertion panics too.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use leaselab::rng::Rng;
use leaselab::{catalogue, Policy};

#[path = "../tests/common/mutate.rs"]
mod mutate;

/// Not a speed verdict: a scenario that would run forever stops at the engine's event limit, by
/// count (each case runs it up to 2 × its expectations + 1 times, plus a small sweep), and the slowest
/// case of a run, printed at its end, takes under a second (558 ms in release on the 2-core machine);
/// a case that takes a minute, a hundred times that, is work the limits failed to bound, on any
/// machine CI runs on. How fast cases run is `make bench`'s.
const HANG_MS: u128 = 60_000;

struct Args {
    seconds: u64,
    seed: u64,
    cases: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        seconds: 20,
        seed: 1,
        cases: u64::MAX,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    for pair in argv.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse().ok());
        match (pair[0].as_str(), value) {
            ("--seconds", Some(v)) => a.seconds = v,
            ("--seed", Some(v)) => a.seed = v,
            ("--cases", Some(v)) => a.cases = v,
            _ => {
                return Err(format!(
                    "usage: fuzz_scenarios [--seconds N] [--seed N] [--cases N]; got {argv:?}"
                ))
            }
        }
    }
    Ok(a)
}

/// Case `seed`'s text: mostly a mutated catalogue file, sometimes random printable bytes (the
/// generator the wasm's fuzz shares: tests/common/mutate.rs).
fn case_text(seed: u64) -> String {
    mutate::fuzz_case(&mut Rng::new(seed), catalogue::sources())
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(why) => {
            eprintln!("{why}");
            std::process::exit(2);
        }
    };
    let until = Instant::now() + Duration::from_secs(a.seconds);
    let (mut ran, mut parsed) = (0u64, 0u64);
    let mut slowest = (0u128, a.seed);
    for seed in a.seed.. {
        if ran == a.cases || Instant::now() >= until {
            break;
        }
        let text = case_text(seed);
        let policy = Policy::ALL[(seed % Policy::ALL.len() as u64) as usize];
        let started = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| mutate::exercise(&text, policy, 1)));
        let ms = started.elapsed().as_millis();
        slowest = slowest.max((ms, seed));
        match result {
            Ok(ok) if ms <= HANG_MS => parsed += u64::from(ok),
            outcome => fail(seed, &text, outcome.is_err(), ms),
        }
        ran += 1;
    }
    println!(
        "fuzz_scenarios: {ran} cases from seed {}, {parsed} parsed; no panic; slowest case {} ms (seed {})",
        a.seed, slowest.0, slowest.1
    );
}

fn fail(seed: u64, text: &str, panicked: bool, ms: u128) -> ! {
    let what = if panicked {
        "panicked".to_string()
    } else {
        format!("took {ms} ms, past the limits' bound")
    };
    let _ = std::fs::create_dir_all("target");
    let _ = std::fs::write("target/fuzz-failure.txt", text);
    eprintln!(
        "fuzz_scenarios: case {seed} {what}; its text is in target/fuzz-failure.txt\n\
         replay: cargo run --profile checked --example fuzz_scenarios -- --seed {seed} --cases 1"
    );
    std::process::exit(1);
}
