//! What a path is, told by content (issue 21): the window's drop and open, and the command
//! line's positional paths, all ask here. A name only decides where content cannot (a run's
//! CSV pair, whose header is any table's).

use std::path::Path;

use super::input::Input;

/// How much of a file's (decompressed) start is read to tell what it is.
const HEAD_BYTES: u64 = 64 << 10;

/// The first line of a session file (see `view_model::session`).
pub const SESSION_MARK: &str = "shoal_session:";

/// What a path holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathKind {
    /// One rail's dumps: a folder, or a topology or forwarding-table file.
    Rail,
    /// An ibprof or PFProf profile (a file, or a folder of them).
    Profile,
    /// Link-end loads already traced (a loads file, or `convert`'s links.csv).
    Loads,
    /// A port-counter snapshot.
    Counters,
    /// Run data: a Boxfish `*_meta.yaml`, a CSV pair, or a folder holding one.
    Run,
    /// A shoal session file.
    Session,
}

/// What `path` holds; `None` when it cannot be read or is none of these.
pub fn classify(path: &Path) -> Option<PathKind> {
    if path.is_dir() {
        return Some(classify_dir(path));
    }
    let head = super::stream::head(path, HEAD_BYTES).ok()?;
    let first = head.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    if first.starts_with(SESSION_MARK) {
        return Some(PathKind::Session);
    }
    if first.split(',').any(|c| c.trim() == "a_guid") && first.contains("bytes_a_to_b") {
        return Some(PathKind::Loads);
    }
    if first.starts_with("ibprof ") {
        return Some(PathKind::Profile);
    }
    // Before PFProf: a Prometheus answer is JSON too.
    let input = Input::from_text(path.display().to_string(), head);
    if super::counters::counter_format(&input).is_some() {
        return Some(PathKind::Counters);
    }
    if super::pfprof::looks_like_pfprof(input.text()) {
        return Some(PathKind::Profile);
    }
    if is_run_name(path) {
        return Some(PathKind::Run);
    }
    super::discover::sniff(path).map(|_| PathKind::Rail)
}

/// Whether `path` is run data (a Boxfish meta file, a CSV pair or a folder holding one).
pub fn is_run_path(path: &Path) -> bool {
    if path.is_dir() {
        return classify_dir(path) == PathKind::Run;
    }
    is_run_name(path)
}

/// A folder: a run when it holds a `*_meta.yaml` or a `nodes.csv`, a profile when it holds only
/// `*.ibprof` or `*.json` files, else a rail's dumps.
fn classify_dir(path: &Path) -> PathKind {
    let Ok(entries) = std::fs::read_dir(path) else { return PathKind::Rail };
    let names: Vec<String> =
        entries.flatten().map(|e| e.file_name().to_string_lossy().to_ascii_lowercase()).collect();
    let stem = |n: &String| n.strip_suffix(".gz").unwrap_or(n).to_string();
    if names.iter().map(stem).any(|n| n.ends_with("_meta.yaml") || n == "nodes.csv") {
        return PathKind::Run;
    }
    let profile = |n: String| n.ends_with(".ibprof") || n.ends_with(".json");
    if !names.is_empty() && names.iter().map(stem).all(profile) {
        return PathKind::Profile;
    }
    PathKind::Rail
}

/// A YAML file, or a CSV file naming nodes or links (`nodes.csv`, `mesh_links.csv`), gzipped or
/// not: a run's, since fabric dumps are neither.
fn is_run_name(path: &Path) -> bool {
    let Some(name) = path.file_name() else { return false };
    let name = name.to_string_lossy().to_ascii_lowercase();
    let stem = name.strip_suffix(".gz").unwrap_or(&name);
    let csv = stem.ends_with(".csv") && (stem.contains("nodes") || stem.contains("links"));
    stem.ends_with(".yaml") || stem.ends_with(".yml") || csv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(rel: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-data").join(rel)
    }

    #[test]
    fn the_samples_are_told_apart_by_what_they_hold() {
        assert_eq!(classify(&sample("tworail/rail0")), Some(PathKind::Rail));
        assert_eq!(classify(&sample("testbed/opensm.fdbs")), Some(PathKind::Rail));
        assert_eq!(classify(&sample("tworail/samplesort.ibprof.gz")), Some(PathKind::Profile));
        assert_eq!(classify(&sample("torus8/torus8_meta.yaml")), Some(PathKind::Run));
        assert_eq!(classify(&sample("torus8")), Some(PathKind::Run));
        assert_eq!(classify(&sample("mesh6/nodes.csv")), Some(PathKind::Run));
        assert_eq!(classify(&sample("no-such-file")), None);
    }

    #[test]
    fn a_renamed_profile_loads_file_or_session_is_still_recognised() {
        let dir = std::env::temp_dir().join(format!("shoal-classify-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let profile = write("p.txt", "ibprof 1\njob ranks 1\n");
        let loads = write("l.txt", "rail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a\n");
        let session = write("s.txt", "shoal_session: 1\nrequest: {}\n");
        assert_eq!(classify(&profile), Some(PathKind::Profile));
        assert_eq!(classify(&loads), Some(PathKind::Loads));
        assert_eq!(classify(&session), Some(PathKind::Session));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
