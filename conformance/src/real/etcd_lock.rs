//! etcd's client side: a lease kept alive by a thread that freezes with the client, `Lock` on it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::sleep;
use std::time::{Duration, Instant};

use super::player::{Client, Held, Stop};
use super::us;
use crate::etcd;

/// An etcd client's session: its lease, kept alive by a thread of its own that freezes with it.
pub(super) struct EtcdSession {
    pub(super) port: u16,
    pub(super) lease: Option<i64>,
    pub(super) key: Option<String>,
    pub(super) ctl: Arc<KeepaliveCtl>,
    pub(super) thread: Option<std::thread::JoinHandle<()>>,
}

/// What the keepalive thread reads: stop, and "frozen until" (µs since the Unix epoch of `Instant`s is
/// not a thing, so: µs after the thread's own start).
pub(super) struct KeepaliveCtl {
    pub(super) stop: AtomicBool,
    pub(super) frozen_until_us: AtomicU64,
    pub(super) started: Instant,
}

impl EtcdSession {
    pub(super) fn new(port: u16) -> EtcdSession {
        EtcdSession {
            port,
            lease: None,
            key: None,
            ctl: Arc::new(KeepaliveCtl {
                stop: AtomicBool::new(false),
                frozen_until_us: AtomicU64::new(0),
                started: Instant::now(),
            }),
            thread: None,
        }
    }

    /// Keeps `lease` alive: a keepalive every `every`, none while the client is frozen (the one due
    /// then goes out when it wakes), until told to stop or the lease is gone.
    pub(super) fn start_keepalive(&mut self, lease: i64, every: Duration) {
        let (port, ctl) = (self.port, Arc::clone(&self.ctl));
        self.thread = Some(std::thread::spawn(move || {
            let mut next = Instant::now() + every;
            while !ctl.stop.load(Ordering::Relaxed) {
                let thaw = ctl.started
                    + Duration::from_micros(ctl.frozen_until_us.load(Ordering::Relaxed));
                let due = next.max(thaw);
                if Instant::now() < due {
                    sleep(Duration::from_millis(5).min(due - Instant::now()));
                    continue;
                }
                match etcd::keepalive(port, lease) {
                    Ok(ttl) if ttl > 0 => next = Instant::now() + every,
                    _ => return, // the lease is gone (or etcd is): nothing left to keep alive
                }
            }
        }));
    }

    /// The client freezes until `until`: so does its keepalive thread.
    pub(super) fn freeze_until(&self, until: Instant) {
        let us = until
            .saturating_duration_since(self.ctl.started)
            .as_micros() as u64;
        self.ctl.frozen_until_us.store(us, Ordering::Relaxed);
    }

    /// The end of the script: the keepalives stop and the lease is revoked (its key with it).
    pub(super) fn close(&mut self) {
        self.ctl.stop.store(true, Ordering::Relaxed);
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
        let within = self.shared.time_left();
        let e = self.etcd.as_mut().ok_or("no etcd")?;
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
        let token = match svc.etcd_token {
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
}
