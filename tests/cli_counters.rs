//! `--counters` on the command line: convert without a profile, hot by residual.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const TESTBED: &str = "sample-data/testbed";
const PROFILE: &str = "sample-data/testbed/alltoall.ibprof";
const BEFORE: &str = "tests/fixtures/counters/testbed/perfquery-x-before.txt";
const AFTER: &str = "tests/fixtures/counters/testbed/perfquery-x-after.txt";

#[test]
fn convert_with_counters_and_no_profile_writes_observed_bytes_on_total_rows() {
    let dir = std::env::temp_dir().join(format!("shoal-cli-counters-{}", std::process::id()));
    let (ok, _, err) = shoal(&["convert", TESTBED, "--counters", AFTER, "--out", dir.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("counters cover 114 of 114 link ends"), "{err}");
    let links = std::fs::read_to_string(dir.join("links.csv")).unwrap();
    let mut lines = links.lines();
    assert!(lines.next().unwrap().contains(
        ",bytes_a_to_b,bytes_b_to_a,observed_a_to_b,observed_b_to_a,xmit_wait_a_to_b,xmit_wait_b_to_a,\
         capacity_bytes_per_s,utilisation_a_to_b,utilisation_b_to_a,stall_a_to_b,stall_b_to_a"
    ));
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        assert!(!cells[9].is_empty() && !cells[10].is_empty(), "every end has a counter: {line}");
        assert_eq!(cells[13], "4000000000", "4x QDR carries 4e9 bytes/s: {line}");
        assert!(cells[14].is_empty(), "one snapshot spans no interval: no utilisation: {line}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn hot_by_residual_puts_the_other_jobs_traffic_first() {
    let args = ["hot", TESTBED, "--profile", PROFILE, "--counters", BEFORE, "--counters", AFTER];
    let (ok, out, err) = shoal(&[&args[..], &["--by", "residual", "--top", "2", "--pairs", "0"]].concat());
    assert!(ok, "{err}");
    let rows: Vec<&str> = out.lines().skip(2).collect();
    assert!(rows[0].contains("MF0;tb-L1-01:SX6036/U1 (30) -> MF0;tb-L1-00:SX6036/U1 (30)"), "{out}");
    assert!(rows[0].trim_end().ends_with("+15.3 GiB"), "{out}");
    assert!(rows[1].contains("(22) -> "), "{out}");
}

#[test]
fn residual_without_counters_or_profile_is_a_clear_error() {
    let (ok, _, err) = shoal(&["hot", TESTBED, "--profile", PROFILE, "--by", "residual"]);
    assert!(!ok);
    assert!(err.contains("--by residual needs --counters"), "{err}");
    let (ok, _, err) = shoal(&["hot", TESTBED, "--counters", AFTER, "--by", "residual"]);
    assert!(!ok);
    assert!(err.contains("--profile"), "{err}");
}

#[test]
fn render_colours_by_residual_with_counters_and_refuses_without() {
    let out = std::env::temp_dir().join(format!("shoal-cli-residual-{}.svg", std::process::id()));
    let base = ["render", TESTBED, "--profile", PROFILE, "--out", out.to_str().unwrap()];
    let (ok, _, err) =
        shoal(&[&base[..], &["--counters", BEFORE, "--counters", AFTER, "--colour-by", "residual"]].concat());
    assert!(ok, "{err}");
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("residual"), "the legend names the residual");
    let (ok, _, err) = shoal(&[&base[..], &["--colour-by", "observed"]].concat());
    assert!(!ok);
    assert!(err.contains("--colour-by observed needs --counters"), "{err}");
    let _ = std::fs::remove_file(out);
}

const RESET: &str = "tests/fixtures/counters/testbed/perfquery-x-reset.txt";

#[test]
fn render_writes_a_series_of_snapshots_as_a_time_strip_of_intervals() {
    let out = std::env::temp_dir().join(format!("shoal-cli-strip-{}.svg", std::process::id()));
    let args = ["render", TESTBED, "--counters", BEFORE, "--counters", AFTER, "--counters", RESET];
    let (ok, _, err) =
        shoal(&[&args[..], &["--module", "time-strip", "--out", out.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    assert!(err.contains("time strip of 2 intervals"), "{err}");
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("L: bytes per interval"), "the legend names its unit");
    assert!(svg.contains("2 intervals, "), "the axis says what the columns span");
    assert!(svg.contains("times: the files' modification times"), "and where their times come from");
    // Two snapshots are no series: the strip says what it needs.
    let (ok, _, err) = shoal(
        &[&args[..4], &["--counters", AFTER, "--module", "time-strip", "--out", out.to_str().unwrap()]]
            .concat(),
    );
    assert!(!ok);
    assert!(err.contains("three or more --counters"), "{err}");
    let _ = std::fs::remove_file(out);
}

#[test]
fn render_writes_a_profiles_regions_as_a_time_strip_png() {
    let out = std::env::temp_dir().join(format!("shoal-cli-strip-{}.png", std::process::id()));
    let strip = |extra: &[&str]| {
        let base = [
            "render",
            "sample-data/tworail/rail0",
            "sample-data/tworail/rail1",
            "--profile",
            "sample-data/tworail/samplesort.ibprof.gz",
            "--module",
            "time-strip",
            "--out",
            out.to_str().unwrap(),
        ];
        shoal(&[&base[..], extra].concat())
    };
    let (ok, _, err) = strip(&["--region", "2"]);
    assert!(ok, "{err}");
    assert!(err.contains("time strip of 2 regions"), "{err}");
    let png = std::fs::read(&out).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let (ok, _, err) = strip(&["--where", "bytes > 0"]);
    assert!(!ok);
    assert!(err.contains("--where does not apply to --module time-strip"), "{err}");
    let _ = std::fs::remove_file(out);
}

#[test]
fn a_jobs_residual_against_the_counters_ranks_as_its_profiles_does() {
    let counters =
        ["--counters", BEFORE, "--counters", AFTER, "--by", "residual", "--top", "3", "--pairs", "1"];
    let (ok, alone, err) = shoal(&[&["hot", TESTBED, "--profile", PROFILE][..], &counters[..]].concat());
    assert!(ok, "{err}");
    let job = format!("a2a={PROFILE}");
    let (ok, as_job, err) = shoal(&[&["hot", TESTBED, "--job", &job][..], &counters[..]].concat());
    assert!(ok, "{err}");
    let rows = |out: &str| out.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(rows(&as_job), rows(&alone), "the same ends, bytes and pairs");
    assert!(as_job.starts_with("Largest residuals (observed − predicted) in the whole run"), "{as_job}");
    let (ok, _, err) = shoal(&["hot", TESTBED, "--job", &job, "--by", "observed"]);
    assert!(!ok && err.contains("--by observed|residual needs --counters"), "{err}");
}
