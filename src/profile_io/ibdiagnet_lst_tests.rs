use super::*;

const OPENSM: &str = include_str!("../../tests/fixtures/fragments/opensm-subnet.lst");
const IBDIAGNET_V1: &str = include_str!("../../tests/fixtures/fragments/ibdiagnet-v1.lst");
const IBDIAGNET2: &str = include_str!("../../tests/fixtures/fragments/ibdiagnet2.lst");

fn fabric(text: &str) -> (Fabric, Vec<Warning>) {
    parse_lst(&Input::from_text("t.lst", text), RailId(0)).unwrap()
}

fn by_guid(fabric: &Fabric, guid: u64) -> &Node {
    fabric.node(fabric.node_by_guid(Guid(guid)).unwrap())
}

#[test]
fn opensm_line_gives_both_ends_with_hex_ports_and_lids() {
    let first = OPENSM.lines().next().unwrap();
    let link = parse_lst_line(first, 1).unwrap();
    let [sw, ca] = link.ends;
    assert_eq!((sw.kind, sw.num_ports, sw.port, sw.lid), (NodeKind::Switch, 0x24, PortNum(1), Lid(2)));
    assert_eq!(sw.description, "MF0;tb-L1-00:SX6036/U1");
    assert_eq!(sw.port_guid, Some(Guid(0x0002c90200010000)));
    assert_eq!((ca.kind, ca.master_sm, ca.lid), (NodeKind::Ca, true, Lid(1)));
    assert_eq!(ca.description, "n0001 HCA-1");
    assert_eq!(
        (link.width.as_deref(), link.state.as_deref(), link.speed.as_deref()),
        (Some("4x"), Some("ACT"), Some("10"))
    );
}

#[test]
fn opensm_lists_every_link_twice_and_we_keep_one() {
    // Lines 1 and 2 of the fragment are the same cable seen from each end.
    let (fabric, warnings) = fabric(OPENSM);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(fabric.link_count(), 3);
    assert_eq!(fabric.graph.node_count(), 4);
}

#[test]
fn switch_lid_goes_to_port_zero_and_ca_lid_to_its_cabled_port() {
    let (fabric, _) = fabric(OPENSM);
    let sw = by_guid(&fabric, 0x0002c90200010000);
    assert_eq!(sw.ports[&PortNum(0)].lid, Lid(2));
    assert_eq!(sw.ports[&PortNum(0)].guid, Some(Guid(0x0002c90200010000)));
    assert_eq!(sw.ports[&PortNum(1)].lid, Lid(0));
    let owner = fabric.owner_of_lid(Lid(2)).unwrap();
    assert_eq!((fabric.node(owner.node).kind, owner.port), (NodeKind::Switch, PortNum(0)));
    let ca = by_guid(&fabric, 0x0002c90300010052);
    assert_eq!(ca.ports[&PortNum(1)].lid, Lid(0x2c));
    assert_eq!(ca.ports[&PortNum(1)].guid, Some(Guid(0x0002c90300010053)));
    assert_eq!(ca.host_name(), "n0042");
}

#[test]
fn ibdiagnet_v1_lines_without_spd_and_with_long_devids_parse() {
    let (fabric, warnings) = fabric(IBDIAGNET_V1);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(fabric.link_count(), 3);
    let sw = by_guid(&fabric, 0x0002c90109fb0018);
    assert_eq!(sw.description, "MT43132 Mellanox Technologies");
    assert_eq!(sw.ports[&PortNum(0)].lid, Lid(0xc));
    let edge = fabric.link_at(fabric.node_by_guid(sw.guid).unwrap(), PortNum(4)).unwrap();
    assert_eq!(fabric.graph[edge].speed, None);
    assert_eq!(fabric.graph[edge].width.as_deref(), Some("4x"));
    let host = by_guid(&fabric, 0x0002c90000000002);
    assert_eq!(host.description, "H-1 MT23108 Infinihost-II Mellanox Technologies");
}

#[test]
fn ibdiagnet2_lower_case_lines_with_comment_headers_and_no_description_parse() {
    let (fabric, warnings) = fabric(IBDIAGNET2);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(fabric.link_count(), 1);
    let sw = by_guid(&fabric, 0x0002c90300688830);
    assert_eq!((sw.num_ports, sw.description.as_str()), (36, ""));
    let ca = fabric.node_by_guid(Guid(0x0002c90300165e60)).unwrap();
    let edge = fabric.link_at(ca, PortNum(1)).unwrap();
    let (_, peer, peer_port) = fabric.out_through(ca, PortNum(1)).unwrap();
    assert_eq!((fabric.node(peer).guid, peer_port), (sw.guid, PortNum(0x14)));
    assert_eq!(fabric.graph[edge].speed.as_deref(), Some("2.5"));
}

#[test]
fn lower_case_hex_with_0x_prefixes_parses_like_upper_case() {
    let line = "{ sw Ports:0x24 SystemGUID:0x0002c9020001000a NodeGUID:0x0002c9020001000a \
                PortGUID:0x0002c9020001000a VenID:0x2c9 DevID:0xc738 Rev:0xa1 {spine one} LID:0x001a PN:0x1f } \
                { ca Ports:1 NodeGUID:0x0002c9030001000b PortGUID:0x0002c9030001000c {n9 HCA-1} LID:0x00ff PN:1 } \
                PHY=4x LOG=ACT SPD=25";
    let link = parse_lst_line(line, 1).unwrap();
    assert_eq!(
        (link.ends[0].kind, link.ends[0].lid, link.ends[0].port),
        (NodeKind::Switch, Lid(0x1a), PortNum(31))
    );
    assert_eq!((link.ends[1].lid, link.ends[1].system_guid), (Lid(0xff), None));
}

#[test]
fn descriptions_may_hold_braces_and_the_lid_token_inside_them() {
    let line = OPENSM.lines().next().unwrap().replace("{n0001 HCA-1}", "{n0001 {odd} LID:x HCA-1}");
    let link = parse_lst_line(&line, 1).unwrap();
    assert_eq!(link.ends[1].description, "n0001 {odd} LID:x HCA-1");
    assert_eq!(link.ends[1].lid, Lid(1));
}

#[test]
fn routers_and_unknown_node_types() {
    let line = OPENSM.lines().next().unwrap();
    let router = line.replacen("{ SW ", "{ Rt ", 1);
    assert_eq!(parse_lst_line(&router, 1).unwrap().ends[0].kind, NodeKind::Router);
    let err = parse_lst_line(&line.replacen("{ SW ", "{ ** ", 1), 1).unwrap_err();
    assert_eq!(err, "first port: unknown node type `**`");
}

#[test]
fn unparseable_lines_are_warnings_with_line_numbers_and_the_rest_is_kept() {
    let mut text = String::from(OPENSM);
    text.insert_str(0, "garbage here\n");
    text.push_str("{ SW Ports:24 NodeGUID:zz LID:0002 PN:01 } { CA NodeGUID:1 LID:1 PN:1 }\n");
    let (fabric, warnings) = fabric(&text);
    assert_eq!(fabric.link_count(), 3);
    let lines: Vec<_> = warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, vec![Some(1), Some(7)]);
    assert!(warnings[0].message.contains("expected `{`"), "{}", warnings[0]);
    assert!(warnings[1].message.contains("bad NodeGUID value `zz`"), "{}", warnings[1]);
}

#[test]
fn a_truncated_last_line_is_a_warning_not_an_error() {
    let last = OPENSM.lines().last().unwrap();
    let text = format!("{}{}", OPENSM.strip_suffix(&format!("{last}\n")).unwrap(), &last[..150]);
    let (fabric, warnings) = fabric(&text);
    assert_eq!(fabric.link_count(), 3);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, Some(5));
    assert!(warnings[0].message.starts_with("last line is truncated"), "{}", warnings[0]);
}

#[test]
fn a_last_line_without_line_end_that_parses_is_kept_with_a_warning() {
    let (fabric, warnings) = fabric(OPENSM.trim_end());
    assert_eq!(fabric.link_count(), 3);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, Some(5));
}

#[test]
fn down_links_are_left_out_with_a_warning() {
    let text = OPENSM.replacen("LOG=ACT", "LOG=DWN", 1).replacen("LOG=ACT", "LOG=DWN", 1);
    let (fabric, warnings) = fabric(&text);
    assert_eq!(fabric.link_count(), 2);
    assert_eq!(warnings.len(), 3);
    assert!(warnings[2].message.starts_with("2 down links"));
}

#[test]
fn a_port_cabled_twice_keeps_the_first_cable_and_warns() {
    let first = OPENSM.lines().next().unwrap();
    let other = first.replace("NodeGUID:0002c90300010000", "NodeGUID:0002c903000100aa");
    let other = other.replace("LID:0001 PN:01", "LID:0041 PN:01");
    let (fabric, warnings) = fabric(&format!("{first}\n{other}\n"));
    assert_eq!(fabric.link_count(), 1);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.contains("already linked"), "{}", warnings[0]);
}

#[test]
fn a_file_without_link_lines_is_an_error() {
    let err = parse_lst(&Input::from_text("empty.lst", "# nothing\n"), RailId(0)).unwrap_err();
    assert!(err.to_string().starts_with("empty.lst: no link lines"), "{err}");
}

proptest::proptest! {
    #[test]
    fn blanks_are_skipped_as_trim_start_skips_them(s in "[ \t\r\n\u{b}\u{c}\u{85}\u{a0}\u{3000}a{}é]{0,12}") {
        proptest::prop_assert_eq!(skip_blanks(&s), s.trim_start());
    }

    #[test]
    fn the_lid_key_is_found_where_str_find_finds_it(s in "[LID:xé ]{0,16}", from in 0usize..4) {
        let from = (0..=from.min(s.len())).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
        proptest::prop_assert_eq!(find_lid_key(&s, from), s[from..].find("LID:").map(|at| from + at));
    }
}

#[test]
fn common_tokens_are_kept_without_a_copy_and_others_are_copied() {
    assert!(matches!(owned_token(Cow::Borrowed("4x")), Cow::Borrowed("4x")));
    assert!(matches!(owned_token(Cow::Borrowed("HDR")), Cow::Owned(t) if t == "HDR"));
}
