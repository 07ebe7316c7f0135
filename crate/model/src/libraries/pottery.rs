//! pottery 3.0.1's lock on a quorum of masters (the service below), as measured in docs/clients.md
//! ("pottery 3.0.1", one master) and read in brainix/pottery at v3.0.1, its lock module (line numbers
//! below are that file's).
//!
//! - No notice until asked; no renewal thread (`extend()` by hand).
//! - `owned` is `locked() > 0` (447–501): the smallest TTL a quorum of masters reports for the
//!   client's value, less drift: a round trip to the masters, yes iff a quorum still holds its value
//!   with time left (measured: 0 at 1.7 ms after waking from a pause past `auto_release_time`).
//! - `release()` (555–599) raises `ReleaseUnlockedLock` (`pottery/exceptions.py` 65) unless a quorum
//!   of masters deleted its value (measured 2.7 ms, 2.2–2.9; each call goes through a thread pool,
//!   14–15 ms on a loaded machine: the model counts one round trip).

use super::LibraryFormat;
use crate::scenario::ServiceKind;

/// pottery's facts.
pub struct Pottery;

impl LibraryFormat for Pottery {
    const NAME: &'static str = "pottery";
    const VERSION: &'static str = "3.0.1";
    const SPEAKS: ServiceKind = ServiceKind::Redlock;
    const NO_OWNED: Option<&'static str> = None;
    const NO_LISTENER: Option<&'static str> =
        Some("it has no listener and tells the application nothing until asked: ask `owned`");
    const RAISES: Option<&'static str> = Some("ReleaseUnlockedLock");
}
