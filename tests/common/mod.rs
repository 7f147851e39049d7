//! What the format tests share: loading a rail, a format-neutral summary of a fabric, and the
//! paths `ibtracert` recorded on the live simulated fabric.
#![allow(dead_code)]

#[path = "../support/scratch_dir.rs"]
mod scratch_dir;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use shoal::model::{Fabric, LftEntry, Lid, NodeKind, RailId, Warning};
use shoal::profile_io::load_rail;
use shoal::routing::trace;

pub use scratch_dir::ScratchDir;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn load(paths: &[PathBuf]) -> (Fabric, Vec<Warning>) {
    load_rail(paths, RailId(0)).unwrap_or_else(|e| panic!("{paths:?}: {e}"))
}

/// A fabric described without GUIDs (an `ibnetdiscover -p` report has no CA node GUIDs):
/// nodes by kind, description and LID ranges, links and LID owners by (description, port).
/// A node: kind, description, and (port, LID, LMC) of each port with a LID.
pub type NodeSummary = (NodeKind, String, Vec<(u8, u16, u8)>);

#[derive(Debug, PartialEq, Eq)]
pub struct Summary {
    pub nodes: BTreeSet<NodeSummary>,
    pub links: BTreeSet<((String, u8), (String, u8))>,
    pub lids: Vec<(u16, String, u8)>,
    /// Routed rows per switch description (`UNREACHABLE` and missing rows both mean no route).
    pub routes: BTreeMap<String, Vec<(u16, u8)>>,
}

pub fn summary(fabric: &Fabric) -> Summary {
    let desc = |n| fabric.node(n).description.clone();
    let nodes = fabric
        .graph
        .node_indices()
        .map(|n| {
            let node = fabric.node(n);
            let ports =
                node.ports.iter().filter(|(_, p)| p.lid.0 != 0).map(|(k, p)| (k.0, p.lid.0, p.lmc)).collect();
            (node.kind, node.description.clone(), ports)
        })
        .collect();
    let links = fabric
        .graph
        .edge_indices()
        .map(|e| {
            let (a, b) = fabric.graph.edge_endpoints(e).unwrap();
            let link = &fabric.graph[e];
            let (x, y) = ((desc(a), link.a_port.0), (desc(b), link.b_port.0));
            if x <= y { (x, y) } else { (y, x) }
        })
        .collect();
    let lids = (1..0xC000u16)
        .filter_map(|l| fabric.owner_of_lid(Lid(l)).map(|o| (l, desc(o.node), o.port.0)))
        .collect();
    let routes = fabric
        .switches()
        .filter_map(|s| {
            let rows = fabric
                .lft(s)?
                .entries()
                .filter_map(|(lid, e)| match e {
                    LftEntry::Port(p) => Some((lid.0, p.0)),
                    _ => None,
                })
                .collect();
            Some((desc(s), rows))
        })
        .collect();
    Summary { nodes, links, lids, routes }
}

/// One `[out] -> … {guid}[in] lid L-L "desc"` hop of ibtracert's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub out_port: u8,
    pub in_port: u8,
    pub lid: u16,
}

pub struct Recorded {
    pub src: Lid,
    pub dst: Lid,
    pub steps: Vec<Step>,
}

/// Parses `ibtracert.txt` (`== SRC DST` then what ibtracert printed).
pub fn ibtracert(file: &Path) -> Vec<Recorded> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut all = Vec::new();
    for block in text.split("== ").filter(|b| !b.trim().is_empty()) {
        let mut lines = block.lines();
        let header: Vec<u16> = lines.next().unwrap().split_whitespace().map(|n| n.parse().unwrap()).collect();
        let steps = lines
            .filter(|l| l.starts_with('['))
            .map(|line| {
                let out_port = line[1..line.find(']').unwrap()].parse().unwrap();
                let after_guid = &line[line.find("}[").unwrap() + 2..];
                let in_port = after_guid[..after_guid.find(']').unwrap()].parse().unwrap();
                let lid_text = &line[line.find(" lid ").unwrap() + 5..];
                let lid = lid_text[..lid_text.find('-').unwrap()].parse().unwrap();
                Step { out_port, in_port, lid }
            })
            .collect();
        all.push(Recorded { src: Lid(header[0]), dst: Lid(header[1]), steps });
    }
    all
}

/// The traced path as ibtracert prints it, or `None` if it was not delivered.
pub fn traced(fabric: &Fabric, src: Lid, dst: Lid) -> Option<Vec<Step>> {
    let path = trace(fabric, src, dst);
    path.delivered().then(|| {
        path.hops
            .windows(2)
            .map(|w| Step {
                out_port: w[0].out_port.map_or(0, |p| p.0),
                in_port: w[1].in_port.map_or(0, |p| p.0),
                lid: fabric.node(w[1].node).base_lid().map_or(0, |l| l.0),
            })
            .collect()
    })
}

/// A fresh scratch directory for one test, removed when dropped.
pub fn scratch(test: &str) -> ScratchDir {
    ScratchDir::new(&format!("formats-{test}"))
}

/// The text of a fixture, gunzipped if needed.
pub fn text(path: &Path) -> String {
    let (input, _) = shoal::profile_io::Input::open(path).unwrap();
    input.text().to_string()
}
