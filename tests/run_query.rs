//! `shoal query` end to end on the run-data samples, and `shoal convert`'s output opened as a
//! generic-2D run. Expected values come from the samples' traffic models (sample-data/README.md),
//! computed here independently of the generator.

use std::collections::BTreeMap;

use shoal::model::{Domain, Shape};
use shoal::profile_io::load_run;
use shoal::view_model::query::{Aggregate, Condition, values};
use shoal::view_model::view::selection_conditions;
use shoal::view_model::{Dataset, RegionSelection, ViewSpec};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const TORUS: &str = "sample-data/torus8/torus8_meta.yaml";
const KIB: f64 = 1024.0;

/// `id,value` rows (under a `link,mean_bytes`-style header); an empty value is `None`.
fn csv(out: &str) -> Vec<(i64, Option<f64>)> {
    let mut lines = out.lines();
    let header = lines.next().unwrap_or_default();
    assert!(
        header.split(',').count() == 2 && !header.starts_with("id,"),
        "a named two-column header: {header}"
    );
    lines
        .map(|l| {
            let (id, v) = l.split_once(',').unwrap();
            (id.parse().unwrap(), if v.is_empty() { None } else { Some(v.parse().unwrap()) })
        })
        .collect()
}

#[test]
fn transpose_link_bytes_add_up_to_the_dimension_order_hop_count() {
    let (ok, out, err) = shoal(&[
        "query",
        TORUS,
        "--domain",
        "links",
        "--where",
        "code_region = 2",
        "--agg",
        "sum",
        "--attr",
        "bytes",
    ]);
    assert!(ok, "{err}");
    let rows = csv(&out);
    assert_eq!(rows.len(), 3072);
    let total: f64 = rows.iter().filter_map(|r| r.1).sum();
    let mut hops = 0.0;
    for x in 0..8i32 {
        for y in 0..8i32 {
            let d = (x - y).abs();
            hops += 8.0 * 2.0 * f64::from(d.min(8 - d)); // eight z planes; x then y, same distance
        }
    }
    assert_eq!(total, 256.0 * KIB * hops);
    // z links (ids 6n + 4, 6n + 5) carry no transpose traffic.
    assert!(rows.iter().filter(|r| r.0 % 6 >= 4).all(|r| r.1 == Some(0.0)));
}

#[test]
fn halo_bytes_per_link_follow_the_model_and_packets_round_up() {
    let (ok, out, _) =
        shoal(&["query", TORUS, "--domain", "links", "--where", "code_region = 1", "--attr", "bytes"]);
    assert!(ok);
    let rows: BTreeMap<i64, Option<f64>> = csv(&out).into_iter().collect();
    // Node 0 = (0,0,0) is in the heavy half: +x link 0 carries 2 × 64 KiB, +z link 4 2 × 16 KiB.
    assert_eq!(rows[&0], Some(128.0 * KIB));
    assert_eq!(rows[&4], Some(32.0 * KIB));
    // Node 256 = (4,0,0) is not: its +y link (6 × 256 + 2) carries 32 KiB.
    assert_eq!(rows[&(6 * 256 + 2)], Some(32.0 * KIB));
    let (_, out, _) =
        shoal(&["query", TORUS, "--domain", "links", "--where", "code_region=1", "--attr", "packets"]);
    assert_eq!(csv(&out)[0].1, Some(128.0 * KIB / 256.0));
}

#[test]
fn a_node_attribute_clause_filters_links_and_leaves_the_rest_empty() {
    // Only the heavy half (x < 4) sends more than 300,000 bytes in any region.
    let args = [
        "query",
        TORUS,
        "--domain",
        "links",
        "--where",
        "sent_bytes > 300000",
        "--where",
        "code_region = 1",
        "--attr",
        "bytes",
    ];
    let (ok, out, _) = shoal(&args);
    assert!(ok);
    let rows = csv(&out);
    let kept: Vec<i64> = rows.iter().filter(|r| r.1.is_some()).map(|r| r.0).collect();
    assert_eq!(kept.len(), 256 * 6);
    assert!(kept.iter().all(|&id| id / 6 < 256), "links leaving nodes with x < 4");
}

#[test]
fn ranks_get_their_nodes_values_through_the_map() {
    let (ok, out, _) = shoal(&[
        "query",
        "sample-data/torus8",
        "--domain",
        "ranks",
        "--where",
        "code_region = 1",
        "--attr",
        "sent_bytes",
    ]);
    assert!(ok);
    let rows = csv(&out);
    // rank = 64z + 8y + x, so rank 3 is at x = 3 (heavy), rank 5 at x = 5.
    let heavy = 2.0 * 2.0 * (64.0 + 32.0 + 16.0) * KIB;
    assert_eq!(rows[3], (3, Some(heavy)));
    assert_eq!(rows[5], (5, Some(heavy / 2.0)));
}

#[test]
fn a_bad_query_is_an_error_on_stderr_with_a_non_zero_exit() {
    let (ok, out, err) = shoal(&["query", TORUS, "--domain", "links", "--attr", "flops"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("`flops`") && err.contains("packets"), "{err}");
    let (ok, _, err) = shoal(&["query", TORUS, "--domain", "links", "--where", "bytes 5", "--attr", "bytes"]);
    assert!(!ok);
    assert!(err.contains("ATTRIBUTE RELATION VALUE"), "{err}");
    let (ok, _, err) = shoal(&["query", "Cargo.toml", "--domain", "links", "--attr", "bytes"]);
    assert!(!ok);
    assert!(err.contains("Cargo.toml"), "{err}");
}

#[test]
fn the_mesh_sample_opens_as_a_plane_with_per_end_bytes() {
    let (run, warnings) =
        load_run(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/sample-data/mesh6"))).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(run.network().shape, Shape::Plane);
    assert_eq!(run.network().links.len(), 2 * 60);
    let hot =
        values(&run, Domain::Links, &[Condition::parse("region = 2").unwrap()], Aggregate::Sum, "bytes")
            .unwrap();
    // Routed x first, then y: every node above the bottom row comes down column x = 0, so the
    // link 6 → 0 carries 30 MiB; 1 → 0 carries only the bottom row's other five nodes.
    let net = run.network();
    let link = |a: i64, b: i64| {
        net.links.iter().position(|l| net.nodes[l.source].id == a && net.nodes[l.target].id == b).unwrap()
    };
    assert_eq!(hot[link(6, 0)], Some(30.0 * 1024.0 * KIB));
    assert_eq!(hot[link(1, 0)], Some(5.0 * 1024.0 * KIB));
    assert_eq!(hot[link(0, 1)], Some(0.0));
}

#[test]
fn shoal_converts_output_opens_as_a_plane_run_with_both_ends_of_each_link() {
    let dir = std::env::temp_dir().join(format!("shoal-run-query-convert-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (ok, _, err) = shoal(&[
        "convert",
        "sample-data/tworail/rail0",
        "--profile",
        "sample-data/tworail/samplesort.ibprof.gz",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let (run, warnings) = load_run(&dir.join("nodes.csv")).unwrap();
    assert_eq!(run.network().shape, Shape::Plane);
    // Unplaced nodes (if any) are the only warnings.
    assert!(warnings.iter().all(|w| w.message.contains("no x, y position")), "{warnings:?}");
    // Independently: the bytes of region `total` in links.csv, both directions.
    let text = std::fs::read_to_string(dir.join("links.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (region, job, ab, ba) = (col("region"), col("job"), col("bytes_a_to_b"), col("bytes_b_to_a"));
    let mut expected = 0.0;
    let mut physical = 0;
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        if cells[region] == "total" && cells[job] == "all" {
            physical += 1;
            expected += cells[ab].parse::<f64>().unwrap() + cells[ba].parse::<f64>().unwrap();
        }
    }
    assert_eq!(run.network().links.len(), 2 * physical);
    let whole = [Condition::parse("region = -1").unwrap(), Condition::parse("job = all").unwrap()];
    let total = values(&run, Domain::Links, &whole, Aggregate::Sum, "bytes").unwrap();
    assert!(expected > 0.0);
    assert_eq!(total.iter().flatten().sum::<f64>(), expected);
    // A view opens on the whole run, not on the mean of the total and its own regions, and on
    // the one job's rows (not also on job all's copy of them).
    let view = Dataset::from_run(run, vec![]);
    assert_eq!(view.jobs(), ["samplesort"]);
    let spec = ViewSpec::for_dataset(&view);
    assert_eq!(spec.selection, RegionSelection::Total);
    let expected = ["region = -1", "job = samplesort"].map(|c| Condition::parse(c).unwrap());
    assert_eq!(selection_conditions(&view, &spec), vec![expected.to_vec()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_without_whole_run_rows_opens_on_every_row() {
    let (run, _) = load_run(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(TORUS)).unwrap();
    let view = Dataset::from_run(run, vec![]);
    let spec = ViewSpec::for_dataset(&view);
    assert_eq!(spec.selection, RegionSelection::Total);
    assert_eq!(selection_conditions(&view, &spec), vec![Vec::<Condition>::new()]);
}
