//! Walks one LID → LID path through the switches' forwarding tables, hop by hop.
//!
//! This is what `ibtracert` does on a live fabric. A path stops at the destination, or at the
//! first loop, hole (no row, `UNREACHABLE`, port 255) or dead port, and says where and why.

use petgraph::graph::NodeIndex;

use crate::model::{Fabric, LftEntry, Lid, LinkEnd, NodeKind, PortNum};

use super::loads::DropReason;

// A path may be as long as the fabric has nodes: only a node met twice is a loop (issue 24: a
// 101-hop chain was called a loop here while `route` and the loads said it delivers).

/// One node on a path, with the port the path came in by and the port it left by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    pub node: NodeIndex,
    pub in_port: Option<PortNum>,
    pub out_port: Option<PortNum>,
}

/// How a trace ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Delivered,
    /// Stopped at `at` (the last hop) for `reason`.
    Dropped {
        at: Option<NodeIndex>,
        reason: DropReason,
    },
}

/// A traced path: the nodes crossed and the link ends that carried the bytes, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    pub hops: Vec<Hop>,
    /// `link_ends[i]` leaves `hops[i]`: the end whose node sent the bytes.
    pub link_ends: Vec<LinkEnd>,
    pub outcome: Outcome,
}

impl Path {
    pub fn delivered(&self) -> bool {
        self.outcome == Outcome::Delivered
    }
}

/// Traces the path from the port owning `src` to the port owning `dst`.
pub fn trace(fabric: &Fabric, src: Lid, dst: Lid) -> Path {
    let mut path =
        Path { hops: Vec::with_capacity(8), link_ends: Vec::with_capacity(8), outcome: Outcome::Delivered };
    trace_into(fabric, src, dst, &mut path);
    path
}

/// [`trace`] into `path`, reusing its lists: for callers that trace millions of pairs and keep
/// only the outcome (two allocations a pair were most of `shoal info`'s reachability count).
pub fn trace_into(fabric: &Fabric, src: Lid, dst: Lid, path: &mut Path) {
    path.hops.clear();
    path.link_ends.clear();
    path.outcome = walk(fabric, src, dst, &mut path.hops, &mut path.link_ends);
}

fn walk(fabric: &Fabric, src: Lid, dst: Lid, hops: &mut Vec<Hop>, link_ends: &mut Vec<LinkEnd>) -> Outcome {
    let dropped = |hops: &[Hop], reason| Outcome::Dropped { at: hops.last().map(|h| h.node), reason };
    let Some(source) = fabric.owner_of_lid(src) else {
        return dropped(hops, DropReason::UnknownSource);
    };
    let Some(destination) = fabric.owner_of_lid(dst) else {
        hops.push(Hop { node: source.node, in_port: None, out_port: None });
        return dropped(hops, DropReason::UnknownDestination);
    };
    let mut node = source.node;
    let mut in_port = None;
    // A CA sends out of the port that owns the source LID; a switch consults its table.
    let mut forced_out = (fabric.node(node).kind != NodeKind::Switch).then_some(source.port);
    loop {
        if node == destination.node {
            hops.push(Hop { node, in_port, out_port: None });
            return Outcome::Delivered;
        }
        let is_switch = fabric.node(node).kind == NodeKind::Switch;
        if hops.iter().any(|h: &Hop| h.node == node) {
            hops.push(Hop { node, in_port, out_port: None });
            return dropped(hops, DropReason::Loop);
        }
        let out = match forced_out.take() {
            Some(port) => port,
            None if !is_switch => {
                hops.push(Hop { node, in_port, out_port: None });
                return dropped(hops, DropReason::WrongEndpoint);
            }
            None => match next_port(fabric, node, dst) {
                Ok(port) => port,
                Err(reason) => {
                    hops.push(Hop { node, in_port, out_port: None });
                    return dropped(hops, reason);
                }
            },
        };
        hops.push(Hop { node, in_port, out_port: Some(out) });
        let Some((end, next, next_in)) = fabric.out_through(node, out) else {
            return dropped(hops, DropReason::DeadPort);
        };
        link_ends.push(end);
        node = next;
        in_port = Some(next_in);
    }
}

/// The port a switch forwards `dst` to, or why it does not.
pub fn next_port(fabric: &Fabric, switch: NodeIndex, dst: Lid) -> Result<PortNum, DropReason> {
    let lft = fabric.lft(switch).ok_or(DropReason::NoTable)?;
    match lft.get(dst) {
        LftEntry::Port(PortNum(0)) => Err(DropReason::WrongEndpoint),
        LftEntry::Port(port) => Ok(port),
        LftEntry::Unreachable => Err(DropReason::Unreachable),
        LftEntry::Missing => Err(DropReason::MissingEntry),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_fabric::{TwoLeaves, two_leaves};

    #[test]
    fn a_path_between_leaves_crosses_the_spine_and_credits_each_sending_end() {
        let TwoLeaves { fabric, h, leaf, spine } = two_leaves();
        let path = trace(&fabric, Lid(0x10), Lid(0x13));
        assert!(path.delivered());
        let nodes: Vec<_> = path.hops.iter().map(|hop| hop.node).collect();
        assert_eq!(nodes, vec![h[0], leaf[0], spine, leaf[1], h[3]]);
        assert_eq!(path.link_ends.len(), 4);
        for (i, end) in path.link_ends.iter().enumerate() {
            let ((from, _), (to, _)) = fabric.link_end_nodes(*end).unwrap();
            assert_eq!((from, to), (nodes[i], nodes[i + 1]));
        }
        assert_eq!(path.hops[1].in_port, Some(PortNum(1)));
        assert_eq!(path.hops[1].out_port, Some(PortNum(3)));
    }

    #[test]
    fn a_path_within_a_leaf_stays_below_the_spine() {
        let TwoLeaves { fabric, h, leaf, .. } = two_leaves();
        let path = trace(&fabric, Lid(0x10), Lid(0x11));
        let nodes: Vec<_> = path.hops.iter().map(|hop| hop.node).collect();
        assert_eq!(nodes, vec![h[0], leaf[0], h[1]]);
    }

    #[test]
    fn any_lid_of_an_lmc_range_reaches_its_port() {
        let TwoLeaves { fabric, h, .. } = two_leaves();
        // h[3] has LMC 1: LIDs 0x13 and 0x14; the tables route 0x14 over the second spine port.
        let path = trace(&fabric, Lid(0x10), Lid(0x14));
        assert!(path.delivered());
        assert_eq!(path.hops.last().unwrap().node, h[3]);
    }

    #[test]
    fn a_missing_row_stops_the_trace_at_that_switch() {
        let TwoLeaves { mut fabric, leaf, .. } = two_leaves();
        crate::model::test_fabric::set_row(&mut fabric, leaf[0], Lid(0x13), LftEntry::Missing);
        let path = trace(&fabric, Lid(0x10), Lid(0x13));
        assert_eq!(path.outcome, Outcome::Dropped { at: Some(leaf[0]), reason: DropReason::MissingEntry });
    }

    #[test]
    fn an_unreachable_row_is_a_drop_not_a_route() {
        let TwoLeaves { mut fabric, spine, .. } = two_leaves();
        crate::model::test_fabric::set_row(&mut fabric, spine, Lid(0x13), LftEntry::Unreachable);
        let path = trace(&fabric, Lid(0x10), Lid(0x13));
        assert_eq!(path.outcome, Outcome::Dropped { at: Some(spine), reason: DropReason::Unreachable });
    }

    #[test]
    fn a_loop_between_two_switches_is_detected() {
        let TwoLeaves { mut fabric, leaf, spine, .. } = two_leaves();
        // The spine sends 0x13 back down to leaf 0, which sends it up again.
        crate::model::test_fabric::set_row(&mut fabric, spine, Lid(0x13), LftEntry::Port(PortNum(1)));
        let path = trace(&fabric, Lid(0x10), Lid(0x13));
        assert_eq!(path.outcome, Outcome::Dropped { at: Some(leaf[0]), reason: DropReason::Loop });
    }

    #[test]
    fn a_reused_path_traces_each_pair_as_a_fresh_one_does() {
        let TwoLeaves { mut fabric, spine, .. } = two_leaves();
        crate::model::test_fabric::set_row(&mut fabric, spine, Lid(0x13), LftEntry::Port(PortNum(1)));
        let lids = [0x10, 0x11, 0x12, 0x13, 0x99].map(Lid);
        let mut reused = trace(&fabric, lids[0], lids[1]);
        let mut outcomes = Vec::new();
        for &src in &lids {
            for &dst in &lids {
                trace_into(&fabric, src, dst, &mut reused);
                assert_eq!(reused, trace(&fabric, src, dst), "{src:?} -> {dst:?}");
                outcomes.push(reused.outcome);
            }
        }
        assert!(outcomes.contains(&Outcome::Delivered));
        assert!(outcomes.iter().any(|o| matches!(o, Outcome::Dropped { reason: DropReason::Loop, .. })));
    }

    #[test]
    fn a_port_with_no_cable_is_a_dead_port() {
        let TwoLeaves { mut fabric, leaf, .. } = two_leaves();
        crate::model::test_fabric::set_row(&mut fabric, leaf[0], Lid(0x13), LftEntry::Port(PortNum(9)));
        let path = trace(&fabric, Lid(0x10), Lid(0x13));
        assert_eq!(path.outcome, Outcome::Dropped { at: Some(leaf[0]), reason: DropReason::DeadPort });
    }

    #[test]
    fn unknown_lids_are_reported_not_traced() {
        let TwoLeaves { fabric, .. } = two_leaves();
        assert_eq!(
            trace(&fabric, Lid(0x99), Lid(0x10)).outcome,
            Outcome::Dropped { at: None, reason: DropReason::UnknownSource }
        );
        assert!(matches!(
            trace(&fabric, Lid(0x10), Lid(0x99)).outcome,
            Outcome::Dropped { reason: DropReason::UnknownDestination, .. }
        ));
    }

    /// CA a — switch 1 — … — switch `n` — CA b, each switch forwarding b's LID onward (port 2)
    /// and a's back (port 1).
    fn chain(n: u16) -> Fabric {
        use crate::model::{FabricBuilder, Guid, Lft, Node, PortInfo, RailId};
        let mut b = FabricBuilder::new(RailId(0));
        let mut add = |guid: u64, kind: NodeKind, lid: u16| {
            let port = PortNum(if kind == NodeKind::Switch { 0 } else { 1 });
            let info = PortInfo { guid: Some(Guid(guid)), lid: Lid(lid), lmc: 0 };
            let num_ports = if kind == NodeKind::Switch { 2 } else { 1 };
            let ports = [(port, info)].into_iter().collect();
            let node = Node {
                guid: Guid(guid),
                system_guid: None,
                kind,
                description: format!("n{guid}"),
                num_ports,
                ports,
            };
            b.add_node(node).unwrap()
        };
        let (a, z) = (add(1, NodeKind::Ca, 1), add(2, NodeKind::Ca, 2));
        let switches: Vec<_> =
            (0..n).map(|i| add(0x100 + u64::from(i), NodeKind::Switch, 0x100 + i)).collect();
        b.add_link((a, PortNum(1)), (switches[0], PortNum(1)), None, None).unwrap();
        for pair in switches.windows(2) {
            b.add_link((pair[0], PortNum(2)), (pair[1], PortNum(1)), None, None).unwrap();
        }
        b.add_link((switches[n as usize - 1], PortNum(2)), (z, PortNum(1)), None, None).unwrap();
        for i in 0..n {
            let mut lft = Lft::new();
            lft.set(Lid(1), LftEntry::Port(PortNum(1)));
            lft.set(Lid(2), LftEntry::Port(PortNum(2)));
            lft.set(Lid(0x100 + i), LftEntry::Port(PortNum(0)));
            b.set_lft(Guid(0x100 + u64::from(i)), lft).unwrap();
        }
        b.build()
    }

    #[test]
    fn a_101_hop_path_that_arrives_is_delivered_not_called_a_loop() {
        let fabric = chain(101);
        let path = trace(&fabric, Lid(1), Lid(2));
        assert!(path.delivered(), "{:?}", path.outcome);
        assert_eq!(path.link_ends.len(), 102);
        assert!(trace(&fabric, Lid(2), Lid(1)).delivered());
    }
}
