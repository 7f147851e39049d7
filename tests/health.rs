//! `shoal health` on a real simulated fabric (tests/fixtures/health, made by
//! scripts/make-health-fixtures.py): ibsim ran one inter-switch link at 1xSDR where the rest run
//! 4xQDR, and its console added XmitWait and error counts between two plain perfquery captures.

#[path = "support/health_captures.rs"]
mod health_captures;
#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use health_captures::fixtures;
use scratch_dir::ScratchDir;

/// The captures copied aside, dated `seconds` apart (perfquery output has no times of its own:
/// a snapshot is dated by its file's modification time): their folder, which the test keeps
/// while it runs, and the two paths.
fn dated_captures(tag: &str, seconds: u64) -> (ScratchDir, PathBuf, PathBuf) {
    let dir = health_captures::dated_captures("health", tag, seconds);
    let (before, after) = (dir.join("perfquery-before.txt"), dir.join("perfquery-after.txt"));
    (dir, before, after)
}

fn health(counters: &[&Path]) -> Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shoal"));
    command.arg("health").arg(fixtures()).arg("--json");
    for c in counters {
        command.arg("--counters").arg(c);
    }
    let out = command.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_1x_sdr_link_is_degraded_against_its_4x_qdr_tier() {
    let v = health(&[]);
    assert_eq!(
        v["degraded"],
        json!([{
            "rail": 0, "a_guid": "0x0002c90200000001", "a_port": 4, "b_guid": "0x0002c90200000002", "b_port": 4,
            "width": "1x", "speed": "SDR", "expected_width": "4x", "expected_speed": "QDR",
            "reason": "runs 1x SDR where the other links of its tier (levels 1–1) run 4x QDR",
        }])
    );
    assert_eq!((v["errors"].clone(), v["stalled"].clone()), (json!([]), json!([])));
}

#[test]
fn error_deltas_are_listed_by_what_they_accuse_with_their_attribute_names() {
    let (_dir, before, after) = dated_captures("errors", 10);
    let v = health(&[&before, &after]);
    let entry = |guid: &str, port: u8, counter: &str, count: u64| json!({"rail": 0, "guid": guid, "port": port, "counter": counter, "count": count});
    assert_eq!(
        v["errors"],
        json!([
            entry("0x0002c90200000002", 4, "SymbolErrorCounter", 7),
            entry("0x0002c90200000002", 4, "LinkDownedCounter", 3),
            entry("0x0002c90200000001", 1, "PortXmitDiscards", 5),
            entry("0x0002c90200000002", 2, "PortRcvConstraintErrors", 2),
        ])
    );
}

#[test]
fn xmit_wait_ticks_become_a_share_of_the_interval_by_the_assumed_tick() {
    let (_dir, before, after) = dated_captures("stall", 10);
    let v = health(&[&before, &after]);
    let stalled = v["stalled"].as_array().unwrap();
    assert_eq!(stalled.len(), 2, "{stalled:?}");
    assert_eq!(stalled[0]["guid"], "0x0002c90200000001");
    assert_eq!(stalled[0]["port"], 3);
    assert_eq!(stalled[0]["xmit_wait"], 12_345_678);
    // 4x QDR: 32 bytes per lane per tick = 128 bytes; 4e9 bytes/s; over 10 s.
    let expected = 100.0 * 12_345_678.0 * 128.0 / 4e9 / 10.0;
    let percent = stalled[0]["stall_percent"].as_f64().unwrap();
    assert!((percent - expected).abs() < 1e-9, "{percent} against {expected}");
}

fn health_with_stderr(counters: &[&Path]) -> (Value, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shoal"));
    command.arg("health").arg(fixtures()).arg("--json");
    for c in counters {
        command.arg("--counters").arg(c);
    }
    let out = command.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{err}");
    (serde_json::from_slice(&out.stdout).unwrap(), err)
}

#[test]
fn a_recorded_port_samples_control_tick_replaces_the_assumed_one() {
    let (_dir, before, after) = dated_captures("tick", 10);
    let smplctl = fixtures().join("perfquery-smplctl.txt");
    let (v, err) = health_with_stderr(&[&before, &after, &smplctl]);
    let s1_port_3 = &v["stalled"][0];
    assert_eq!(
        (s1_port_3["guid"].as_str(), s1_port_3["port"].as_u64()),
        (Some("0x0002c90200000001"), Some(3))
    );
    // 4x QDR with Tick 0x0f: (15 + 1) bytes per lane × 4 lanes = 64 bytes a tick, not 128.
    let expected = 100.0 * 12_345_678.0 * 64.0 / 4e9 / 10.0;
    let percent = s1_port_3["stall_percent"].as_f64().unwrap();
    assert!((percent - expected).abs() < 1e-9, "{percent} against {expected}");
    assert!(err.contains("Tick recorded for 1 port(s)"), "{err}");
}

#[test]
fn a_tick_outside_the_specification_s_range_is_named_with_file_and_line() {
    let (_dir, before, after) = dated_captures("bad-tick", 10);
    let bad = fixtures().join("perfquery-smplctl-bad.txt");
    let (v, err) = health_with_stderr(&[&before, &after, &bad]);
    assert!(err.contains("perfquery-smplctl-bad.txt:4") && err.contains("`0x100`"), "{err}");
    assert!(err.contains("assumes NVIDIA's per-ASIC XmitWait tick"), "{err}");
    let expected = 100.0 * 12_345_678.0 * 128.0 / 4e9 / 10.0;
    assert!((v["stalled"][0]["stall_percent"].as_f64().unwrap() - expected).abs() < 1e-9);
}

#[test]
fn one_snapshot_lists_counters_as_they_stand_with_no_stall_share() {
    let v = health(&[&fixtures().join("perfquery-after.txt")]);
    let stalled = v["stalled"].as_array().unwrap();
    assert!(stalled.iter().any(|s| s["xmit_wait"].as_u64().unwrap() >= 12_345_678), "{stalled:?}");
    assert!(stalled.iter().all(|s| s["stall_percent"].is_null()));
}

fn hot(by: &str, counters: &[&Path]) -> (bool, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shoal"));
    command.args(["hot"]).arg(fixtures()).args(["--by", by, "--top", "1"]);
    for c in counters {
        command.arg("--counters").arg(c);
    }
    let out = command.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn hot_by_stall_puts_the_waiting_inter_switch_port_first_and_by_errors_the_bad_cable() {
    let (_dir, before, after) = dated_captures("hot", 10);
    let (ok, out, err) = hot("stall", &[&before, &after]);
    assert!(ok, "{err}");
    let first = out.lines().nth(2).unwrap();
    assert!(first.contains("12345678") && first.contains("S1 (3) -> S2 (3)"), "{out}");
    assert!(err.contains("assumes NVIDIA's per-ASIC XmitWait tick"), "{err}");
    let (ok, out, err) = hot("errors", &[&before, &after]);
    assert!(ok, "{err}");
    assert!(out.lines().nth(1).unwrap().contains("0x0002c90200000002 port 4: 10"), "{out}");
}

#[test]
fn hot_by_stall_without_counters_is_a_clear_error() {
    let (ok, _, err) = hot("stall", &[]);
    assert!(!ok);
    assert!(err.contains("needs --counters"), "{err}");
}
