//! `shoal health` on an ibdiagnet2 `db_csv` that records supported widths and speeds (issue 22,
//! items 1 and 4): a link is degraded when it runs below what both its ends support, even where
//! every link of its tier runs the same. The capture is the testbed's (real ibsim topology,
//! written by scripts/make-ibdiagnet2.py) with its PORTS speed codes rewritten.

#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use scratch_dir::ScratchDir;

/// PORTS columns (0-based) of ibdiagnet's header: `LinkSpeedActv` and `LinkSpeedSup`.
const SPEED_ACTIVE: usize = 15;
const SPEED_SUPPORTED: usize = 21;

/// The testbed capture with every active port running DDR (2) of SDR and DDR (3), except that the
/// two ends of the first LINKS row (switch 0x0002c90200010000 port 1, CA 0x0002c90300010000
/// port 1) also support QDR (7), in a scratch folder.
fn capture(tag: &str) -> ScratchDir {
    let fixtures =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/testbed/ibdiagnet2");
    let text = std::fs::read_to_string(fixtures.join("ibdiagnet2.db_csv")).unwrap();
    let mut in_ports = false;
    let mut out = String::new();
    for line in text.lines() {
        in_ports = match line {
            "START_PORTS" => true,
            "END_PORTS" => false,
            _ => in_ports,
        };
        let mut fields: Vec<String> = line.split(',').map(str::to_string).collect();
        if in_ports && fields.len() > SPEED_SUPPORTED && fields[SPEED_ACTIVE] == "4" {
            let port = (fields[0].as_str(), fields[2].as_str());
            let both_qdr = matches!(port, ("0x0002c90200010000", "1") | ("0x0002c90300010000", "1"));
            fields[SPEED_ACTIVE] = "2".into();
            fields[SPEED_SUPPORTED] = if both_qdr { "7" } else { "3" }.into();
        }
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    let dir = ScratchDir::new(&format!("degraded-{tag}"));
    std::fs::write(dir.join("ibdiagnet2.db_csv"), out).unwrap();
    std::fs::copy(fixtures.join("ibdiagnet2.fdbs"), dir.join("ibdiagnet2.fdbs")).unwrap();
    dir
}

fn health(dir: &Path) -> Value {
    let out =
        Command::new(env!("CARGO_BIN_EXE_shoal")).arg("health").arg(dir).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_ddr_link_whose_ends_both_support_qdr_is_degraded_and_the_other_ddr_links_are_not() {
    let v = health(&capture("one"));
    assert_eq!(
        v["degraded"],
        json!([{
            "rail": 0, "a_guid": "0x0002c90200010000", "a_port": 1, "b_guid": "0x0002c90300010000", "b_port": 1,
            "width": "4x", "speed": "DDR", "expected_width": "4x", "expected_speed": "QDR",
            "reason": "runs 4x DDR where both ends support 4x QDR",
        }])
    );
}
