//! The DynamoDB lock client's protocol (awslabs' `AmazonDynamoDBLockClient`), in the client's agent:
//! the lock is the item `key = leaselab-lock` with `ownerName`, `leaseDuration` and
//! `recordVersionNumber` (RVN, a random GUID drawn for every write).
//!
//! - `acquireLock` polls (one poll per try of the script's `acquire every D`): GetItem (consistent).
//!   No item: PutItem on `attribute_not_exists(key)`. An item: the waiter notes its RVN and the time
//!   by its own clock after the read returned; the same RVN for more than the lease since then, and a
//!   PutItem on `recordVersionNumber = that RVN` takes it over. The call gives up once it has polled
//!   for `wait` (plus the lease, once it has seen the item held) in all, by its own clock.
//! - The holder's heartbeat thread, every heartbeat period: more than the lease since its last
//!   successful write, by its clock, and it lets go; else an UpdateItem on its owner name and RVN
//!   writes a new RVN (refused: the item was taken over, and it lets go). The thread is in the
//!   client's process, so a pause stops it; it holds the lock state's mutex across the call, as the
//!   Java client's `synchronized`, so a release waits for a heartbeat in flight and uses its RVN.
//! - `releaseLock`: DeleteItem on its owner name and latest RVN (sent even after letting go).
//!
//! "Its own clock" is the client's wall clock (the model's client clock; the Java client reads
//! `System.nanoTime`): the same here, as the DynamoDB rows step no clock.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{sleep, JoinHandle};
use std::time::{Duration, Instant, SystemTime};

use leaselab::scenario::Scenario;
use serde_json::{json, Value};

use super::player::{random_value, Client, Held, Stop};
use super::{us, Setup};
use crate::dynamodb_api::{call, TABLE};

/// The lock's key in the table.
const KEY: &str = "leaselab-lock";

/// A fresh RVN: a random version-4 GUID, and its first 32 bits as the number the model draws.
fn new_rvn(client: u8) -> (String, i64) {
    let (a, b) = (random_value(client) as u64, random_value(client) as u64);
    let s = format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | (b >> 48) & 0x3fff,
        b & 0xffff_ffff_ffff
    );
    (s, ((a >> 32) as i64).max(1))
}

/// What a waiter remembers of the item it is waiting out.
struct Seen {
    rvn: String,
    lookup: SystemTime,
}

/// An `acquireLock` call under way.
struct Call {
    start: SystemTime,
    budget: Duration,
    seen: Option<Seen>,
}

/// The lock as its holder knows it, shared with the heartbeat thread (the mutex is `synchronized`).
struct Lease {
    /// The latest RVN it wrote (a release is conditional on it).
    rvn: String,
    /// When it sent the latest write that succeeded, by its clock.
    sent: SystemTime,
    /// It still believes it holds the lock (the heartbeat thread may let go).
    held: bool,
}

/// One client's lock client.
pub(super) struct DdbClient {
    port: u16,
    owner: String,
    lease_duration: Duration,
    heartbeat: Duration,
    wait: Duration,
    call: Option<Call>,
    lease: Option<Arc<Mutex<Lease>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl DdbClient {
    pub(super) fn new(port: u16, name: char, sc: &Scenario, setup: &Setup) -> DdbClient {
        let p = &setup.params;
        DdbClient {
            port,
            owner: format!("{name}-{:x}", random_value(0)),
            lease_duration: us(sc.service.ttl, p),
            heartbeat: us(sc.service.keepalive, p),
            wait: us(sc.service.timeout, p),
            call: None,
            lease: None,
            stop: Arc::new(AtomicBool::new(false)),
            thread: None,
        }
    }

    /// The heartbeat thread, from the grant on (heartbeat 0: none, as without the background thread).
    fn start_heartbeats(&mut self, lease: Arc<Mutex<Lease>>) {
        self.lease = Some(Arc::clone(&lease));
        if self.heartbeat.is_zero() || self.thread.is_some() {
            return;
        }
        let (port, owner, every, ttl) = (
            self.port,
            self.owner.clone(),
            self.heartbeat,
            self.lease_duration,
        );
        self.stop = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&self.stop);
        self.thread = Some(std::thread::spawn(move || {
            let mut next = Instant::now() + every;
            while !stop.load(Ordering::Relaxed) {
                if Instant::now() < next {
                    sleep(Duration::from_millis(5).min(next - Instant::now()));
                    continue;
                }
                next = Instant::now() + every;
                if !heartbeat(port, &owner, ttl, &lease) {
                    return;
                }
            }
        }));
    }

    /// The thread stops (after the heartbeat in flight, if any).
    pub(super) fn stop_heartbeats(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// One heartbeat, under the lock state's mutex: false once the holder has let go.
fn heartbeat(port: u16, owner: &str, ttl: Duration, lease: &Mutex<Lease>) -> bool {
    let Ok(mut l) = lease.lock() else {
        return false;
    };
    let now = SystemTime::now();
    if !l.held || now.duration_since(l.sent).unwrap_or_default() > ttl {
        l.held = false; // "Cannot send heartbeat because lock is not granted"
        return false;
    }
    let (rvn, _) = new_rvn(0);
    let r = call(
        port,
        "UpdateItem",
        json!({
            "TableName": TABLE,
            "Key": { "key": { "S": KEY } },
            "UpdateExpression": "SET #rvn = :new, #ld = :ld",
            "ConditionExpression": "attribute_exists(#k) AND #on = :owner AND #rvn = :old",
            "ExpressionAttributeNames": {
                "#k": "key", "#on": "ownerName", "#rvn": "recordVersionNumber", "#ld": "leaseDuration"
            },
            "ExpressionAttributeValues": {
                ":owner": { "S": owner }, ":old": { "S": l.rvn }, ":new": { "S": rvn },
                ":ld": { "S": ttl.as_millis().to_string() }
            },
        }),
    );
    match r {
        Ok(Ok(_)) => {
            l.rvn = rvn;
            l.sent = now;
            true
        }
        // ConditionalCheckFailed: the item was taken over; it lets go.
        Ok(Err(_)) => {
            l.held = false;
            false
        }
        Err(_) => true, // the request failed: the next heartbeat tries again
    }
}

/// The item as GetItem (consistent) returns it: `(ownerName, recordVersionNumber)`.
fn get_item(port: u16) -> Result<Option<(String, String)>, Stop> {
    let v = call(
        port,
        "GetItem",
        json!({ "TableName": TABLE, "Key": { "key": { "S": KEY } }, "ConsistentRead": true }),
    )?
    .map_err(|e| format!("GetItem: {e}"))?;
    let s = |item: &Value, name: &str| item[name]["S"].as_str().unwrap_or("").to_string();
    Ok(v.get("Item")
        .map(|it| (s(it, "ownerName"), s(it, "recordVersionNumber"))))
}

impl Client<'_> {
    /// One poll of `acquireLock`: `Some` when its put took the item.
    pub(super) fn ddb_poll(&mut self) -> Result<Option<Held>, Stop> {
        let d = self.state::<DdbClient>()?;
        let (port, lease, wait) = (d.port, d.lease_duration, d.wait);
        if d.call.is_none() {
            d.call = Some(Call {
                start: SystemTime::now(),
                budget: wait,
                seen: None,
            });
        }
        let item = get_item(port)?;
        let now = SystemTime::now(); // after the read returned, by its own clock
        let Some((owner, rvn)) = item else {
            return self.ddb_put(None);
        };
        let call = self
            .state::<DdbClient>()?
            .call
            .as_mut()
            .ok_or("no acquire call")?;
        match &call.seen {
            Some(s) if s.rvn == rvn => {
                if now.duration_since(s.lookup).unwrap_or_default() > lease {
                    let waited = now.duration_since(s.lookup).unwrap_or_default().as_millis();
                    self.note(format!(
                        "GetItem → {owner}'s RVN unchanged for {waited} ms by its clock: takes it over"
                    ));
                    return self.ddb_put(Some(rvn));
                }
            }
            seen => {
                if seen.is_none() {
                    call.budget += lease; // once, as the client does
                }
                call.seen = Some(Seen { rvn, lookup: now });
                self.note(format!(
                    "GetItem → held by {owner}; waits {} ms by its clock for its RVN to stay unchanged",
                    lease.as_millis()
                ));
            }
        }
        self.ddb_poll_again(now)
    }

    /// The call polls again after its refresh period, unless it has polled its whole budget
    /// (LockNotGrantedException: the script gives up, as the model's client without retries).
    fn ddb_poll_again(&mut self, now: SystemTime) -> Result<Option<Held>, Stop> {
        let d = self.state::<DdbClient>()?;
        let call = d.call.as_ref().ok_or("no acquire call")?;
        if now.duration_since(call.start).unwrap_or_default() > call.budget {
            d.call = None;
            self.note("acquireLock → LockNotGrantedException".into());
            return Err(Stop::GaveUp);
        }
        Ok(None)
    }

    /// PutItem with a fresh RVN, on `attribute_not_exists(key)` (`None`) or on the RVN waited out.
    fn ddb_put(&mut self, taken_over: Option<String>) -> Result<Option<Held>, Stop> {
        let (rvn, number) = new_rvn(self.idx);
        let d = self.state::<DdbClient>()?;
        let (port, owner, ttl) = (d.port, d.owner.clone(), d.lease_duration);
        let mut req = json!({
            "TableName": TABLE,
            "Item": {
                "key": { "S": KEY }, "ownerName": { "S": owner }, "recordVersionNumber": { "S": rvn },
                "leaseDuration": { "S": ttl.as_millis().to_string() }
            },
            "ConditionExpression": "attribute_not_exists(#k)",
            "ExpressionAttributeNames": { "#k": "key" },
        });
        if let Some(old) = &taken_over {
            req["ConditionExpression"] = json!("attribute_exists(#k) AND #rvn = :old");
            req["ExpressionAttributeNames"]["#rvn"] = json!("recordVersionNumber");
            req["ExpressionAttributeValues"] = json!({ ":old": { "S": old } });
        }
        let (at, sent) = (Instant::now(), SystemTime::now()); // the writer counts from before the put
        if let Err(e) = call(port, "PutItem", req)? {
            self.note(format!("PutItem → {e}"));
            return self.ddb_poll_again(SystemTime::now());
        }
        self.link.send(&format!("grant {}", self.link.us(at)));
        let tokens = self.sc.service.tokens;
        self.note(format!("PutItem → holds the lock (RVN {rvn})"));
        let d = self.state::<DdbClient>()?;
        d.call = None;
        d.start_heartbeats(Arc::new(Mutex::new(Lease {
            rvn,
            sent,
            held: true,
        })));
        Ok(Some(Held {
            token: tokens.then_some(number),
            value: number,
            believed_end: Some(sent + ttl),
        }))
    }

    /// `releaseLock`: the heartbeats stop (after the one in flight), then a DeleteItem on its owner
    /// name and the latest RVN it wrote.
    pub(super) fn ddb_release(&mut self) -> Result<(), Stop> {
        let d = self.state::<DdbClient>()?;
        d.stop_heartbeats();
        let Some(lease) = d.lease.take() else {
            return Ok(());
        };
        let rvn = lease
            .lock()
            .map(|l| l.rvn.clone())
            .map_err(|_| "lock state poisoned")?;
        let r = call(
            d.port,
            "DeleteItem",
            json!({
                "TableName": TABLE,
                "Key": { "key": { "S": KEY } },
                "ConditionExpression": "attribute_exists(#k) AND #on = :owner AND #rvn = :rvn",
                "ExpressionAttributeNames": { "#k": "key", "#on": "ownerName", "#rvn": "recordVersionNumber" },
                "ExpressionAttributeValues": { ":owner": { "S": d.owner }, ":rvn": { "S": rvn } },
            }),
        )?;
        self.note(match r {
            Ok(_) => "DeleteItem → released".into(),
            Err(e) => format!("DeleteItem → {e}: the lock was taken over"),
        });
        Ok(())
    }
}
