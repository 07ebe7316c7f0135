//! # leaselab-model
//!
//! The scenario model of [leaselab](../leaselab/index.html): what a scenario file says and its parser
//! ([`scenario`]), and the vocabulary it is written in — virtual time and durations ([`time`]), each
//! node's own clock ([`clock`]), client scripts and client state ([`client`]), storage policies and
//! the guarded store ([`store`]), run signatures ([`sig`]) and the one error type ([`error`]).
//!
//! A crate of its own because two places need it: the `leaselab` library, and the library's build
//! script, which parses the catalogue's files at build time and compiles them in as data (so the wasm
//! carries no parser, and a broken scenario file fails the build). `leaselab` re-exports every module
//! under the same name, so `leaselab::scenario::Scenario` is this crate's.

pub mod client;
pub mod clock;
pub mod error;
pub mod libraries;
pub mod scenario;
mod services;
pub mod sig;
pub mod store;
pub mod text;
pub mod time;

pub use error::Error;
