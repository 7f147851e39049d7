//! `shoal matrix` (issue 23): a region's traffic matrix per rail with each pair's hop class,
//! checked against the loads the same flags trace and against `ibtracert`'s recorded paths.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

use std::collections::HashMap;
use std::path::PathBuf;

use shoal::routing::RegionKey;
use shoal::view_model::{OpenRequest, RailRequest, open};

const RAILS: [&str; 2] = ["sample-data/tworail/rail0", "sample-data/tworail/rail1"];
const PROFILE: &str = "sample-data/tworail/samplesort.ibprof.gz";
const HEADER: [&str; 6] = ["src", "dst", "rail", "bytes", "messages", "hops"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `shoal matrix RAILS --profile PROFILE EXTRA --out TMP` and reads the CSV back.
fn matrix(name: &str, extra: &[&str]) -> (Vec<csv::StringRecord>, String) {
    let out = std::env::temp_dir().join(format!("shoal-matrix-{}-{name}.csv", std::process::id()));
    let out_text = out.display().to_string();
    let args =
        [&["matrix", RAILS[0], RAILS[1], "--profile", PROFILE][..], extra, &["--out", &out_text]].concat();
    let (ok, _, err) = shoal(&args);
    assert!(ok, "{err}");
    let mut reader = csv::Reader::from_path(&out).unwrap();
    assert_eq!(reader.headers().unwrap().iter().collect::<Vec<_>>(), HEADER);
    let rows = reader.records().map(|r| r.unwrap()).collect();
    std::fs::remove_file(&out).unwrap();
    (rows, err)
}

#[test]
fn each_rails_bytes_are_what_the_loads_inject_on_that_rail() {
    let (rows, _) = matrix("split", &["--region", "2"]);
    let mut per_rail = [0u64; 2];
    for row in &rows {
        per_rail[row[2].parse::<usize>().unwrap()] += row[3].parse::<u64>().unwrap();
    }
    let request = OpenRequest {
        rails: RAILS.iter().map(|r| RailRequest { paths: vec![root().join(r)] }).collect(),
        profile: Some(root().join(PROFILE)),
        ..Default::default()
    };
    let dataset = open(&request, &|_| {}).unwrap();
    let loads = dataset.fabric.unwrap().loads.get(RegionKey::Region(2)).unwrap().clone();
    let injected: Vec<u64> = loads.rails.iter().map(|r| r.injected).collect();
    assert_eq!(per_rail.to_vec(), injected);
    assert!(per_rail.iter().all(|&b| b > 0));
}

#[test]
fn a_profile_without_message_counts_leaves_the_column_empty_and_says_so() {
    let (rows, err) = matrix("messages", &["--by", "leaf"]);
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r[4].is_empty()), "never zeros");
    assert!(err.lines().any(|l| l.starts_with("note: ") && l.contains("no message counts")), "{err}");
    assert!(err.contains("locality: "), "{err}");
}

/// `ibtracert`'s recorded paths on rail 0: (source host, destination host) → switches crossed.
fn recorded_switches() -> HashMap<(String, String), usize> {
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/ibtracert/tworail/rail0/ibtracert.txt")).unwrap();
    let host = |line: &str| line.split('"').nth(1).unwrap().split_whitespace().next().unwrap().to_string();
    let mut paths = HashMap::new();
    for block in text.split("== ").filter(|b| !b.trim().is_empty()) {
        let from = block.lines().find(|l| l.starts_with("From ca")).map(host).unwrap();
        let to = block.lines().find(|l| l.starts_with("To ca")).map(host).unwrap();
        paths.insert((from, to), block.lines().filter(|l| l.contains("-> switch port")).count());
    }
    paths
}

#[test]
fn host_pairs_cross_as_many_switches_as_ibtracert_saw() {
    let (rows, _) = matrix("hops", &["--by", "host", "--rail-policy", "rail:0"]);
    let recorded = recorded_switches();
    let mut compared = 0;
    for row in &rows {
        assert_eq!(&row[2], "0", "rail:0 puts every byte on rail 0");
        if let Some(&switches) = recorded.get(&(row[0].to_string(), row[1].to_string())) {
            assert_eq!(row[5].parse::<usize>().unwrap(), switches, "{row:?}");
            compared += 1;
        }
    }
    assert!(compared >= 5, "only {compared} pairs of the profile were recorded by ibtracert");
}
