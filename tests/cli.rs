//! The `shoal` command line, run as a user would run it.

use std::path::PathBuf;

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;
#[path = "support/time_steps.rs"]
mod time_steps;

const RAIL0: &str = "sample-data/tworail/rail0";
const RAIL1: &str = "sample-data/tworail/rail1";
const SORT: &str = "sample-data/tworail/samplesort.ibprof.gz";

#[test]
fn trace_prints_the_documented_json_from_source_ca_to_destination_ca() {
    let (ok, out, _) = shoal(&["trace", RAIL0, "--from", "0x0118", "--to", "0x010c", "--json"]);
    assert!(ok);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["delivered"], true);
    let hops = json["hops"].as_array().unwrap();
    assert_eq!(hops.first().unwrap()["name"], "stor04 HCA-1");
    assert_eq!(hops.last().unwrap()["name"], "n0222 HCA-1");
    assert_eq!(hops[1]["in_port"], 8);
    assert_eq!(hops[1]["out_port"], 13);
    for key in ["guid", "name", "lid", "in_port", "out_port"] {
        assert!(hops[2].get(key).is_some(), "{key}");
    }
}

#[test]
fn a_bare_lid_on_the_command_line_is_decimal_as_ibtracert_reads_it() {
    let hex = shoal(&["trace", RAIL0, "--from", "0x0118", "--to", "0x010c", "--json"]);
    let decimal = shoal(&["trace", RAIL0, "--from", "280", "--to", "268", "--json"]);
    assert!(hex.0 && decimal.0, "{}", decimal.2);
    assert_eq!(hex.1, decimal.1);
    let (ok, _, err) = shoal(&["trace", RAIL0, "--from", "11a", "--to", "268"]);
    assert!(!ok);
    assert!(err.contains("decimal"), "{err}");
}

#[test]
fn an_undeliverable_trace_says_where_it_stopped_and_exits_non_zero() {
    let (ok, out, err) = shoal(&["trace", RAIL0, "--from", "0x0118", "--to", "0x0fff"]);
    assert!(!ok);
    assert!(out.contains("NOT delivered"));
    assert!(err.contains("does not reach"));
}

#[test]
fn convert_writes_node_and_link_tables_with_a_row_per_link_per_region() {
    let dir = std::env::temp_dir().join(format!("shoal-cli-convert-{}", std::process::id()));
    let (ok, out, err) = shoal(&["convert", RAIL0, RAIL1, "--profile", SORT, "--out", dir.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("nodes.csv") && out.contains("links.csv"));
    let links = std::fs::read_to_string(dir.join("links.csv")).unwrap();
    let nodes = std::fs::read_to_string(dir.join("nodes.csv")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(links.lines().count() - 1, (742 + 736) * 4, "two regions, the total, and job all");
    assert!(
        links.lines().any(|l| l.contains(",total,samplesort,0,0,,,")),
        "unused links are kept (no counters: observed empty)"
    );
    assert!(nodes.lines().skip(1).all(|l| l.split(',').count() == 7));
}

#[test]
fn hot_names_the_busiest_link_end_and_who_filled_it() {
    let (ok, out, err) = shoal(&["hot", RAIL0, RAIL1, "--profile", SORT, "--region", "2", "--top", "3"]);
    assert!(ok, "{err}");
    assert!(out.contains("region 2 \"exchange\""));
    assert_eq!(out.lines().filter(|l| l.contains("->") && l.contains('%')).count(), 3);
    assert!(out.lines().any(|l| l.trim_start().starts_with('n') && l.contains(" -> ")));
}

#[test]
fn bad_inputs_are_errors_on_stderr_with_a_non_zero_exit() {
    let (ok, _, err) = shoal(&["info", "/nonexistent/rail"]);
    assert!(!ok);
    assert!(err.starts_with("shoal: error:"), "{err}");
    let (ok, _, err) = shoal(&["hot", RAIL0, "--profile", SORT, "--region", "9"]);
    assert!(!ok);
    assert!(err.contains("no region 9 was loaded; there are 1, 2"), "names the profile's regions: {err}");
    let (ok, _, err) = shoal(&["convert", RAIL0, "--profile", "Cargo.toml", "--out", "/tmp/x"]);
    assert!(!ok);
    assert!(err.contains("ibprof 1"), "{err}");
}

#[test]
fn warnings_are_summarised_with_a_count() {
    let fragment =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fragments/opensm-subnet.lst");
    let (_, _, err) = shoal(&["info", fragment.to_str().unwrap()]);
    assert!(err.contains("warning"), "{err}");
}

#[test]
fn trace_with_ar_lists_the_spread_over_a_leafs_sixteen_uplinks_and_refuses_without_ar_tables() {
    let rail = "sample-data/railopt,tests/fixtures/ar/railopt/ibdiagnet2.far";
    // gpu29 mlx5_7 (228) to gpu30 mlx5_6 (242): same SU, other plane, so up through the spines.
    let (ok, stdout, stderr) = shoal(&["trace", rail, "--from", "228", "--to", "242", "--routing", "ar"]);
    assert!(ok, "{stderr}");
    assert!(stdout.starts_with("AR spread (modelled) from 0x00e4 to 0x00f2"), "{stdout}");
    let uplinks = stdout.lines().filter(|l| l.contains("leaf-su01-p7") && l.contains("spine")).count();
    assert_eq!(uplinks, 16, "{stdout}");
    assert!(stdout.lines().filter(|l| l.trim_start().starts_with("6.2500 %")).count() >= 16, "{stdout}");
    let (ok, _, stderr) =
        shoal(&["trace", "sample-data/railopt", "--from", "228", "--to", "242", "--routing", "ar"]);
    assert!(!ok && stderr.contains("no adaptive-routing tables"), "{stderr}");
}

/// The leaf-su00-p0 → spine00 uplink line of `hot --region 1` (the rings' SU-crossing step).
fn uplink_line(stdout: &str) -> String {
    let line = stdout
        .lines()
        .find(|l| l.contains("leaf-su00-p0:MQM9700/U1 (17) -> MF0;spine00"))
        .unwrap_or_else(|| panic!("no uplink line in {stdout}"));
    let numbers = line.rsplit_once("U1 (1)").map_or(line, |(_, tail)| tail);
    numbers.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn hot_with_ar_ranks_the_modelled_spread_labels_it_and_keeps_static_beside() {
    let rail = "sample-data/railopt,tests/fixtures/ar/railopt/ibdiagnet2.far";
    let profile = "sample-data/railopt/nccl.ibprof.gz";
    let args = ["hot", rail, "--profile", profile, "--region", "1", "--top", "2000", "--pairs", "0"];
    // Default static: the AR tables are found, so the AR-modelled bytes are computed beside.
    let (ok, stdout, stderr) = shoal(&args);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("static routing") && stdout.contains("AR model"), "{stdout}");
    assert_eq!(uplink_line(&stdout), "248 MiB 100.0% 15.5 MiB");
    // --routing ar ranks by the spread (16 uplinks share the step), static beside.
    let (ok, stdout, stderr) = shoal(&[&args[..], &["--routing", "ar"]].concat());
    assert!(ok, "{stderr}");
    assert!(stdout.contains("AR modelled") && stderr.contains("(AR modelled)"), "{stdout}{stderr}");
    assert_eq!(uplink_line(&stdout), "15.5 MiB 6.2% 248 MiB");
}

#[test]
fn hot_with_ar_refuses_dumps_without_ar_tables_and_static_adds_no_ar_column() {
    let profile = "sample-data/railopt/nccl.ibprof.gz";
    let (ok, _, stderr) = shoal(&["hot", "sample-data/railopt", "--profile", profile, "--routing", "ar"]);
    assert!(!ok && stderr.contains("no adaptive-routing tables"), "{stderr}");
    // No AR tables, no AR column.
    let (ok, stdout_static, _) = shoal(&["hot", "sample-data/railopt", "--profile", profile, "--top", "2"]);
    assert!(ok && !stdout_static.contains("AR model"), "{stdout_static}");
}

#[test]
fn hot_on_a_region_a_long_loop_lacks_says_how_many_it_has_not_all_of_them() {
    let path = time_steps::time_step_profile(4, 300);
    let profile = path.display().to_string();
    let (ok, _, err) = shoal(&["hot", RAIL0, RAIL1, "--profile", &profile, "--region", "301"]);
    assert!(!ok);
    assert!(err.contains("no region 301 was loaded; there are 300 regions, 1 … 300"), "{err}");
    assert!(err.len() < 2000, "{} bytes of error", err.len());
}
