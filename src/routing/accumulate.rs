//! Credits many flows to link ends at once, by accumulating along each destination's routing tree.
//!
//! InfiniBand forwarding is destination-based: for one destination LID the tables form a tree
//! (or, in a broken fabric, a graph with a loop). Instead of walking every source → destination
//! path (pairs × hops), each destination's demand is pushed once down its tree, deepest switch
//! first, so the cost is pairs + switches per destination. Destinations whose tree has a loop fall
//! back to per-pair [`trace`](super::trace::trace), so loops are reported exactly as a trace would.

use petgraph::graph::NodeIndex;
use rayon::prelude::*;

use crate::model::bytes::add_bytes;
use crate::model::{Fabric, Lid, LinkEnd, NodeKind};

use super::loads::{DropReason, RailLoad};
use super::port_hops::PortHops;
use super::tally::Tally;
use super::trace::{Outcome, trace};
use super::tree::Trees;

/// Bytes from one LID to another on one rail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow {
    pub src: Lid,
    pub dst: Lid,
    pub bytes: u64,
}

/// Traces every flow and returns the rail's load. Conserves bytes: injected = delivered + undelivered.
pub fn accumulate(fabric: &Fabric, flows: &[Flow]) -> RailLoad {
    let sources = source_table(fabric, flows);
    let hops = PortHops::new(fabric);
    let (order, groups) = group_by_destination(flows);
    let groups: Vec<&[usize]> = groups.into_iter().map(|range| &order[range]).collect();
    let partial = groups
        .par_iter()
        .fold(
            || Accumulator::new(fabric, &sources, &hops),
            |mut acc, group| {
                acc.add_destination(flows, group);
                acc
            },
        )
        .reduce(|| Accumulator::new(fabric, &sources, &hops), Accumulator::merge);
    partial.finish()
}

/// Flow indices ordered by destination LID (stable within a destination), and each
/// destination's range in that order. A counting sort: LIDs are 16-bit, so this is O(flows).
fn group_by_destination(flows: &[Flow]) -> (Vec<usize>, Vec<std::ops::Range<usize>>) {
    let mut start = vec![0usize; usize::from(u16::MAX) + 2];
    for flow in flows {
        start[usize::from(flow.dst.0) + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut next = start.clone();
    let mut order = vec![0; flows.len()];
    for (i, flow) in flows.iter().enumerate() {
        let slot = &mut next[usize::from(flow.dst.0)];
        order[*slot] = i;
        *slot += 1;
    }
    let groups = start.windows(2).filter(|w| w[0] < w[1]).map(|w| w[0]..w[1]).collect();
    (order, groups)
}

/// Where a flow stands after leaving its source CA.
#[derive(Clone, Copy)]
struct Entry {
    /// The source CA's own link end, if the flow left a CA.
    first: Option<LinkEnd>,
    state: EntryState,
}

#[derive(Clone, Copy)]
enum EntryState {
    AtSwitch(NodeIndex),
    Delivered,
    Dropped(Option<NodeIndex>, DropReason),
}

/// Where a source LID's bytes enter the switches; the same for every destination.
#[derive(Clone, Copy)]
pub(crate) struct Source {
    /// The node owning the source LID.
    pub origin: NodeIndex,
    /// The origin CA's own link end (none when the origin is a switch).
    pub first: Option<LinkEnd>,
    /// The node the bytes reach first (the origin itself for a switch); `None`: dead port.
    pub next: Option<NodeIndex>,
    pub next_is_switch: bool,
}

/// Where the bytes of a LID enter the switches, for every LID owned in the fabric.
pub(crate) fn source_of(fabric: &Fabric, lid: Lid) -> Option<Source> {
    let owner = fabric.owner_of_lid(lid)?;
    let origin = owner.node;
    Some(if fabric.node(origin).kind == NodeKind::Switch {
        Source { origin, first: None, next: Some(origin), next_is_switch: true }
    } else {
        match fabric.out_through(origin, owner.port) {
            None => Source { origin, first: None, next: None, next_is_switch: false },
            Some((end, next, _)) => Source {
                origin,
                first: Some(end),
                next: Some(next),
                next_is_switch: fabric.node(next).kind == NodeKind::Switch,
            },
        }
    })
}

/// Sources indexed by LID, computed once per call for every LID that sends.
fn source_table(fabric: &Fabric, flows: &[Flow]) -> Vec<Option<Source>> {
    let Some(max) = flows.iter().map(|f| f.src.0).max() else { return Vec::new() };
    let mut table = vec![None; usize::from(max) + 1];
    let mut done = vec![false; table.len()];
    for flow in flows {
        let i = usize::from(flow.src.0);
        if !std::mem::replace(&mut done[i], true) {
            table[i] = source_of(fabric, flow.src);
        }
    }
    table
}

struct Accumulator<'f> {
    fabric: &'f Fabric,
    sources: &'f [Option<Source>],
    tally: Tally,
    trees: Trees<'f>,
    /// Bytes waiting at each switch for the current destination; all zero between destinations.
    demand: Vec<u64>,
    entries: Vec<Entry>,
}

impl<'f> Accumulator<'f> {
    fn new(fabric: &'f Fabric, sources: &'f [Option<Source>], hops: &'f PortHops) -> Self {
        Accumulator {
            fabric,
            sources,
            tally: Tally::new(fabric.link_end_count(), 1),
            trees: Trees::new(fabric, hops),
            demand: vec![0; fabric.graph.node_count()],
            entries: Vec::new(),
        }
    }

    fn add_destination(&mut self, flows: &[Flow], group: &[usize]) {
        let Some(&first) = group.first() else { return };
        let dst = flows[first].dst;
        for &i in group {
            self.tally.inject(0, flows[i].bytes);
        }
        let Some(destination) = self.fabric.owner_of_lid(dst) else {
            for &i in group {
                let at = self.fabric.owner_of_lid(flows[i].src).map(|o| o.node);
                let reason =
                    if at.is_some() { DropReason::UnknownDestination } else { DropReason::UnknownSource };
                self.tally.drop_bytes(0, at, dst, reason, flows[i].bytes);
            }
            return;
        };
        self.trees.begin(dst, destination.node);
        let mut entries = std::mem::take(&mut self.entries);
        entries.clear();
        entries.extend(group.iter().map(|&i| self.entry_of(flows[i], destination.node)));
        let looped = entries.iter().any(|e| match e.state {
            EntryState::AtSwitch(s) => !self.trees.resolve(s),
            _ => false,
        });
        if looped {
            self.trace_each(flows, group);
        } else {
            for (e, &i) in entries.iter().zip(group) {
                self.credit_entry(*e, flows[i]);
            }
            self.tally.push(&mut self.trees, &mut self.demand, dst);
        }
        self.entries = entries;
    }

    /// Where a flow enters the switch fabric: its source CA's link, then the switch behind it.
    fn entry_of(&self, flow: Flow, destination: NodeIndex) -> Entry {
        let dropped = |at, reason| Entry { first: None, state: EntryState::Dropped(at, reason) };
        let Some(source) = self.sources.get(usize::from(flow.src.0)).copied().flatten() else {
            return dropped(None, DropReason::UnknownSource);
        };
        if source.origin == destination {
            return Entry { first: None, state: EntryState::Delivered };
        }
        let Some(node) = source.next else {
            return dropped(Some(source.origin), DropReason::DeadPort);
        };
        let state = if node == destination {
            EntryState::Delivered
        } else if !source.next_is_switch {
            EntryState::Dropped(Some(node), DropReason::WrongEndpoint)
        } else {
            EntryState::AtSwitch(node)
        };
        Entry { first: source.first, state }
    }

    fn credit_entry(&mut self, entry: Entry, flow: Flow) {
        if let Some(end) = entry.first {
            self.tally.credit(end, 0, flow.bytes);
        }
        match entry.state {
            EntryState::AtSwitch(s) => {
                add_bytes(&mut self.demand[s.index()], flow.bytes);
            }
            EntryState::Delivered => self.tally.deliver(0, flow.bytes),
            EntryState::Dropped(at, reason) => self.tally.drop_bytes(0, at, flow.dst, reason, flow.bytes),
        }
    }

    /// The exact per-pair walk, for a destination whose tables loop.
    fn trace_each(&mut self, flows: &[Flow], group: &[usize]) {
        for &i in group {
            let flow = flows[i];
            let path = trace(self.fabric, flow.src, flow.dst);
            for end in &path.link_ends {
                self.tally.credit(*end, 0, flow.bytes);
            }
            match path.outcome {
                Outcome::Delivered => self.tally.deliver(0, flow.bytes),
                Outcome::Dropped { at, reason } => self.tally.drop_bytes(0, at, flow.dst, reason, flow.bytes),
            }
        }
    }

    fn merge(mut self, other: Accumulator<'f>) -> Self {
        self.tally = self.tally.merge(other.tally);
        self
    }

    fn finish(self) -> RailLoad {
        self.tally.finish().pop().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_fabric::{TwoLeaves, set_row, two_leaves};
    use crate::model::{LftEntry, PortNum};

    const LIDS: [u16; 5] = [0x10, 0x11, 0x12, 0x13, 0x14];

    fn all_pairs(bytes: u64) -> Vec<Flow> {
        let mut flows = Vec::new();
        for (i, &s) in LIDS[..4].iter().enumerate() {
            for (j, &d) in LIDS.iter().enumerate() {
                if s != d && !(s == 0x13 && d == 0x14) {
                    flows.push(Flow { src: Lid(s), dst: Lid(d), bytes: bytes + (i * 10 + j) as u64 });
                }
            }
        }
        flows
    }

    /// The reference: walk every flow's path and credit each link end on it.
    fn traced_one_by_one(fabric: &Fabric, flows: &[Flow]) -> (Vec<u64>, u64, u64) {
        let mut bytes = vec![0; fabric.link_end_count()];
        let (mut delivered, mut undelivered) = (0, 0);
        for f in flows {
            let path = trace(fabric, f.src, f.dst);
            for end in &path.link_ends {
                bytes[end.index()] += f.bytes;
            }
            if path.delivered() { delivered += f.bytes } else { undelivered += f.bytes }
        }
        (bytes, delivered, undelivered)
    }

    fn assert_matches_per_pair_tracing(fabric: &Fabric, flows: &[Flow]) -> RailLoad {
        let load = accumulate(fabric, flows);
        let (bytes, delivered, undelivered) = traced_one_by_one(fabric, flows);
        assert_eq!(load.bytes.to_dense(), bytes);
        assert_eq!((load.delivered, load.undelivered), (delivered, undelivered));
        assert!(load.is_conserved());
        assert_eq!(load.undelivered_detail.iter().map(|u| u.bytes).sum::<u64>(), load.undelivered);
        load
    }

    #[test]
    fn accumulating_by_destination_equals_tracing_every_pair() {
        let TwoLeaves { fabric, .. } = two_leaves();
        let load = assert_matches_per_pair_tracing(&fabric, &all_pairs(1000));
        assert_eq!(load.undelivered, 0);
    }

    #[test]
    fn holes_are_undelivered_at_the_switch_that_dropped_them() {
        let TwoLeaves { mut fabric, spine, .. } = two_leaves();
        set_row(&mut fabric, spine, Lid(0x12), LftEntry::Missing);
        let load = assert_matches_per_pair_tracing(&fabric, &all_pairs(1000));
        assert!(load.undelivered > 0);
        assert!(load.undelivered_detail.iter().all(|u| u.at == Some(spine)
            && u.destination == Lid(0x12)
            && u.reason == DropReason::MissingEntry));
    }

    #[test]
    fn a_looping_destination_falls_back_to_exact_tracing() {
        let TwoLeaves { mut fabric, spine, .. } = two_leaves();
        set_row(&mut fabric, spine, Lid(0x13), LftEntry::Port(PortNum(1)));
        let load = assert_matches_per_pair_tracing(&fabric, &all_pairs(1000));
        assert!(load.undelivered_detail.iter().any(|u| u.reason == DropReason::Loop));
    }

    #[test]
    fn unknown_lids_are_injected_and_undelivered() {
        let TwoLeaves { fabric, .. } = two_leaves();
        let flows = [
            Flow { src: Lid(0x10), dst: Lid(0x77), bytes: 5 },
            Flow { src: Lid(0x77), dst: Lid(0x10), bytes: 7 },
        ];
        let load = accumulate(&fabric, &flows);
        assert_eq!((load.injected, load.delivered, load.undelivered), (12, 0, 12));
        assert!(load.is_conserved());
    }

    #[test]
    fn each_direction_of_a_link_is_credited_to_its_own_end() {
        let TwoLeaves { fabric, h, leaf, .. } = two_leaves();
        let flows = [
            Flow { src: Lid(0x10), dst: Lid(0x11), bytes: 100 },
            Flow { src: Lid(0x11), dst: Lid(0x10), bytes: 3 },
        ];
        let load = accumulate(&fabric, &flows);
        let (up, _, _) = fabric.out_through(h[0], PortNum(1)).unwrap();
        let (down, _, _) = fabric.out_through(leaf[0], PortNum(1)).unwrap();
        assert_eq!(up.edge, down.edge);
        assert_eq!((load.at(up), load.at(down)), (100, 3));
    }
}
