//! Consul: the suite does not play it, and why (coverage.rs gives each of its catalogue scenarios a
//! `not_run` entry with this reason).

use crate::coverage::Unplayed;
use leaselab::scenario::ServiceKind;

/// What was looked for, and where.
pub const UNPLAYED: Unplayed = Unplayed {
    kind: ServiceKind::Consul,
    why: "no Consul server installs here: Debian 12 packages only its clients (`python3-consul`, `golang-github-armon-consul-api-dev`), npm and PyPI only clients (npm `consul`, PyPI `consul-kv`, …) and `@hashicorp/consul-api-double` (canned HTTP answers: no sessions, no lock-delay); the binary comes from HashiCorp's own site, which is not reachable. The lock-delay itself runs on redis (`lock-delay`)",
};
