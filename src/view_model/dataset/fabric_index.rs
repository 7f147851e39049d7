//! Where each node and link end of the fabric's view model sits in the cluster: ids are
//! positions (hosts first, then each rail's switches; link ends rail by rail), so a value vector
//! of the view model indexes a fabric directly.

use petgraph::graph::NodeIndex;

use crate::model::{Cluster, LinkEnd, NodeKind};

/// Where a node or link of the view model sits in the cluster.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FabricIndex {
    pub hosts: usize,
    /// `switch_nodes[rail][node index]`: the node's position (hosts' CAs map to their host).
    node_at: Vec<Vec<u32>>,
    /// Per node position past the hosts: (rail, node index).
    switches: Vec<(usize, NodeIndex)>,
    /// The first link position of each rail, and one past the last.
    link_offset: Vec<usize>,
}

const NONE: u32 = u32::MAX;

impl FabricIndex {
    pub fn new(cluster: &Cluster) -> FabricIndex {
        let hosts = cluster.hosts.len();
        let mut node_at: Vec<Vec<u32>> =
            cluster.rails.iter().map(|f| vec![NONE; f.graph.node_count()]).collect();
        for (h, host) in cluster.hosts.iter().enumerate() {
            for (r, slots) in node_at.iter_mut().enumerate() {
                for ca in host.on_rail(r) {
                    slots[ca.index()] = h as u32;
                }
            }
        }
        let mut switches = Vec::new();
        for (r, fabric) in cluster.rails.iter().enumerate() {
            for n in fabric.graph.node_indices() {
                if fabric.node(n).kind != NodeKind::Ca {
                    node_at[r][n.index()] = (hosts + switches.len()) as u32;
                    switches.push((r, n));
                }
            }
        }
        let mut link_offset = vec![0];
        for fabric in &cluster.rails {
            link_offset.push(link_offset.last().copied().unwrap_or(0) + fabric.link_end_count());
        }
        FabricIndex { hosts, node_at, switches, link_offset }
    }

    pub fn node_count(&self) -> usize {
        self.hosts + self.switches.len()
    }

    /// Each switch's (rail, node index), in position order past the hosts.
    pub fn switches(&self) -> &[(usize, NodeIndex)] {
        &self.switches
    }

    pub fn link_count(&self) -> usize {
        self.link_offset.last().copied().unwrap_or(0)
    }

    /// The position of a rail's node (a CA gives its host's).
    pub fn node_position(&self, rail: usize, node: NodeIndex) -> Option<usize> {
        let p = *self.node_at.get(rail)?.get(node.index())?;
        (p != NONE).then_some(p as usize)
    }

    pub fn link_position(&self, rail: usize, end: LinkEnd) -> Option<usize> {
        let (start, stop) = (*self.link_offset.get(rail)?, *self.link_offset.get(rail + 1)?);
        let p = start + end.index();
        (p < stop).then_some(p)
    }

    pub fn link(&self, position: usize) -> Option<(usize, LinkEnd)> {
        let rail = self.link_offset.windows(2).position(|w| position >= w[0] && position < w[1])?;
        Some((rail, LinkEnd::from_index(position - self.link_offset[rail])))
    }

    /// The link positions of one rail.
    pub fn rail_links(&self, rail: usize) -> std::ops::Range<usize> {
        let start = self.link_offset.get(rail).copied().unwrap_or(0);
        start..self.link_offset.get(rail + 1).copied().unwrap_or(start)
    }
}
