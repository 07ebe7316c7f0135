//! The redis lease's and Redlock's client side: `SET NX PX` (with an `INCR` token in the same Lua
//! script), value-checked release, the watchdog's value-checked renewal (Redisson's); Redlock's
//! rounds over five nodes.

use std::time::{Duration, Instant, SystemTime};

use leaselab::scenario::{ServiceKind, ServiceSpec};
use leaselab::services::backoff_share_us;

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

    /// A Redlock round: `SET NX PX` sent to every node the client reaches, then the replies read
    /// (each link's latency is the network's: see redlock_links.rs), counted when every node has
    /// answered or the round's reply timeout has passed; held with a majority in time.
    pub(super) fn redlock_try_acquire(&mut self, value: i64) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let p = &self.setup.params;
        let ttl = us(svc.ttl, p);
        let drift = Duration::from_micros(ServiceSpec::drift(ttl.as_micros() as u64));
        let nodes = usize::from(svc.nodes);
        let deadline_in = us(svc.timeout, p);
        self.redlock_round = (self.redlock_round + 1) & 0xfff;
        let (sent, sent_wall) = (Instant::now(), SystemTime::now());
        let mut cons = self.send_round(value, ttl);
        self.say_first(); // its requests are out: a client starting at the same instant may go
                          // The replies are due a round trip over the slowest link; a node it cannot reach never
                          // answers, so then the client counts when the wait is over. The count is at that place on
                          // the client's timeline (in a freeze of its own: when it wakes), so clients stay in step
                          // with the scenario, not with each other's real delays. It sleeps until then and only then
                          // reads (a read blocked in the kernel when the process is stopped would fail with EINTR at
                          // SIGCONT; a sleep resumes).
        let round_trip = cons.iter().map(|c| 2 * self.node_latency(c.0)).max();
        let wait = match round_trip {
            Some(rt) if cons.len() == nodes => rt.min(deadline_in),
            _ => deadline_in,
        };
        self.wait(wait);
        let who = read_round(&mut cons, sent + deadline_in);
        let elapsed = sent.elapsed();
        let validity =
            ttl.as_micros() as i64 - elapsed.as_micros() as i64 - drift.as_micros() as i64;
        let (granted, quorum) = (who.len(), nodes / 2 + 1);
        if granted >= quorum {
            // A majority of the nodes hold its keys (the model's truth), whether or not the client
            // then finds enough validity left to use them.
            self.link.send(&format!("grant {}", self.link.us(sent)));
        }
        let then = if granted >= quorum && validity > 0 {
            "holds the lock"
        } else {
            "unlock all, retry"
        };
        self.note(format!(
            "{granted}/{nodes} nodes OK ({}), validity {} ms → {then}",
            who.join(","),
            validity / 1000
        ));
        if granted >= quorum && validity > 0 {
            return Ok(Some(Held {
                token: None,
                value,
                believed_end: Some(sent_wall + ttl - drift),
            }));
        }
        self.redlock_unlock(value);
        Ok(None)
    }

    /// The one-way latency of the client's link to node `k` (as redlock_links.rs sets it up).
    fn node_latency(&self, k: usize) -> Duration {
        let p = &self.setup.params;
        let default_us = us(self.sc.service.lock_latency, p).as_micros() as u64;
        let spec = &self.sc.clients[usize::from(self.idx)];
        Duration::from_micros(spec.link(k as u8, default_us, p))
    }

    /// Sends the round's `SET NX PX` to every node the client reaches, on a fresh connection each
    /// (through its link); a node that cannot be reached is left out.
    fn send_round(&self, value: i64, ttl: Duration) -> Vec<(usize, redis::Connection)> {
        let reach = self.sc.clients[usize::from(self.idx)].reach;
        let mut set = redis::cmd("SET");
        set.arg(LOCK)
            .arg(value)
            .arg("NX")
            .arg("PX")
            .arg(ttl.as_millis() as u64);
        let packed = set.get_packed_command();
        let mut cons = Vec::new();
        for (k, &port) in self.node_ports.iter().enumerate() {
            if reach & (1 << k) == 0 {
                continue; // partitioned away
            }
            if let Ok(mut con) = connect_redis(port, Duration::from_millis(200)) {
                if con.send_packed_command(&packed).is_ok() {
                    cons.push((k, con));
                }
            }
        }
        cons
    }

    /// The back-off's random share after a failed Redlock round, drawn as the model draws it (the
    /// run's seed, the client, its round number): 0 for other services.
    pub(super) fn backoff_share(&self) -> Duration {
        if self.sc.service.kind != ServiceKind::Redlock {
            return Duration::ZERO;
        }
        let seed = leaselab::Config::new(self.sc, self.setup.policy).seed;
        let jitter = self.sc.service.jitter.resolve(&self.setup.params);
        let share = backoff_share_us(seed, self.idx, self.redlock_round, jitter);
        Duration::from_micros(share)
    }

    /// Unlocks the value on every node the client reaches (value-checked), as the model does: the
    /// requests go out and the client goes on; a thread of its own reads the replies (bounded), so
    /// a link's latency does not hold the script up.
    pub(super) fn redlock_unlock(&self, value: i64) {
        let reach = self.sc.clients[usize::from(self.idx)].reach;
        let mut unlock = redis::cmd("EVAL");
        unlock.arg(RELEASE_LUA).arg(1).arg(LOCK).arg(value);
        let packed = unlock.get_packed_command();
        let mut sent = Vec::new();
        for (k, &port) in self.node_ports.iter().enumerate() {
            if reach & (1 << k) == 0 {
                continue;
            }
            if let Ok(mut con) = connect_redis(port, Duration::from_millis(200)) {
                if con.send_packed_command(&packed).is_ok() {
                    sent.push(con);
                }
            }
        }
        std::thread::spawn(move || {
            for mut con in sent {
                let _ = con.set_read_timeout(Some(Duration::from_secs(1)));
                let _ = con.recv_response();
            }
        });
    }
}

/// Reads each node's reply to the round until `deadline` (a reply already in the socket buffer, as
/// after a freeze, is read at once): the names of the nodes that granted.
fn read_round(cons: &mut [(usize, redis::Connection)], deadline: Instant) -> Vec<String> {
    let mut who = Vec::new();
    for (k, con) in cons.iter_mut() {
        let left = deadline.saturating_duration_since(Instant::now());
        let _ = con.set_read_timeout(Some(left.max(Duration::from_millis(5))));
        let reply = con
            .recv_response()
            .ok()
            .and_then(|v| redis::from_redis_value::<Option<String>>(v).ok());
        if matches!(reply, Some(Some(_))) {
            who.push(format!("n{}", *k + 1));
        }
    }
    who
}
