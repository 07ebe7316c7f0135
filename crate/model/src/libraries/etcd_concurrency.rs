//! etcd 3.4.23's `clientv3/concurrency` (`Session`, `Mutex`) as `etcdctl lock` runs it (service
//! `etcd`), as measured in docs/clients.md ("etcdctl lock") and read in etcd-io/etcd at v3.4.23.
//!
//! - The session's `Done()` channel closes when the lease's keep-alive channel does
//!   (`concurrency/session.go` 63–69, 84): `clientv3/lease.go` closes it when a keep-alive answer has
//!   TTL ≤ 0 (`recvKeepAlive` 509–513) or when `deadlineLoop` (537–555, every second) finds the
//!   deadline passed — within ms of waking from a pause past the TTL (measured: etcdctl without a
//!   command exited 2.4 ms, 2.4–3.2, after waking). With a command, nothing watches it: the command
//!   is never told (`lock_command.go` 55–105).
//! - `listener` is `<-session.Done()`: closed means the lock is lost.
//! - No `owned`: `Mutex.IsOwner()` (`mutex.go` 90–92) is a compare (`CreateRevision(myKey) ==
//!   myRev`) for a transaction, not a question the application asks.
//! - Its token, what `etcdctl lock` exports as `ETCD_LOCK_REV` (`lock_command.go` 108–112:
//!   `m.Header().Revision`), is the revision of the response that granted the lock: the key's create
//!   revision when it was first in line (`mutex.go` 64–66), else the revision of `waitDeletes`'s last
//!   Get (`key.go` 50–65), after its predecessor's deletion (measured: the waiter's 1–2 past its
//!   create revision).

use super::LibraryFormat;
use crate::scenario::ServiceKind;
use crate::time::MS;

/// etcd's concurrency package's facts.
pub struct EtcdConcurrency;

impl LibraryFormat for EtcdConcurrency {
    const NAME: &'static str = "etcd-concurrency";
    const VERSION: &'static str = "3.4.23";
    const SPEAKS: ServiceKind = ServiceKind::Etcd;
    const NO_OWNED: Option<&'static str> = Some(
        "its IsOwner() is a compare on the key's create revision for a transaction (Txn().If(...)), \
         not a question the application can ask: check `listener` (the session's Done())",
    );
    const NO_LISTENER: Option<&'static str> = None;
    const GRANT_REVISION_TOKEN: bool = true;
}

/// The session's `Done()` closes this long after waking from a pause past the lease's TTL (measured
/// 2.4 ms, 2.4–3.2: etcdctl's exit on it).
pub const SESSION_DONE_AFTER_WAKE_US: u64 = 3 * MS;
