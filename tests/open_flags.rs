//! The opening flags work in every command that opens data (issue 21): `render` honours
//! `--rail-policy` and `--host-map`, and `query` reads a fabric with its profile.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const RAIL0: &str = "sample-data/tworail/rail0";
const RAIL1: &str = "sample-data/tworail/rail1";
const SORT: &str = "sample-data/tworail/samplesort.ibprof.gz";
const COLLECTED: &str = "sample-data/tworail/collector-samplesort-8.ibprof";
const HOST_MAP: &str = "sample-data/tworail/collector-samplesort-8.hostmap";

/// `id,value` rows (under a `link,mean_bytes`-style header) of `shoal query …` as (id, value), the empty values as `None`.
fn query(args: &[&str]) -> Vec<(u64, Option<f64>)> {
    let (ok, out, err) = shoal(&[&["query"], args].concat());
    assert!(ok, "{err}");
    let mut lines = out.lines();
    let header = lines.next().unwrap_or_default();
    assert!(
        header.split(',').count() == 2 && !header.starts_with("id,"),
        "a named two-column header: {header}"
    );
    lines
        .map(|l| {
            let (id, value) = l.split_once(',').expect("id,value");
            (id.parse().expect("an id"), value.parse().ok())
        })
        .collect()
}

/// The `N links drawn` of `render`'s summary line.
fn links_drawn(stderr: &str) -> usize {
    let line = stderr.lines().find(|l| l.ends_with("links drawn")).expect("the summary line");
    line.split_whitespace().rev().nth(2).and_then(|n| n.parse().ok()).expect("a count")
}

#[test]
fn query_on_rails_and_a_profile_prints_one_row_per_link_end() {
    let bytes = query(&[RAIL0, RAIL1, "--profile", SORT, "--domain", "links", "--attr", "bytes"]);
    let rails = query(&[RAIL0, RAIL1, "--profile", SORT, "--domain", "links", "--attr", "rail"]);
    // Every link end is a row: both ends of each of the two rails' links.
    assert_eq!(bytes.len(), rails.len());
    assert!(bytes.len() > 2000, "{} rows", bytes.len());
    assert!(bytes.iter().all(|(_, v)| v.is_some()), "the whole run's bytes of every end");
    let ids: std::collections::BTreeSet<u64> = bytes.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids.len(), bytes.len(), "one row per link end");
    let on = |rail: f64| rails.iter().filter(|(_, r)| *r == Some(rail)).count();
    assert_eq!(on(0.0) + on(1.0), rails.len());
    assert!(on(0.0) > 0 && on(1.0) > 0);
}

#[test]
fn render_with_rail_policy_rail_0_leaves_rail_1_empty() {
    let common = [RAIL0, RAIL1, "--profile", SORT, "--hide-unused", "--where", "rail = 1"];
    let out = std::env::temp_dir().join(format!("shoal-rail-policy-{}.png", std::process::id()));
    let out = out.to_str().unwrap();
    let (ok, _, split) = shoal(&[&["render"], &common[..], &["--out", out]].concat());
    assert!(ok, "{split}");
    let (ok, _, rail0) =
        shoal(&[&["render"], &common[..], &["--rail-policy", "rail:0", "--out", out]].concat());
    assert!(ok, "{rail0}");
    assert!(links_drawn(&split) > 0, "{split}");
    assert_eq!(links_drawn(&rail0), 0, "{rail0}");
    // The values say the same: every rail-1 end carries nothing under rail:0, some do under split.
    let args = |policy: &'static str| {
        vec![
            RAIL0,
            RAIL1,
            "--profile",
            SORT,
            "--rail-policy",
            policy,
            "--domain",
            "links",
            "--where",
            "rail = 1",
        ]
    };
    let rail1 = |policy| query(&[args(policy), vec!["--attr", "bytes"]].concat());
    assert!(rail1("rail:0").iter().all(|(_, v)| v.unwrap_or(0.0) == 0.0));
    assert!(rail1("split").iter().any(|(_, v)| v.unwrap_or(0.0) > 0.0));
    std::fs::remove_file(out).ok();
}

#[test]
fn render_with_a_host_map_moves_the_ranks_onto_the_fabric() {
    let out = std::env::temp_dir().join(format!("shoal-host-map-{}.png", std::process::id()));
    let out = out.to_str().unwrap();
    let common = [RAIL0, RAIL1, "--profile", COLLECTED, "--hide-unused", "--out", out];
    let (ok, _, unmapped) = shoal(&[&["render"], &common[..]].concat());
    assert!(ok, "{unmapped}");
    let (ok, _, mapped) = shoal(&[&["render"], &common[..], &["--host-map", HOST_MAP]].concat());
    assert!(ok, "{mapped}");
    // The profile ran on one machine ("vm"): alone its bytes land nowhere; mapped, on the fabric.
    assert_eq!(links_drawn(&unmapped), 0, "{unmapped}");
    assert!(links_drawn(&mapped) > 0, "{mapped}");
    // The ranks sit on the hosts the map names (rank 1 → n0030, the fabric's 30th host).
    let ranks = |map: &[&'static str]| {
        let args =
            [&[RAIL0, RAIL1, "--profile", COLLECTED][..], map, &["--domain", "ranks", "--attr", "nodeid"]];
        query(&args.concat())
    };
    assert!(ranks(&[]).is_empty(), "no rank is on the fabric without the map");
    let placed = ranks(&["--host-map", HOST_MAP]);
    assert_eq!(placed.len(), 8);
    assert_eq!(placed[1], (1, Some(29.0)));
    std::fs::remove_file(out).ok();
}

#[test]
fn a_rail_policy_naming_a_rail_not_given_is_an_error() {
    let (ok, _, err) =
        shoal(&["render", RAIL0, "--profile", SORT, "--rail-policy", "rail:1", "--out", "/tmp/x.png"]);
    assert!(!ok);
    assert!(err.contains("--rail-policy rail:1, but 1 rail was given"), "{err}");
}
