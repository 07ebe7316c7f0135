//! A real etcd for the etcd rows: Debian's `etcd` (3.4) started on free loopback ports in the work
//! directory and killed on the way out, and a small client for its JSON gateway (`/v3/...`, the
//! grpc-gateway every etcd 3.4 serves on its client port): plain HTTP/1.1 over a `TcpStream`, one
//! request per connection, every read bounded by a timeout.
//!
//! Why not the `etcd-client` crate: it compiles etcd's protobufs at build time and needs `protoc`,
//! a toolchain this suite would otherwise not need; the gateway speaks the same API.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::servers::{free_port, tail, Res};

/// The lock's name, base64 (`leaselab-lock`).
pub const LOCK_NAME_B64: &str = "bGVhc2VsYWItbG9jaw==";

/// A throwaway single-member etcd.
pub struct Etcd {
    pub port: u16,
    child: Child,
    log: PathBuf,
}

impl Etcd {
    /// Starts etcd with its data in `dir`, and waits (bounded) until it answers.
    pub fn start(dir: PathBuf) -> Res<Etcd> {
        std::fs::create_dir_all(&dir).map_err(|e| format!("etcd dir: {e}"))?;
        let (port, peer) = (free_port()?, free_port()?);
        let client = format!("http://127.0.0.1:{port}");
        let peer_url = format!("http://127.0.0.1:{peer}");
        let log = dir.join("etcd.log");
        let out = std::fs::File::create(&log).map_err(|e| format!("etcd log: {e}"))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new("etcd")
            .args(["--name", "leaselab", "--data-dir"])
            .arg(dir.join("data"))
            .args([
                "--listen-client-urls",
                &client,
                "--advertise-client-urls",
                &client,
            ])
            .args([
                "--listen-peer-urls",
                &peer_url,
                "--initial-advertise-peer-urls",
                &peer_url,
            ])
            .args(["--initial-cluster", &format!("leaselab={peer_url}")])
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("start etcd: {e} (is etcd-server installed?)"))?;
        std::fs::write(dir.join("etcd.pid"), child.id().to_string()).map_err(|e| e.to_string())?;
        let etcd = Etcd { port, child, log };
        let end = Instant::now() + Duration::from_secs(20);
        while Instant::now() < end {
            if get(port, "/health").is_ok_and(|h| h.contains("\"true\"")) {
                return Ok(etcd);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(format!(
            "etcd did not answer within 20 s:\n{}",
            tail(&etcd.log, 2000)
        ))
    }
}

impl Drop for Etcd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP request; the response body.
fn request(port: u16, method: &str, path: &str, body: &str, within: Duration) -> Res<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("etcd: {e}"))?;
    s.set_read_timeout(Some(within))
        .map_err(|e| e.to_string())?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())
        .and_then(|()| s.write_all(body.as_bytes()))
        .map_err(|e| format!("etcd {path}: {e}"))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)
        .map_err(|e| format!("etcd {path}: {e}"))?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("etcd {path}: no HTTP response"))?;
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return Ok(unchunk(body));
    }
    Ok(body.to_string())
}

/// The body of a chunked response.
fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

fn get(port: u16, path: &str) -> Res<String> {
    request(port, "GET", path, "", Duration::from_secs(2))
}

/// A POST to the gateway; the JSON answer (an `error` in it is an error).
pub fn post(port: u16, path: &str, body: Value, within: Duration) -> Res<Value> {
    let text = request(port, "POST", path, &body.to_string(), within)?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("etcd {path}: {e}: {text}"))?;
    if let Some(err) = v.get("error").or_else(|| v.get("message")) {
        return Err(format!("etcd {path}: {err}"));
    }
    Ok(v)
}

/// An int64 of the gateway's JSON (it sends them as strings; a zero is left out).
pub fn int(v: &Value, key: &str) -> i64 {
    match v.get(key) {
        Some(Value::String(s)) => s.parse().unwrap_or(0),
        Some(Value::Number(n)) => n.as_i64().unwrap_or(0),
        _ => 0,
    }
}

/// `LeaseGrant`: a lease of `ttl_s` seconds; its ID.
pub fn grant(port: u16, ttl_s: i64) -> Res<i64> {
    let v = post(
        port,
        "/v3/lease/grant",
        json!({ "TTL": ttl_s }),
        Duration::from_secs(5),
    )?;
    Ok(int(&v, "ID"))
}

/// One keepalive: the TTL left (0 or less: the lease is gone).
pub fn keepalive(port: u16, lease: i64) -> Res<i64> {
    let v = post(
        port,
        "/v3/lease/keepalive",
        json!({ "ID": lease.to_string() }),
        Duration::from_secs(5),
    )?;
    Ok(v.get("result").map_or(0, |r| int(r, "TTL")))
}

/// `Lock` (blocks until the lock is held, or `within`): the key, base64.
pub fn lock(port: u16, lease: i64, within: Duration) -> Res<String> {
    let body = json!({ "name": LOCK_NAME_B64, "lease": lease.to_string() });
    let v = post(port, "/v3/lock/lock", body, within)?;
    v.get("key")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("etcd Lock: no key in {v}"))
}

/// The key's create revision, or `None` if the key does not exist.
pub fn create_revision(port: u16, key_b64: &str) -> Res<Option<i64>> {
    let v = post(
        port,
        "/v3/kv/range",
        json!({ "key": key_b64 }),
        Duration::from_secs(5),
    )?;
    Ok(v.get("kvs")
        .and_then(Value::as_array)
        .and_then(|kvs| kvs.first())
        .map(|kv| int(kv, "create_revision")))
}

pub fn unlock(port: u16, key_b64: &str) -> Res<()> {
    post(
        port,
        "/v3/lock/unlock",
        json!({ "key": key_b64 }),
        Duration::from_secs(5),
    )
    .map(|_| ())
}

pub fn revoke(port: u16, lease: i64) -> Res<()> {
    let body = json!({ "ID": lease.to_string() });
    post(port, "/v3/lease/revoke", body, Duration::from_secs(5)).map(|_| ())
}

/// The installed etcd's version (`etcd --version`'s first line: `etcd Version: 3.4.23`).
pub fn version() -> Res<String> {
    let out = Command::new("etcd")
        .arg("--version")
        .output()
        .map_err(|e| format!("etcd --version: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .next()
        .and_then(|l| l.rsplit(' ').next())
        .map(str::to_string)
        .ok_or_else(|| "etcd --version said nothing".into())
}

/// What the installed etcd's `Lock` does for a waiter whose lease expired while it waited (Jepsen,
/// etcd 3.4.3): `Ok(true)` it returns as if the lock were held (etcd 3.4), `Ok(false)` it fails
/// (etcd 3.5's check). A holds the lock on a long lease; B waits on a 2 s lease it does not keep
/// alive; once B's lease is gone, A unlocks.
pub fn waiter_check_probe(port: u16) -> Res<(bool, Vec<String>)> {
    let mut log = Vec::new();
    let a = grant(port, 30)?;
    lock(port, a, Duration::from_secs(5))?;
    let b = grant(port, 2)?;
    log.push(format!(
        "A holds the lock (lease {a:x}); B waits on lease {b:x} (TTL 2 s, no keepalives)"
    ));
    let waiter = std::thread::spawn(move || lock(port, b, Duration::from_secs(15)));
    let end = Instant::now() + Duration::from_secs(10);
    let ttl_of = |id: i64| {
        let body = json!({ "ID": id.to_string() });
        post(port, "/v3/lease/timetolive", body, Duration::from_secs(2)).map(|v| int(&v, "TTL"))
    };
    while ttl_of(b)? > 0 {
        if Instant::now() >= end {
            return Err("B's lease did not expire within 10 s".into());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    log.push("B's lease has expired (its key is deleted)".into());
    // The lock's keys: the prefix `leaselab-lock` up to `leaselab-locl`.
    let range = json!({ "key": LOCK_NAME_B64, "range_end": "bGVhc2VsYWItbG9jbA==" });
    let keys = post(port, "/v3/kv/range", range, Duration::from_secs(2))?;
    let a_key = keys["kvs"][0]["key"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    unlock(port, &a_key)?;
    log.push("A unlocks".into());
    let answer = waiter
        .join()
        .map_err(|_| "the waiter thread panicked".to_string())?;
    log.push(match &answer {
        Ok(k) => format!("B's Lock returns: held, key {k} (which no longer exists)"),
        Err(e) => format!("B's Lock fails: {e}"),
    });
    Ok((answer.is_ok(), log))
}
