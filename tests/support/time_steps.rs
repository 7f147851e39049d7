//! The many-region profile of issue 13, written on demand (never committed): a time-step loop
//! of `ranks` ranks on the two-rail sample's compute hosts, one region per step
//! ([`shoal::model::synthetic::TimeSteps`]), as the collector's format writer writes it.
//! Shared by the memory test and the `time_strip` benchmark (included with `#[path]`).

use std::path::{Path, PathBuf};

use shoal::model::synthetic::TimeSteps;
use shoal::profile_io::ibprof::write_profile;

#[allow(dead_code)]
pub fn sample_rails() -> Vec<Vec<PathBuf>> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
    vec![vec![base.join("rail0")], vec![base.join("rail1")]]
}

/// `n0001` … `n0224`: the hosts on both rails of the sample (its storage nodes are on rail 0 only).
pub fn compute_hosts() -> Vec<String> {
    (1..=224).map(|h| format!("n{h:04}")).collect()
}

/// Writes (once) and returns `target/many-regions/steps{steps}-ranks{ranks}.ibprof`.
pub fn time_step_profile(ranks: u32, steps: u32) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/many-regions");
    let path = dir.join(format!("steps{steps}-ranks{ranks}.ibprof"));
    if path.exists() {
        return path;
    }
    std::fs::create_dir_all(&dir).expect("creating target/many-regions");
    let profile = TimeSteps::new(ranks, steps).build(&compute_hosts());
    let partial = path.with_extension("partial");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&partial).expect("creating the profile"));
    write_profile(&profile, &mut out).expect("writing the profile");
    std::io::Write::flush(&mut out).expect("writing the profile");
    std::fs::rename(&partial, &path).expect("renaming the profile");
    path
}
