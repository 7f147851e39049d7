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
    matrix_of(PROFILE, name, extra)
}

fn matrix_of(profile: &str, name: &str, extra: &[&str]) -> (Vec<csv::StringRecord>, String) {
    let out = std::env::temp_dir().join(format!("shoal-matrix-{}-{name}.csv", std::process::id()));
    let out_text = out.display().to_string();
    let args =
        [&["matrix", RAILS[0], RAILS[1], "--profile", profile][..], extra, &["--out", &out_text]].concat();
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

/// The sample profile with message counts added to every peer line: one message per started
/// KiB sent, so a pair's count differs from region to region as its bytes do.
fn counted_profile() -> (PathBuf, shoal::model::Profile) {
    use shoal::model::PeerMessages;
    let (mut profile, _) = shoal::profile_io::profiles::read_profile(&root().join(PROFILE)).unwrap();
    for dump in profile.ranks.iter_mut().flat_map(|r| r.dumps.iter_mut()) {
        dump.peers.sort_by_key(|p| p.peer);
        dump.messages = dump
            .peers
            .iter()
            .map(|p| PeerMessages { peer: p.peer, sent: p.sent.div_ceil(1024), recv: p.recv.div_ceil(1024) })
            .collect();
    }
    let path = std::env::temp_dir().join(format!("shoal-matrix-{}-counted.ibprof", std::process::id()));
    let mut file = std::fs::File::create(&path).unwrap();
    shoal::profile_io::ibprof::write_profile(&profile, &mut file).unwrap();
    (path, profile)
}

#[test]
fn counted_messages_fill_the_column_and_add_up_per_rank_pair_over_the_rails() {
    let (path, profile) = counted_profile();
    let (rows, err) = matrix_of(&path.display().to_string(), "counted", &["--values", "messages"]);
    assert!(!err.contains("no message counts"), "{err}");
    assert!(err.contains("messages-weighted"), "{err}");
    let mut per_pair: HashMap<(u32, u32), u64> = HashMap::new();
    let mut rails_used = [false; 2];
    for row in &rows {
        let messages: u64 = row[4].parse().expect("every row has a count when the profile has counts");
        *per_pair.entry((row[0].parse().unwrap(), row[1].parse().unwrap())).or_default() += messages;
        if let Ok(rail) = row[2].parse::<usize>() {
            rails_used[rail] |= messages > 0;
        }
    }
    assert_eq!(rails_used, [true, true], "the two-rail policy splits messages as it splits bytes");
    let mut expected: HashMap<(u32, u32), u64> = HashMap::new();
    for rank in &profile.ranks {
        let last = rank.dumps.iter().max_by_key(|d| d.region).unwrap();
        for m in last.messages.iter().filter(|m| m.sent > 0 && m.peer != rank.rank) {
            expected.insert((rank.rank, m.peer), m.sent);
        }
    }
    per_pair.retain(|_, m| *m > 0);
    assert_eq!(per_pair, expected);
    std::fs::remove_file(&path).unwrap();
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

#[test]
fn the_matrix_views_messages_choice_shows_pfprofs_counts_and_refuses_a_profile_without() {
    use shoal::routing::pair_table::Granularity;
    use shoal::view_model::matrix::{CellValues, MatrixOptions, build};
    let open_with = |rails: Vec<&str>, profile: &str| {
        let request = OpenRequest {
            rails: rails.iter().map(|r| RailRequest { paths: vec![root().join(r)] }).collect(),
            profile: Some(root().join(profile)),
            ..Default::default()
        };
        open(&request, &|_| {}).unwrap().fabric.unwrap()
    };
    let options = MatrixOptions { by: Granularity::Rank, values: CellValues::Messages, ..Default::default() };
    // PFProf's fixture: every rank sends one message to each of the 7 others.
    let pfprof = open_with(vec!["sample-data/testbed"], "tests/fixtures/pfprof");
    let grid = build(&pfprof, RegionKey::Total, None, &options, 64).unwrap();
    assert_eq!(grid.cells.len(), 8 * 7);
    assert!(grid.cells.iter().all(|c| c.value == 1.0), "{:?}", grid.cells);
    let without = open_with(RAILS.to_vec(), PROFILE);
    let err = build(&without, RegionKey::Total, None, &options, 64).unwrap_err();
    assert!(err.contains("no message counts"), "{err}");
}
