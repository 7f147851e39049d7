//! The switches each flow's path crosses (INTAP-MPI's hop class), without tracing each flow
//! (issue 23): forwarding is by destination alone, so from a given switch every flow to one
//! destination LID takes the same way. Flows are grouped by destination, and within a group the
//! switches crossed from each switch met are remembered: a group's flows cost one walk from each
//! entry switch, the rest are lookups. The counts are what [`super::trace`] finds hop by hop (a
//! test pins them for every pair of a fabric with holes, loops and dead ports).

use rayon::prelude::*;

use crate::model::{Fabric, Lid, NodeKind};

use super::accumulate::Flow;
use super::trace::next_port;

/// The switches crossed by each of `flows` (in their order) on `fabric`; `None` where the path
/// is not delivered.
pub fn switches_crossed_all(fabric: &Fabric, flows: &[Flow]) -> Vec<Option<u32>> {
    let mut order: Vec<usize> = (0..flows.len()).collect();
    order.par_sort_unstable_by_key(|&i| flows[i].dst);
    let groups: Vec<&[usize]> = order.chunk_by(|&a, &b| flows[a].dst == flows[b].dst).collect();
    let counted: Vec<Vec<(usize, Option<u32>)>> = groups
        .par_iter()
        .map_init(
            || Walker::new(fabric),
            |walker, group| {
                let Some(&first) = group.first() else { return Vec::new() };
                walker.start(flows[first].dst);
                group.iter().map(|&i| (i, walker.from_source(flows[i].src))).collect()
            },
        )
        .collect();
    let mut out = vec![None; flows.len()];
    for (i, hops) in counted.into_iter().flatten() {
        out[i] = hops;
    }
    out
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
    memo: Vec<(u32, Known)>,
    stamp: u32,
    dst: Lid,
    /// The node owning `dst`, `None` when no port owns it.
    destination: Option<petgraph::graph::NodeIndex>,
    walk: Vec<usize>,
}

impl<'f> Walker<'f> {
    fn new(fabric: &'f Fabric) -> Self {
        Walker {
            fabric,
            memo: vec![(0, Known::Unknown); fabric.graph.node_count()],
            stamp: 0,
            dst: Lid(0),
            destination: None,
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
        self.destination = self.fabric.owner_of_lid(dst).map(|o| o.node);
    }

    fn known(&self, node: usize) -> Known {
        match self.memo.get(node) {
            Some(&(stamp, known)) if stamp == self.stamp => known,
            _ => Known::Unknown,
        }
    }

    fn set(&mut self, node: usize, known: Known) {
        if let Some(slot) = self.memo.get_mut(node) {
            *slot = (self.stamp, known);
        }
    }

    /// As [`super::trace`] starts: a CA sends out of the port owning `src`, a switch consults
    /// its table.
    fn from_source(&mut self, src: Lid) -> Option<u32> {
        let fabric = self.fabric;
        let source = fabric.owner_of_lid(src)?;
        let destination = self.destination?;
        if source.node == destination {
            return Some(u32::from(fabric.node(source.node).kind == NodeKind::Switch));
        }
        if fabric.node(source.node).kind == NodeKind::Switch {
            return self.from_switch(source.node.index());
        }
        let (_, next, _) = fabric.out_through(source.node, source.port)?;
        match fabric.node(next).kind {
            NodeKind::Switch => self.from_switch(next.index()),
            // A CA or router other than the destination forwards nothing.
            _ => (next == destination).then_some(0),
        }
    }

    /// Switches crossed from switch `start` on: walks until a node already known, then writes
    /// the count of every switch walked.
    fn from_switch(&mut self, start: usize) -> Option<u32> {
        let fabric = self.fabric;
        let destination = self.destination?;
        self.walk.clear();
        let mut node = start;
        // What the node where the walk stopped contributes (itself included).
        let mut end = loop {
            match self.known(node) {
                Known::Crossed(c) => break c,
                Known::OnWalk => break None,
                Known::Unknown => {}
            }
            let index = petgraph::graph::NodeIndex::new(node);
            if index == destination {
                break Some(u32::from(fabric.node(index).kind == NodeKind::Switch));
            }
            if fabric.node(index).kind != NodeKind::Switch {
                break None;
            }
            self.set(node, Known::OnWalk);
            self.walk.push(node);
            let Ok(port) = next_port(fabric, index, self.dst) else { break None };
            let Some((_, next, _)) = fabric.out_through(index, port) else { break None };
            node = next.index();
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
