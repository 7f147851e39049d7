//! `shoal why` (issue 22, item 7) on the real simulated fabric of `tests/fixtures/health` (see its
//! README: S1[3] waited 12,345,678 ticks, S1[4]–S2[4] runs 1xSDR, error counters moved on S2[4],
//! S1[1] and S2[2]) with a job written by `shoal pattern` and placed on the hosts in order.

#[path = "support/health_captures.rs"]
mod health_captures;
#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use std::path::Path;
use std::process::{Command, Output};

use health_captures::{dated_captures, fixtures};
use scratch_dir::ScratchDir;

use serde_json::Value;

/// A scratch folder with the captures dated `seconds` apart and a shift job of 4 ranks.
fn scratch(tag: &str, seconds: u64) -> ScratchDir {
    let dir = dated_captures("why", tag, seconds);
    let out = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(["pattern", "shift", "--ranks", "4", "--bytes", "1GiB", "--out"])
        .arg(dir.join("shift.ibprof"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir
}

fn why(dir: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shoal"))
        .arg("why")
        .arg(fixtures())
        .arg("--job")
        .arg(format!("shift={}", dir.join("shift.ibprof").display()))
        .args(["--place", "shift=linear", "--counters"])
        .arg(dir.join("perfquery-before.txt"))
        .arg("--counters")
        .arg(dir.join("perfquery-after.txt"))
        .args(extra)
        .output()
        .unwrap()
}

fn json(dir: &Path, extra: &[&str]) -> Value {
    let out = why(dir, &[extra, &["--json"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_stalled_inter_switch_link_on_the_jobs_route_is_its_region_ranked_by_stall_times_share() {
    let dir = scratch("region", 1);
    let v = json(&dir, &[]);
    assert_eq!(v["job"], "shift");
    assert_eq!(v["stall_known"], true);
    let regions = v["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 1, "{v:#}");
    let region = &regions[0];
    assert_eq!(region["number"], 1);
    let end = &region["ends"][0];
    assert_eq!((end["from"].as_str(), end["from_port"].as_u64()), (Some("S1"), Some(3)));
    // 12,345,678 ticks × 128 bytes (4x QDR: 32 per lane) at 4 GB/s in one second.
    let stall = end["stall_percent"].as_f64().unwrap();
    assert!((stall - 39.506).abs() < 0.01, "{stall}");
    let score = end["score"].as_f64().unwrap();
    assert!((score - stall * end["job_share"].as_f64().unwrap()).abs() < 1e-9);
    assert_eq!(
        end["job_bytes"].as_u64(),
        Some(1 << 30),
        "rank 1 on H2 sends 1 GiB to rank 3 on H4 over S1[3]"
    );
    assert!(region["verdict"].as_str().unwrap().contains("hurts"), "{}", region["verdict"]);
}

#[test]
fn degraded_links_and_error_ports_on_the_jobs_routes_are_named_and_the_verdict_says_so() {
    let dir = scratch("health", 1);
    let v = json(&dir, &[]);
    assert_eq!(v["degraded"][0]["a_port"], 4, "{v:#}");
    let counters: Vec<&str> =
        v["errors"].as_array().unwrap().iter().filter_map(|e| e["counter"].as_str()).collect();
    assert!(
        counters.contains(&"SymbolErrorCounter") && counters.contains(&"LinkDownedCounter"),
        "{counters:?}"
    );
    let verdict = v["verdict"].as_str().unwrap();
    assert!(verdict.contains("degraded link") && verdict.contains("accusing a cable"), "{verdict}");
}

#[test]
fn a_region_that_does_not_exist_is_an_error_naming_how_many_there_are() {
    let dir = scratch("no-region", 1);
    let out = why(&dir, &["--region", "7"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("there is no region 7: 1 region(s)"), "{stderr}");
}

#[test]
fn without_an_interval_no_stall_is_known_and_the_verdict_says_why() {
    let dir = scratch("no-interval", 0);
    let v = json(&dir, &[]);
    assert_eq!(v["stall_known"], false);
    assert_eq!(v["regions"], Value::Array(Vec::new()));
    assert!(v["verdict"].as_str().unwrap().contains("no interval with times"), "{}", v["verdict"]);
}
