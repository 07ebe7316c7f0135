//! Parses `scenarios/*.txt` with the crate's own parser and writes them as Rust data into
//! `$OUT_DIR/catalogue.rs`, so the wasm needs no parser (and a broken file fails the build).

use leaselab_model::{clock, scenario};
use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    println!("cargo:rerun-if-changed=scenarios");
    let index = std::fs::read_to_string(dir.join("index.txt")).expect("scenarios/index.txt");
    let mut out = String::new();
    let mut names = Vec::new();
    let mut sources = Vec::new();
    for (n, file) in index
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .enumerate()
    {
        println!("cargo:rerun-if-changed=scenarios/{file}");
        let text = std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|e| panic!("scenarios/{file}: {e}"));
        let mut sc =
            scenario::Scenario::parse(&text).unwrap_or_else(|e| panic!("scenarios/{file}: {e}"));
        if wasm() && sc.group == TABLE_GROUP && std::env::var_os("CARGO_FEATURE_TABLE").is_none() {
            continue;
        }
        if wasm()
            && sc.clients.iter().any(|c| c.library.is_some())
            && std::env::var_os("CARGO_FEATURE_LIBRARIES").is_none()
        {
            // A client library's scenario needs the engine's half of the libraries (the cargo
            // feature `libraries`): a wasm without it carries none of their scenarios.
            continue;
        }
        if wasm() && left_out(sc.service.kind) {
            // Only what says that this build cannot run it (services::check_built_in): the page runs
            // such a scenario on the full wasm, so the core one carries none of its data.
            sc.title_en = "".into();
            sc.params = Default::default();
            sc.clients = Default::default();
            sc.faults = Default::default();
        }
        emit(&mut out, n, &sc);
        names.push(format!("SC{n}"));
        sources.push(format!(
            "include_str!({:?})",
            dir.join(file).display().to_string()
        ));
    }
    let _ = writeln!(
        out,
        "pub(crate) static CATALOGUE: &[Scenario] = &[{}];",
        names.join(", ")
    );
    let _ = writeln!(
        out,
        "#[cfg(any(test, not(target_arch = \"wasm32\")))] pub(crate) const SOURCES: &[&str] = &[{}];",
        sources.join(", ")
    );
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("catalogue.rs");
    std::fs::write(dest, out).unwrap();
}

/// The safety table's base scenarios (`leaselab matrix`, issue 39): the command line's, and the wasm's
/// built with the cargo feature `table` (explore's, which matrix.html and a table cell's lab link
/// load). Left out of the lab's wasm builds (and so of the page's catalogue), they cost its budgets
/// nothing.
const TABLE_GROUP: &str = "table";

fn wasm() -> bool {
    std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32")
}

/// Whether this build leaves out the service (its cargo feature is off), as `services::built_in` says
/// from the same features: the page's core wasm has lease, session and redis only.
fn left_out(kind: scenario::ServiceKind) -> bool {
    use scenario::ServiceKind as K;
    if matches!(kind, K::Lease | K::Session | K::Redis) {
        return false;
    }
    // Every other service is the cargo feature of its own name.
    let feature = kind.name().to_uppercase();
    std::env::var_os(format!("CARGO_FEATURE_{feature}")).is_none()
}

fn s(v: &str) -> String {
    format!("Cow::Borrowed({v:?})")
}

/// Prose the wasm leaves out: summaries, sources, notes, labels, and every text in a language other than
/// English. The page loads them per language beside the wasm (`pkg/scenarios.LANG.json`, written by
/// `leaselab scenarios --json --lang LANG` from these same files), so the wasm stays the engine and its
/// data, within its size budget, and an English reader downloads no Bengali. Titles stay in.
fn web_text(v: &str) -> String {
    if wasm() {
        s("")
    } else {
        s(v)
    }
}

/// A slice literal from its Debug form (`[a, b]`), as a borrowed list.
fn list<T: std::fmt::Debug>(items: &[T]) -> String {
    format!("Cow::Borrowed(&{items:?})")
}

fn clock(c: &clock::Clock) -> String {
    format!(
        "Clock {{ offset_us: {}, rate_ppm: {}, steps: {}, monotonic: {} }}",
        c.offset_us,
        c.rate_ppm,
        list(&c.steps),
        c.monotonic
    )
}

fn opt_list(v: &Option<std::borrow::Cow<'static, [u8]>>) -> String {
    match v {
        Some(r) => format!("Some({})", list(r)),
        None => "None".into(),
    }
}

/// A service's own options as Rust: `Own::KIND(own::KIND { field: value, … })` from their Debug
/// form, `KIND(Options { field: value, … })` (each home's `Options`, named by its kind in `own`).
fn own(o: &scenario::Own) -> String {
    let debug = format!("{o:?}");
    let (kind, rest) = debug
        .split_once("(Options")
        .expect("an Own's Debug form is KIND(Options…)");
    format!("Own::{kind}(own::{kind}{rest}")
}

/// One scenario as a `static`: all borrowed data, no code runs to build it.
fn emit(out: &mut String, n: usize, sc: &scenario::Scenario) {
    let _ = writeln!(out, "const SC{n}: Scenario = Scenario {{");
    for (k, v) in [
        ("id", &sc.id),
        ("group", &sc.group),
        ("title_en", &sc.title_en),
    ] {
        let _ = writeln!(out, "  {k}: {},", s(v));
    }
    for (k, v) in [
        ("summary_en", &sc.summary_en),
        ("source", &sc.source),
        ("derived", &sc.derived),
        ("title_bn", &sc.title_bn),
        ("summary_bn", &sc.summary_bn),
    ] {
        let _ = writeln!(out, "  {k}: {},", web_text(v));
    }
    let _ = writeln!(out, "  params: Cow::Borrowed(&[");
    for p in sc.params.iter() {
        let _ = writeln!(
            out,
            "    ParamSpec {{ name: {}, default_us: {}, min_us: {}, max_us: {}, label_en: {}, label_bn: {} }},",
            s(&p.name), p.default_us, p.min_us, p.max_us, web_text(&p.label_en), web_text(&p.label_bn)
        );
    }
    let _ = writeln!(out, "  ]),");
    let v = &sc.service;
    let node_clocks: Vec<String> = v.node_clocks.iter().map(clock).collect();
    let _ = writeln!(
        out,
        "  service: ServiceSpec {{ kind: ServiceKind::{:?}, idle: {:?}, ttl: {:?}, lock_delay: {:?}, tokens: {}, lock_latency: {:?}, store_latency: {:?}, clock: {}, \
         nodes: {}, node_clocks: Cow::Borrowed(&[{}]), timeout: {:?}, jitter: {:?}, persist: Persist::{:?}, replica_lag: {:?}, first_token: {}, keepalive: {:?}, tick: {:?}, naive_default: {}, own: {} }},",
        v.kind, v.idle, v.ttl, v.lock_delay, v.tokens, v.lock_latency, v.store_latency, clock(&v.clock),
        v.nodes, node_clocks.join(", "), v.timeout, v.jitter, v.persist, v.replica_lag, v.first_token,
        v.keepalive, v.tick, v.naive_default, own(&v.own)
    );
    let _ = writeln!(out, "  balance: {},", sc.balance);
    let _ = writeln!(out, "  clients: Cow::Borrowed(&[");
    for c in sc.clients.iter() {
        let library = match c.library {
            Some(l) => format!("Some(LibraryKind::{l:?})"),
            None => "None".into(),
        };
        let _ = writeln!(out, "    ClientSpec {{ name: {:?}, start: {:?}, ops: {}, clock: {}, reach: {}, links: {}, library: {library} }},",
            c.name,
            c.start,
            list(&c.ops),
            clock(&c.clock),
            c.reach,
            list(&c.links)
        );
    }
    let _ = writeln!(out, "  ]),");
    let _ = writeln!(out, "  faults: {},", list(&sc.faults));
    let _ = writeln!(out, "  expects: EXPECTS{n},");
    let _ = writeln!(out, "}};");
    // Expectations are test data: the wasm build leaves them out.
    let _ = writeln!(out, "#[cfg(target_arch = \"wasm32\")] const EXPECTS{n}: Cow<'static, [Expectation]> = Cow::Borrowed(&[]);");
    let _ = writeln!(out, "#[cfg(not(target_arch = \"wasm32\"))] const EXPECTS{n}: Cow<'static, [Expectation]> = Cow::Borrowed(&[");
    for e in sc.expects.iter() {
        let _ = writeln!(
            out,
            "    Expectation {{ policy: Policy::{:?}, retry: {}, naive: {:?}, overrides: {}, final_balance: {:?}, expected: {:?}, lost: {:?}, rejected: {}, stale: {:?}, grants: {}, locked_out: {:?}, line: {} }},",
            e.policy,
            e.retry,
            e.naive,
            list(&e.overrides),
            e.final_balance,
            e.expected,
            e.lost,
            opt_list(&e.rejected),
            e.stale,
            opt_list(&e.grants),
            e.locked_out,
            e.line
        );
    }
    let _ = writeln!(out, "]);");
}
