//! A DynamoDB API for the DynamoDB rows: dynalite (npm; an implementation of DynamoDB's API on
//! LevelDB, not AWS), installed by conformance/setup.sh (tool_server.rs) and run with the machine's
//! Node on a free loopback port, its tables in a directory of the attempt, killed on the way out; and the few calls of its JSON protocol the lock client makes, signed (aws.rs).

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

use crate::aws::{send, Request};
use crate::servers::{free_port, Res};
use crate::tool_server::{self, ToolServer};

/// The lock table, as the lock client's `createLockTableInDynamoDB` makes it: a string hash key `key`.
pub const TABLE: &str = "leaselab-locks";

/// dynalite's command line script and its version (from its package.json).
fn installed() -> Res<(PathBuf, String)> {
    let pkg = tool_server::installed("dynalite/node_modules/dynalite/package.json", "dynalite")?;
    let manifest = std::fs::read_to_string(&pkg).map_err(|e| format!("dynalite: {e}"))?;
    let v: Value = serde_json::from_str(&manifest).map_err(|e| format!("dynalite: {e}"))?;
    let version = v["version"].as_str().unwrap_or("?").to_string();
    Ok((pkg.with_file_name("cli.js"), version))
}

/// A throwaway dynalite.
pub struct Dynalite {
    pub port: u16,
    pub version: String,
    _server: ToolServer,
}

impl Dynalite {
    /// Starts dynalite with its LevelDB in `dir` (tables created and deleted at once, not after
    /// dynalite's default half second), and waits (bounded) until it answers.
    pub fn start(dir: PathBuf) -> Res<Dynalite> {
        let (cli, version) = installed()?;
        let port = free_port()?;
        let mut cmd = Command::new("node");
        cmd.arg(cli)
            .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--path"])
            .arg(dir.join("db"))
            .args([
                "--createTableMs",
                "0",
                "--deleteTableMs",
                "0",
                "--updateTableMs",
                "0",
            ]);
        let answers = || call(port, "ListTables", json!({})).is_ok_and(|r| r.is_ok());
        let server = ToolServer::start("dynalite", &dir, cmd, answers)?;
        Ok(Dynalite {
            port,
            version,
            _server: server,
        })
    }

    /// The lock table, fresh (no item in it).
    pub fn create_table(&self) -> Res<()> {
        let _ = call(self.port, "DeleteTable", json!({ "TableName": TABLE }))?;
        call(
            self.port,
            "CreateTable",
            json!({
                "TableName": TABLE,
                "KeySchema": [{ "AttributeName": "key", "KeyType": "HASH" }],
                "AttributeDefinitions": [{ "AttributeName": "key", "AttributeType": "S" }],
                "ProvisionedThroughput": { "ReadCapacityUnits": 100, "WriteCapacityUnits": 100 },
            }),
        )?
        .map(|_| ())
        .map_err(|e| format!("CreateTable: {e}"))
    }
}

/// One call of DynamoDB's JSON protocol (`X-Amz-Target: DynamoDB_20120810.OP`): `Ok(answer)`, or
/// `Err(the error's type)` for an error the API answers with (`ConditionalCheckFailedException`…);
/// the outer error is a failed request.
pub fn call(port: u16, op: &str, body: Value) -> Res<Result<Value, String>> {
    let body = body.to_string();
    let r = send(&Request {
        port,
        method: "POST",
        path: "/",
        query: "",
        service: "dynamodb",
        headers: vec![
            ("content-type", "application/x-amz-json-1.0".into()),
            ("x-amz-target", format!("DynamoDB_20120810.{op}")),
        ],
        body: body.as_bytes(),
        within: Duration::from_secs(5),
    })?;
    let text = r.text();
    let v: Value = serde_json::from_str(if text.is_empty() { "{}" } else { &text })
        .map_err(|e| format!("{op}: {e}: {text}"))?;
    if r.status == 200 {
        return Ok(Ok(v));
    }
    let kind = v["__type"].as_str().unwrap_or("");
    let kind = kind.rsplit('#').next().unwrap_or(kind);
    if kind.is_empty() {
        return Err(format!("{op}: HTTP {}: {text}", r.status));
    }
    Ok(Err(kind.to_string()))
}
