//! Builds the wall-clock shim (wallclock/wallclock.c) that the suite preloads into a redis-server or a
//! client agent whose wall clock a scenario steps (see src/real/wallclock.rs). It is C because it must
//! replace libc's clock functions in any process, allocate nothing and resolve nothing; the suite
//! embeds the built library and writes it into its work directory, so nothing is installed.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let src = "wallclock/wallclock.c";
    println!("cargo:rerun-if-changed={src}");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let lib = out.join("libleaselab_wallclock.so");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args([
            "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-o",
        ])
        .arg(&lib)
        .arg(src)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {cc:?} for {src}: {e}"));
    assert!(status.success(), "{cc} failed to build {src}");
}
