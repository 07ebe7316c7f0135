//! Scenario text near the catalogue's, for the fuzz test (`tests/fuzz.rs`) and the bounded fuzz run
//! (`examples/fuzz_scenarios.rs`): a seeded generator drops, doubles and swaps lines, puts words of the
//! grammar and extreme values in place of words and numbers, borrows lines from another file, and cuts
//! the text short — so the parser and the engine meet what a user might write, just outside what the
//! catalogue holds. And the one thing every input must allow: parsing, checking, running and sweeping
//! without a panic, with one-line messages.

use leaselab::check::{check_expectations, parse, Diagnostic};
use leaselab::rng::Rng;
use leaselab::sweep::{sweep, Axis};
use leaselab::{report, simulate, Config, Policy};

/// Words a mutation may put in place of a word: the grammar's own, odd values, and odd characters.
const WORDS: &[&str] = &[
    "acquire",
    "read",
    "write",
    "release",
    "renew",
    "idle",
    "pause",
    "work",
    "check",
    "start",
    "every",
    "tries",
    "delay",
    "via",
    "session",
    "$ttl",
    "$pause",
    "$",
    "0",
    "1",
    "-1",
    "1us",
    "0ms",
    "3600s",
    "3601s",
    "1h",
    "99999999999999999999",
    "n1",
    "n7",
    "n9",
    "A",
    "B",
    "H",
    "Z",
    "a",
    ";",
    ":",
    "=",
    "..",
    "@",
    "|",
    "step=+1h@0",
    "step=-1h@1us",
    "clock=500000ppm",
    "clock=-500000ppm",
    "monotonic",
    "server-monotonic",
    "server-step=-1h@1ms",
    "reach=n1",
    "latency=n1:1ms",
    "tokens=no",
    "tokens=yes",
    "nodes=7",
    "nodes=1",
    "ttl=0",
    "ttl=1us",
    "lock-delay=1h",
    "idle=1us",
    "keepalive=1us",
    "heartbeat=1us",
    "jitter=1h",
    "timeout=0",
    "first-token=1",
    "+retry",
    "+naive",
    "-naive",
    "final=0",
    "lost=none",
    "lost=Z",
    "grants=A,B",
    "rejected=none",
    "expect",
    "client",
    "service:",
    "at",
    "param",
    "node",
    "lease",
    "redlock",
    "etcd",
    "zookeeper",
    "session",
    "redis",
    "consul",
    "dynamodb",
    "hazelcast",
    "kubernetes",
    "failover",
    "crash",
    "restart",
    "terminate",
    "cut",
    "heal",
    "every 1us",
    "tries 1",
    "write 1e9",
    "é",
    "\u{0}",
    "\u{202e}",
    "\t",
    "\r",
];

/// Values a mutation may put in place of a number.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "7",
    "999999",
    "1000000001",
    "18446744073709551616",
    "0.0001",
];

/// `text` changed by one to four seeded mutations; `donor` lends lines.
pub fn mutate(text: &str, donor: &str, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let donor: Vec<&str> = donor.lines().collect();
    for _ in 0..rng.range_inclusive(1, 4) {
        let n = lines.len() as u64;
        let at = |rng: &mut Rng| rng.range_inclusive(0, n.saturating_sub(1)) as usize;
        match rng.range_inclusive(0, 7) {
            _ if lines.is_empty() => lines.push(String::new()),
            0 => drop(lines.remove(at(&mut rng))),
            1 => {
                let line = lines[at(&mut rng)].clone();
                lines.insert(at(&mut rng), line);
            }
            2 => {
                let (i, j) = (at(&mut rng), at(&mut rng));
                lines.swap(i, j);
            }
            3 | 4 => {
                let i = at(&mut rng);
                lines[i] = replace_word(&lines[i], &mut rng);
            }
            5 => {
                let i = at(&mut rng);
                lines[i] = replace_number(&lines[i], &mut rng);
            }
            6 if !donor.is_empty() => {
                let line = donor[rng.range_inclusive(0, donor.len() as u64 - 1) as usize];
                lines.insert(at(&mut rng), line.to_string());
            }
            _ => {
                let i = at(&mut rng);
                let cut = rng.range_inclusive(0, lines[i].chars().count() as u64) as usize;
                lines[i] = lines[i].chars().take(cut).collect();
            }
        }
    }
    lines.join("\n")
}

/// One fuzz case drawn from `rng`: mostly a mutation of one of `sources` (lines lent by another),
/// sometimes (one in ten) up to 2 000 random ASCII bytes. The native fuzz (examples/fuzz_scenarios.rs,
/// a fresh `Rng` per case seed) and the wasm's (tests/user_cases, one `Rng` for a run of cases) both
/// draw their cases here, so the two explore the same space. It lives in this file, which each of them
/// includes with `#[path]`, rather than in the library: the library stays free of test code and of a
/// feature that would exist only for its tests.
#[allow(dead_code)] // tests/fuzz.rs, the third includer, draws its cases with proptest instead.
pub fn fuzz_case(rng: &mut Rng, sources: &[&str]) -> String {
    if rng.range_inclusive(0, 9) == 0 {
        let len = rng.range_inclusive(0, 2_000);
        let bytes: Vec<u8> = (0..len)
            .map(|_| rng.range_inclusive(0, 127) as u8)
            .collect();
        return String::from_utf8_lossy(&bytes).into_owned();
    }
    let last = sources.len() as u64 - 1;
    let (i, donor) = (rng.range_inclusive(0, last), rng.range_inclusive(0, last));
    mutate(sources[i as usize], sources[donor as usize], rng.next_u64())
}

fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
    from[rng.range_inclusive(0, from.len() as u64 - 1) as usize]
}

/// One whitespace-separated word of `line` replaced by a word of [`WORDS`].
fn replace_word(line: &str, rng: &mut Rng) -> String {
    let mut words: Vec<&str> = line.split(' ').collect();
    let i = rng.range_inclusive(0, words.len() as u64 - 1) as usize;
    words[i] = pick(rng, WORDS);
    words.join(" ")
}

/// One run of digits in `line` replaced by a value of [`NUMBERS`].
fn replace_number(line: &str, rng: &mut Rng) -> String {
    let starts: Vec<usize> = line
        .char_indices()
        .filter(|&(i, c)| c.is_ascii_digit() && !line[..i].ends_with(|p: char| p.is_ascii_digit()))
        .map(|(i, _)| i)
        .collect();
    if starts.is_empty() {
        return line.to_string();
    }
    let start = starts[rng.range_inclusive(0, starts.len() as u64 - 1) as usize];
    let end = line[start..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(line.len(), |k| start + k);
    format!("{}{}{}", &line[..start], pick(rng, NUMBERS), &line[end..])
}

/// A diagnostic a user can read: one line, not a screenful, located inside the text.
pub fn assert_readable(d: &Diagnostic, text: &str) {
    assert!(!d.message.contains('\n'), "two lines: {d:?}");
    assert!(d.message.chars().count() <= 301, "too long: {d:?}");
    assert!(d.line >= 1 && d.col >= 1, "unlocated: {d:?}");
    assert!(d.line <= text.lines().count().max(1), "past the end: {d:?}");
}

/// Everything a user's text goes through: parse (errors readable), and if it parses, every
/// expectation checked and a run under `policy` reported as text and JSON — the engine's errors are
/// fine, a panic is not. Returns whether the text parsed.
pub fn exercise(text: &str, policy: Policy, retries: u32) -> bool {
    let sc = match parse(text) {
        Ok(sc) => sc,
        Err(errors) => {
            assert!(!errors.is_empty());
            for d in &errors {
                assert_readable(d, text);
            }
            return false;
        }
    };
    for v in check_expectations(&sc) {
        if let Some(d) = v.diagnostic() {
            assert!(!d.message.contains('\n'), "{d:?}");
        }
    }
    let mut cfg = Config::new(&sc, policy);
    cfg.retries = retries;
    if let Ok(o) = simulate(&sc, &cfg) {
        let _ = report::transcript(&o);
        let _ = report::json(&o);
    }
    // A small sweep over the first two parameters' whole ranges (its fast path skips and bisects).
    let axis = |i: usize| {
        let p = sc.params.get(i)?;
        Axis::new(&sc, &p.name, p.min_us, p.max_us, 3).ok()
    };
    if let (Some(x), Some(y)) = (axis(0), axis(1)) {
        let _ = sweep(&sc, &cfg, &x, &y, &mut Vec::new());
    }
    true
}
