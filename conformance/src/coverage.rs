//! What each catalogue scenario is checked against: the list that docs/conformance.md's table and the
//! README's summary are generated from (coverage_docs.rs renders them, and a test keeps them equal).
//!
//! **Format.** Every catalogue scenario (crate/scenarios/index.txt) has exactly one [`Entry`]: a
//! scenario of a service the suite plays is in that service's `COVERAGE` (its file, `real/NAME_lock.rs`,
//! returned by `RealService::coverage`), one of a service it does not play is in [`ABSENT`] below. A
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

// Why no row, for each service the suite does not play: what was looked for, and where.
const NO_CONSUL: &str = "no Consul server installs here: Debian 12 packages only its clients (`python3-consul`, `golang-github-armon-consul-api-dev`), npm and PyPI only clients (npm `consul`, PyPI `consul-kv`, …) and `@hashicorp/consul-api-double` (canned HTTP answers: no sessions, no lock-delay); the binary comes from HashiCorp's own site, which is not reachable. The lock-delay itself runs on redis (`lock-delay`)";
const NO_HAZELCAST: &str = "no Hazelcast member installs here: it is a Java server from Maven Central or Hazelcast's site, neither reachable; Debian 12 has none, npm and PyPI only its clients (`hazelcast-client`, `hazelcast-python-client`), which need a member";
const NO_KUBERNETES: &str = "no Kubernetes API server installs here: Debian 12 has `kubectl` (`kubernetes-client`) and client libraries (`python3-kubernetes`) but no `kube-apiserver`; PyPI and npm only clients (`kubernetes`, `@kubernetes/client-node`)";

/// The scenarios of services the suite does not play.
pub static ABSENT: &[Entry] = &[
    not_run("hazelcast-fenced-lock", NO_HAZELCAST),
    not_run("k8s-lease-slow-renew", NO_KUBERNETES),
    not_run("consul-lock-delay", NO_CONSUL),
    not_run("consul-lock-delay-exceeded", NO_CONSUL),
    not_run("table-hazelcast", NO_HAZELCAST),
    not_run("table-kubernetes", NO_KUBERNETES),
    not_run("table-consul", NO_CONSUL),
];

/// Every entry: each real service's, the client libraries' (library_rows.rs), then the absent
/// services'.
pub fn all() -> Vec<&'static Entry> {
    let services = crate::real::service::SERVICES.iter();
    services
        .flat_map(|s| s.coverage().iter())
        .chain(crate::library_rows::coverage())
        .chain(ABSENT.iter())
        .collect()
}
