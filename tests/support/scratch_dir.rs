//! A test's scratch folder under the temporary directory, shared by the integration tests
//! (included with `#[path]`): made fresh, and removed when dropped, so repeated runs leave
//! nothing behind. A test that panics loses its folder too, unless `SHOAL_KEEP_TEST_DIRS=1` is
//! set: then it stays (its path is printed) so the files behind the failure can be looked at.

// Each test binary uses some of these.
#![allow(dead_code)]

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// Set to `1` to keep the scratch folders of tests that fail.
pub const KEEP_VAR: &str = "SHOAL_KEEP_TEST_DIRS";

/// A folder removed when dropped; derefs to its path.
pub struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// `shoal-NAME-PID` under the temporary directory, empty: a folder left by an earlier run
    /// (or an earlier test of this process with the same name) is removed first.
    pub fn new(name: &str) -> ScratchDir {
        let path = std::env::temp_dir().join(format!("shoal-{name}-{}", std::process::id()));
        match std::fs::remove_dir_all(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                panic!("cannot clear {}: {e}", path.display())
            }
            _ => {}
        }
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        ScratchDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if std::thread::panicking() && std::env::var(KEEP_VAR).is_ok_and(|v| v == "1") {
            eprintln!("{KEEP_VAR}=1: kept {}", self.path.display());
            return;
        }
        // Never a second panic while unwinding; a folder that cannot go is only reported.
        match std::fs::remove_dir_all(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                eprintln!("warning: cannot remove {}: {e}", self.path.display())
            }
            _ => {}
        }
    }
}
