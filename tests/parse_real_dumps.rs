//! Parses the whole testbed rail (2 switches, 42 hosts, 15 inter-switch links) as OpenSM dumped
//! it on an ibsim fabric (`tests/fixtures/testbed/`, copied from `sample-data/testbed/`), and
//! checks the rail loader's discovery rules on copies of those files. Also the LMC 1 testbed
//! (`tests/fixtures/lmc1/`) and rail 0 of the gzipped two-rail sample (`sample-data/tworail/`).

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;
use shoal::model::{Fabric, LftEntry, NodeKind, RailId};
use shoal::profile_io::fdbs::parse_fdbs;
use shoal::profile_io::lfts_dump::parse_lfts_dump;
use shoal::profile_io::tables::same_routes;
use shoal::profile_io::{Input, load_cluster, load_rail};

fn testbed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/testbed")
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy(from: &str, to_dir: &Path, to_name: &str, gzip: bool) {
    let bytes = std::fs::read(testbed().join(from)).unwrap();
    let bytes = if gzip {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(&bytes).unwrap();
        encoder.finish().unwrap()
    } else {
        bytes
    };
    std::fs::write(to_dir.join(to_name), bytes).unwrap();
}

fn assert_is_the_testbed(fabric: &Fabric) {
    assert_eq!(fabric.switches().count(), 2);
    assert_eq!(fabric.cas().count(), 42);
    assert_eq!(fabric.link_count(), 42 + 15);
    assert_eq!(fabric.switches_with_lft(), 2);
    for sw in fabric.switches() {
        let lft = fabric.lft(sw).unwrap();
        for ca in fabric.cas() {
            let lid = fabric.node(ca).base_lid().unwrap();
            let LftEntry::Port(port) = lft.get(lid) else {
                panic!("switch {} has no route to {lid}", fabric.node(sw).description);
            };
            // A route to a CA cabled to this switch leaves through that very cable.
            let (_, next, _) = fabric.out_through(sw, port).unwrap();
            if fabric.graph.contains_edge(sw, ca) {
                assert_eq!(next, ca, "{lid}");
            } else {
                assert_eq!(fabric.node(next).kind, NodeKind::Switch, "{lid}");
            }
        }
    }
}

#[test]
fn the_testbed_rail_directory_parses_into_2_switches_42_hosts_and_57_links() {
    let (fabric, warnings) = load_rail(&[testbed()], RailId(0)).unwrap();
    // The directory holds both .fdbs and lfts dump: one note that the .fdbs is used, nothing else.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("using the .fdbs"), "{}", warnings[0]);
    assert_is_the_testbed(&fabric);
    let names: Vec<_> = fabric.cas().map(|ca| fabric.node(ca).host_name().to_string()).collect();
    assert!(names.contains(&"n0001".to_string()) && names.contains(&"n0042".to_string()));
}

#[test]
fn fdbs_and_lfts_dump_give_identical_tables() {
    let (fdbs, w1) = parse_fdbs(&Input::open(&testbed().join("opensm.fdbs")).unwrap().0).unwrap();
    let (lfts, w2) = parse_lfts_dump(&Input::open(&testbed().join("opensm-lfts.dump")).unwrap().0).unwrap();
    assert!(w1.is_empty() && w2.is_empty(), "{w1:?} {w2:?}");
    assert_eq!(fdbs.keys().collect::<Vec<_>>(), lfts.keys().collect::<Vec<_>>());
    for (guid, table) in &fdbs {
        assert!(same_routes(&table.lft, &lfts[guid].lft), "switch {guid}");
        assert!(table.lft.len() >= 44, "switch {guid} has {} rows", table.lft.len());
    }
}

#[test]
fn the_lfts_dump_alone_is_enough_to_route() {
    let files = [testbed().join("opensm-subnet.lst"), testbed().join("opensm-lfts.dump")];
    let (fabric, warnings) = load_rail(&files, RailId(0)).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_is_the_testbed(&fabric);
}

#[test]
fn gzipped_files_with_odd_names_are_recognised_by_content() {
    let dir = scratch("odd-names");
    copy("opensm-subnet.lst", &dir, "links.txt.gz", true);
    copy("opensm.fdbs", &dir, "routes", false);
    let files = [dir.join("routes"), dir.join("links.txt.gz")];
    let (fabric, warnings) = load_rail(&files, RailId(0)).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_is_the_testbed(&fabric);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_directory_of_gzipped_dumps_is_discovered_by_name() {
    let dir = scratch("gz-dir");
    copy("opensm-subnet.lst", &dir, "opensm-subnet.lst.gz", true);
    copy("opensm.fdbs", &dir, "opensm.fdbs.gz", true);
    std::fs::write(dir.join("notes.txt"), "not a dump\n").unwrap();
    let (fabric, warnings) = load_rail(std::slice::from_ref(&dir), RailId(1)).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(fabric.rail, RailId(1));
    assert_is_the_testbed(&fabric);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_directory_prefers_the_opensm_link_list_and_names_the_others() {
    let dir = scratch("prefer");
    copy("opensm-subnet.lst", &dir, "opensm-subnet.lst", false);
    std::fs::write(dir.join("ibdiagnet2.lst"), "garbage that would fail\n").unwrap();
    copy("opensm.fdbs", &dir, "opensm.fdbs", false);
    let (fabric, warnings) = load_rail(std::slice::from_ref(&dir), RailId(0)).unwrap();
    assert_is_the_testbed(&fabric);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("using opensm-subnet.lst; also found ibdiagnet2.lst"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_rail_without_forwarding_tables_loads_with_a_warning() {
    let (fabric, warnings) = load_rail(&[testbed().join("opensm-subnet.lst")], RailId(0)).unwrap();
    assert_eq!(fabric.switches_with_lft(), 0);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("no forwarding tables"));
}

#[test]
fn a_rail_without_a_link_list_is_an_error() {
    let err = load_rail(&[testbed().join("opensm.fdbs")], RailId(0)).unwrap_err();
    assert!(err.to_string().contains("no link list"), "{err}");
    let dir = scratch("empty");
    let err = load_rail(std::slice::from_ref(&dir), RailId(0)).unwrap_err();
    assert!(err.to_string().contains("no link list"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_file_that_is_no_known_dump_is_an_error_naming_it() {
    let err = load_rail(&[testbed().join("../fragments/README.md")], RailId(0)).unwrap_err();
    assert!(err.to_string().contains("README.md: not a fabric dump"), "{err}");
}

#[test]
fn table_rows_for_unknown_switches_are_warned_with_file_and_line() {
    let dir = scratch("unknown-switch");
    let fdbs = std::fs::read_to_string(testbed().join("opensm.fdbs")).unwrap();
    let fdbs = fdbs.replace("Switch 0x0002c90200010001", "Switch 0x0002c902000100ff");
    std::fs::write(dir.join("opensm.fdbs"), fdbs).unwrap();
    copy("opensm-subnet.lst", &dir, "opensm-subnet.lst", false);
    let (fabric, warnings) = load_rail(std::slice::from_ref(&dir), RailId(0)).unwrap();
    assert_eq!(fabric.switches_with_lft(), 1);
    let messages: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].ends_with("opensm.fdbs:47: forwarding table: unknown node 0x0002c902000100ff; skipped")
    );
    assert!(messages[1].contains("1 switches have no forwarding table: 0x0002c90200010001"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn two_rails_load_into_one_cluster_with_hosts_matched_by_name() {
    let (cluster, warnings) = load_cluster(&[
        vec![testbed().join("opensm-subnet.lst"), testbed().join("opensm.fdbs")],
        vec![testbed().join("opensm-subnet.lst"), testbed().join("opensm-lfts.dump")],
    ])
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(cluster.rails.len(), 2);
    assert_eq!(cluster.hosts.len(), 42);
    assert!(cluster.hosts.iter().all(|h| h.on_rail(0).len() == 1 && h.on_rail(1).len() == 1));
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn lmc_1_is_inferred_from_the_tables_of_the_lmc1_testbed() {
    // The testbed routed by minhop with `-l 1`: every CA owns two LIDs, the .lst shows the base.
    let (fabric, warnings) = load_rail(&[fixture("tests/fixtures/lmc1")], RailId(0)).unwrap();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[1].message.contains("LMC 1 inferred (switch port 0: LMC 0)"), "{}", warnings[1]);
    assert_is_the_testbed(&fabric);
    for ca in fabric.cas() {
        let (&port, info) = fabric.node(ca).ports.iter().next().unwrap();
        assert_eq!((info.lmc, info.lid.0 % 2), (1, 0), "{}", fabric.node(ca).description);
        let second = fabric.owner_of_lid(shoal::model::Lid(info.lid.0 + 1)).unwrap();
        assert_eq!((second.node, second.port), (ca, port));
    }
    for sw in fabric.switches() {
        assert_eq!(fabric.node(sw).ports[&shoal::model::PortNum(0)].lmc, 0);
    }
}

#[test]
fn the_lmc1_fdbs_and_lfts_dump_give_identical_tables() {
    let dir = fixture("tests/fixtures/lmc1");
    let (fdbs, _) = parse_fdbs(&Input::open(&dir.join("opensm.fdbs")).unwrap().0).unwrap();
    let (lfts, _) = parse_lfts_dump(&Input::open(&dir.join("opensm-lfts.dump")).unwrap().0).unwrap();
    assert_eq!(fdbs.len(), 2);
    for (guid, table) in &fdbs {
        assert!(same_routes(&table.lft, &lfts[guid].lft), "switch {guid}");
    }
}

#[test]
fn the_gzipped_tworail_rail0_keeps_its_1264_unreachable_rows_and_matches_its_lfts_dump() {
    let dir = fixture("sample-data/tworail/rail0");
    let (fabric, warnings) =
        load_rail(&[dir.join("opensm-subnet.lst.gz"), dir.join("opensm.fdbs.gz")], RailId(0)).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!((fabric.switches().count(), fabric.cas().count(), fabric.link_count()), (80, 230, 742));
    assert_eq!(fabric.switches_with_lft(), 80);
    let unreachable: usize = fabric
        .switches()
        .map(|sw| fabric.lft(sw).unwrap().entries().filter(|(_, e)| *e == LftEntry::Unreachable).count())
        .sum();
    assert_eq!(unreachable, 1264);
    let (fdbs, _) = parse_fdbs(&Input::open(&dir.join("opensm.fdbs.gz")).unwrap().0).unwrap();
    let (lfts, w) = parse_lfts_dump(&Input::open(&dir.join("opensm-lfts.dump.gz")).unwrap().0).unwrap();
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(fdbs.len(), lfts.len());
    assert!(fdbs.iter().all(|(guid, table)| same_routes(&table.lft, &lfts[guid].lft)));
}
