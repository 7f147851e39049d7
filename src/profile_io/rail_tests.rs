use super::*;

#[test]
fn known_names_give_their_kind_with_or_without_gz() {
    assert_eq!(kind_from_name("opensm-subnet.lst.gz"), Some(DumpKind::LinkList));
    assert_eq!(kind_from_name("ibdiagnet2.lst"), Some(DumpKind::LinkList));
    assert_eq!(kind_from_name("ibdiagnet2.fdbs"), Some(DumpKind::Fdbs));
    assert_eq!(kind_from_name("opensm-lfts.dump.gz"), Some(DumpKind::LftsDump));
    assert_eq!(kind_from_name("opensm.mcfdbs"), None);
    assert_eq!(kind_from_name("opensm-lid-matrix.dump"), None);
    assert_eq!(kind_from_name("ibsim.net"), None);
}

#[test]
fn content_decides_the_kind_past_comments_and_blank_lines() {
    let kind = |text: &str| kind_from_content(&Input::from_text("f", text));
    assert_eq!(kind("# IBDIAG\n\n{ CA Ports:02 NodeGUID:1 LID:1 PN:1 } { … }\n"), Some(DumpKind::LinkList));
    assert_eq!(kind("osm_ucast_mgr_dump_ucast_routes: Switch 0x1\n"), Some(DumpKind::Fdbs));
    assert_eq!(kind("Unicast lids [0-4] of switch Lid 1 guid 0x1 ('s'):\n"), Some(DumpKind::LftsDump));
    assert_eq!(kind("Switch: guid 0x0002c90200010000\n0x0001: 01 02\n"), None);
}

#[test]
fn a_switch_table_repeated_alike_is_one_note_and_a_different_one_a_warning_at_its_line() {
    use crate::model::{LftEntry, Lid, PortNum};
    let table = |port: u8, line: usize| {
        let mut t = SwitchTable { line, ..Default::default() };
        t.lft.set(Lid(1), LftEntry::Port(PortNum(port)));
        t
    };
    let file = |entries: Vec<(u64, SwitchTable)>| -> Parsed<SwitchTables> {
        Ok((entries.into_iter().map(|(g, t)| (Guid(g), t)).collect(), Vec::new()))
    };
    let tables = vec![
        ("a.txt", file(vec![(1, table(3, 1)), (2, table(4, 9))])),
        ("b.txt", file(vec![(1, table(3, 5)), (2, table(7, 12))])),
    ];
    let mut warnings = Vec::new();
    let merged = merge_tables(tables, &mut warnings).unwrap();
    assert_eq!(merged.len(), 2);
    assert!(merged.iter().all(|(f, _, _)| *f == "a.txt"));
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert_eq!((warnings[0].file.as_str(), warnings[0].line), ("b.txt", Some(12)));
    assert!(
        warnings[0].message.contains("equally complete; kept the first read: using a.txt"),
        "{warnings:?}"
    );
    assert_eq!((warnings[1].file.as_str(), warnings[1].line), ("b.txt", None));
    assert!(warnings[1].message.starts_with("1 switch tables here repeat"));
}

#[test]
fn of_two_different_tables_of_one_switch_the_complete_one_is_kept_whatever_the_file_order() {
    use crate::model::{LftEntry, Lid, PortNum};
    let table = |rows: u16, complete: bool| {
        let mut t = SwitchTable { line: 3, complete, ..Default::default() };
        for lid in 1..=rows {
            t.lft.set(Lid(lid), LftEntry::Port(PortNum(1)));
        }
        t
    };
    let file =
        |t: SwitchTable| -> Parsed<SwitchTables> { Ok(([(Guid(9), t)].into_iter().collect(), Vec::new())) };
    for truncated_first in [true, false] {
        let (cut, whole) = (("cut.txt", file(table(20, false))), ("whole.txt", file(table(44, true))));
        let tables = if truncated_first { vec![cut, whole] } else { vec![whole, cut] };
        let mut warnings = Vec::new();
        let merged = merge_tables(tables, &mut warnings).unwrap();
        assert_eq!(merged.len(), 1);
        assert_eq!((merged[0].0, merged[0].2.lft.len()), ("whole.txt", 44));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!((warnings[0].file.as_str(), warnings[0].line), ("cut.txt", Some(3)));
        assert!(
            warnings[0].message.contains(
                "kept the more complete one (44 rows, complete; the other: 20 rows, no closing `lids dumped` line): using whole.txt"
            ),
            "{}",
            warnings[0].message
        );
    }
}

#[test]
fn content_tells_every_new_format_apart_whatever_the_name() {
    let kind = |text: &str| kind_from_content(&Input::from_text("f", text));
    assert_eq!(kind("# IBDIAG\n\nSTART_NODES\nNodeDesc,NumPorts\n"), Some(DumpKind::Ibdiagnet2Csv));
    assert_eq!(
        kind(
            "ibwarn: [1] x\nvendid=0x2c9\ndevid=0xc738\nSwitch\t36 \"S-1\"\t# \"a\" base port 0 lid 3 lmc 0\n"
        ),
        Some(DumpKind::Ibnetdiscover)
    );
    assert_eq!(
        kind("CA    44  1 0x0002c90300010053 4x QDR - SW     3 21 0x0002c90200010001 ( 'a' - 'b' )\n"),
        Some(DumpKind::PortsList)
    );
    assert_eq!(
        kind(
            "Unicast lids [0x0-0x2c] of switch DR path slid 0; dlid 0; 0,1 guid 0x1 (sw):\n  Lid  Out   Destination\n"
        ),
        Some(DumpKind::Ibroute)
    );
    assert_eq!(
        kind("Unicast lids [0-44] of switch Lid 2 guid 0x1 ('sw'):\n0x0001 001 # Channel Adapter\n"),
        Some(DumpKind::LftsDump)
    );
    assert_eq!(kind_from_name("ibdiagnet2.db_csv.gz"), Some(DumpKind::Ibdiagnet2Csv));
    assert_eq!(kind_from_name("ibnetdiscover.txt"), None);
}
