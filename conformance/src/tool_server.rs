//! A server the suite runs from a registry package that setup.sh installed under the target directory
//! (dynalite from npm; moto and fake-gcs-server from PyPI): started in a directory of the attempt with
//! its output in a log there and its pid in `NAME.pid` (conformance/run.sh's backstop looks for it),
//! waited for (bounded) until it answers, and killed when dropped.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::servers::{tail, Res};

/// Where setup.sh installs the registry packages the suite runs: the target directory's
/// `conformance-tools/`, or `LEASELAB_CONFORMANCE_TOOLS`.
pub fn tools_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("LEASELAB_CONFORMANCE_TOOLS") {
        return d.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    );
    target.join("conformance-tools")
}

/// A file setup.sh installed (`rel` under the tools directory), or a message that says to run it.
pub fn installed(rel: &str, what: &str) -> Res<PathBuf> {
    let p = tools_dir().join(rel);
    if p.exists() {
        Ok(p)
    } else {
        Err(format!(
            "{what} is not installed ({} is missing): run conformance/setup.sh",
            p.display()
        ))
    }
}

/// A running server process.
pub struct ToolServer {
    child: Child,
}

impl ToolServer {
    /// Runs `cmd` with its output in `dir/NAME.log` and its pid in `dir/NAME.pid`, then polls
    /// `answers` until it says the server is up (20 s at most).
    pub fn start(
        name: &str,
        dir: &Path,
        mut cmd: Command,
        answers: impl Fn() -> bool,
    ) -> Res<ToolServer> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{name} dir: {e}"))?;
        let log = dir.join(format!("{name}.log"));
        let out = std::fs::File::create(&log).map_err(|e| format!("{name} log: {e}"))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = cmd
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("start {name}: {e}"))?;
        let server = ToolServer { child };
        std::fs::write(
            dir.join(format!("{name}.pid")),
            server.child.id().to_string(),
        )
        .map_err(|e| e.to_string())?;
        let end = Instant::now() + Duration::from_secs(20);
        while Instant::now() < end {
            if answers() {
                return Ok(server);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(format!(
            "{name} did not answer within 20 s:\n{}",
            tail(&log, 2000)
        ))
    }
}

impl Drop for ToolServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
