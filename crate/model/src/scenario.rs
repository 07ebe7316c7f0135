//! Scenarios are data: small text files in `crate/scenarios/` (listed, in catalogue order, in
//! `scenarios/index.txt`). The build script parses them with this module's parser and compiles the
//! result into the crate (see `leaselab::catalogue`), so the wasm carries data, not a parser. A writer can
//! add a scenario that combines existing parts without touching the engine. Users' own files go
//! through the same parser (`leaselab check`, `run --file`); their reference, with examples the tests
//! run, is `docs/scenario-format.md`. The summary below is for the code's readers.
//!
//! ```text
//! # comment
//! id: gc-pause
//! group: kleppmann
//! title: A GC pause longer than the lease
//! title.bn: …
//! summary: …
//! summary.bn: …
//! source: M. Kleppmann, "How to do distributed locking" (2016), fig. 8-4
//! derived: what is analysis built on the sources rather than claimed by them (optional)
//! param ttl = 300ms in 10ms..2s: Lease TTL | লিজের TTL
//! param pause = 600ms in 0..3s: A's pause | A-এর বিরতি
//! service: lease ttl=$ttl
//! balance: 500
//! client A: acquire; work 10ms; read; work 10ms; pause $pause; work 10ms; write 60
//! client B: start 10ms; acquire every 50ms; work 10ms; read; work 10ms; write 50; release
//! expect none: final=440 lost=B
//! expect token: final=450 rejected=A
//! expect token +retry: final=390
//! expect none pause=200ms: final=390 lost=none
//! ```
//!
//! Client operations: `acquire [every D] [tries N]`, `read`, `work D`, `pause D`, `check D`,
//! `write DEBIT [delay D]`, `release`, `renew`, `idle` (stay connected, do nothing more); `start D` first. `D` is a duration (`10ms`, `0.3s`) or a
//! parameter (`$ttl`). After the client's name, its clock: `clock=-100000ppm` (rate deviation in parts per
//! million), `step=-200ms@100ms` (at true 100 ms its reading jumps back 200 ms), `monotonic` (ignores
//! steps). The lock server's clock likewise in the service line: `server-step=+300ms@50ms`,
//! `server-monotonic`.
//! Faults: `at D: terminate A` (an admin ends A's database session or connection; needs a service
//! whose home has it),
//! `at D: pause A D2` (A freezes for D2 wherever it is in its script, replies in flight included),
//! `at D: crash n3 [restart D2]` (a node of a service with several crashes, keeping what its persistence saved, and
//! restarts D2 later by its own clock), `at D: restart n3`, `at D: failover` (a single redis's async
//! replica takes over), `at D: cut A n1,n2` / `at D: heal A n1,n2` (a partition between A and nodes).
//! Services: `service: NAME [key=value …]`; each service's own settings, defaults and checks are
//! in its home, `services/NAME.rs` (whose top comment sums them up), and in docs/scenario-format.md.
//! Any service: `ttl=D`, `lock-delay=D`, `idle=D`, `tokens=WORD|no` (each service's own word),
//! `first-token=N`, `lock-latency=D`, `store-latency=D` (one-way network delay), `timeout=D`,
//! `jitter=D`, `replica-lag=D`, `persist=…`. The servers of a service that names them (`n1` … `nN`):
//! a node's own clock, `node n3: step=+300ms@50ms` or `node n3: monotonic`; a client's reachable
//! nodes: `client A reach=n1,n2,n3: …`, and the delay of its links to particular nodes:
//! `client A latency=n1:1ms,n2:3ms: …` (others: `lock-latency`).
//! `read via session` / `write N via session`: the access goes through the session holding the lock.
//! Expectation flags after the policy: `+retry` (a refused client starts over, up to 3 times),
//! `+naive` / `-naive` (the naive switch on / off, whatever the scenario's default; what it does is each
//! service's, said in its home), `NAME=D` overrides.
//! Expectation keys: `grants=A,B` (who was granted the lock, in order), `final=N`, `expected=N` (the ideal guard's final), `lost=A|B|none` (whose acknowledged update is missing),
//! `rejected=A,B|none` (whose writes the storage refused), `stale=yes|no` (a stale write was accepted),
//! `locked-out=A|none` (whose write the storage refused while it held the lock by right).
//!
//! This file holds the format's types and limits; its parser is in `scenario/`: `parser.rs` (the
//! parser's state, its errors, the dispatch of lines, the checks on the whole file), `header.rs`
//! (parameters, the service line, clocks and nodes), `clients.rs`, `faults.rs` and `expect.rs`.

mod clients;
mod expect;
mod faults;
mod header;
pub(crate) mod parser;

use std::borrow::Cow;

use crate::client::{ClientSpec, Dur};
use crate::clock::Clock;
use crate::error::Error;
use crate::store::Policy;
use crate::time::MS;

pub use crate::libraries::LibraryKind;
pub use crate::services::etcd::EtcdToken;
pub use crate::services::redlock::Persist;
pub use crate::services::{naive_meanings, naive_services, own, Own, ServiceKind};
/// Text in a scenario: borrowed from the binary for the compiled catalogue, owned when parsed.
pub type Text = Cow<'static, str>;
/// A list in a scenario, likewise: the compiled catalogue is a `static`, with no constructor code.
pub type List<T> = Cow<'static, [T]>;

/// Most clients a scenario may declare.
pub const CLIENTS_MAX: usize = 8;
/// Most operations in one client's script.
pub const OPS_MAX: usize = 64;
/// Most parameters a scenario may declare.
pub const PARAMS_MAX: usize = 16;
/// Longest scenario text, in bytes: a user's file is untrusted (the catalogue's longest is under 6 KB).
pub const TEXT_BYTES_MAX: usize = 64 * 1024;
/// Most faults (`at D: …`) a scenario may declare.
pub const FAULTS_MAX: usize = 32;
/// Most expectation lines: each runs the scenario twice, so this bounds how long checking a file takes.
pub const EXPECTS_MAX: usize = 32;
/// Most steps one clock may take: each reading of a clock sums its steps.
pub const STEPS_MAX: usize = 16;
/// Most errors one parse reports; the rest are likely to follow from the first.
pub const ERRORS_MAX: usize = 20;

/// A tunable number of a scenario, with its range and labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: Text,
    pub default_us: u64,
    pub min_us: u64,
    pub max_us: u64,
    pub label_en: Text,
    pub label_bn: Text,
}

/// Something that happens to the world at a given time, apart from the clients' scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAction {
    /// An admin terminates the client's database backend (`pg_terminate_backend`): its session ends.
    Terminate(u8),
    /// The client freezes for this long wherever it is in its script — also while replies are in
    /// flight to it: they wait in its socket buffer until it wakes.
    Freeze(u8, Dur),
    /// A redis node crashes (keeping what its persistence mode saved); it restarts after the delay,
    /// measured by its own clock, if one is given.
    Crash(u8, Option<Dur>),
    /// A crashed node restarts.
    Restart(u8),
    /// The single redis master dies and its async replica is promoted: grants (and `INCR`s) made in the
    /// last `replica-lag` before it were never replicated and are gone.
    Failover,
    /// The links between the client and these nodes (bit mask) go down (`true`) or come back.
    Partition(u8, u8, bool),
    /// The client is cut off from the lock service for this long (an injected `cut`, not a
    /// scenario's line): every link of its goes down now and comes back when the length has passed.
    /// A service that names its servers drops what a cut link would carry; the others' messages,
    /// carried by TCP, wait for the link and arrive one latency after it heals.
    Cut(u8, Dur),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub at: Dur,
    pub action: FaultAction,
}

/// The lock service a scenario runs against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceSpec {
    pub kind: ServiceKind,
    /// For sessions: how long a frozen client's session survives without keepalives (0: forever).
    pub idle: Dur,
    pub ttl: Dur,
    pub lock_delay: Dur,
    pub tokens: bool,
    /// One-way network latency between each client and the lock service.
    pub lock_latency: Dur,
    /// One-way network latency between each client and the storage.
    pub store_latency: Dur,
    /// The lock server's clock: leases expire when it says so (redis: the wall clock).
    pub clock: Clock,
    /// How many lock servers: 1, or a quorum service's N.
    pub nodes: u8,
    /// Each node's own clock, when they differ from `clock`.
    pub node_clocks: List<Clock>,
    /// A client's deadline for an acquire: how long it waits for a round's replies before it counts
    /// them, or how long beyond the lease it keeps polling before it gives up (the service's home says
    /// which, and its default).
    pub timeout: Dur,
    /// The retry delay after a failed attempt is `every` plus a seeded random share of this.
    pub jitter: Dur,
    pub persist: Persist,
    /// Redis: how far the async replica lags behind the master.
    pub replica_lag: Dur,
    /// The first fencing token (Kafka-style epochs need not start at 1).
    pub first_token: u64,
    /// How often a client renews its lease or session (a keepalive, a heartbeat); what `Lit(0)`
    /// means and the default are the service's (its home).
    pub keepalive: Dur,
    /// The period of the server's expiry check (a tickTime): a session expires at the first check at
    /// or after its timeout (`Lit(0)`: exactly at the timeout; the rounding is the service's).
    pub tick: Dur,
    /// The naive switch's setting when a run does not say: on where the service line names a
    /// version without the check, off otherwise.
    pub naive_default: bool,
    /// The settings only the scenario's service reads, typed in its home.
    pub own: Own,
}

impl ServiceSpec {
    /// Node `i`'s clock.
    pub fn node_clock(&self, i: usize) -> &Clock {
        self.node_clocks.get(i).unwrap_or(&self.clock)
    }

    /// A majority of the nodes.
    pub fn quorum(&self) -> u8 {
        self.nodes / 2 + 1
    }

    /// A quorum client's clock-drift allowance: 1 % of the TTL plus 2 ms (Redis docs, "Distributed
    /// Locks with Redis").
    pub fn drift(ttl_us: u64) -> u64 {
        ttl_us / 100 + 2 * MS
    }
}

/// Whose update went missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lost {
    Nobody,
    Client(u8),
}

/// An expected outcome for one policy (and optionally different parameters), checked by the tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    pub policy: Policy,
    pub retry: bool,
    /// The naive switch for this expectation (`+naive` on, `-naive` off); `None`: the scenario's default.
    pub naive: Option<bool>,
    /// Parameter overrides `(index, value)` for this expectation.
    pub overrides: List<(u8, u64)>,
    pub final_balance: Option<i64>,
    /// The ideal guard's final balance (`expected` in the outcome).
    pub expected: Option<i64>,
    pub lost: Option<Lost>,
    pub rejected: Option<List<u8>>,
    pub stale: Option<bool>,
    /// The clients granted the lock, in order.
    pub grants: Option<List<u8>>,
    /// Whose write the storage refused while it was the lock's rightful holder.
    pub locked_out: Option<Lost>,
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub id: Text,
    pub group: Text,
    pub title_en: Text,
    pub title_bn: Text,
    pub summary_en: Text,
    pub summary_bn: Text,
    pub source: Text,
    pub derived: Text,
    pub params: List<ParamSpec>,
    pub service: ServiceSpec,
    pub balance: i64,
    pub clients: List<ClientSpec>,
    pub faults: List<Fault>,
    pub expects: List<Expectation>,
}

impl Scenario {
    pub fn param_index(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }

    /// The index of parameter `name`, or the error that names the parameters the scenario has.
    pub fn param_index_or_err(&self, name: &str) -> Result<usize, Error> {
        self.param_index(name).ok_or_else(|| Error::UnknownParam {
            scenario: self.id.to_string(),
            name: name.to_string(),
            known: self.param_names(),
        })
    }

    pub fn defaults(&self) -> Vec<u64> {
        self.params.iter().map(|p| p.default_us).collect()
    }

    pub fn param_names(&self) -> String {
        if self.params.is_empty() {
            return "no parameters".to_string();
        }
        crate::text::join(self.params.iter().map(|p| &*p.name), ", ")
    }

    pub fn client_name(&self, i: u8) -> char {
        self.clients.get(usize::from(i)).map_or('?', |c| c.name)
    }

    /// Checks a parameter value against its range.
    pub fn check_param(&self, index: usize, value_us: u64) -> Result<(), Error> {
        let p = &self.params[index];
        if value_us < p.min_us || value_us > p.max_us {
            return Err(Error::ParamOutOfRange {
                name: p.name.to_string(),
                value_us,
                min_us: p.min_us,
                max_us: p.max_us,
            });
        }
        Ok(())
    }

    /// Sets `name` in `values`, checking that the scenario has it and that it is in range.
    pub fn set_param(&self, values: &mut [u64], name: &str, value_us: u64) -> Result<(), Error> {
        let i = self.param_index_or_err(name)?;
        self.check_param(i, value_us)?;
        values[i] = value_us;
        Ok(())
    }

    /// Parses one scenario file; the first error if it does not parse.
    pub fn parse(text: &str) -> Result<Scenario, Error> {
        Scenario::parse_all(text).map_err(|mut errors| errors.swap_remove(0))
    }

    /// Parses one scenario file, or reports every line that does not parse (at most [`ERRORS_MAX`],
    /// never none), each with its line and column: a user's file is easier to fix all at once. A line
    /// with an error is skipped, so later errors may follow from it (a client whose line failed is
    /// unknown to the expectations after it).
    pub fn parse_all(text: &str) -> Result<Scenario, Vec<Error>> {
        if text.len() > TEXT_BYTES_MAX {
            return Err(vec![Error::Scenario {
                id: String::new(),
                line: 1,
                col: 1,
                why: format!(
                    "the text is {} bytes; a scenario may be at most {TEXT_BYTES_MAX} bytes",
                    text.len()
                ),
            }]);
        }
        parser::Parser::default().parse(text)
    }
}
