//! The real simulated fabric of `tests/fixtures/health` and its two perfquery captures, copied
//! into a scratch folder and dated `seconds` apart (perfquery prints no times, so the interval
//! comes from the files' modification times), and the five captures of
//! `tests/fixtures/stall-series` dated one second apart. A binary that includes this includes
//! `scratch_dir.rs` too, as `mod scratch_dir` at its root.

// Each test binary uses some of these.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use crate::scratch_dir::ScratchDir;

pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/health")
}

/// A fresh scratch folder `shoal-PREFIX-TAG-PID` with the two captures.
pub fn dated_captures(prefix: &str, tag: &str, seconds: u64) -> ScratchDir {
    let dir = ScratchDir::new(&format!("{prefix}-{tag}"));
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

/// The health fabric with the five stall-series captures, copied into `dir` and dated one
/// second apart: the request that opens them.
pub fn stall_series_request(dir: &std::path::Path) -> shoal::view_model::OpenRequest {
    std::fs::create_dir_all(dir).unwrap();
    let start = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let counters = (0..5)
        .map(|i| {
            let path = dir.join(format!("snapshot-{i}.txt"));
            std::fs::copy(root.join(format!("tests/fixtures/stall-series/snapshot-{i}.txt")), &path).unwrap();
            let at = start + Duration::from_secs(i);
            std::fs::File::options().write(true).open(&path).unwrap().set_modified(at).unwrap();
            shoal::view_model::request::CounterSpec { rail: None, path }
        })
        .collect();
    shoal::view_model::OpenRequest {
        counters,
        ..shoal::view_model::OpenRequest::of_rails(vec![vec![fixtures()]])
    }
}
