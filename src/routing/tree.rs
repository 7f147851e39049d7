//! One destination's routing tree, resolved lazily from the switches that traffic enters at.
//!
//! InfiniBand forwarding is destination-based: for one destination LID every switch has one next
//! hop, so the switches form a tree toward the destination (or, in a broken fabric, a graph with
//! a loop). [`Trees`] follows the chain from each entry switch once per destination, records
//! each switch's next hop and its depth (hops to the chain's end), and hands the switches out
//! deepest first, the order in which demand can be pushed toward the destination.

use petgraph::graph::NodeIndex;

use crate::model::{Fabric, Lid, LinkEnd};

use super::loads::DropReason;
use super::port_hops::PortHops;
use super::trace::next_port;

/// Where a switch sends one destination's bytes.
#[derive(Clone, Copy)]
pub(crate) enum Next {
    /// On to another switch.
    Switch(LinkEnd, NodeIndex),
    /// Into the destination CA (or the destination switch).
    Deliver(LinkEnd),
    /// Into a CA that is not the destination.
    WrongEndpoint(LinkEnd, NodeIndex),
    /// This switch is the destination.
    Here,
    Drop(DropReason),
}

const IN_PROGRESS: u32 = u32::MAX;

/// Scratch for resolving one destination at a time; reused across destinations.
pub(crate) struct Trees<'f> {
    fabric: &'f Fabric,
    hops: &'f PortHops,
    dst: Lid,
    destination: NodeIndex,
    // Indexed by node; `depth`/`next` are valid where `stamp == generation`.
    generation: u32,
    stamp: Vec<u32>,
    depth: Vec<u32>,
    next: Vec<Next>,
    chain: Vec<NodeIndex>,
    stack: Vec<NodeIndex>,
}

impl<'f> Trees<'f> {
    /// Scratch for `fabric`, whose ports `hops` describes ([`PortHops::new`]).
    pub fn new(fabric: &'f Fabric, hops: &'f PortHops) -> Self {
        let nodes = fabric.graph.node_count();
        Trees {
            fabric,
            hops,
            dst: Lid(0),
            destination: NodeIndex::new(0),
            generation: 0,
            stamp: vec![0; nodes],
            depth: vec![0; nodes],
            next: vec![Next::Here; nodes],
            chain: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// Starts a new destination: forgets every chain resolved before.
    pub fn begin(&mut self, dst: Lid, destination: NodeIndex) {
        self.dst = dst;
        self.destination = destination;
        self.generation += 1;
        self.chain.clear();
    }

    /// Follows the chain from `start` toward the destination, recording each switch's next hop
    /// and depth. Returns false if the chain loops (or joins a chain that loops).
    pub fn resolve(&mut self, start: NodeIndex) -> bool {
        self.stack.clear();
        let mut node = start;
        loop {
            let i = node.index();
            if self.stamp[i] == self.generation {
                if self.depth[i] == IN_PROGRESS {
                    return false;
                }
                break;
            }
            self.stamp[i] = self.generation;
            self.depth[i] = IN_PROGRESS;
            self.stack.push(node);
            self.chain.push(node);
            let next = self.next_of(node);
            self.next[i] = next;
            match next {
                Next::Switch(_, n) => node = n,
                _ => break,
            }
        }
        while let Some(n) = self.stack.pop() {
            self.depth[n.index()] = match self.next[n.index()] {
                Next::Switch(_, m) => self.depth[m.index()] + 1,
                _ => 0,
            };
        }
        true
    }

    /// Sorts the switches resolved so far deepest first; read them with [`Trees::chain`].
    pub fn sort_deepest_first(&mut self) {
        let depth = &self.depth;
        self.chain.sort_unstable_by_key(|n| std::cmp::Reverse(depth[n.index()]));
    }

    pub fn chain(&self) -> &[NodeIndex] {
        &self.chain
    }

    /// The next hop of a switch resolved since [`Trees::begin`].
    pub fn next(&self, node: NodeIndex) -> Next {
        self.next[node.index()]
    }

    fn next_of(&self, switch: NodeIndex) -> Next {
        let fabric = self.fabric;
        if switch == self.destination {
            return Next::Here;
        }
        let port = match next_port(fabric, switch, self.dst) {
            Ok(port) => port,
            Err(reason) => return Next::Drop(reason),
        };
        match self.hops.get(switch, port) {
            None => Next::Drop(DropReason::DeadPort),
            Some(hop) if hop.next == self.destination => Next::Deliver(hop.end),
            Some(hop) if hop.next_is_switch => Next::Switch(hop.end, hop.next),
            Some(hop) => Next::WrongEndpoint(hop.end, hop.next),
        }
    }
}
