//! Which CA-to-CA pairs the forwarding tables deliver, and for the others, which switch dropped
//! them and why: what `shoal info` reports, and what a damaged dump costs.
//!
//! Routing depends only on (switch, destination LID), so CAs are grouped by the switch they hang
//! off: one trace per (source group, destination) stands for the whole group.

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;
use rayon::prelude::*;

use crate::model::{Fabric, Lid, NodeKind};

use super::loads::DropReason;
use super::port_hops::PortHops;
use super::trace::{Outcome, Path, trace_into};
use super::tree::{Next, Trees};

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
    let groups: Vec<Group<'_>> = groups.iter().map(|(&entry, sources)| (entry, sources.as_slice())).collect();
    let hops = PortHops::new(fabric);
    // Destinations in parallel; each resolves its routing tree once for every group (a k = 36
    // rail's 136 M pairs are 7.5 M group traces, but 11,664 trees).
    let parts: Vec<Part> = destinations
        .par_iter()
        .map_init(|| Trees::new(fabric, &hops), |trees, &dst| destination_part(fabric, trees, &groups, dst))
        .collect();
    let mut result = Reachability::default();
    let mut undelivered = Vec::new();
    for part in parts {
        result.pairs += part.pairs;
        result.delivered += part.delivered;
        undelivered.extend(part.undelivered);
    }
    // Group by group, each in destination order, as a walk of every group lists them.
    undelivered.sort_by_key(|(group, _)| *group);
    result.undelivered = undelivered.into_iter().map(|(_, u)| u).collect();
    add_ports_without_lid(&mut result, &destinations, &without_lid);
    result
}

/// CA ports cabled to one node (`None`: their port leads nowhere), with their base LIDs.
type Group<'a> = (Option<NodeIndex>, &'a [(NodeIndex, Lid)]);

/// The pairs to one destination; undelivered ones keep their group's index.
#[derive(Default)]
struct Part {
    pairs: usize,
    delivered: usize,
    undelivered: Vec<(usize, UndeliveredPairs)>,
}

/// The pairs from every group to one destination. Forwarding depends only on the switch and
/// the destination, so a group entering at a switch has the outcome of that switch's chain in
/// the destination's tree; other groups, and chains that loop, are traced from one of their
/// ports, as before.
fn destination_part(
    fabric: &Fabric,
    trees: &mut Trees<'_>,
    groups: &[Group<'_>],
    (dst_node, dst): (NodeIndex, Lid),
) -> Part {
    let mut part = Part::default();
    let mut path = Path { hops: Vec::new(), link_ends: Vec::new(), outcome: Outcome::Delivered };
    let mut begun = false;
    for (g, &(entry, sources)) in groups.iter().enumerate() {
        let mut senders = sources.iter().filter(|(node, _)| *node != dst_node);
        let Some(&(example_node, example)) = senders.next() else { continue };
        let senders = 1 + senders.count();
        part.pairs += senders;
        let at_switch = entry.filter(|&e| fabric.node(e).kind == NodeKind::Switch);
        let from_tree = at_switch.and_then(|switch| {
            if !std::mem::replace(&mut begun, true) {
                trees.begin(dst, dst_node);
            }
            chain_outcome(trees, switch, example_node)
        });
        let outcome = from_tree.unwrap_or_else(|| {
            trace_into(fabric, example, dst, &mut path);
            path.outcome
        });
        match outcome {
            Outcome::Delivered => part.delivered += senders,
            Outcome::Dropped { at, reason } => part.undelivered.push((
                g,
                UndeliveredPairs { destination: dst, at, reason, sources: senders, example_source: example },
            )),
        }
    }
    part
}

/// Where the chain from `switch` ends in the tree begun for a destination, as a trace from
/// `source` entering there would end; `None` if it loops (the trace names where it meets itself).
fn chain_outcome(trees: &mut Trees<'_>, switch: NodeIndex, source: NodeIndex) -> Option<Outcome> {
    if !trees.resolve(switch) {
        return None;
    }
    let mut node = switch;
    let outcome = loop {
        match trees.next(node) {
            Next::Switch(_, next) => node = next,
            Next::Deliver(_) | Next::Here => break Outcome::Delivered,
            Next::Drop(reason) => break Outcome::Dropped { at: Some(node), reason },
            // Back into the sending CA is where the trace meets itself.
            Next::WrongEndpoint(_, ca) if ca == source => {
                break Outcome::Dropped { at: Some(ca), reason: DropReason::Loop };
            }
            Next::WrongEndpoint(_, ca) => {
                break Outcome::Dropped { at: Some(ca), reason: DropReason::WrongEndpoint };
            }
        }
    };
    Some(outcome)
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

    /// Pairs dropped, by where and why.
    type Dropped = BTreeMap<(Option<NodeIndex>, DropReason), usize>;

    /// The pairs as shoal counted them before trees: for each group of CA ports cabled to one
    /// node, each destination traced from the group's first other port, standing for them all.
    /// (A pair-by-pair trace differs only where a table sends a destination's bytes back into
    /// the sending CA: a loop for that CA, a wrong endpoint for the rest of its group.)
    fn group_by_group(fabric: &Fabric) -> (usize, usize, Dropped) {
        let mut groups: BTreeMap<Option<NodeIndex>, Vec<(NodeIndex, Lid)>> = BTreeMap::new();
        for ca in fabric.cas() {
            for (&port, info) in fabric.node(ca).ports.iter().filter(|(_, p)| p.lid.0 != 0) {
                let entry = fabric.out_through(ca, port).map(|(_, next, _)| next);
                groups.entry(entry).or_default().push((ca, info.lid));
            }
        }
        let destinations: Vec<(NodeIndex, Lid)> = groups.values().flatten().copied().collect();
        let (mut pairs, mut delivered, mut dropped) = (0, 0, BTreeMap::new());
        for sources in groups.values() {
            for &(dst_node, dst) in &destinations {
                let senders: Vec<_> = sources.iter().filter(|(node, _)| *node != dst_node).collect();
                let Some(&&(_, example)) = senders.first() else { continue };
                pairs += senders.len();
                match crate::routing::trace::trace(fabric, example, dst).outcome {
                    Outcome::Delivered => delivered += senders.len(),
                    Outcome::Dropped { at, reason } => {
                        *dropped.entry((at, reason)).or_default() += senders.len()
                    }
                }
            }
        }
        (pairs, delivered, dropped)
    }

    #[test]
    fn the_tree_per_destination_agrees_with_tracing_every_pair_in_a_damaged_fabric() {
        use crate::model::synthetic::TwoLevel;
        let mut reasons = std::collections::BTreeSet::new();
        for seed in 1..=12u64 {
            let mut fabric = TwoLevel::new(4, 3, 3).build();
            let switches: Vec<NodeIndex> = fabric.switches().collect();
            let lids = fabric.lid_end() as u64;
            // Holes, unreachable rows, port 0, dead ports, wrong CAs and loops, at random.
            let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut next = |n: u64| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (state >> 33) % n
            };
            for _ in 0..12 {
                let switch = switches[next(switches.len() as u64) as usize];
                let lid = Lid(next(lids) as u16);
                let entry = match next(4) {
                    0 => LftEntry::Missing,
                    1 => LftEntry::Unreachable,
                    _ => LftEntry::Port(PortNum(next(8) as u8)),
                };
                set_row(&mut fabric, switch, lid, entry);
            }
            let r = ca_reachability(&fabric);
            let (pairs, delivered, dropped) = group_by_group(&fabric);
            assert_eq!((r.pairs, r.delivered), (pairs, delivered), "seed {seed}");
            let by_node: BTreeMap<_, _> =
                r.by_dropping_node().into_iter().map(|(at, why, n)| ((at, why), n)).collect();
            assert_eq!(by_node, dropped, "seed {seed}");
            assert!(delivered < pairs, "seed {seed}: the damage should drop some pairs");
            reasons.extend(dropped.keys().map(|(_, reason)| *reason));
        }
        use DropReason::*;
        for reason in [MissingEntry, Unreachable, WrongEndpoint, DeadPort, Loop] {
            assert!(reasons.contains(&reason), "no seed dropped for {reason:?}: {reasons:?}");
        }
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
