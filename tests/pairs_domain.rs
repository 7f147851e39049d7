//! The `pairs` domain (issue 23): host pairs per rail and region with their hop class, for
//! clauses. Checked against `shoal matrix`'s table and against what a fabric view keeps.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const RAILS: [&str; 2] = ["sample-data/tworail/rail0", "sample-data/tworail/rail1"];
const PROFILE: &str = "sample-data/tworail/samplesort.ibprof.gz";

#[test]
fn a_clause_on_pairs_hops_keeps_the_pairs_shoal_matrix_gives_that_many_switches() {
    let (ok, out, err) = shoal(&[
        "query",
        RAILS[0],
        RAILS[1],
        "--profile",
        PROFILE,
        "--domain",
        "pairs",
        "--where",
        "hops>=5",
        "--where",
        "region=2",
        "--attr",
        "bytes",
    ]);
    assert!(ok, "{err}");
    let mut kept: Vec<u64> = out.lines().skip(1).filter_map(|l| l.split(',').nth(1)?.parse().ok()).collect();
    let csv = std::env::temp_dir().join(format!("shoal-pairs-{}.csv", std::process::id()));
    let args = ["matrix", RAILS[0], RAILS[1], "--profile", PROFILE, "--by", "host", "--region", "2"];
    assert!(shoal(&[&args[..], &["--out", csv.to_str().unwrap()]].concat()).0);
    let mut want: Vec<u64> = csv::Reader::from_path(&csv)
        .unwrap()
        .records()
        .map(Result::unwrap)
        .filter(|r| !r[2].is_empty() && r[5].parse::<u32>().unwrap() >= 5)
        .map(|r| r[3].parse().unwrap())
        .collect();
    std::fs::remove_file(&csv).unwrap();
    kept.sort_unstable();
    want.sort_unstable();
    assert!(want.len() > 10_000, "most of the sample's host pairs cross a core ({})", want.len());
    assert_eq!(kept, want, "one pair per (source, destination, rail), its region-2 bytes");
}

#[test]
fn pairs_within_a_leaf_keep_only_the_links_between_hosts_and_their_leaves() {
    let out = std::env::temp_dir().join(format!("shoal-pairs-{}.png", std::process::id()));
    let (ok, _, err) = shoal(&[
        "render",
        RAILS[0],
        RAILS[1],
        "--profile",
        PROFILE,
        "--where",
        "pairs.hops<=1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    std::fs::remove_file(&out).unwrap();
    // 224 hosts, one cable to a leaf on each of the two rails: a 1-switch path crosses only those.
    assert!(err.contains(": 448 links drawn"), "{err}");
}
