//! # leaselab
//!
//! Why a distributed lock alone does not protect data, as an exact, deterministic simulation.
//!
//! ```
//! use leaselab::{catalogue, simulate, Config, Policy};
//!
//! // The seed's run: TTL 300 ms, A pauses 600 ms after reading 500, B takes the lock and writes 450.
//! let sc = catalogue::find("seed-gc-pause").unwrap();
//! let unfenced = simulate(sc, &Config::new(sc, Policy::None)).unwrap();
//! assert_eq!((unfenced.run.final_balance, unfenced.expected), (440, 450));
//! assert!(unfenced.lost_update); // and nobody got an error
//!
//! let fenced = simulate(sc, &Config::new(sc, Policy::Token)).unwrap();
//! assert_eq!(fenced.run.final_balance, 450); // the storage rejected A's stale token
//! assert!(!fenced.lost_update);
//! ```
//!
//! ## Time and determinism
//!
//! Time is virtual: [`SimTime`] counts microseconds since the start of the run, and the clock jumps from
//! one event to the next. Nothing in the core reads a wall clock or a random source it was not given:
//! events run in `(time, sequence)` order, so two events at the same microsecond run in the order they
//! were scheduled, and lock values come from one seeded generator. The same scenario, parameters, policy,
//! retries and seed give a byte-identical trace, natively and in wasm.
//!
//! ## Design
//!
//! One concept per module; `docs/architecture.md` is the map. The scenario model — [`scenario`] (scenarios
//! as data files and their parser), [`time`], [`clock`], [`client`] (scripts), [`store`] (the guarded
//! store and its policies), [`sig`] (path signatures), [`error`] — is the crate `leaselab-model`, shared
//! with the build script, and re-exported here under the same names. [`catalogue`] holds the built-in
//! scenarios, compiled in. [`sim`] is the event engine (kernel and actors); [`services`] the lock
//! services, one file each; [`lock`] a lock server's state; [`trace`] what a run records; [`outcome`]
//! the verdict; [`report`] the transcript, JSON and Markdown; [`sweep`] grids of runs; [`search`] the
//! smallest point of a grid of any dimension that loses an update; `estimate` the Monte Carlo
//! estimate; [`check`] a user's scenario file: its errors located, its expectations run.
//! `wasm.rs` is the only module that touches `wasm_bindgen`.
//!
//! ## Limits
//!
//! Every run is bounded: at most [`sim::EVENTS_MAX`] events, [`sim::SIM_TIME_US_MAX`] of simulated time,
//! durations of at most [`time::DURATION_US_MAX`]. Exceeding one is an [`Error`], never a hang or panic.

pub mod catalogue;
pub mod check;
// The scenario model lives in its own crate (the build script needs it too); its modules keep their
// names here.
pub use leaselab_model::{client, clock, error, scenario, sig, store, text, time};
// Natively always; in wasm only with the `estimate` feature (the page's wasm leaves it out).
#[cfg(any(not(target_arch = "wasm32"), feature = "estimate"))]
pub mod estimate;
pub mod inject;
pub mod libraries;
pub mod lock;
pub mod matrix;
pub mod outcome;
pub mod report;
pub mod rng;
pub mod search;
pub mod services;
pub mod sim;
pub mod sweep;
pub mod trace;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::Error;
pub use outcome::{simulate, Outcome};
pub use scenario::{Lost, Scenario};
pub use sim::{Config, Engine};
pub use store::Policy;
pub use time::SimTime;
