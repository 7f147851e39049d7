//! One rail's levels and first order: the breadth-first search that both the thesis layout
//! (`fat_tree.rs`) and the plane layout (`planes.rs`) start from.

use std::collections::VecDeque;

use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;

use crate::model::{Cluster, Fabric};

/// One rail's levels and per-level order while the layout is being built.
pub(super) struct RailOrder {
    pub(super) levels: Vec<Option<u32>>,
    /// `by_level[l]` for l ≥ 1; `by_level[0]` stays empty (hosts are ordered globally).
    pub(super) by_level: Vec<Vec<NodeIndex>>,
    /// Neighbours of each node, in port order.
    pub(super) neighbours: Vec<Vec<NodeIndex>>,
    /// For a CA, its host's index in `Cluster::hosts`.
    pub(super) host_of: Vec<Option<usize>>,
}

pub(super) fn breadth_first(
    cluster: &Cluster,
    rail: usize,
    fabric: &Fabric,
    host_order: &[usize],
) -> RailOrder {
    let n = fabric.graph.node_count();
    let mut neighbours = vec![Vec::new(); n];
    for node in fabric.graph.node_indices() {
        let mut list: Vec<(u8, NodeIndex)> = fabric
            .graph
            .edges(node)
            .map(|e| {
                let link = e.weight();
                let (port, other) =
                    if e.source() == node { (link.a_port, e.target()) } else { (link.b_port, e.source()) };
                (port.0, other)
            })
            .collect();
        list.sort_unstable();
        neighbours[node.index()] = list.into_iter().map(|(_, other)| other).collect();
    }
    let mut host_of = vec![None; n];
    let mut levels = vec![None; n];
    let mut queue = VecDeque::new();
    for &h in host_order {
        for &ca in cluster.hosts[h].on_rail(rail) {
            host_of[ca.index()] = Some(h);
            levels[ca.index()] = Some(0);
            queue.push_back(ca);
        }
    }
    // CAs whose host name could not be matched still start the search.
    for ca in fabric.cas() {
        if levels[ca.index()].is_none() {
            levels[ca.index()] = Some(0);
            queue.push_back(ca);
        }
    }
    let mut by_level: Vec<Vec<NodeIndex>> = vec![Vec::new()];
    while let Some(node) = queue.pop_front() {
        let next = levels[node.index()].unwrap_or(0) + 1;
        for &other in &neighbours[node.index()] {
            if levels[other.index()].is_none() {
                levels[other.index()] = Some(next);
                if by_level.len() <= next as usize {
                    by_level.resize(next as usize + 1, Vec::new());
                }
                by_level[next as usize].push(other);
                queue.push_back(other);
            }
        }
    }
    RailOrder { levels, by_level, neighbours, host_of }
}
