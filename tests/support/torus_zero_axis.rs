//! A copy of the `torus8` Boxfish sample whose meta file gives axis `y` an extent of 0: a run
//! that cannot be read, for tests of how that error reads.

use std::path::{Path, PathBuf};

/// Copies `sample-data/torus8` into `dir` with `dim: {x: 8, y: 0, z: 8}`; returns the meta file.
pub fn torus_with_zero_axis(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for entry in std::fs::read_dir("sample-data/torus8").unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let meta = dir.join("torus8_meta.yaml");
    let text =
        std::fs::read_to_string(&meta).unwrap().replace("dim: {x: 8, y: 8, z: 8}", "dim: {x: 8, y: 0, z: 8}");
    std::fs::write(&meta, text).unwrap();
    meta
}
