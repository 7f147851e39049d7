//! The integration tests' scratch folders (`support/scratch_dir.rs`): made fresh, gone once the
//! test ends however it ends, and kept after a failure only when `SHOAL_KEEP_TEST_DIRS=1` asks.

#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use std::path::PathBuf;
use std::process::Command;

use scratch_dir::{KEEP_VAR, ScratchDir};

/// Names the folder the probe makes; the probe does nothing useful without it.
const PROBE_VAR: &str = "SHOAL_SCRATCH_PROBE";

#[test]
fn a_folder_left_by_an_earlier_run_is_emptied_and_the_new_one_goes_when_dropped() {
    let path = std::env::temp_dir().join(format!("shoal-scratch-leftover-{}", std::process::id()));
    std::fs::create_dir_all(path.join("old")).unwrap();
    std::fs::write(path.join("old/file.txt"), "from an earlier run").unwrap();
    let dir = ScratchDir::new("scratch-leftover");
    assert_eq!(dir.path(), path);
    assert_eq!(std::fs::read_dir(&*dir).unwrap().count(), 0, "nothing of the earlier run is left");
    std::fs::write(dir.join("new.txt"), "written by the test").unwrap();
    drop(dir);
    assert!(!path.exists(), "dropping the guard removes the folder and its files");
}

/// Fails while holding a scratch folder with a file in it, having printed the folder's path.
#[test]
#[ignore = "a failing test on purpose: the tests below run it in a child process"]
fn failing_test_probe() {
    let name = std::env::var(PROBE_VAR).expect("run by the tests below");
    let dir = ScratchDir::new(&name);
    std::fs::write(dir.join("evidence.txt"), "what the failure left").unwrap();
    println!("probe folder: {}", dir.display());
    panic!("the probe fails on purpose");
}

/// Runs the probe alone in a child of this test binary, `KEEP_VAR` set to `keep` (or unset):
/// the folder it made.
fn folder_after_a_failing_probe(name: &str, keep: Option<&str>) -> PathBuf {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args(["--exact", "failing_test_probe", "--ignored", "--nocapture"]).env(PROBE_VAR, name);
    match keep {
        Some(value) => command.env(KEEP_VAR, value),
        None => command.env_remove(KEEP_VAR),
    };
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "the probe fails: {stdout}");
    let line = stdout.lines().find_map(|l| l.strip_prefix("probe folder: ")).expect("the probe ran");
    PathBuf::from(line)
}

#[test]
fn a_failing_test_loses_its_folder_too() {
    let folder = folder_after_a_failing_probe("scratch-probe-removed", None);
    assert!(!folder.exists(), "{} is left", folder.display());
    let folder = folder_after_a_failing_probe("scratch-probe-not-one", Some("yes"));
    assert!(!folder.exists(), "only `1` keeps folders: {} is left", folder.display());
}

#[test]
fn a_failing_test_keeps_its_folder_when_asked_to() {
    let folder = folder_after_a_failing_probe("scratch-probe-kept", Some("1"));
    let evidence = std::fs::read_to_string(folder.join("evidence.txt"));
    std::fs::remove_dir_all(&folder).ok();
    assert_eq!(evidence.ok().as_deref(), Some("what the failure left"));
}
