//! The redis lease's and Redlock's client side: `SET NX PX` (with an `INCR` token in the same Lua
//! script), value-checked release, the watchdog's value-checked renewal (Redisson's); Redlock's
//! rounds over five nodes.

use std::time::{Duration, Instant, SystemTime};

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
/// Value-checked renewal, as Redisson's watchdog sends it: a new TTL from now, only if the key still
/// holds this client's value (an expired key is gone, so a late renewal extends nothing).
pub(super) const RENEW_LUA: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
    return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";

impl Client<'_> {
    /// One command to the single redis. With the scenario's `lock-latency`, its reply is read a round
    /// trip (2 × the latency) after it was sent, on the client's timeline: until then it waits, unread,
    /// in the client's socket buffer, which is where a freeze in between leaves it, as in the model.
    fn lease_call(&mut self, cmd: &redis::Cmd, what: &str) -> Result<i64, Stop> {
        let port = self.redis_port.ok_or("no redis")?;
        let mut con = connect_redis(port, Duration::from_secs(2))?;
        let lat = us(self.sc.service.lock_latency, &self.setup.params);
        if lat.is_zero() {
            return cmd
                .query(&mut con)
                .map_err(|e| format!("{what}: {e}").into());
        }
        con.send_packed_command(&cmd.get_packed_command())
            .map_err(|e| format!("{what}: {e}"))?;
        self.note(format!(
            "{what}: sent; its reply is read a round trip ({} ms) later",
            (2 * lat).as_millis()
        ));
        self.wait(2 * lat);
        let v = con.recv_response().map_err(|e| format!("{what}: {e}"))?;
        redis::from_redis_value(v).map_err(|e| format!("{what}: {e}").into())
    }

    /// `renew`: the watchdog's renewal, value-checked; refused (the lease is gone), the attempt is
    /// given up, as the model's client does.
    pub(super) fn renew_step(&mut self) -> Result<(), Stop> {
        let Some(h) = self.held else {
            self.note("renew: holds no lease".into());
            return Err(Stop::GaveUp);
        };
        let ttl = us(self.sc.service.ttl, &self.setup.params);
        let sent = SystemTime::now(); // by the client's own wall clock
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(RENEW_LUA)
            .arg(1)
            .arg(LOCK)
            .arg(h.value)
            .arg(ttl.as_millis() as u64);
        let n = self.lease_call(&cmd, "renew")?;
        self.note(format!(
            "renew (PEXPIRE {} if the key still holds its value) → {n}",
            ttl.as_millis()
        ));
        if n != 1 {
            return Err(Stop::GaveUp);
        }
        self.held = Some(Held {
            believed_end: Some(sent + ttl),
            ..h
        });
        Ok(())
    }

    /// The value-checked release of a redis lease.
    pub(super) fn redis_release(&mut self, h: Held) -> Result<(), Stop> {
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(RELEASE_LUA).arg(1).arg(LOCK).arg(h.value);
        let port = self.redis_port.ok_or("no redis")?;
        let mut con = connect_redis(port, Duration::from_secs(2))?;
        let n: i64 = cmd.query(&mut con).map_err(|e| format!("release: {e}"))?;
        self.note(format!("release (value-checked DEL) → {n}"));
        Ok(())
    }

    /// A redis lease: `SET NX PX` with the fencing token from `INCR` in one Lua script.
    pub(super) fn redis_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let p = &self.setup.params;
        let ttl = us(svc.ttl, p);
        let sent = SystemTime::now(); // by the client's own wall clock
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(ACQUIRE_LUA)
            .arg(2)
            .arg(LOCK)
            .arg(FENCE)
            .arg(value)
            .arg(ttl.as_millis() as u64)
            .arg(if svc.tokens { "1" } else { "0" });
        let r = self.lease_call(&cmd, "SET NX PX")?;
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
        let (sent, sent_wall) = (Instant::now(), SystemTime::now());
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
                believed_end: Some(sent_wall + ttl - drift),
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
