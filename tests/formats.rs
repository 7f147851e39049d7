//! Every topology and forwarding-table format yields the same fabric (nodes, links, LIDs, routes)
//! and the same traced paths as OpenSM's `.lst`/`.fdbs` pair of the same simulated fabric, and
//! those paths are the ones `ibtracert` recorded while that fabric was live.
//!
//! The ibnetdiscover, `ibnetdiscover -p`, `ibroute` and `dump_fts` fixtures are real output of
//! infiniband-diags run against the very ibsim that OpenSM routed
//! (`scripts/make-format-fixtures.sh` checks that OpenSM's dumps came out byte for byte as
//! committed). The ibdiagnet2 files are written from those real dumps by
//! `scripts/make-ibdiagnet2.py`, since ibdiagnet2 cannot run here.

mod common;

use std::path::PathBuf;

use common::{Summary, ibtracert, load, root, summary, traced};
use shoal::model::{Fabric, Warning};

struct Case {
    name: &'static str,
    paths: Vec<PathBuf>,
}

/// The fabrics: (format fixtures, OpenSM reference rail, ibtracert fixture, gz suffix).
fn fabrics() -> Vec<(&'static str, PathBuf, PathBuf, PathBuf, &'static str)> {
    let fx = root().join("tests/fixtures/formats");
    vec![
        (
            "testbed",
            fx.join("testbed"),
            root().join("sample-data/testbed"),
            root().join("tests/fixtures/ibtracert/testbed/rail0/ibtracert.txt"),
            "",
        ),
        (
            "lmc1",
            fx.join("lmc1"),
            root().join("tests/fixtures/lmc1"),
            root().join("tests/fixtures/lmc1/ibtracert.txt"),
            "",
        ),
        (
            "tworail rail0",
            fx.join("tworail-rail0"),
            root().join("sample-data/tworail/rail0"),
            root().join("tests/fixtures/ibtracert/tworail/rail0/ibtracert.txt"),
            ".gz",
        ),
    ]
}

fn cases(dir: &std::path::Path, gz: &str) -> Vec<Case> {
    let f = |name: &str| dir.join(format!("{name}{gz}"));
    let ibroute = if dir.join("ibroute").is_dir() { dir.join("ibroute") } else { f("ibroute-all.txt") };
    let mut cases = vec![
        Case { name: "ibnetdiscover + dump_fts", paths: vec![f("ibnetdiscover.txt"), f("dump_fts.txt")] },
        Case { name: "ibnetdiscover + ibroute", paths: vec![f("ibnetdiscover.txt"), ibroute] },
        Case {
            name: "ibnetdiscover -p + dump_fts",
            paths: vec![f("ibnetdiscover-p.txt"), f("dump_fts.txt")],
        },
        Case { name: "the format directory itself", paths: vec![dir.to_path_buf()] },
    ];
    let diag = dir.join("ibdiagnet2");
    if diag.is_dir() {
        let d = |name: &str| diag.join(format!("{name}{gz}"));
        cases.push(Case {
            name: "ibdiagnet2.lst + .fdbs",
            paths: vec![d("ibdiagnet2.lst"), d("ibdiagnet2.fdbs")],
        });
        cases.push(Case {
            name: "ibdiagnet2.db_csv + .fdbs",
            paths: vec![d("ibdiagnet2.db_csv"), d("ibdiagnet2.fdbs")],
        });
        cases.push(Case { name: "the ibdiagnet2 directory", paths: vec![diag] });
    }
    cases
}

/// Real dumps of a healthy fabric: no line of any file may be skipped or doubted.
fn assert_no_line_warnings(what: &str, warnings: &[Warning]) {
    let lines: Vec<_> = warnings.iter().filter(|w| w.line.is_some()).collect();
    assert!(lines.is_empty(), "{what}: {lines:#?}");
}

fn guids(fabric: &Fabric) -> Vec<(String, u64)> {
    let mut all: Vec<_> = fabric.graph.node_weights().map(|n| (n.description.clone(), n.guid.0)).collect();
    all.sort();
    all
}

#[test]
fn every_format_gives_the_fabric_and_routes_of_the_opensm_dumps() {
    for (fabric_name, dir, reference, _, gz) in fabrics() {
        let (expected, warnings) = load(&[reference]);
        assert_no_line_warnings(fabric_name, &warnings);
        let want: Summary = summary(&expected);
        for case in cases(&dir, gz) {
            let what = format!("{fabric_name}: {}", case.name);
            let (fabric, warnings) = load(&case.paths);
            assert_no_line_warnings(&what, &warnings);
            let got = summary(&fabric);
            assert_eq!(got.nodes, want.nodes, "{what}: nodes");
            assert_eq!(got.links, want.links, "{what}: links");
            assert_eq!(got.lids, want.lids, "{what}: LIDs");
            assert_eq!(got.routes, want.routes, "{what}: routes");
            assert_eq!(fabric.switches_with_lft(), expected.switches_with_lft(), "{what}");
            // The ports report names CAs by port GUID; every other format has node GUIDs.
            if !case.name.starts_with("ibnetdiscover -p") {
                assert_eq!(guids(&fabric), guids(&expected), "{what}: GUIDs");
            }
        }
    }
}

#[test]
fn every_format_traces_the_paths_ibtracert_recorded() {
    for (fabric_name, dir, _, recorded, gz) in fabrics() {
        let recorded = ibtracert(&recorded);
        assert!(recorded.len() >= 30);
        for case in cases(&dir, gz) {
            let (fabric, _) = load(&case.paths);
            for pair in &recorded {
                let got = traced(&fabric, pair.src, pair.dst);
                assert_eq!(
                    got.as_ref(),
                    Some(&pair.steps),
                    "{fabric_name}: {}: {} -> {}",
                    case.name,
                    pair.src,
                    pair.dst
                );
            }
        }
    }
}

#[test]
fn every_ca_pair_of_the_testbed_takes_the_same_path_in_every_format() {
    let (_, dir, reference, _, gz) = fabrics().remove(0);
    let (expected, _) = load(&[reference]);
    let lids: Vec<_> = expected.cas().filter_map(|c| expected.node(c).base_lid()).collect();
    for case in cases(&dir, gz) {
        let (fabric, _) = load(&case.paths);
        for &src in &lids {
            for &dst in &lids {
                assert_eq!(
                    traced(&fabric, src, dst),
                    traced(&expected, src, dst),
                    "{}: {src} -> {dst}",
                    case.name
                );
            }
        }
    }
}

#[test]
fn the_lmc_comes_from_ibnetdiscover_and_is_inferred_for_the_ports_list() {
    let (_, dir, _, _, _) = fabrics().remove(1);
    let (fabric, warnings) = load(&[dir.join("ibnetdiscover.txt"), dir.join("dump_fts.txt")]);
    assert!(warnings.iter().all(|w| !w.message.contains("inferred")), "{warnings:?}");
    assert!(fabric.cas().all(|ca| fabric.node(ca).ports.values().all(|p| p.lmc == 1)));
    let (_, warnings) = load(&[dir.join("ibnetdiscover-p.txt"), dir.join("dump_fts.txt")]);
    assert!(warnings.iter().any(|w| w.message.contains("LMC 1 inferred")), "{warnings:?}");
}

#[test]
fn a_format_directory_uses_the_topology_and_names_what_it_does_not_read() {
    let (_, dir, _, _, _) = fabrics().remove(0);
    let (_, warnings) = load(std::slice::from_ref(&dir));
    let notes: Vec<_> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(notes, vec!["using ibnetdiscover.txt; also found ibnetdiscover-p.txt"], "{warnings:?}");
    // The tsubame rail directory holds OpenSM's pair and the infiniband-diags output.
    let (_, warnings) = load(&[root().join("benches/data/tsubame/rail0")]);
    assert!(warnings.iter().any(|w| w.message.contains("using opensm-subnet.lst.gz; also found")));
    assert!(warnings.iter().any(|w| w.message.contains("using the .fdbs forwarding tables; ")
        && w.message.contains("dump_fts.txt.gz is not read")));
}

#[test]
fn the_tsubame_sized_rail_traces_ibtracerts_paths_from_the_infiniband_diags_output_too() {
    let dir = root().join("benches/data/tsubame/rail0");
    let recorded = ibtracert(&root().join("tests/fixtures/ibtracert/tsubame/rail0/ibtracert.txt"));
    let (reference, _) = load(&[dir.join("opensm-subnet.lst.gz"), dir.join("opensm.fdbs.gz")]);
    let want = summary(&reference);
    for paths in [
        vec![dir.join("ibnetdiscover.txt.gz"), dir.join("dump_fts.txt.gz")],
        vec![dir.join("ibnetdiscover-p.txt.gz"), dir.join("dump_fts.txt.gz")],
        vec![dir.join("ibdiagnet2/ibdiagnet2.db_csv.gz"), dir.join("ibdiagnet2/ibdiagnet2.fdbs.gz")],
    ] {
        let (fabric, warnings) = load(&paths);
        assert_no_line_warnings(&format!("{paths:?}"), &warnings);
        let got = summary(&fabric);
        assert_eq!(
            (got.links, got.lids, got.routes),
            (want.links.clone(), want.lids.clone(), want.routes.clone())
        );
        for pair in &recorded {
            assert_eq!(traced(&fabric, pair.src, pair.dst).as_ref(), Some(&pair.steps), "{paths:?}");
        }
    }
}

#[test]
fn a_folder_of_per_switch_ibroute_dumps_beside_the_topology_is_the_rails_routing() {
    let (_, fx, reference, _, _) = fabrics().remove(0);
    let dir = common::scratch("ibroute-folder");
    std::fs::copy(fx.join("ibnetdiscover.txt"), dir.join("topo.out")).unwrap();
    std::fs::create_dir_all(dir.join("lfts")).unwrap();
    for name in ["lid-2.txt", "lid-3.txt"] {
        std::fs::copy(fx.join("ibroute").join(name), dir.join("lfts").join(name)).unwrap();
    }
    let (fabric, warnings) = load(&[dir.to_path_buf()]);
    assert!(warnings.is_empty(), "{warnings:#?}");
    assert_eq!(summary(&fabric), summary(&load(&[reference]).0));
}
