//! Kubernetes: the suite does not play it, and why (coverage.rs gives each of its catalogue scenarios a
//! `not_run` entry with this reason).

use crate::coverage::Unplayed;
use leaselab::scenario::ServiceKind;

/// What was looked for, and where.
pub const UNPLAYED: Unplayed = Unplayed {
    kind: ServiceKind::Kubernetes,
    why: "no Kubernetes API server installs here: Debian 12 has `kubectl` (`kubernetes-client`) and client libraries (`python3-kubernetes`) but no `kube-apiserver`; PyPI and npm only clients (`kubernetes`, `@kubernetes/client-node`)",
};
