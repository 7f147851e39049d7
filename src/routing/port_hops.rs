//! Every switch port's far side in one flat table.
//!
//! The tracers ask where a switch's port leads once per hop per destination: on a k = 36 rail,
//! tens of millions of times. Asked of the graph, that takes three dependent reads (the port's
//! link, the link's ends, the far node's kind), each a likely cache miss; here it is one read of
//! 8 bytes, and a rail's table fits in the L2 cache (60,000 ports, 480 KB).

use petgraph::graph::NodeIndex;

use crate::model::{Fabric, LinkEnd, NodeKind, PortNum};

/// Where one port of a switch leads: the link end it sends on and the node at the far side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PortHop {
    pub end: LinkEnd,
    pub next: NodeIndex,
    pub next_is_switch: bool,
}

/// The far side of every switch port, by node and port.
pub(crate) struct PortHops {
    /// `first[node]..first[node + 1]`: the node's ports in `hops`, port 0 first.
    first: Vec<usize>,
    hops: Vec<PackedHop>,
}

/// A [`PortHop`] in 8 bytes: the link end's dense index, and the far node with
/// [`SWITCH_BIT`] set for a switch. [`NO_LINK`] marks a port with nothing plugged in.
#[derive(Clone, Copy)]
struct PackedHop {
    end: u32,
    next: u32,
}

const SWITCH_BIT: u32 = 1 << 31;
const NO_LINK: PackedHop = PackedHop { end: u32::MAX, next: u32::MAX };

impl PortHops {
    /// The table of `fabric`'s switches (other nodes have no ports in it).
    pub fn new(fabric: &Fabric) -> Self {
        let nodes = fabric.graph.node_count();
        let mut first = Vec::with_capacity(nodes + 1);
        let mut hops = Vec::new();
        for node in fabric.graph.node_indices() {
            first.push(hops.len());
            if fabric.node(node).kind != NodeKind::Switch {
                continue;
            }
            hops.extend((0..fabric.port_slots(node)).map(|port| match pack(fabric, node, port) {
                Some(hop) => hop,
                None => NO_LINK,
            }));
        }
        first.push(hops.len());
        PortHops { first, hops }
    }

    /// Where `port` of `switch` leads; `None` where no link is plugged in (or `switch` is not a
    /// switch). Agrees with [`Fabric::out_through`].
    pub fn get(&self, switch: NodeIndex, port: PortNum) -> Option<PortHop> {
        let i = switch.index();
        let (start, end) = (*self.first.get(i)?, *self.first.get(i + 1)?);
        let hop = *self.hops[start..end].get(usize::from(port.0))?;
        (hop.end != NO_LINK.end).then(|| PortHop {
            end: LinkEnd::from_index(hop.end as usize),
            next: NodeIndex::new((hop.next & !SWITCH_BIT) as usize),
            next_is_switch: hop.next & SWITCH_BIT != 0,
        })
    }
}

fn pack(fabric: &Fabric, node: NodeIndex, port: usize) -> Option<PackedHop> {
    let (end, next, _) = fabric.out_through(node, PortNum(u8::try_from(port).ok()?))?;
    let switch = if fabric.node(next).kind == NodeKind::Switch { SWITCH_BIT } else { 0 };
    let next = u32::try_from(next.index()).ok().filter(|&n| n & SWITCH_BIT == 0)?;
    Some(PackedHop {
        end: u32::try_from(end.index()).ok().filter(|&e| e != NO_LINK.end)?,
        next: next | switch,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_fabric::{TwoLeaves, two_leaves};

    #[test]
    fn every_switch_port_leads_where_the_graph_says() {
        let TwoLeaves { fabric, leaf, spine, .. } = two_leaves();
        let hops = PortHops::new(&fabric);
        let mut linked = 0;
        for switch in [leaf[0], leaf[1], spine] {
            for port in 0..=u8::MAX {
                let expected = fabric.out_through(switch, PortNum(port)).map(|(end, next, _)| PortHop {
                    end,
                    next,
                    next_is_switch: fabric.node(next).kind == NodeKind::Switch,
                });
                assert_eq!(hops.get(switch, PortNum(port)), expected, "switch {switch:?} port {port}");
                linked += usize::from(expected.is_some());
            }
        }
        assert!(linked >= 6, "{linked}");
        assert!(hops.get(spine, PortNum(1)).is_some_and(|hop| hop.next_is_switch));
        assert!(hops.get(leaf[0], PortNum(1)).is_some_and(|hop| !hop.next_is_switch));
    }
}
