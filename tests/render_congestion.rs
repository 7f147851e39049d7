//! `shoal render --module congestion` (issue 22, item 6) on the real stall series of
//! `tests/fixtures/stall-series` (ibsim's health fabric, five perfquery captures; the README
//! there lists what ibsim's console added per interval), dated one second apart.

#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use scratch_dir::ScratchDir;

/// The five captures copied into a scratch folder, dated one second apart: the folder and them.
fn series(tag: &str) -> (ScratchDir, Vec<PathBuf>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = ScratchDir::new(&format!("render-congestion-{tag}"));
    let start = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    let files = (0..5)
        .map(|i| {
            let path = dir.join(format!("snapshot-{i}.txt"));
            std::fs::copy(root.join(format!("tests/fixtures/stall-series/snapshot-{i}.txt")), &path).unwrap();
            let at = start + Duration::from_secs(i);
            std::fs::File::options().write(true).open(&path).unwrap().set_modified(at).unwrap();
            path
        })
        .collect();
    (dir, files)
}

fn render(counters: &[PathBuf], extra: &[&str], out: &Path) -> std::process::Output {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_shoal"));
    command.arg("render").arg(root.join("tests/fixtures/health"));
    for c in counters {
        command.arg("--counters").arg(c);
    }
    command.args(["--module", "congestion"]).args(extra).arg("--out").arg(out).output().unwrap()
}

#[test]
fn each_interval_is_a_row_and_each_region_a_numbered_box_coloured_by_its_worst_stall() {
    let (dir, files) = series("svg");
    let out = dir.join("regions.svg");
    let done = render(&files, &["--region", "4"], &out);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let err = String::from_utf8_lossy(&done.stderr);
    // Intervals 1, 2 and 4 stall at 10 % or more; interval 2 holds two regions (H1[1] 30 %, S1[3] 20 %).
    assert!(err.contains("4 congestion region(s) in 4 interval(s)"), "{err}");
    let svg = std::fs::read_to_string(&out).unwrap();
    let texts: Vec<&str> =
        svg.split("<text").skip(1).filter_map(|t| t.split('>').nth(1)?.split('<').next()).collect();
    for label in ["1", "2", "3", "&gt; 4", "10 % hurts", "40 % severe"] {
        assert!(texts.contains(&label), "{label} in {texts:?}");
    }
    assert!(svg.contains("#e61e1e"), "region 4 and its interval are outlined in red");
    // The lines between regions are steps of their evolution, not health-layer dashes.
    assert!(!svg.contains(r#"class="health""#), "no health layer in a congestion view");
    let steps = svg.lines().filter(|l| l.starts_with(r#"<line class="step""#)).count();
    assert!(steps > 0, "regions that carry on are joined by a step line");
}

#[test]
fn a_region_the_counters_do_not_have_and_counters_without_times_are_clear_errors() {
    let (dir, files) = series("errors");
    let done = render(&files, &["--region", "9"], &dir.join("x.png"));
    assert!(!done.status.success());
    assert!(String::from_utf8_lossy(&done.stderr).contains("no congestion region 9: the counters have 4"));
    // One snapshot spans no interval.
    let done = render(&files[..1], &[], &dir.join("y.png"));
    assert!(!done.status.success());
    assert!(
        String::from_utf8_lossy(&done.stderr).contains("no interval with times"),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
}
