//! `shoal route` on the sample fabrics (real OpenSM dumps, and ibnetdiscover topology alone):
//! every CA pair (every LID of an LMC range) is delivered loop-free by the tracer, dmodk and
//! minhop on shortest paths, and the written directory loads back as a rail with the same
//! tables and no warning (with LMC 1 only the note that the LMC was inferred from the tables,
//! as for OpenSM's own dumps, whose link list carries no LMC).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use petgraph::graph::NodeIndex;
use shoal::model::{Fabric, Lid, NodeKind, RailId};
use shoal::profile_io::rail::load_rail;
use shoal::routing::engines::{Engine, route};
use shoal::routing::{Outcome, trace};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-route-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn load(paths: &[PathBuf]) -> Fabric {
    load_rail(paths, RailId(0)).expect("the rail loads").0
}

/// Every LID of every CA port.
fn ca_lids(fabric: &Fabric) -> Vec<Lid> {
    fabric
        .cas()
        .flat_map(|n| {
            fabric.node(n).ports.values().flat_map(|i| (0..1u16 << i.lmc).map(move |k| Lid(i.lid.0 + k)))
        })
        .collect()
}

/// Fewest switch-to-switch hops from every node to `to`, breadth-first through switches only.
fn hops_to(fabric: &Fabric, to: NodeIndex) -> Vec<usize> {
    let mut hops = vec![usize::MAX; fabric.graph.node_count()];
    hops[to.index()] = 0;
    let mut frontier = vec![to];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for n in frontier {
            for m in fabric.graph.neighbors(n) {
                if fabric.node(m).kind == NodeKind::Switch && hops[m.index()] == usize::MAX {
                    hops[m.index()] = hops[n.index()] + 1;
                    next.push(m);
                }
            }
        }
        frontier = next;
    }
    hops
}

/// The switch a CA is cabled to.
fn leaf_of(fabric: &Fabric, ca: NodeIndex) -> NodeIndex {
    fabric.graph.neighbors(ca).next().expect("every sample CA is cabled")
}

/// Traces every ordered CA pair: delivered, to the right CA, no node twice, and (if asked) over
/// the fewest switches the cabling allows.
fn assert_every_pair_delivered(fabric: &Fabric, shortest: bool, what: &str) {
    let lids = ca_lids(fabric);
    let mut hops_by_leaf: HashMap<NodeIndex, Vec<usize>> = HashMap::new();
    for &dst in &lids {
        let b = fabric.owner_of_lid(dst).unwrap().node;
        let hops = hops_by_leaf.entry(leaf_of(fabric, b)).or_insert_with_key(|&leaf| hops_to(fabric, leaf));
        for &src in &lids {
            let a = fabric.owner_of_lid(src).unwrap().node;
            if a == b {
                continue;
            }
            let path = trace(fabric, src, dst);
            assert_eq!(path.outcome, Outcome::Delivered, "{what}: {src} → {dst}");
            let nodes: Vec<NodeIndex> = path.hops.iter().map(|h| h.node).collect();
            assert_eq!(nodes.iter().collect::<HashSet<_>>().len(), nodes.len(), "{what}: loop {src} → {dst}");
            assert_eq!(nodes.last(), Some(&b));
            if shortest {
                let fewest = hops[leaf_of(fabric, a).index()] + 1;
                assert_eq!(nodes.len() - 2, fewest, "{what}: {src} → {dst} is not shortest");
            }
        }
    }
}

fn sample_rails() -> Vec<(&'static str, Vec<PathBuf>)> {
    let r = root();
    vec![
        ("testbed", vec![r.join("sample-data/testbed")]),
        ("lmc1", vec![r.join("tests/fixtures/lmc1")]),
        ("tworail rail0", vec![r.join("sample-data/tworail/rail0")]),
        ("tworail rail1", vec![r.join("sample-data/tworail/rail1")]),
        ("lmc1 ibnetdiscover", vec![r.join("tests/fixtures/formats/lmc1/ibnetdiscover.txt")]),
        ("tworail ibnetdiscover", vec![r.join("tests/fixtures/formats/tworail-rail0/ibnetdiscover.txt.gz")]),
    ]
}

#[test]
fn every_engine_delivers_every_ca_pair_of_every_sample_fabric_dmodk_and_minhop_on_shortest_paths() {
    for (name, paths) in sample_rails() {
        let fabric = load(&paths);
        // The testbed's two leaves are cabled to each other: not a fat tree.
        let is_tree = !name.contains("testbed") && !name.contains("lmc1");
        for engine in Engine::ALL {
            let what = format!("{name} / {engine}");
            match route(&fabric, engine, name) {
                Ok((routed, warnings)) => {
                    assert!(
                        warnings.iter().all(|w| !w.message.contains("CA LID")),
                        "{what}: CA LIDs left unrouted: {warnings:?}"
                    );
                    assert_every_pair_delivered(&routed, engine != Engine::UpDown, &what);
                }
                Err(error) => {
                    assert!(engine == Engine::Dmodk && !is_tree, "{what}: {error}");
                    assert!(
                        error.to_string().contains("not a fat tree") || error.to_string().contains("not one")
                    );
                }
            }
        }
    }
}

fn route_with_cli(rail: &Path, engine: &str, out: &Path) -> String {
    let (ok, stdout, stderr) =
        shoal(&["route", rail.to_str().unwrap(), "--engine", engine, "--out", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("0 loops"), "{stdout}");
    stdout
}

#[test]
fn the_written_directory_loads_back_as_a_rail_with_the_same_tables_and_no_warning() {
    let rail = root().join("sample-data/tworail/rail1");
    for engine in ["dmodk", "minhop", "updn"] {
        let out = fresh_dir(&format!("tw1-{engine}"));
        let stdout = route_with_cli(&rail, engine, &out);
        assert!(stdout.contains("100.0 % on shortest paths") || engine == "updn", "{stdout}");
        let (again, warnings) =
            load_rail(std::slice::from_ref(&out), RailId(0)).expect("the routed rail loads");
        assert!(warnings.is_empty(), "{engine}: {warnings:?}");
        let (routed, _) =
            route(&load(std::slice::from_ref(&rail)), Engine::parse(engine).unwrap(), "r").unwrap();
        for s in routed.switches() {
            let guid = routed.node(s).guid;
            let read = again.node_by_guid(guid).and_then(|n| again.lft(n));
            assert_eq!(read, routed.lft(s), "{engine}: table of {guid}");
        }
        assert_every_pair_delivered(&again, engine != "updn", engine);
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn an_lmc_rail_routed_from_ibnetdiscover_reads_back_with_every_lid_of_each_range_delivered() {
    let out = fresh_dir("lmc1-minhop");
    route_with_cli(&root().join("tests/fixtures/formats/lmc1/ibnetdiscover.txt"), "minhop", &out);
    let (again, warnings) = load_rail(std::slice::from_ref(&out), RailId(0)).expect("the routed rail loads");
    // .lst has no LMC column: the reader infers it from the tables, and says so.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("LMC 1 inferred"), "{warnings:?}");
    assert_eq!(ca_lids(&again).len(), 84);
    assert_every_pair_delivered(&again, true, "lmc1 minhop");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn dmodk_on_the_testbed_is_a_clear_error_naming_the_cabled_leaves() {
    let out = fresh_dir("testbed-dmodk");
    let (ok, _, stderr) =
        shoal(&["route", "sample-data/testbed", "--engine", "dmodk", "--out", out.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stderr.contains("not one") && stderr.contains("tb-L1-00") && stderr.contains("--engine minhop"),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn route_refuses_to_overwrite_the_rails_own_dumps_and_unknown_engines() {
    let (ok, _, stderr) =
        shoal(&["route", "sample-data/testbed", "--engine", "minhop", "--out", "sample-data/testbed"]);
    assert!(!ok);
    assert!(stderr.contains("would be overwritten"), "{stderr}");
    let (ok, _, stderr) = shoal(&["route", "sample-data/testbed", "--engine", "ftree", "--out", "/tmp/x"]);
    assert!(!ok);
    assert!(stderr.contains("expected dmodk, minhop, updn"), "{stderr}");
}
