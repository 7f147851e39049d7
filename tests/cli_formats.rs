//! The subcommands on the new formats, from the binary as a user runs it: `trace` and `hot` take
//! them unchanged; `info` gives counts, coverage, undelivered pairs with the switch that dropped
//! them, and warnings.

use std::path::PathBuf;
use std::process::Command;

fn formats(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats").join(rel).display().to_string()
}

fn info(rails: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_shoal")).arg("info").args(rails).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn info_counts_hosts_switches_links_lids_and_coverage_of_an_ibnetdiscover_rail() {
    let text = info(&[format!("{},{}", formats("testbed/ibnetdiscover.txt"), formats("testbed/ibroute"))]);
    assert!(text.contains("(ibnetdiscover topology)"), "{text}");
    assert!(text.contains("lid-2.txt (ibroute/dump_fts)"), "{text}");
    assert!(text.contains("42 hosts (42 CAs), 2 switches, 57 links (15 switch-to-switch)"), "{text}");
    assert!(text.contains("44 LIDs on 44 ports (LMC 0), highest 0x002c"), "{text}");
    assert!(
        text.contains("forwarding tables: 2 of 2 switches; 84 of 84 switch-to-CA-LID routes (100.0%)"),
        "{text}"
    );
    assert!(text.contains("CA pairs delivered: 1722 of 1722 (100.0%)"), "{text}");
    assert!(text.contains("0 warnings"), "{text}");
}

#[test]
fn info_names_the_switch_that_drops_pairs_when_a_table_is_missing() {
    let text =
        info(&[format!("{},{}", formats("testbed/ibnetdiscover.txt"), formats("testbed/ibroute/lid-3.txt"))]);
    assert!(text.contains("forwarding tables: 1 of 2 switches"), "{text}");
    assert!(text.contains("CA pairs delivered: 420 of 1722"), "{text}");
    assert!(
        text.contains("1302 pairs dropped at SW 0x0002c90200010000 (MF0;tb-L1-00:SX6036/U1): switch has no forwarding table"),
        "{text}"
    );
    assert!(text.contains("1 switches have no forwarding table"), "{text}");
}

#[test]
fn trace_follows_a_ports_list_and_dump_fts_as_ibtracert_did() {
    // tests/fixtures/ibtracert/testbed/rail0/ibtracert.txt, `== 15 36`: out of n0013's port 1 into
    // tb-L1-00 port 13, out 34 into tb-L1-01 port 34, out 13 into n0034.
    let rail = format!("{},{}", formats("testbed/ibnetdiscover-p.txt"), formats("testbed/dump_fts.txt"));
    let out = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(["trace", &rail, "--from", "0x000f", "--to", "0x0024"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("delivered in 3 link hops"), "{text}");
    assert!(text.contains("lid 0x0002 in 13 out 34 \"MF0;tb-L1-00:SX6036/U1\""), "{text}");
    assert!(text.contains("lid 0x0003 in 34 out 13 \"MF0;tb-L1-01:SX6036/U1\""), "{text}");
    assert!(text.contains("lid 0x0024 in 1 out - \"n0034 HCA-1\""), "{text}");
}

#[test]
fn hot_takes_an_ibdiagnet2_rail_and_a_pfprof_profile() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(["hot", &formats("testbed/ibdiagnet2"), "--profile"])
        .arg(root.join("tests/fixtures/pfprof"))
        .args(["--top", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("n0042 HCA-1 (1) -> MF0;tb-L1-01:SX6036/U1 (21)"), "{text}");
}
