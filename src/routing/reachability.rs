//! Which CA-to-CA pairs the forwarding tables deliver, and for the others, which switch dropped
//! them and why: what `shoal info` reports, and what a damaged dump costs.
//!
//! Routing depends only on (switch, destination LID), so CAs are grouped by the switch they hang
//! off: one trace per (source group, destination) stands for the whole group.

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;
use rayon::prelude::*;

use crate::model::{Fabric, Lid};

use super::loads::DropReason;
use super::trace::{Outcome, Path, trace_into};

/// Pairs that did not arrive, grouped by destination and by where and why they stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndeliveredPairs {
    pub destination: Lid,
    /// The node where the traces stopped (the dropping switch, usually).
    pub at: Option<NodeIndex>,
    pub reason: DropReason,
    /// How many source CA ports this covers.
    pub sources: usize,
    /// One of them, to retrace by hand (`shoal trace`).
    pub example_source: Lid,
}

/// The delivery of every CA port's base LID to every other CA port's base LID on one rail.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reachability {
    pub pairs: usize,
    pub delivered: usize,
    pub undelivered: Vec<UndeliveredPairs>,
}

/// Traces every ordered pair of CA ports (base LIDs, different nodes).
pub fn ca_reachability(fabric: &Fabric) -> Reachability {
    // CA ports with a LID, grouped by the node (switch) their cable leads to.
    let mut groups: BTreeMap<Option<NodeIndex>, Vec<(NodeIndex, Lid)>> = BTreeMap::new();
    let mut destinations: Vec<(NodeIndex, Lid)> = Vec::new();
    // Cabled CA ports without a LID: every pair they are part of is undeliverable.
    let mut without_lid: Vec<NodeIndex> = Vec::new();
    for ca in fabric.cas() {
        for (&port, info) in &fabric.node(ca).ports {
            if info.lid.0 == 0 {
                if fabric.link_at(ca, port).is_some() {
                    without_lid.push(ca);
                }
                continue;
            }
            let entry = fabric.out_through(ca, port).map(|(_, next, _)| next);
            groups.entry(entry).or_default().push((ca, info.lid));
            destinations.push((ca, info.lid));
        }
    }
    // The groups in parallel, joined in order; each keeps one path's lists for all its traces
    // (136 M pairs of a k = 36 rail are 7.5 M traces).
    let groups: Vec<&Vec<(NodeIndex, Lid)>> = groups.values().collect();
    let parts: Vec<Reachability> =
        groups.par_iter().map(|sources| group_reachability(fabric, sources, &destinations)).collect();
    let mut result = Reachability::default();
    for part in parts {
        result.pairs += part.pairs;
        result.delivered += part.delivered;
        result.undelivered.extend(part.undelivered);
    }
    add_ports_without_lid(&mut result, &destinations, &without_lid);
    result
}

/// The pairs from the CA ports of one group (cabled to one switch) to every destination: one
/// trace per destination stands for the group, whose ports all enter the fabric there.
fn group_reachability(
    fabric: &Fabric,
    sources: &[(NodeIndex, Lid)],
    destinations: &[(NodeIndex, Lid)],
) -> Reachability {
    let mut result = Reachability::default();
    let mut path = Path { hops: Vec::new(), link_ends: Vec::new(), outcome: Outcome::Delivered };
    for &(dst_node, dst) in destinations {
        let mut senders = sources.iter().filter(|(node, _)| *node != dst_node);
        let Some(&(_, example)) = senders.next() else { continue };
        let senders = 1 + senders.count();
        result.pairs += senders;
        trace_into(fabric, example, dst, &mut path);
        match path.outcome {
            Outcome::Delivered => result.delivered += senders,
            Outcome::Dropped { at, reason } => result.undelivered.push(UndeliveredPairs {
                destination: dst,
                at,
                reason,
                sources: senders,
                example_source: example,
            }),
        }
    }
    result
}

/// Counts the pairs of CA ports without a LID as undeliverable, at the port itself: as a source
/// to every port of another node, and as a destination from every addressed port of another node.
fn add_ports_without_lid(result: &mut Reachability, addressed: &[(NodeIndex, Lid)], without: &[NodeIndex]) {
    for &ca in without {
        let others = |list: &mut dyn Iterator<Item = NodeIndex>| list.filter(|&n| n != ca).count();
        let as_source = others(&mut addressed.iter().map(|(n, _)| *n).chain(without.iter().copied()));
        let as_destination = others(&mut addressed.iter().map(|(n, _)| *n));
        let pairs = as_source + as_destination;
        if pairs == 0 {
            continue;
        }
        result.pairs += pairs;
        result.undelivered.push(UndeliveredPairs {
            destination: Lid(0),
            at: Some(ca),
            reason: DropReason::NoLid,
            sources: pairs,
            example_source: Lid(0),
        });
    }
}

impl Reachability {
    /// Undelivered pair counts per (dropping node, reason), largest first.
    pub fn by_dropping_node(&self) -> Vec<(Option<NodeIndex>, DropReason, usize)> {
        let mut counts: BTreeMap<(Option<NodeIndex>, DropReason), usize> = BTreeMap::new();
        for u in &self.undelivered {
            *counts.entry((u.at, u.reason)).or_default() += u.sources;
        }
        let mut list: Vec<_> = counts.into_iter().map(|((at, reason), n)| (at, reason, n)).collect();
        list.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PortInfo;
    use crate::model::test_fabric::{TwoLeaves, set_row, two_leaves};
    use crate::model::{LftEntry, PortNum};

    #[test]
    fn a_ca_port_with_lid_zero_makes_its_pairs_undeliverable_at_that_port() {
        let TwoLeaves { mut fabric, h, .. } = two_leaves();
        let ports = &mut fabric.graph[h[1]].ports;
        ports.insert(PortNum(1), PortInfo { guid: None, lid: Lid(0), lmc: 0 });
        let r = ca_reachability(&fabric);
        // 3 addressed CAs: 3·2 pairs among them, plus h1 to 3 and 3 to h1.
        assert_eq!((r.pairs, r.delivered), (12, 6));
        assert_eq!(r.by_dropping_node(), vec![(Some(h[1]), DropReason::NoLid, 6)]);
    }

    #[test]
    fn a_complete_fabric_delivers_every_pair() {
        let TwoLeaves { fabric, .. } = two_leaves();
        let r = ca_reachability(&fabric);
        assert_eq!((r.pairs, r.delivered), (12, 12));
        assert!(r.undelivered.is_empty());
    }

    #[test]
    fn a_hole_in_a_leaf_table_drops_the_pairs_of_that_leaf_at_that_leaf() {
        let TwoLeaves { mut fabric, leaf, .. } = two_leaves();
        set_row(&mut fabric, leaf[0], Lid(0x12), LftEntry::Missing);
        set_row(&mut fabric, leaf[0], Lid(0x13), LftEntry::Port(PortNum(9)));
        let r = ca_reachability(&fabric);
        assert_eq!((r.pairs, r.delivered), (12, 8));
        let by_node = r.by_dropping_node();
        assert_eq!(
            by_node,
            vec![(Some(leaf[0]), DropReason::MissingEntry, 2), (Some(leaf[0]), DropReason::DeadPort, 2)]
        );
        assert!(r.undelivered.iter().all(|u| u.sources == 2));
    }
}
