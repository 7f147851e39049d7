//! The `AR_INFO` section of `ibdiagnet2.db_csv` beside an `ibdiagnet2.far`: a switch whose row
//! says AR is disabled (`e` = 0) keeps only its static table. Built from the testbed's real
//! ibdiagnet2 dumps (`tests/fixtures/formats/testbed/ibdiagnet2`) plus an `AR_INFO` section and
//! a `.far` **hand-written** from the documented layouts (docs/formats/adaptive-routing.md): no
//! AR capture of this fabric exists.

use std::path::PathBuf;

use shoal::model::{Guid, RailId};
use shoal::profile_io::rail::load_rail;

const SWITCH_A: u64 = 0x0002c90200010000;
const SWITCH_B: u64 = 0x0002c90200010001;

fn far_block(guid: u64) -> String {
    format!(
        "Switch 0x{guid:016x}\nGroups Definition:\nGroup   Sub Group   WHBF   Ports\n---\n0   0   0   25,26,\n\
         LFT Definition:\nPLFT_NUM: 0, top: 0x002c\nLID   Static Port   Lid State   Group\n---\n0x0006   25   Free   0\n"
    )
}

/// The testbed's dumps in a fresh directory, with `AR_INFO` rows `(switch, e)` appended to its
/// db_csv and a `.far` giving both switches an AR group.
fn testbed_with_ar(rows: &[(u64, u8)]) -> PathBuf {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/testbed/ibdiagnet2");
    let tag: String = rows.iter().map(|r| r.1.to_string()).collect();
    let dir = std::env::temp_dir().join(format!("shoal-ar-info-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["ibdiagnet2.lst", "ibdiagnet2.fdbs", "ibdiagnet2.db_csv"] {
        std::fs::copy(source.join(name), dir.join(name)).unwrap();
    }
    let mut csv = std::fs::read_to_string(dir.join("ibdiagnet2.db_csv")).unwrap();
    csv.push_str("\nSTART_AR_INFO\nNodeGUID,e,is_arn_sup,sub_grps_active,group_cap,group_top\n");
    for (guid, e) in rows {
        csv.push_str(&format!("0x{guid:016x},{e},1,1,2048,1\n"));
    }
    csv.push_str("END_AR_INFO\n");
    std::fs::write(dir.join("ibdiagnet2.db_csv"), csv).unwrap();
    let far = format!("File version: 1\n{}{}", far_block(SWITCH_A), far_block(SWITCH_B));
    std::fs::write(dir.join("ibdiagnet2.far"), far).unwrap();
    dir
}

#[test]
fn a_switch_whose_ar_info_disables_ar_is_traced_statically_beside_the_lst() {
    let dir = testbed_with_ar(&[(SWITCH_A, 0), (SWITCH_B, 1)]);
    let (fabric, warnings) = load_rail(std::slice::from_ref(&dir), RailId(0)).expect("the testbed loads");
    let has_ar = |g: u64| fabric.node_by_guid(Guid(g)).and_then(|n| fabric.ar(n)).is_some();
    assert!(!has_ar(SWITCH_A), "AR_INFO e=0: static only");
    assert!(has_ar(SWITCH_B), "AR_INFO e=1: the .far groups stay");
    let text: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
    assert!(text.iter().any(|w| w.contains("disabled (e=0) on 1 switch")), "{text:?}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn with_ar_enabled_everywhere_the_far_tables_are_all_kept() {
    let dir = testbed_with_ar(&[(SWITCH_A, 1), (SWITCH_B, 1)]);
    let (fabric, warnings) = load_rail(std::slice::from_ref(&dir), RailId(0)).expect("the testbed loads");
    assert!(fabric.has_adaptive_routing());
    assert!(
        [SWITCH_A, SWITCH_B]
            .iter()
            .all(|&g| fabric.node_by_guid(Guid(g)).and_then(|n| fabric.ar(n)).is_some())
    );
    assert!(!warnings.iter().any(|w| w.to_string().contains("AR_INFO")), "{warnings:?}");
    std::fs::remove_dir_all(dir).ok();
}
