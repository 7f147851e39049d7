//! Adaptive routing, modelled: bytes to an AR-enabled destination spread evenly over the ports
//! of the switch's AR group, at every hop; other destinations follow the static table.
//!
//! The model's assumptions (also in `docs/formats/adaptive-routing.md`):
//! - A switch picks among its group's ports by their momentary load, per packet or flowlet; over a
//!   whole region that averages to an even split, which is what is traced. Real spreads lean
//!   away from congested ports, so AR loads are **modelled**, not measured.
//! - `HBF` (hash-based) destinations are spread the same way: the hash is not known.
//! - The ingress port is not excluded from a group (AR groups hold up-ports at a leaf and
//!   down-ports toward one leaf at a spine, so it never is in practice).
//! - Every sum saturates at 2^64 − 1 ([`crate::model::bytes`]), as the static trace's do, so
//!   [`super::saturation::saturation_warnings`] names a capped AR figure as it names a static one.
//! - Bytes split in whole bytes: the remainder of a split goes to the lowest ports, so every
//!   byte injected is delivered or counted undelivered with the switch that dropped it.
//!
//! Where a switch has no AR table, or the destination is `Static`, or its group has no cabled
//! port, the static port is used: with no AR information at all this is the static trace.

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;

use crate::model::bytes::add_bytes;
use crate::model::{Cluster, Fabric, Lid, NodeKind, PortNum};

use super::LinkBytes;
use super::accumulate::Flow;
use super::ar_progress::Progress;
use super::flows::FlowSet;
use super::loads::{DropReason, Loads, RailLoad, RegionKey, RegionLoads, Undelivered};
use super::trace::next_port;

/// Bytes still moving after this many hops of the spread are counted as looping. Unlike the
/// static trace (a loop there is a node met twice), spread bytes may meet a node twice on
/// different branches. Only ports that bring bytes closer are taken ([`Progress`]), so a spread
/// ends within the static route's length; the cut is for static tables that loop.
const AR_MAX_HOPS: usize = 64;

/// Which trace loads come from: the static forwarding tables, or the AR spread (modelled).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RoutingModel {
    /// The static forwarding tables, as `ibtracert` walks them.
    #[default]
    Static,
    /// AR-enabled destinations spread evenly over their groups' ports: modelled, not measured.
    AdaptiveModelled,
}

/// Traces flows with AR spreading (see the module comment) into one rail's link-end loads.
pub fn spread(fabric: &Fabric, flows: &[Flow]) -> RailLoad {
    let mut by_destination: BTreeMap<Lid, Vec<&Flow>> = BTreeMap::new();
    for flow in flows.iter().filter(|f| f.bytes > 0) {
        by_destination.entry(flow.dst).or_default().push(flow);
    }
    let mut load = RailLoad::default();
    let mut dense = vec![0u64; fabric.link_end_count()];
    let mut dropped: BTreeMap<(Option<NodeIndex>, Lid, DropReason), u64> = BTreeMap::new();
    for (dst, flows) in by_destination {
        let mut add = |end: usize, bytes: u64| {
            add_bytes(&mut dense[end], bytes);
        };
        spread_destination(fabric, dst, &flows, (&mut load, &mut add), &mut dropped);
    }
    load.bytes = LinkBytes::from_dense(&dense);
    load.undelivered_detail = dropped
        .into_iter()
        .map(|((at, destination, reason), bytes)| Undelivered { at, destination, reason, bytes })
        .collect();
    load
}

/// One flow's spread, sparse: (link-end index, bytes) for every link end it touches, in index
/// order, and whether every byte arrived. Used to name the pairs behind an AR-modelled load.
pub fn flow_spread(fabric: &Fabric, flow: Flow) -> (Vec<(usize, u64)>, bool) {
    let mut at: BTreeMap<usize, u64> = BTreeMap::new();
    let mut load = RailLoad::default();
    let mut dropped = Dropped::new();
    if flow.bytes > 0 {
        let mut add = |end: usize, bytes: u64| {
            add_bytes(at.entry(end).or_insert(0), bytes);
        };
        spread_destination(fabric, flow.dst, &[&flow], (&mut load, &mut add), &mut dropped);
    }
    (at.into_iter().collect(), load.undelivered == 0)
}

type Dropped = BTreeMap<(Option<NodeIndex>, Lid, DropReason), u64>;

/// Counts undelivered bytes: in the rail's load and by (node, destination LID, reason).
struct Drops<'d> {
    dropped: &'d mut Dropped,
    dst: Lid,
}

impl Drops<'_> {
    fn drop(&mut self, load: &mut RailLoad, at: Option<NodeIndex>, reason: DropReason, bytes: u64) {
        add_bytes(&mut load.undelivered, bytes);
        add_bytes(self.dropped.entry((at, self.dst, reason)).or_insert(0), bytes);
    }
}

fn spread_destination(
    fabric: &Fabric,
    dst: Lid,
    flows: &[&Flow],
    (load, add_at): (&mut RailLoad, &mut dyn FnMut(usize, u64)),
    dropped: &mut Dropped,
) {
    let mut drops = Drops { dropped, dst };
    let mut frontier = inject(fabric, flows, (load, add_at), &mut drops);
    let Some(destination) = fabric.owner_of_lid(dst) else { return };
    let mut progress = Progress::new(fabric, dst);
    for _ in 0..=AR_MAX_HOPS.min(fabric.graph.node_count()) {
        if frontier.is_empty() {
            return;
        }
        let mut next_frontier = BTreeMap::new();
        for (node, bytes) in frontier {
            if node == destination.node {
                add_bytes(&mut load.delivered, bytes);
                continue;
            }
            if fabric.node(node).kind != NodeKind::Switch {
                drops.drop(load, Some(node), DropReason::WrongEndpoint, bytes);
                continue;
            }
            let ports = match out_ports(fabric, node, dst, &mut progress) {
                Ok(ports) => ports,
                Err(reason) => {
                    drops.drop(load, Some(node), reason, bytes);
                    continue;
                }
            };
            let k = ports.len() as u64;
            for (i, port) in ports.into_iter().enumerate() {
                let share = bytes / k + u64::from((i as u64) < bytes % k);
                if share == 0 {
                    continue;
                }
                match fabric.out_through(node, port) {
                    Some((end, next, _)) => {
                        add_at(end.index(), share);
                        add_bytes(next_frontier.entry(next).or_insert(0), share);
                    }
                    None => drops.drop(load, Some(node), DropReason::DeadPort, share),
                }
            }
        }
        frontier = next_frontier;
    }
    for (node, bytes) in frontier {
        drops.drop(load, Some(node), DropReason::Loop, bytes);
    }
}

/// The bytes standing at each node before the first switch hop: a CA's flows have crossed its
/// own link; a switch's (or one already at its destination) have not moved.
fn inject(
    fabric: &Fabric,
    flows: &[&Flow],
    (load, add_at): (&mut RailLoad, &mut dyn FnMut(usize, u64)),
    drops: &mut Drops<'_>,
) -> BTreeMap<NodeIndex, u64> {
    let destination = fabric.owner_of_lid(drops.dst);
    let mut frontier: BTreeMap<NodeIndex, u64> = BTreeMap::new();
    for flow in flows {
        add_bytes(&mut load.injected, flow.bytes);
        let Some(source) = fabric.owner_of_lid(flow.src) else {
            drops.drop(load, None, DropReason::UnknownSource, flow.bytes);
            continue;
        };
        let Some(to) = destination else {
            drops.drop(load, Some(source.node), DropReason::UnknownDestination, flow.bytes);
            continue;
        };
        // Already there (another LID of the same port): no link is crossed, as in the static trace.
        if source.node == to.node || fabric.node(source.node).kind == NodeKind::Switch {
            add_bytes(frontier.entry(source.node).or_insert(0), flow.bytes);
            continue;
        }
        // A CA sends out of the port that owns the source LID.
        match fabric.out_through(source.node, source.port) {
            Some((end, next, _)) => {
                add_at(end.index(), flow.bytes);
                add_bytes(frontier.entry(next).or_insert(0), flow.bytes);
            }
            None => drops.drop(load, Some(source.node), DropReason::DeadPort, flow.bytes),
        }
    }
    frontier
}

/// The ports a switch sends `dst`'s bytes out of: its AR group's cabled ports that bring them
/// closer ([`Progress`]), else the static one.
fn out_ports(
    fabric: &Fabric,
    switch: NodeIndex,
    dst: Lid,
    progress: &mut Progress<'_>,
) -> Result<Vec<PortNum>, DropReason> {
    if let Some(group) = fabric.ar(switch).and_then(|t| t.group_ports(dst)) {
        let closer: Vec<PortNum> = group
            .iter()
            .copied()
            .filter(|&p| {
                fabric.out_through(switch, p).is_some_and(|(_, next, _)| progress.closer(switch, next))
            })
            .collect();
        if !closer.is_empty() {
            return Ok(closer);
        }
    }
    next_port(fabric, switch, dst).map(|p| vec![p])
}

/// AR loads beside the static ones: every region (and the total) of `static_loads`, spread from
/// the same flows. Rails without AR tables get their static loads unchanged.
pub fn ar_loads(cluster: &Cluster, static_loads: &Loads, flows: &crate::routing::RegionFlows) -> Loads {
    let region = |loads: &RegionLoads| {
        let key = loads.region.map_or(RegionKey::Total, RegionKey::Region);
        ar_region(cluster, loads, flows.get(&key).map(|f| &**f))
    };
    Loads { regions: static_loads.regions.iter().map(region).collect(), total: region(&static_loads.total) }
}

/// One region's AR loads: each rail with AR tables spread from `flows`, the others (and every
/// rail when there are no flows) as in `static_loads`.
pub fn ar_region(cluster: &Cluster, static_loads: &RegionLoads, flows: Option<&FlowSet>) -> RegionLoads {
    let rails = cluster
        .rails
        .iter()
        .enumerate()
        .map(|(r, fabric)| match flows.and_then(|f| f.flows.get(r)) {
            Some(flows) if fabric.has_adaptive_routing() => spread(fabric, flows),
            _ => static_loads.rails.get(r).cloned().unwrap_or_default(),
        })
        .collect();
    RegionLoads { rails, ..static_loads.clone() }
}

/// Whether any rail of the cluster has AR tables (then AR loads are worth computing).
pub fn cluster_has_ar(cluster: &Cluster) -> bool {
    cluster.rails.iter().any(Fabric::has_adaptive_routing)
}

#[cfg(test)]
#[path = "ar_tests.rs"]
mod tests;
