//! Bad data as real sites produce it (issue 16, the data half): nothing wraps, nothing is lost
//! without a word. Each test runs the `shoal` binary as a user would.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

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
