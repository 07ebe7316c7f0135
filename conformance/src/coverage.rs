//! What each catalogue scenario is checked against: the list that docs/conformance.md's table and the
//! README's summary are generated from (coverage_docs.rs renders them, and a test keeps them equal).
//!
//! **Format.** Every catalogue scenario (crate/scenarios/index.txt) has exactly one [`Entry`]: a
//! scenario of a service the suite plays is in that service's `COVERAGE` (its file, `real/NAME_lock.rs`,
//! returned by `RealService::coverage`); one of a service it does not play gets its entry from that
//! service's [`Unplayed`] (its file, `no_NAME.rs`), so a new scenario of it needs no line here. A
//! test fails when a scenario has none or two, or an entry names no catalogue scenario. One entry:
//!
//! ```text
//! real("ID", &COMPONENT, "what runs for real, in a few words"),
//! api("ID", &COMPONENT, "what answers the API, and what it is not"),
//! stand_in("ID", &COMPONENT, "what plays the service's part"),
//! not_run("ID", "exactly what is missing: which server does not install here, where it was looked for"),
//! ```
//!
//! - `COMPONENT`: the real component the rows run on, a [`Component`] const in the service's file (its
//!   name, its version as the package gives it, where it comes from); add one for a new server.
//! - [`Faithful`]: the real server / an implementation of its API / a stand-in / not run.
//! - A scenario's row count comes from the suite's own cases and probes, so adding rows is adding
//!   cases; a test checks that an entry is `not_run` exactly when its scenario has no row.
//!
//! The storage is the same PostgreSQL table in every row (docs/conformance.md), not listed here. After a
//! change: `cargo run -q -p leaselab-conformance -- --write-docs` rewrites both generated blocks.

/// A real component the suite runs.
pub struct Component {
    pub name: &'static str,
    /// As the package gives it (the suite prints what it ran).
    pub version: &'static str,
    /// Where it comes from.
    pub from: &'static str,
}

/// How faithful a scenario's rows are to the service it models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Faithful {
    /// The real server of the service the scenario names.
    Real,
    /// An implementation of the service's API, not the service itself.
    Api,
    /// Something else plays the service's part (the note says what).
    StandIn,
    /// No row (the note says exactly why).
    NotRun,
}

impl Faithful {
    pub const ALL: [Faithful; 4] = [
        Faithful::Real,
        Faithful::Api,
        Faithful::StandIn,
        Faithful::NotRun,
    ];

    /// What it means, for the table's legend.
    pub fn meaning(self) -> &'static str {
        match self {
            Faithful::Real => "the service's own server, as released",
            Faithful::Api => "another program that answers the service's API (not the service, its timing nor its failures)",
            Faithful::StandIn => "another server or construct plays the service's part; the line says which",
            Faithful::NotRun => "no row; the line says exactly what is missing",
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Faithful::Real => "the real server",
            Faithful::Api => "an implementation of its API",
            Faithful::StandIn => "a stand-in",
            Faithful::NotRun => "not run",
        }
    }
}

/// One catalogue scenario's line of the table.
#[derive(Clone, Copy)]
pub struct Entry {
    pub scenario: &'static str,
    pub on: Option<&'static Component>,
    pub faithful: Faithful,
    pub note: &'static str,
}

pub const fn real(scenario: &'static str, on: &'static Component, note: &'static str) -> Entry {
    Entry {
        scenario,
        on: Some(on),
        faithful: Faithful::Real,
        note,
    }
}

/// An implementation of the service's API runs its rows (for a service whose own server does not
/// install here).
pub const fn api(scenario: &'static str, on: &'static Component, note: &'static str) -> Entry {
    Entry {
        scenario,
        on: Some(on),
        faithful: Faithful::Api,
        note,
    }
}

pub const fn stand_in(scenario: &'static str, on: &'static Component, note: &'static str) -> Entry {
    Entry {
        scenario,
        on: Some(on),
        faithful: Faithful::StandIn,
        note,
    }
}

pub const fn not_run(scenario: &'static str, note: &'static str) -> Entry {
    Entry {
        scenario,
        on: None,
        faithful: Faithful::NotRun,
        note,
    }
}

/// A service the suite does not play, and exactly why: each in a file of its own
/// (`no_NAME.rs`), as a played service's facts are in its `real/NAME_lock.rs`.
pub struct Unplayed {
    pub kind: leaselab::scenario::ServiceKind,
    /// What was looked for, and where.
    pub why: &'static str,
}

/// The services the suite does not play: every catalogue scenario of theirs gets a `not_run` entry
/// with their reason.
pub static UNPLAYED: [&Unplayed; 3] = [
    &crate::no_hazelcast::UNPLAYED,
    &crate::no_kubernetes::UNPLAYED,
    &crate::no_consul::UNPLAYED,
];

/// Why a scenario whose client calls a client library (`library=`, issue 44) has no row: the players
/// here speak each service's protocol themselves.
const NO_LIBRARY: &str =
    "its client calls a client library (library=); the suite's players speak the \
     service's protocol themselves and run no library yet (the libraries' own runs against real \
     servers: conformance/clients/, docs/clients.md)";

/// The catalogue's scenarios of services the suite does not play, and those whose client calls a
/// library.
fn absent() -> impl Iterator<Item = Entry> {
    leaselab::catalogue::catalogue().iter().filter_map(|sc| {
        if sc.clients.iter().any(|c| c.library.is_some()) {
            return Some(not_run(sc.id.as_ref(), NO_LIBRARY));
        }
        let unplayed = UNPLAYED.iter().find(|u| u.kind == sc.service.kind)?;
        Some(not_run(sc.id.as_ref(), unplayed.why))
    })
}

/// Every entry: each real service's, then the absent services'.
pub fn all() -> Vec<Entry> {
    let services = crate::real::service::SERVICES.iter();
    services
        .flat_map(|s| s.coverage().iter().copied())
        .chain(absent())
        .collect()
}
