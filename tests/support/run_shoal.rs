//! Runs the `shoal` binary built for these tests, from the package root (where `sample-data/`
//! is), for the integration tests that drive the command line.

use std::process::Command;

/// Whether `shoal ARGS…` succeeded, and what it wrote to stdout and stderr.
pub fn shoal(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("shoal runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
