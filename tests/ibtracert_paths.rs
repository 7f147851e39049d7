//! The tracer proves itself against `ibtracert`: for every LID pair recorded while the simulated
//! fabric was live (see `scripts/make-sample-data.sh`), the path traced through the dumped
//! forwarding tables is hop for hop, port for port, the path ibtracert printed.

use std::path::{Path, PathBuf};

use shoal::model::{Fabric, Lid, RailId};
use shoal::profile_io::rail::load_rail;
use shoal::routing::trace;

/// One `[out] -> switch|ca port {guid}[in] lid L-L "desc"` line of ibtracert's output.
#[derive(Debug, PartialEq, Eq)]
struct Step {
    out_port: u8,
    in_port: u8,
    lid: u16,
}

struct Expected {
    src: Lid,
    dst: Lid,
    steps: Vec<Step>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn parse_ibtracert(text: &str) -> Vec<Expected> {
    let mut all = Vec::new();
    for block in text.split("== ").filter(|b| !b.trim().is_empty()) {
        let mut lines = block.lines();
        let header: Vec<u16> = lines.next().unwrap().split_whitespace().map(|n| n.parse().unwrap()).collect();
        let mut steps = Vec::new();
        for line in lines.filter(|l| l.starts_with('[')) {
            let out_port = line[1..line.find(']').unwrap()].parse().unwrap();
            let after_guid = &line[line.find("}[").unwrap() + 2..];
            let in_port = after_guid[..after_guid.find(']').unwrap()].parse().unwrap();
            let lid_text = &line[line.find(" lid ").unwrap() + 5..];
            let lid = lid_text[..lid_text.find('-').unwrap()].parse().unwrap();
            steps.push(Step { out_port, in_port, lid });
        }
        all.push(Expected { src: Lid(header[0]), dst: Lid(header[1]), steps });
    }
    all
}

fn traced_steps(fabric: &Fabric, src: Lid, dst: Lid) -> Vec<Step> {
    let path = trace(fabric, src, dst);
    assert!(path.delivered(), "{src} -> {dst}: {:?}", path.outcome);
    path.hops
        .windows(2)
        .map(|w| Step {
            out_port: w[0].out_port.unwrap().0,
            in_port: w[1].in_port.unwrap().0,
            lid: fabric.node(w[1].node).base_lid().unwrap().0,
        })
        .collect()
}

/// Traces every recorded pair; returns how many were checked.
fn check(dumps: &Path, fixtures: &Path) -> usize {
    let (fabric, warnings) = load_rail(&[dumps.to_path_buf()], RailId(0)).unwrap();
    assert!(warnings.iter().all(|w| !w.message.contains("no forwarding")), "{warnings:?}");
    let text = std::fs::read_to_string(fixtures.join("ibtracert.txt")).unwrap();
    let expected = parse_ibtracert(&text);
    for pair in &expected {
        // Both sides name each hop by its base LID (ibtracert prints an LMC range `74-75`).
        let got = traced_steps(&fabric, pair.src, pair.dst);
        assert_eq!(got, pair.steps, "path {} -> {} in {}", pair.src, pair.dst, fixtures.display());
    }
    expected.len()
}

#[test]
fn testbed_paths_equal_ibtracert() {
    let n =
        check(&root().join("sample-data/testbed"), &root().join("tests/fixtures/ibtracert/testbed/rail0"));
    assert!(n >= 30);
}

#[test]
fn two_rail_fat_tree_paths_equal_ibtracert_on_both_rails() {
    let mut total = 0;
    for rail in ["rail0", "rail1"] {
        let n = check(
            &root().join("sample-data/tworail").join(rail),
            &root().join("tests/fixtures/ibtracert/tworail").join(rail),
        );
        assert!(n >= 100, "{rail}: only {n} pairs");
        total += n;
    }
    assert!(total >= 200);
}

#[test]
fn lmc_ranges_route_each_lid_over_its_own_path_as_ibtracert_saw() {
    let n = check(&root().join("tests/fixtures/lmc1"), &root().join("tests/fixtures/lmc1"));
    assert!(n >= 30);
}

#[test]
fn rail_optimized_paths_between_planes_equal_ibtracert() {
    let n =
        check(&root().join("sample-data/railopt"), &root().join("tests/fixtures/ibtracert/railopt/rail0"));
    assert!(n >= 60);
}

#[test]
fn tsubame_sized_paths_equal_ibtracert() {
    for rail in ["rail0", "rail1"] {
        check(
            &root().join("benches/data/tsubame").join(rail),
            &root().join("tests/fixtures/ibtracert/tsubame").join(rail),
        );
    }
}
