//! etcd's client side: a lease kept alive by a thread of the client's process, `Lock` on it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::sleep;
use std::time::{Duration, Instant};

use super::player::{Client, Held, Stop};
use super::us;
use crate::etcd;

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
        let e = self.etcd.as_mut().ok_or("no etcd")?;
        if let Some(key) = e.key.take() {
            etcd::unlock(e.port, &key)?;
            self.note("Unlock → its key is deleted".into());
        }
        Ok(())
    }
}
