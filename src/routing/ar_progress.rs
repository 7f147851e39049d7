//! Which of an AR group's ports bring a destination's bytes closer, judged by the static tables.
//!
//! Real AR groups hold only such ports: a leaf's up-ports toward a remote destination, a spine's
//! down-ports toward the destination's leaf. A group naming other ports (a CA's, or a switch's
//! whose own route is no shorter; a hostile or mis-read dump naming every port) would keep a
//! remainder of the spread circling until the hop limit, at a cost of the frontier times the
//! group size per hop, and credit bytes to links no adaptive router would use. So a port counts
//! only if the node behind it is the destination, or a switch whose static route to the
//! destination is shorter than this switch's.

use std::collections::HashMap;

use petgraph::graph::NodeIndex;

use crate::model::{Fabric, Lid, NodeKind};

use super::trace::next_port;

/// Static hops to one destination, memoised per node for one spread.
pub struct Progress<'f> {
    fabric: &'f Fabric,
    dst: Lid,
    destination: Option<NodeIndex>,
    hops: HashMap<NodeIndex, Option<u16>>,
}

impl<'f> Progress<'f> {
    pub fn new(fabric: &'f Fabric, dst: Lid) -> Self {
        let destination = fabric.owner_of_lid(dst).map(|o| o.node);
        Progress { fabric, dst, destination, hops: HashMap::new() }
    }

    /// Whether bytes at `from` move closer to the destination by going to `next`.
    pub fn closer(&mut self, from: NodeIndex, next: NodeIndex) -> bool {
        if Some(next) == self.destination {
            return true;
        }
        match (self.static_hops(next), self.static_hops(from)) {
            (Some(there), Some(here)) => there < here,
            _ => false,
        }
    }

    /// Hops the static tables take from `node` to the destination; `None` for a CA that is not
    /// the destination, or a walk that is dropped or loops.
    fn static_hops(&mut self, node: NodeIndex) -> Option<u16> {
        if let Some(&known) = self.hops.get(&node) {
            return known;
        }
        let hops = self.walk(node);
        self.hops.insert(node, hops);
        hops
    }

    fn walk(&self, start: NodeIndex) -> Option<u16> {
        let mut at = start;
        // A walk longer than the node count has met some node twice: a loop.
        for hops in 0..=u16::try_from(self.fabric.graph.node_count()).unwrap_or(u16::MAX) {
            if Some(at) == self.destination {
                return Some(hops);
            }
            if self.fabric.node(at).kind != NodeKind::Switch {
                return None;
            }
            let port = next_port(self.fabric, at, self.dst).ok()?;
            at = self.fabric.out_through(at, port)?.1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_fabric::{TwoLeaves, two_leaves};

    #[test]
    fn toward_a_remote_host_the_leaf_climbs_and_the_spine_descends_to_its_leaf_only() {
        let TwoLeaves { fabric, h, leaf, spine } = two_leaves();
        let dst = Lid(0x13); // h[3], under leaf 1
        let mut progress = Progress::new(&fabric, dst);
        assert!(progress.closer(leaf[0], spine), "up from the source's leaf");
        assert!(progress.closer(spine, leaf[1]), "down to the destination's leaf");
        assert!(!progress.closer(spine, leaf[0]), "not back down to the source's leaf");
        assert!(!progress.closer(leaf[1], spine), "not up again from the destination's leaf");
        assert!(progress.closer(leaf[1], h[3]), "into the destination");
        assert!(!progress.closer(leaf[0], h[1]), "never into another host: a CA is no transit");
    }
}
