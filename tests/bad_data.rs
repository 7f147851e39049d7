//! Bad data as real sites produce it (issue 16, the data half): nothing wraps, nothing is lost
//! without a word. Each test runs the `shoal` binary as a user would.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;
#[path = "support/torus_zero_axis.rs"]
mod torus_zero_axis;
use torus_zero_axis::torus_with_zero_axis;

const TESTBED: &str = "sample-data/testbed";
const FIXTURES: &str = "tests/fixtures/bad_data";

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

#[test]
fn byte_sums_past_two_to_the_64_are_capped_and_named_not_wrapped_in_ibprof_and_pfprof() {
    for profile in [fixture("wrap.ibprof"), fixture("wrap-pfprof")] {
        let (ok, out, err) = shoal(&["hot", TESTBED, "--profile", &profile, "--top", "1"]);
        assert!(ok, "{err}");
        assert!(out.contains("16 EiB (overflow)"), "{profile}: {out}");
        assert!(!out.contains(" 299 B") && !out.contains(" 298 B"), "wrapped: {out}");
        assert!(err.contains("byte sum overflow on rail 0"), "{profile}: {err}");
        let dir = std::env::temp_dir().join(format!("shoal-wrap-{}", std::process::id()));
        let (ok, _, err) =
            shoal(&["convert", TESTBED, "--profile", &profile, "--out", dir.to_str().unwrap()]);
        assert!(ok, "{err}");
        let links = std::fs::read_to_string(dir.join("links.csv")).unwrap();
        assert!(links.contains(&u64::MAX.to_string()), "the capped sum is written, not a wrapped one");
        assert!(err.contains("byte sum overflow"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn port_level_records_to_lids_no_port_owns_are_reported_with_their_bytes() {
    let profile = fixture("stray-lids.ibprof");
    let (ok, _, err) = shoal(&["hot", TESTBED, "--profile", &profile, "--top", "1", "-v"]);
    assert!(ok, "{err}");
    for expected in [
        "1 port-level record to LID 0 (unassigned) [0x0000]: 1 B sent",
        "the permissive LID 0xffff [0xffff]: 20 B sent",
        "multicast LIDs (0xc000 and above), which unicast tables do not route [0xc001]: 300 B sent",
        "LIDs no port in the fabric owns (stale after a re-sweep, or another subnet) [0x0fff]: 4000 B sent, 50000 B received",
        "the recording port's own LID (loopback) [0x0001]: 600000 B sent",
        "rail 0: 54000 B of the whole run undelivered",
    ] {
        assert!(err.contains(expected), "missing `{expected}` in:\n{err}");
    }
}

#[test]
fn convert_and_hot_end_with_one_line_of_undelivered_and_unplaced_bytes() {
    let profile = fixture("stray-lids.ibprof");
    let dir = std::env::temp_dir().join(format!("shoal-summary-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let summary = "the whole run: 53.7 KiB traced, 1000 B delivered, 52.7 KiB undelivered (dropped by the \
                   fabric), 321 B unplaced (not on any rail), 586 KiB intra-node (not traced)";
    for args in [
        vec!["hot", TESTBED, "--profile", &profile],
        vec!["convert", TESTBED, "--profile", &profile, "--out", out],
    ] {
        let (ok, _, err) = shoal(&args);
        assert!(ok, "{err}");
        let last = err.lines().last().unwrap_or("");
        assert_eq!(last, format!("shoal: {summary}"), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A copy of a real testbed dump with n0002's CA port given LID 0 by `edit`, plus the tables.
fn with_lid_zero(name: &str, source: &str, file: &str, edit: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-lid0-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = std::fs::read_to_string(source).unwrap();
    for (from, to) in edit {
        assert!(text.contains(from), "{source}: `{from}`");
        text = text.replace(from, to);
    }
    std::fs::write(dir.join(file), text).unwrap();
    std::fs::copy("sample-data/testbed/opensm.fdbs", dir.join("opensm.fdbs")).unwrap();
    dir
}

#[test]
fn a_ca_with_lid_zero_is_kept_reported_and_its_pairs_undeliverable_in_every_topology_format() {
    let formats = "tests/fixtures/formats/testbed";
    let cases = [
        with_lid_zero(
            "lst",
            "sample-data/testbed/opensm-subnet.lst",
            "opensm-subnet.lst",
            &[("{n0002 HCA-1} LID:0004", "{n0002 HCA-1} LID:0000")],
        ),
        with_lid_zero(
            "ibnetdiscover",
            &format!("{formats}/ibnetdiscover.txt"),
            "topology.txt",
            &[("\"n0002 HCA-1\" lid 4 ", "\"n0002 HCA-1\" lid 0 "), ("# lid 4 lmc 0", "# lid 0 lmc 0")],
        ),
        with_lid_zero(
            "ports",
            &format!("{formats}/ibnetdiscover-p.txt"),
            "ports.txt",
            &[("CA     4  1 0x0002c90300010003", "CA     0  1 0x0002c90300010003")],
        ),
        with_lid_zero(
            "db_csv",
            &format!("{formats}/ibdiagnet2/ibdiagnet2.db_csv"),
            "ibdiagnet2.db_csv",
            &[(
                "0x0002c90300010002,0x0002c90300010003,1,0x0000000000000000,0xfe80000000000000,1,4,",
                "0x0002c90300010002,0x0002c90300010003,1,0x0000000000000000,0xfe80000000000000,1,0,",
            )],
        ),
    ];
    for dir in cases {
        let (ok, out, err) = shoal(&["info", dir.to_str().unwrap()]);
        assert!(ok, "{err}");
        assert!(out.contains("42 hosts (42 CAs)"), "the host is kept: {out}");
        assert!(out.contains("CA pairs delivered: 1640 of 1722 (95.2%)"), "{out}");
        assert!(
            out.contains("(n0002 HCA-1): the CA port has no LID")
                && out.contains("82 pairs dropped at CA 0x0002c9030001000"),
            "{out}"
        );
        let warning = out.lines().find(|l| l.contains("has LID 0")).unwrap_or_else(|| panic!("{out}"));
        assert!(warning.contains("CA port 'n0002 HCA-1' port 1"), "{warning}");
        let line = warning.trim().split(':').nth(1).unwrap_or("");
        assert!(line.parse::<usize>().is_ok(), "the warning names file and line: {warning}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn two_ibroute_files_for_one_switch_keep_the_complete_one_whatever_their_names() {
    let formats = "tests/fixtures/formats/testbed";
    let whole = std::fs::read_to_string(format!("{formats}/ibroute/lid-2.txt")).unwrap();
    // A copy cut short (a collection script killed mid-dump), named to sort first.
    let cut: String = whole.lines().take(20).map(|l| format!("{l}\n")).collect();
    let dir = std::env::temp_dir().join(format!("shoal-two-tables-{}", std::process::id()));
    let tables = dir.join("ibroute");
    std::fs::create_dir_all(&tables).unwrap();
    std::fs::copy(format!("{formats}/ibnetdiscover.txt"), dir.join("topology.txt")).unwrap();
    for entry in std::fs::read_dir(format!("{formats}/ibroute")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, tables.join(path.file_name().unwrap())).unwrap();
    }
    std::fs::write(tables.join("0-lid-2-old.txt"), cut).unwrap();
    let (ok, out, err) = shoal(&["info", dir.to_str().unwrap(), "-v"]);
    assert!(ok, "{err}");
    assert!(out.contains("CA pairs delivered: 1722 of 1722 (100.0%)"), "the complete table routes: {out}");
    let warning = out.lines().find(|l| l.contains("has different tables")).unwrap_or_else(|| panic!("{out}"));
    assert!(warning.contains("0-lid-2-old.txt:1:"), "at the dropped table: {warning}");
    assert!(warning.contains("kept the more complete one (44 rows, complete; the other:"), "{warning}");
    assert!(warning.contains("using /"), "names the file kept: {warning}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dumps_captured_with_debug_output_are_recognised_and_the_skipped_lines_counted() {
    let verbose = "tests/fixtures/formats/testbed-verbose";
    for (file, kind, skipped) in [
        ("ibnetdiscover-v-p.txt", "ibnetdiscover -p ports list", 566),
        ("ibnetdiscover-v.txt", "ibnetdiscover topology", 682),
    ] {
        // Given by itself, and found by content in a folder under a name that says nothing.
        let dir =
            std::env::temp_dir().join(format!("shoal-debug-{}-{kind}", std::process::id()).replace(' ', "_"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(format!("{verbose}/{file}"), dir.join("topo.out")).unwrap();
        std::fs::copy("sample-data/testbed/opensm.fdbs", dir.join("opensm.fdbs")).unwrap();
        let given = format!("{verbose}/{file},sample-data/testbed/opensm.fdbs");
        for rail in [given.as_str(), dir.to_str().unwrap()] {
            let (ok, out, err) = shoal(&["info", rail]);
            assert!(ok, "{rail}: {err}");
            assert!(out.contains(&format!("({kind})")), "{out}");
            assert!(out.contains("CA pairs delivered: 1722 of 1722 (100.0%)"), "{out}");
            assert!(out.contains(&format!(":1: skipped {skipped} lines of tool debug output")), "{out}");
            assert!(out.contains("1 warnings"), "one warning, not hundreds: {out}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_rail_policy_naming_a_rail_not_given_is_an_error() {
    let profile = "sample-data/testbed/alltoall.ibprof";
    for command in ["convert", "hot"] {
        let out = std::env::temp_dir().join(format!("shoal-policy-{}-{command}", std::process::id()));
        let mut args = vec![command, TESTBED, "--profile", profile, "--rail-policy", "rail:7"];
        if command == "convert" {
            args.extend(["--out", out.to_str().unwrap()]);
        }
        let (ok, _, err) = shoal(&args);
        assert!(!ok, "{command} must fail");
        assert!(err.contains("--rail-policy rail:7, but 1 rail was given"), "{command}: {err}");
    }
}

#[test]
fn an_io_error_names_its_os_error_once() {
    let (ok, _, err) = shoal(&["info", "/nonexistent-shoal-dir"]);
    assert!(!ok);
    assert_eq!(err.matches("(os error 2)").count(), 1, "{err}");
}

#[test]
fn render_region_without_a_profile_is_an_error() {
    let out = std::env::temp_dir().join(format!("shoal-region-{}.png", std::process::id()));
    let (ok, _, err) = shoal(&["render", TESTBED, "--region", "2", "--out", out.to_str().unwrap()]);
    assert!(!ok, "must not silently draw the fabric without traffic");
    assert!(err.contains("--region and --diff need --profile"), "{err}");
}

#[test]
fn a_boxfish_torus_axis_of_extent_zero_is_an_error() {
    let dir = std::env::temp_dir().join(format!("shoal-dim0-{}", std::process::id()));
    let meta = torus_with_zero_axis(&dir);
    let (ok, _, err) = shoal(&["query", meta.to_str().unwrap(), "--domain", "links", "--attr", "packets"]);
    assert!(!ok, "dim 0 must not be accepted");
    assert!(err.contains("dim gives no extent (a whole number of at least 1) for axis `y`"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
