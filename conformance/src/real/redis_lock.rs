//! The redis lease's and Redlock's client side: `SET NX PX` (with an `INCR` token in the same Lua
//! script), value-checked release; Redlock's rounds over five nodes.

use std::time::{Duration, Instant};

use leaselab::scenario::ServiceSpec;

use super::player::{Client, Held, Stop};
use super::us;
use crate::servers::connect_redis;

pub(super) const LOCK: &str = "leaselab:lock";
pub(super) const FENCE: &str = "leaselab:fence";
/// SET NX PX, and with tokens an INCR in the same atomic step: returns the token, -1 (granted, no
/// tokens) or 0 (denied).
pub(super) const ACQUIRE_LUA: &str =
    "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then \
    if ARGV[3] == '1' then return redis.call('INCR', KEYS[2]) end return -1 end return 0";
/// Value-checked release: deletes the key only if it still holds this client's value.
pub(super) const RELEASE_LUA: &str =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

impl Client<'_> {
    /// A redis lease: `SET NX PX` with the fencing token from `INCR` in one Lua script.
    pub(super) fn redis_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let p = &self.setup.params;
        let ttl = us(svc.ttl, p);
        let port = self.redis_port.ok_or("no redis")?;
        let sent = Instant::now();
        let mut con = connect_redis(port, Duration::from_secs(2))?;
        let r: i64 = redis::cmd("EVAL")
            .arg(ACQUIRE_LUA)
            .arg(2)
            .arg(LOCK)
            .arg(FENCE)
            .arg(value)
            .arg(ttl.as_millis() as u64)
            .arg(if svc.tokens { "1" } else { "0" })
            .query(&mut con)
            .map_err(|e| format!("SET NX PX: {e}"))?;
        let granted = r != 0;
        let token = (r > 0).then_some(r);
        self.note(format!(
            "SET {LOCK} NX PX {} → {}",
            ttl.as_millis(),
            match token {
                Some(t) => format!("OK, tok={t}"),
                None if granted => "OK".into(),
                None => "nil".into(),
            }
        ));
        Ok(granted.then_some(Held {
            token,
            value,
            believed_end: Some(sent + ttl),
        }))
    }

    /// A Redlock round: `SET NX PX` on every node the client reaches; held with a majority in time.
    pub(super) fn redlock_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let p = &self.setup.params;
        let ttl = us(svc.ttl, p);
        let drift = Duration::from_micros(ServiceSpec::drift(ttl.as_micros() as u64));
        let timeout = us(svc.timeout, p).max(Duration::from_millis(50));
        let reach = self.sc.clients[usize::from(self.idx)].reach;
        let sent = Instant::now();
        let mut granted = 0u8;
        let mut who = Vec::new();
        for (k, &port) in self.node_ports.iter().enumerate() {
            if reach & (1 << k) == 0 {
                continue; // partitioned away
            }
            let ok = connect_redis(port, timeout).ok().and_then(|mut con| {
                redis::cmd("SET")
                    .arg(LOCK)
                    .arg(value)
                    .arg("NX")
                    .arg("PX")
                    .arg(ttl.as_millis() as u64)
                    .query::<Option<String>>(&mut con)
                    .ok()
            });
            if matches!(ok, Some(Some(_))) {
                granted += 1;
                who.push(format!("n{}", k + 1));
            }
        }
        let elapsed = sent.elapsed();
        let validity =
            ttl.as_micros() as i64 - elapsed.as_micros() as i64 - drift.as_micros() as i64;
        let quorum = 5 / 2 + 1;
        if granted >= quorum && validity > 0 {
            self.note(format!(
                "{granted}/5 nodes OK ({}), validity {} ms → holds the lock",
                who.join(","),
                validity / 1000
            ));
            return Ok(Some(Held {
                token: None,
                value,
                believed_end: Some(sent + ttl - drift),
            }));
        }
        self.note(format!(
            "{granted}/5 nodes OK ({}), validity {} ms → unlock all, retry",
            who.join(","),
            validity / 1000
        ));
        self.redlock_unlock(value);
        Ok(None)
    }

    pub(super) fn redlock_unlock(&self, value: i64) {
        let reach = self.sc.clients[usize::from(self.idx)].reach;
        for (k, &port) in self.node_ports.iter().enumerate() {
            if reach & (1 << k) != 0 {
                if let Ok(mut con) = connect_redis(port, Duration::from_millis(200)) {
                    let _ = redis::cmd("EVAL")
                        .arg(RELEASE_LUA)
                        .arg(1)
                        .arg(LOCK)
                        .arg(value)
                        .query::<i64>(&mut con);
                }
            }
        }
    }
}
