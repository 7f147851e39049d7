//! The switches each flow's path crosses (INTAP-MPI's hop class), without tracing each flow
//! (issue 23): forwarding is by destination alone, so from a given switch every flow to one
//! destination LID takes the same way. Flows are grouped by destination, and within a group the
//! switches crossed from each switch met are remembered: a group's flows cost one walk from each
//! entry switch, the rest are lookups. The counts are what [`super::trace`] finds hop by hop (a
//! test pins them for every pair of a fabric with holes, loops and dead ports).

use petgraph::graph::NodeIndex;
use rayon::prelude::*;

use crate::model::{Cluster, Fabric, Lid, NodeKind, PortNum};

use super::accumulate::Flow;
use super::flows::FlowSet;
use super::trace::next_port;

/// No node: an uncabled port, an unowned LID.
const NONE: u32 = u32::MAX;

/// The switches crossed by each of `flows` (in their order) on `fabric`; `None` where the path
/// is not delivered.
pub fn switches_crossed_all(fabric: &Fabric, flows: &[Flow]) -> Vec<Option<u32>> {
    let wiring = Wiring::new(fabric);
    // (destination, flow) in one word, sorted without looking back into the flows (a flow
    // list is far below 2^32 flows: it is held in memory).
    let mut order: Vec<u64> =
        flows.iter().enumerate().map(|(i, f)| (u64::from(f.dst.0) << 32) | i as u64).collect();
    order.par_sort_unstable();
    let groups: Vec<&[u64]> = order.chunk_by(|a, b| a >> 32 == b >> 32).collect();
    let counted: Vec<Vec<Option<u32>>> = groups
        .par_iter()
        .map_init(
            || Walker::new(fabric, &wiring),
            |walker, group| {
                let Some(&first) = group.first() else { return Vec::new() };
                walker.start(Lid((first >> 32) as u16));
                group.iter().map(|&key| walker.crossed_from_source(flows[key as u32 as usize].src)).collect()
            },
        )
        .collect();
    let mut out = vec![None; flows.len()];
    for (group, hops) in groups.iter().zip(counted) {
        for (&key, hops) in group.iter().zip(hops) {
            out[key as u32 as usize] = hops;
        }
    }
    out
}

/// A kept switch count's byte for a path not delivered.
pub const NOT_DELIVERED: u8 = u8::MAX;

/// Computes and keeps, in `set.hops`, the switches each flow of every rail crosses (one byte a
/// flow). A rail where some path crosses more switches than a byte holds keeps none (its pair
/// tables walk it each time, as for a set that keeps none).
pub fn keep_switch_counts(cluster: &Cluster, set: &mut FlowSet) {
    set.hops = set
        .flows
        .par_iter()
        .enumerate()
        .map(|(r, flows)| {
            let Some(fabric) = cluster.rails.get(r) else { return Vec::new() };
            switches_crossed_all(fabric, flows)
                .into_iter()
                .map(|c| {
                    c.map_or(Some(NOT_DELIVERED), |n| u8::try_from(n).ok().filter(|&b| b != NOT_DELIVERED))
                })
                .collect::<Option<Vec<u8>>>()
                .unwrap_or_default()
        })
        .collect();
}

/// The switches a kept byte says a path crosses.
pub fn kept_count(byte: u8) -> Option<u32> {
    (byte != NOT_DELIVERED).then_some(u32::from(byte))
}

/// One rail's switch counts for a pair table: the set's kept bytes, or walked now.
pub enum RailCounts<'a> {
    Kept(&'a [u8]),
    Walked(Vec<Option<u32>>),
}

impl<'a> RailCounts<'a> {
    /// Rail `r`'s counts for `set`'s flows on `fabric`.
    pub fn of(fabric: &Fabric, set: &'a FlowSet, r: usize) -> RailCounts<'a> {
        let flows = set.flows.get(r).map_or(&[][..], Vec::as_slice);
        match set.hops.get(r) {
            Some(kept) if kept.len() == flows.len() => RailCounts::Kept(kept),
            _ => RailCounts::Walked(switches_crossed_all(fabric, flows)),
        }
    }

    /// The count of flow `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            RailCounts::Kept(kept) => kept.get(i).copied().and_then(kept_count),
            RailCounts::Walked(walked) => walked.get(i).copied().flatten(),
        }
    }
}

/// The fabric's cabling in flat lists, so that a walk reads a few numbers per hop instead of
/// the graph's nodes and edges.
struct Wiring {
    /// Per node index: whether it is a switch.
    switch: Vec<bool>,
    /// Per LID: the node owning it, and the node its packets enter first (the owner itself
    /// for a switch; the far end of the owning port's cable for a CA).
    lids: Vec<(u32, u32)>,
    /// A switch's far ends by port number: `far[first[node] + port]`, up to its last cabled port.
    first: Vec<u32>,
    far: Vec<u32>,
}

impl Wiring {
    fn new(fabric: &Fabric) -> Wiring {
        let nodes = fabric.graph.node_count();
        let switch: Vec<bool> =
            (0..nodes).map(|n| fabric.node(NodeIndex::new(n)).kind == NodeKind::Switch).collect();
        let (mut first, mut far) = (Vec::with_capacity(nodes + 1), Vec::new());
        for (n, &is_switch) in switch.iter().enumerate() {
            first.push(u32::try_from(far.len()).unwrap_or(NONE));
            if !is_switch {
                continue;
            }
            let node = NodeIndex::new(n);
            let mut ends: Vec<u32> = (0..=u8::MAX)
                .map(|p| fabric.out_through(node, PortNum(p)).map_or(NONE, |(_, next, _)| index(next)))
                .collect();
            while ends.last() == Some(&NONE) {
                ends.pop();
            }
            far.extend(ends);
        }
        first.push(u32::try_from(far.len()).unwrap_or(NONE));
        let lids = (0..fabric.lid_end())
            .map(|lid| {
                let Some(owner) = u16::try_from(lid).ok().and_then(|l| fabric.owner_of_lid(Lid(l))) else {
                    return (NONE, NONE);
                };
                let enters = if switch[owner.node.index()] {
                    index(owner.node)
                } else {
                    fabric.out_through(owner.node, owner.port).map_or(NONE, |(_, next, _)| index(next))
                };
                (index(owner.node), enters)
            })
            .collect();
        Wiring { switch, lids, first, far }
    }

    fn is_switch(&self, node: u32) -> bool {
        self.switch.get(node as usize).copied().unwrap_or(false)
    }

    /// `(owner, entered first)` of a LID.
    fn lid(&self, lid: Lid) -> (u32, u32) {
        self.lids.get(usize::from(lid.0)).copied().unwrap_or((NONE, NONE))
    }

    /// The node at the far end of a switch's port.
    fn far_end(&self, node: u32, port: PortNum) -> u32 {
        let n = node as usize;
        let (Some(&from), Some(&to)) = (self.first.get(n), self.first.get(n + 1)) else { return NONE };
        let at = from as usize + usize::from(port.0);
        if at < to as usize { self.far[at] } else { NONE }
    }
}

fn index(node: NodeIndex) -> u32 {
    u32::try_from(node.index()).unwrap_or(NONE)
}

/// What the walk knows of a node for the current destination.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    Unknown,
    /// On the walk in progress: met again, the path loops.
    OnWalk,
    /// Switches crossed from here (this node included) to the destination; `None`: dropped.
    Crossed(Option<u32>),
}

/// One destination's memo: per node, `(destination stamp, what is known)`.
struct Walker<'f> {
    fabric: &'f Fabric,
    wiring: &'f Wiring,
    memo: Vec<(u32, Known)>,
    stamp: u32,
    dst: Lid,
    /// The node owning `dst`, [`NONE`] when no port owns it.
    destination: u32,
    walk: Vec<u32>,
}

impl<'f> Walker<'f> {
    fn new(fabric: &'f Fabric, wiring: &'f Wiring) -> Self {
        Walker {
            fabric,
            wiring,
            memo: vec![(0, Known::Unknown); fabric.graph.node_count()],
            stamp: 0,
            dst: Lid(0),
            destination: NONE,
            walk: Vec::new(),
        }
    }

    /// Forgets the previous destination's counts.
    fn start(&mut self, dst: Lid) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.memo.iter_mut().for_each(|m| *m = (0, Known::Unknown));
            self.stamp = 1;
        }
        self.dst = dst;
        self.destination = self.wiring.lid(dst).0;
    }

    fn known(&self, node: u32) -> Known {
        match self.memo.get(node as usize) {
            Some(&(stamp, known)) if stamp == self.stamp => known,
            _ => Known::Unknown,
        }
    }

    fn set(&mut self, node: u32, known: Known) {
        if let Some(slot) = self.memo.get_mut(node as usize) {
            *slot = (self.stamp, known);
        }
    }

    /// As [`super::trace`] starts: a CA sends out of the port owning `src`, a switch consults
    /// its table.
    fn crossed_from_source(&mut self, src: Lid) -> Option<u32> {
        let (source, enters) = self.wiring.lid(src);
        let destination = self.destination;
        if source == NONE || destination == NONE {
            return None;
        }
        if source == destination {
            return Some(u32::from(self.wiring.is_switch(source)));
        }
        if enters == NONE {
            return None;
        }
        match self.wiring.is_switch(enters) {
            true => self.crossed_from_switch(enters),
            // A CA or router other than the destination forwards nothing.
            false => (enters == destination).then_some(0),
        }
    }

    /// Switches crossed from switch `start` on: walks until a node already known, then writes
    /// the count of every switch walked.
    fn crossed_from_switch(&mut self, start: u32) -> Option<u32> {
        let destination = self.destination;
        self.walk.clear();
        let mut node = start;
        // What the node where the walk stopped contributes (itself included).
        let mut end = loop {
            match self.known(node) {
                Known::Crossed(c) => break c,
                Known::OnWalk => break None,
                Known::Unknown => {}
            }
            if node == destination {
                break Some(u32::from(self.wiring.is_switch(node)));
            }
            if !self.wiring.is_switch(node) {
                break None;
            }
            self.set(node, Known::OnWalk);
            self.walk.push(node);
            let Ok(port) = next_port(self.fabric, NodeIndex::new(node as usize), self.dst) else {
                break None;
            };
            node = self.wiring.far_end(node, port);
            if node == NONE {
                break None;
            }
        };
        while let Some(n) = self.walk.pop() {
            end = end.map(|c| c + 1);
            self.set(n, Known::Crossed(end));
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_fabric::{TwoLeaves, set_row, two_leaves};
    use crate::model::{LftEntry, PortNum};
    use crate::routing::trace;

    /// What tracing each flow hop by hop finds.
    fn traced(fabric: &Fabric, flows: &[Flow]) -> Vec<Option<u32>> {
        flows
            .iter()
            .map(|f| {
                let path = trace(fabric, f.src, f.dst);
                let switches = path.hops.iter().filter(|h| fabric.node(h.node).kind == NodeKind::Switch);
                path.delivered().then_some(switches.count() as u32)
            })
            .collect()
    }

    /// Every LID to every LID (switches' own, an LMC range's second, unknown ones included).
    fn every_pair() -> Vec<Flow> {
        let lids: Vec<Lid> = [1, 2, 3, 4, 0x10, 0x11, 0x12, 0x13, 0x14, 0x99].map(Lid).to_vec();
        lids.iter().flat_map(|&src| lids.iter().map(move |&dst| Flow { src, dst, bytes: 1 })).collect()
    }

    #[test]
    fn counts_are_what_tracing_each_flow_finds_on_sound_tables() {
        let TwoLeaves { fabric, .. } = two_leaves();
        let flows = every_pair();
        let counts = switches_crossed_all(&fabric, &flows);
        assert_eq!(counts, traced(&fabric, &flows));
        let across = flows.iter().position(|f| (f.src, f.dst) == (Lid(0x10), Lid(0x13))).unwrap();
        assert_eq!(counts[across], Some(3), "leaf, spine, leaf");
    }

    #[test]
    fn loops_holes_and_dead_ports_drop_the_same_flows_tracing_drops() {
        let TwoLeaves { mut fabric, leaf, spine, .. } = two_leaves();
        // The spine sends 0x13 back down to leaf 0 (a loop), leaf 1 has no row for 0x12, leaf 0
        // sends 0x11 out of an uncabled port, and the spine cannot reach 0x14.
        set_row(&mut fabric, spine, Lid(0x13), LftEntry::Port(PortNum(1)));
        set_row(&mut fabric, leaf[1], Lid(0x12), LftEntry::Missing);
        set_row(&mut fabric, leaf[0], Lid(0x11), LftEntry::Port(PortNum(9)));
        set_row(&mut fabric, spine, Lid(0x14), LftEntry::Unreachable);
        let flows = every_pair();
        let counts = switches_crossed_all(&fabric, &flows);
        assert_eq!(counts, traced(&fabric, &flows));
        assert!(counts.iter().any(Option::is_none) && counts.iter().any(Option::is_some));
    }
}
