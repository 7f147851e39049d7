//! The real simulated fabric of `tests/fixtures/health` and its two perfquery captures, copied
//! into a scratch folder and dated `seconds` apart (perfquery prints no times, so the interval
//! comes from the files' modification times).

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/health")
}

/// A fresh folder `shoal-PREFIX-PID-TAG` under the temporary directory with the two captures.
pub fn dated_captures(prefix: &str, tag: &str, seconds: u64) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-{prefix}-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    for (name, at) in
        [("perfquery-before.txt", start), ("perfquery-after.txt", start + Duration::from_secs(seconds))]
    {
        let path = dir.join(name);
        std::fs::copy(fixtures().join(name), &path).unwrap();
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(at).unwrap();
    }
    dir
}
