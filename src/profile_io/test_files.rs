//! Files for the readers' unit tests: each in a folder of its own, removed when the test ends.

use std::path::Path;

/// A file written into a folder of its own, which goes when this is dropped.
pub struct TempFile {
    dir: std::path::PathBuf,
    path: std::path::PathBuf,
}

impl std::ops::Deref for TempFile {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn temp(name: &str, bytes: &[u8]) -> TempFile {
    let dir = std::env::temp_dir().join(format!("shoal-unit-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    TempFile { dir, path }
}
