//! Link-end bytes and the delivery accounting for one rail and several regions at once, and the
//! push of one destination's demand down its routing tree.

use std::collections::HashMap;

use petgraph::graph::NodeIndex;

use crate::model::bytes::add_bytes;
use crate::model::{Lid, LinkEnd};

use super::loads::{DropReason, LinkBytes, RailLoad, Undelivered, merge_undelivered};
use super::tree::{Next, Trees};

/// Where and why bytes stopped: (region, node, destination LID, reason).
type DropKey = (usize, Option<NodeIndex>, Lid, DropReason);

/// One rail's loads for `regions` regions; byte counters are indexed `end * regions + region`.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    regions: usize,
    bytes: Vec<u64>,
    injected: Vec<u64>,
    delivered: Vec<u64>,
    undelivered: Vec<u64>,
    dropped: HashMap<DropKey, u64>,
}

impl Tally {
    pub fn new(link_ends: usize, regions: usize) -> Self {
        Tally {
            regions,
            bytes: vec![0; link_ends * regions],
            injected: vec![0; regions],
            delivered: vec![0; regions],
            undelivered: vec![0; regions],
            dropped: HashMap::new(),
        }
    }

    pub fn credit(&mut self, end: LinkEnd, region: usize, bytes: u64) {
        add_bytes(&mut self.bytes[end.index() * self.regions + region], bytes);
    }

    pub fn inject(&mut self, region: usize, bytes: u64) {
        add_bytes(&mut self.injected[region], bytes);
    }

    pub fn deliver(&mut self, region: usize, bytes: u64) {
        add_bytes(&mut self.delivered[region], bytes);
    }

    pub fn drop_bytes(
        &mut self,
        region: usize,
        at: Option<NodeIndex>,
        dst: Lid,
        reason: DropReason,
        bytes: u64,
    ) {
        add_bytes(&mut self.undelivered[region], bytes);
        add_bytes(self.dropped.entry((region, at, dst, reason)).or_insert(0), bytes);
    }

    /// Pushes `demand` (indexed `node * regions + region`, bytes waiting at each switch) from the
    /// deepest resolved switches toward the destination `dst`, leaving it all zero.
    pub fn push(&mut self, trees: &mut Trees<'_>, demand: &mut [u64], dst: Lid) {
        trees.sort_deepest_first();
        let regions = self.regions;
        for &node in trees.chain() {
            let next = trees.next(node);
            for r in 0..regions {
                let bytes = std::mem::take(&mut demand[node.index() * regions + r]);
                if bytes == 0 {
                    continue;
                }
                match next {
                    Next::Switch(end, n) => {
                        self.credit(end, r, bytes);
                        add_bytes(&mut demand[n.index() * regions + r], bytes);
                    }
                    Next::Deliver(end) => {
                        self.credit(end, r, bytes);
                        self.deliver(r, bytes);
                    }
                    Next::WrongEndpoint(end, n) => {
                        self.credit(end, r, bytes);
                        self.drop_bytes(r, Some(n), dst, DropReason::WrongEndpoint, bytes);
                    }
                    Next::Here => self.deliver(r, bytes),
                    Next::Drop(reason) => self.drop_bytes(r, Some(node), dst, reason, bytes),
                }
            }
        }
    }

    pub fn merge(mut self, other: Tally) -> Self {
        for (a, b) in self.bytes.iter_mut().zip(&other.bytes) {
            add_bytes(a, *b);
        }
        for r in 0..self.regions {
            add_bytes(&mut self.injected[r], other.injected[r]);
            add_bytes(&mut self.delivered[r], other.delivered[r]);
            add_bytes(&mut self.undelivered[r], other.undelivered[r]);
        }
        for (k, v) in other.dropped {
            add_bytes(self.dropped.entry(k).or_insert(0), v);
        }
        self
    }

    /// One [`RailLoad`] per region.
    pub fn finish(self) -> Vec<RailLoad> {
        let regions = self.regions;
        let link_ends = self.bytes.len() / regions.max(1);
        let mut loads: Vec<RailLoad> = (0..regions)
            .map(|r| RailLoad {
                bytes: LinkBytes::from_sorted(
                    link_ends,
                    (0..link_ends).map(|e| (e as u32, self.bytes[e * regions + r])),
                ),
                injected: self.injected[r],
                delivered: self.delivered[r],
                undelivered: self.undelivered[r],
                undelivered_detail: Vec::new(),
            })
            .collect();
        let mut detail: Vec<Vec<Undelivered>> = vec![Vec::new(); regions];
        for ((r, at, destination, reason), bytes) in self.dropped {
            detail[r].push(Undelivered { at, destination, reason, bytes });
        }
        for (load, detail) in loads.iter_mut().zip(detail) {
            load.undelivered_detail = merge_undelivered(detail);
        }
        loads
    }
}
