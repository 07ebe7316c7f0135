//! An S3 API for the storage rows that fence with S3's conditional writes: moto's server mode (PyPI
//! `moto[server]`, an implementation of AWS's APIs in Python, not AWS), installed by setup.sh in a
//! virtual environment under the target directory (tool_server.rs) and run on a free loopback port,
//! in memory, killed on the way out; and the two calls of its REST API the storage makes, signed
//! (aws.rs), path-style (`/bucket/key`).
//!
//! What it honours, read in moto's source (`moto/s3/responses.py`, `put_object`): `If-Match` on a
//! PutObject is compared with the object's ETag, quotes aside, and a mismatch is `412
//! PreconditionFailed`, as S3's conditional writes (2024) answer; the ETag of a simple upload is the
//! MD5 of the content (`FakeKey.etag`), as S3's. Unlike S3, moto checks the condition and then writes
//! without a lock between them: two writes racing within a request's time could both pass. The
//! scenario's writes are tens of milliseconds apart, so that is not what its rows test.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::aws::{send, Request, Response};
use crate::servers::{free_port, Res};
use crate::tool_server::{self, ToolServer};

/// The bucket and the object: the account's balance, its content the decimal number.
const BUCKET: &str = "/leaselab";
pub const OBJECT: &str = "/leaselab/account";

/// A throwaway moto server.
pub struct Moto {
    pub port: u16,
    pub version: String,
    _server: ToolServer,
}

impl Moto {
    /// Starts moto's server with its log in `dir`, and waits (bounded) until it answers; then the
    /// bucket.
    pub fn start(dir: &Path) -> Res<Moto> {
        let bin = tool_server::installed("venv/bin/moto_server", "moto")?;
        let port = free_port()?;
        let mut cmd = Command::new(&bin);
        cmd.args(["-H", "127.0.0.1", "-p", &port.to_string()]);
        let answers = || call(port, "GET", "/", Vec::new(), b"").is_ok_and(|r| r.status == 200);
        let server = ToolServer::start("moto", dir, cmd, answers)?;
        let made = call(port, "PUT", BUCKET, Vec::new(), b"")?;
        if made.status != 200 {
            return Err(format!(
                "CreateBucket: HTTP {}: {}",
                made.status,
                made.text()
            ));
        }
        Ok(Moto {
            port,
            version: pip_version(&bin, "moto"),
            _server: server,
        })
    }
}

/// A package's version in the virtual environment of `bin` (from its dist-info directory's name).
pub fn pip_version(bin: &Path, package: &str) -> String {
    let lib = bin.parent().and_then(Path::parent).map(|v| v.join("lib"));
    let found = lib
        .and_then(|l| std::fs::read_dir(l).ok())
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|py| std::fs::read_dir(py.path().join("site-packages")).ok())
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .find_map(|n| {
            let rest = n.strip_prefix(&format!("{package}-"))?;
            rest.strip_suffix(".dist-info").map(str::to_string)
        });
    found.unwrap_or_else(|| "?".into())
}

fn call(
    port: u16,
    method: &str,
    path: &str,
    headers: Vec<(&str, String)>,
    body: &[u8],
) -> Res<Response> {
    send(&Request {
        port,
        method,
        path,
        query: "",
        service: "s3",
        headers,
        body,
        within: Duration::from_secs(5),
    })
}

/// GetObject: the content and its ETag.
pub fn get(port: u16) -> Res<(String, String)> {
    let r = call(port, "GET", OBJECT, Vec::new(), b"")?;
    if r.status != 200 {
        return Err(format!("GetObject: HTTP {}: {}", r.status, r.text()));
    }
    let etag = r.header("etag").ok_or("GetObject: no ETag")?.to_string();
    Ok((r.text(), etag))
}

/// PutObject, with `If-Match: etag` when given: `Ok(true)` written, `Ok(false)` refused (412).
pub fn put(port: u16, content: &str, if_match: Option<&str>) -> Res<bool> {
    let mut headers = vec![("content-type", "application/octet-stream".to_string())];
    if let Some(e) = if_match {
        headers.push(("if-match", e.to_string()));
    }
    let r = call(port, "PUT", OBJECT, headers, content.as_bytes())?;
    match r.status {
        200 => Ok(true),
        412 => Ok(false),
        s => Err(format!("PutObject: HTTP {s}: {}", r.text())),
    }
}
