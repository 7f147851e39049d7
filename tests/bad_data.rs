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
