//! etcd as a real service: one real etcd, fresh for every attempt (so revisions start at 1 as in the
//! model), through its JSON gateway (see etcd.rs): `LeaseGrant` with the TTL in seconds, a keepalive
//! thread in the client's process that sends one every TTL/3 and is stopped with it (its keepalives
//! freeze with it), `Lock` on the lease (which blocks while the key waits), the key's create revision
//! as the token (or the lease ID), `Unlock`, and the lease revoked at the end of the script. Its probe
//! row is etcd_probe.rs's.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::sleep;
use std::time::{Duration, Instant};

use leaselab::scenario::{Scenario, ServiceKind};
use leaselab::store::Policy;

use super::player::{Client, Held, Stop};
use super::service::{Attempt, Conn, LockServers, Probe, RealService};
use super::{us, Setup};
use crate::cases::{case, Case};
use crate::coverage::{real, Component, Entry};
use crate::etcd;
use crate::servers::Res;

/// etcd's lock on a lease.
pub struct EtcdLock;

/// The real component its rows run on (coverage.rs).
pub(crate) const ETCD: Component = Component {
    name: "etcd",
    version: "3.4.23",
    from: "Debian 12 `etcd-server`",
};

/// Its catalogue scenarios in the table of what each runs on (coverage.rs's format).
static COVERAGE: &[Entry] = &[
    real(
        "etcd-lease-pause",
        &ETCD,
        "Lock on a lease kept alive every TTL/3; SIGSTOP",
    ),
    real(
        "etcd-waiter-expired-lease",
        &ETCD,
        "a probe: the installed etcd's Lock for a waiter whose lease expired",
    ),
    real(
        "etcd-contrib-lock",
        &ETCD,
        "the lease ID as version; `equal-token`",
    ),
    real("table-etcd", &ETCD, "the safety table's base run, no fault"),
];

impl RealService for EtcdLock {
    fn coverage(&self) -> &'static [Entry] {
        COVERAGE
    }

    fn kinds(&self) -> &'static [ServiceKind] {
        &[ServiceKind::Etcd]
    }

    fn scenario_text(&self, id: &str) -> Option<&'static str> {
        Some(match id {
            "etcd-lease-pause" => include_str!("../../../crate/scenarios/etcd-lease-pause.txt"),
            "etcd-contrib-lock" => include_str!("../../../crate/scenarios/etcd-contrib-lock.txt"),
            "table-etcd" => include_str!("../../../crate/scenarios/table-etcd.txt"),
            _ => return None,
        })
    }

    fn cases(&self) -> Vec<Case> {
        cases()
    }

    fn probes(&self) -> Vec<Probe> {
        vec![Probe {
            id: "etcd-waiter-expired-lease",
            run: super::etcd_probe::waiter_row,
        }]
    }

    fn unsupported(&self, sc: &Scenario, setup: &Setup) -> Option<&'static str> {
        let ttl = sc.service.ttl.resolve(&setup.params);
        (!ttl.is_multiple_of(1_000_000) || ttl < 2_000_000)
            .then_some("an etcd TTL that is not whole seconds of at least 2 s")
    }

    /// A fresh etcd for every attempt: its revisions start at 1, as the model's do.
    fn start<'a>(&self, at: &Attempt<'_, 'a>) -> Res<Box<dyn LockServers + 'a>> {
        let dir = at.work.join(format!("etcd-{}", at.tag));
        Ok(Box::new(etcd::Etcd::start(dir)?))
    }

    fn connect(&self, _sc: &Scenario, _setup: &Setup, _name: char, spec: &str) -> Res<Conn> {
        let port = spec
            .parse()
            .map_err(|_| format!("bad etcd spec {spec:?}"))?;
        Ok(Conn {
            session: None,
            state: Box::new(EtcdSession::new(port)),
        })
    }

    fn blocks(&self) -> bool {
        true
    }

    fn try_acquire(&self, c: &mut Client, value: i64) -> Result<Option<Held>, Stop> {
        c.etcd_lock(value)
    }

    fn release(&self, c: &mut Client, _h: Held) -> Result<(), Stop> {
        c.etcd_release()
    }

    fn finish(&self, c: &mut Client) {
        if let Ok(e) = c.state::<EtcdSession>() {
            e.close();
        }
    }
}

impl LockServers for etcd::Etcd {
    fn agent_spec(&self, _client: usize) -> String {
        self.port.to_string()
    }
}

/// etcd's rows, on its second-scale timeline. TTL 2 s: A's lease expires at 2 s (+ up to 0.5 s: etcd
/// looks for expired leases twice a second) and B writes right after; A writes at 5 s: 1 s.
fn cases() -> Vec<Case> {
    let row = |id, policy, how| Case {
        tolerance_ms: 1000,
        ..case(id, policy, &[], 1, how)
    };
    vec![
        row(
            "etcd-lease-pause",
            Policy::None,
            "etcd 3.4 lock on a 2 s lease, keepalives every TTL/3; PostgreSQL table",
        ),
        row(
            "etcd-lease-pause",
            Policy::Token,
            "as above; the key's create revision as token",
        ),
        row(
            "etcd-contrib-lock",
            Policy::EqualToken,
            "etcd 3.4; the lease ID as version; UPDATE … WHERE token = 0 OR token = $1",
        ),
        row(
            "table-etcd",
            Policy::None,
            "etcd 3.4 lock on a 60 s lease; B's Lock waits from 3 s to A's unlock at 6 s; no fault (the safety table's base run)",
        ),
    ]
}

/// An etcd client's session: its lease, kept alive by a thread of its own. The thread is in the
/// client's process, so when the conductor stops the process (a pause), its keepalives stop too, and
/// the one due meanwhile goes out when the process runs again.
pub(super) struct EtcdSession {
    pub(super) port: u16,
    pub(super) lease: Option<i64>,
    pub(super) key: Option<String>,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) thread: Option<std::thread::JoinHandle<()>>,
}

impl EtcdSession {
    pub(super) fn new(port: u16) -> EtcdSession {
        EtcdSession {
            port,
            lease: None,
            key: None,
            stop: Arc::new(AtomicBool::new(false)),
            thread: None,
        }
    }

    /// Keeps `lease` alive: a keepalive every `every`, until told to stop or the lease is gone.
    pub(super) fn start_keepalive(&mut self, lease: i64, every: Duration) {
        let (port, stop) = (self.port, Arc::clone(&self.stop));
        self.thread = Some(std::thread::spawn(move || {
            let mut next = Instant::now() + every;
            while !stop.load(Ordering::Relaxed) {
                if Instant::now() < next {
                    sleep(Duration::from_millis(5).min(next - Instant::now()));
                    continue;
                }
                match etcd::keepalive(port, lease) {
                    Ok(ttl) if ttl > 0 => next = Instant::now() + every,
                    _ => return, // the lease is gone (or etcd is): nothing left to keep alive
                }
            }
        }));
    }

    /// The end of the script: the keepalives stop and the lease is revoked (its key with it).
    pub(super) fn close(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if let Some(lease) = self.lease.take() {
            let _ = etcd::revoke(self.port, lease);
        }
    }
}

impl Client<'_> {
    /// etcd: a lease first (kept alive from then on), then `Lock`, which returns when the client's
    /// key is the lowest; the token is the key's create revision (or the lease ID).
    pub(super) fn etcd_lock(&mut self, _value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let ttl = us(svc.ttl, &self.setup.params);
        let within = self.link.time_left();
        let e = self.state::<EtcdSession>()?;
        let lease = match e.lease {
            Some(l) => l,
            None => {
                let l = etcd::grant(e.port, ttl.as_secs() as i64)?;
                e.lease = Some(l);
                e.start_keepalive(l, ttl / 3);
                l
            }
        };
        let key = match etcd::lock(e.port, lease, within) {
            Ok(k) => k,
            Err(err) => {
                self.note(format!("Lock → error: {err}"));
                return Err(Stop::GaveUp);
            }
        };
        let rev = etcd::create_revision(e.port, &key)?;
        e.key = Some(key);
        let token = match leaselab::scenario::own::Etcd::of(svc).token {
            leaselab::scenario::EtcdToken::Revision => rev,
            leaselab::scenario::EtcdToken::LeaseId => Some(lease),
        };
        self.note(format!(
            "Lock → held (lease {lease:x}, key revision {})",
            rev.map_or("gone".into(), |r| r.to_string())
        ));
        Ok(Some(Held {
            token: if svc.tokens { token } else { None },
            value: lease,
            believed_end: None,
        }))
    }

    pub(super) fn etcd_release(&mut self) -> Result<(), Stop> {
        let e = self.state::<EtcdSession>()?;
        if let Some(key) = e.key.take() {
            etcd::unlock(e.port, &key)?;
            self.note("Unlock → its key is deleted".into());
        }
        Ok(())
    }
}
