//! One rank's share of the loads, traced where it runs (libibprof's `IBPROF_RAILS`): its own
//! counters placed with the same [`FlowBuilder`] rules as `shoal convert` (rail policy, host map,
//! intra-node and unplaced bytes) and traced through the forwarding tables into a dense vector
//! that MPI sums over ranks. Loads are linear in the flows, so the sum over ranks of these
//! vectors is exactly what tracing the gathered profile gives.
//!
//! The vector ([`VectorLayout`]): every rail's link ends (by [`LinkEnd::index`]), then per rail
//! injected, delivered and undelivered bytes by [`DropReason`], then unplaced and intra-node
//! bytes. Every entry is a byte count that adds up over ranks.

use std::collections::HashMap;

use crate::model::{Cluster, Lid, LinkEnd};

use super::accumulate::Flow;
use super::flows::{FlowBuilder, FlowOrigin, FlowSink, HostMap, RailPolicy, RankHostTable, RankTraffic};
use super::loads::{DropReason, RailLoad, RegionLoads, Undelivered};
use super::loads_input::TopPair;
use super::topk::{self, Contributor};
use super::trace::{Outcome, trace};

const PER_RAIL: usize = 2 + DropReason::ALL.len();

/// Where each count sits in a rank's vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorLayout {
    /// Start of each rail's link ends; then one past the last.
    pub offsets: Vec<usize>,
}

impl VectorLayout {
    pub fn new(cluster: &Cluster) -> VectorLayout {
        let mut offsets = vec![0];
        for fabric in &cluster.rails {
            offsets.push(offsets.last().copied().unwrap_or(0) + fabric.link_end_count());
        }
        VectorLayout { offsets }
    }

    /// Link ends over every rail.
    pub fn link_ends(&self) -> usize {
        self.offsets.last().copied().unwrap_or(0)
    }

    fn rails(&self) -> usize {
        self.offsets.len() - 1
    }

    fn accounting(&self, rail: usize) -> usize {
        self.link_ends() + rail * PER_RAIL
    }

    fn unplaced(&self) -> usize {
        self.link_ends() + self.rails() * PER_RAIL
    }

    /// The whole vector's length.
    pub fn len(&self) -> usize {
        self.unplaced() + 2
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// (rail, link-end index) of a position among the link ends.
    pub fn end_of(&self, position: usize) -> Option<(usize, usize)> {
        let rail = self.offsets.windows(2).position(|w| w[0] <= position && position < w[1])?;
        Some((rail, position - self.offsets[rail]))
    }

    /// A summed vector as a region's loads.
    pub fn region_loads(&self, vector: &[u64], region: Option<u32>) -> RegionLoads {
        let at = |i: usize| vector.get(i).copied().unwrap_or(0);
        let rails = (0..self.rails())
            .map(|r| {
                let base = self.accounting(r);
                let undelivered_detail: Vec<Undelivered> = DropReason::ALL
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| at(base + 2 + i) > 0)
                    .map(|(i, &reason)| Undelivered {
                        at: None,
                        destination: Lid(0),
                        reason,
                        bytes: at(base + 2 + i),
                    })
                    .collect();
                RailLoad {
                    bytes: (self.offsets[r]..self.offsets[r + 1]).map(at).collect(),
                    injected: at(base),
                    delivered: at(base + 1),
                    undelivered: undelivered_detail.iter().map(|u| u.bytes).fold(0, u64::saturating_add),
                    undelivered_detail,
                }
            })
            .collect();
        RegionLoads {
            region,
            rails,
            unplaced_bytes: at(self.unplaced()),
            intra_node_bytes: at(self.unplaced() + 1),
            ..Default::default()
        }
    }

    /// Summed top-K slots (`k` per link end, in vector order) as contributor lists.
    pub fn top_pairs(&self, slots: &[Contributor], k: usize) -> HashMap<(usize, usize), Vec<TopPair>> {
        let mut out = HashMap::new();
        if k == 0 {
            return out;
        }
        for (position, block) in slots.chunks(k).enumerate() {
            let pairs: Vec<TopPair> = topk::sorted(block.to_vec())
                .into_iter()
                .map(|c| (host(c.src), host(c.dst), c.bytes))
                .collect();
            if let (false, Some(end)) = (pairs.is_empty(), self.end_of(position)) {
                out.insert(end, pairs);
            }
        }
        out
    }
}

fn host(h: u32) -> Option<usize> {
    (h != u32::MAX).then_some(h as usize)
}

/// One rank's traced region: the dense vector, and the top-K summaries of the link ends it
/// touched (by position among the link ends).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankRegion {
    pub vector: Vec<u64>,
    pub top: Vec<(u32, Vec<Contributor>)>,
}

/// Traces one rank's counters, region after region.
pub struct RankTracer<'c> {
    cluster: &'c Cluster,
    builder: FlowBuilder<'c>,
    hosts: RankHostTable,
    layout: VectorLayout,
    top_k: usize,
    /// Per rail, the LID-pair tables reused from region to region.
    pairs: Vec<RailPairs>,
}

impl<'c> RankTracer<'c> {
    /// `hosts` names every rank's host as the profile would (`(rank, host name)`), mapped
    /// through `host_map` as `--host-map` does.
    pub fn new<'a>(
        cluster: &'c Cluster,
        policy: RailPolicy,
        host_map: &'c HostMap,
        hosts: impl Iterator<Item = (u32, &'a str)> + Clone,
        top_k: usize,
    ) -> RankTracer<'c> {
        let builder = FlowBuilder::new(cluster, policy, host_map);
        let hosts = builder.rank_host_table(hosts);
        RankTracer { cluster, builder, hosts, layout: VectorLayout::new(cluster), top_k, pairs: Vec::new() }
    }

    pub fn layout(&self) -> &VectorLayout {
        &self.layout
    }

    pub fn host_of(&self, rank: u32) -> Option<usize> {
        self.hosts.host(rank)
    }

    /// Placement problems met so far, as `shoal convert` would warn.
    pub fn problems(&self) -> &super::problems::Problems {
        self.builder.problems()
    }

    /// Traces one region's counters of this rank.
    pub fn trace(&mut self, traffic: &RankTraffic<'_>) -> RankRegion {
        let mut sink = PairSink { rails: std::mem::take(&mut self.pairs), intra: 0, unplaced: 0 };
        sink.rails.resize_with(self.cluster.rails.len(), RailPairs::default);
        self.builder.place_rank(&mut sink, traffic, &self.hosts);
        let layout = &self.layout;
        let mut vector = vec![0u64; layout.len()];
        let mut tops: Vec<Vec<Contributor>> =
            vec![Vec::new(); if self.top_k > 0 { layout.link_ends() } else { 0 }];
        for (r, pairs) in sink.rails.iter_mut().enumerate() {
            let fabric = &self.cluster.rails[r];
            let base = layout.accounting(r);
            for &((src, dst), (bytes, src_host, dst_host)) in &pairs.entries {
                let path = trace(fabric, Lid(src), Lid(dst));
                let (s, d) =
                    (src_host.map_or(u32::MAX, |h| h as u32), dst_host.map_or(u32::MAX, |h| h as u32));
                for end in &path.link_ends {
                    let position = position_of(layout, r, *end);
                    add(&mut vector[position], bytes);
                    if let Some(top) = tops.get_mut(position) {
                        topk::add(top, self.top_k, s, d, bytes);
                    }
                }
                add(&mut vector[base], bytes);
                match path.outcome {
                    Outcome::Delivered => add(&mut vector[base + 1], bytes),
                    Outcome::Dropped { reason, .. } => {
                        let i = DropReason::ALL.iter().position(|x| *x == reason).unwrap_or(0);
                        add(&mut vector[base + 2 + i], bytes);
                    }
                }
            }
            pairs.clear();
        }
        self.pairs = sink.rails;
        add(&mut vector[layout.unplaced()], sink.unplaced);
        add(&mut vector[layout.unplaced() + 1], sink.intra);
        let top =
            tops.into_iter().enumerate().filter(|(_, t)| !t.is_empty()).map(|(p, t)| (p as u32, t)).collect();
        RankRegion { vector, top }
    }
}

fn add(slot: &mut u64, bytes: u64) {
    *slot = slot.saturating_add(bytes);
}

/// (source LID, destination LID).
type LidPair = (u16, u16);
/// Bytes of a LID pair, and the hosts of its first flow.
type LidPairBytes = (u64, Option<usize>, Option<usize>);

/// Flows summed by (source LID, destination LID) per rail: one trace each. A pair of LIDs names
/// one pair of hosts, so the first flow's origin stands for all.
struct PairSink {
    rails: Vec<RailPairs>,
    intra: u64,
    unplaced: u64,
}

/// One rail's LID pairs in the order first seen. A rank's flows on a rail nearly all leave from
/// one LID, so pairs from that LID are found by destination in a table of 65,536 slots (a
/// hash of 100,000 peers' flows was most of a region dump's time); others go through a map.
/// Kept by the tracer between regions, so the table is allocated once.
#[derive(Default)]
struct RailPairs {
    entries: Vec<(LidPair, LidPairBytes)>,
    common_src: Option<u16>,
    /// Entry index + 1 by destination LID, for pairs from `common_src`; 0 = none yet.
    by_dst: Vec<u32>,
    others: HashMap<LidPair, usize>,
}

impl RailPairs {
    fn slot(&mut self, pair: LidPair, origin: &FlowOrigin) -> &mut LidPairBytes {
        let fresh = (0, origin.src_host_index(), origin.dst_host_index());
        let src = *self.common_src.get_or_insert(pair.0);
        let index = if src == pair.0 {
            if self.by_dst.is_empty() {
                self.by_dst = vec![0; 1 << 16];
            }
            let slot = &mut self.by_dst[usize::from(pair.1)];
            if *slot == 0 {
                self.entries.push((pair, fresh));
                *slot = self.entries.len() as u32;
            }
            *slot as usize - 1
        } else {
            *self.others.entry(pair).or_insert_with(|| {
                self.entries.push((pair, fresh));
                self.entries.len() - 1
            })
        };
        &mut self.entries[index].1
    }

    /// Empties the rail for the next region, keeping the table.
    fn clear(&mut self) {
        for ((_, dst), _) in self.entries.drain(..) {
            if let Some(slot) = self.by_dst.get_mut(usize::from(dst)) {
                *slot = 0;
            }
        }
        self.common_src = None;
        self.others.clear();
    }
}

impl FlowSink for PairSink {
    fn flow(&mut self, rail: usize, flow: Flow, origin: FlowOrigin) {
        let entry = self.rails[rail].slot((flow.src.0, flow.dst.0), &origin);
        entry.0 = entry.0.saturating_add(flow.bytes);
    }

    fn intra_node(&mut self, bytes: u64) {
        self.intra = self.intra.saturating_add(bytes);
    }

    fn unplaced(&mut self, bytes: u64) {
        self.unplaced = self.unplaced.saturating_add(bytes);
    }
}

/// Where a link end sits in the vector.
pub fn position_of(layout: &VectorLayout, rail: usize, end: LinkEnd) -> usize {
    layout.offsets[rail] + end.index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::TwoLevel;
    use crate::model::{EpochMicros, PeerBytes, RankSection};
    use crate::routing::{LoadOptions, RegionInput, compute_loads};

    fn section(rank: u32, host: &str) -> RankSection {
        RankSection {
            rank,
            host: host.into(),
            pid: None,
            starttime: EpochMicros(0),
            ports: Vec::new(),
            dumps: Vec::new(),
        }
    }

    #[test]
    fn lid_pairs_from_the_common_source_and_from_others_are_summed_apart_and_cleared() {
        let origin = FlowOrigin { src_rank: 0, dst_rank: None, src_host: Some(1), dst_host: Some(2) };
        let mut pairs = RailPairs::default();
        for (pair, bytes) in [((5, 9), 10), ((5, 7), 1), ((6, 9), 100), ((5, 9), 20), ((6, 9), 200)] {
            pairs.slot(pair, &origin).0 += bytes;
        }
        let summed: Vec<(LidPair, u64)> = pairs.entries.iter().map(|(p, b)| (*p, b.0)).collect();
        assert_eq!(summed, [((5, 9), 30), ((5, 7), 1), ((6, 9), 300)], "in the order first seen");
        pairs.clear();
        assert!(pairs.entries.is_empty() && pairs.by_dst.iter().all(|&s| s == 0));
        pairs.slot((6, 9), &origin).0 += 4;
        assert_eq!(pairs.entries, [((6, 9), (4, Some(1), Some(2)))], "a new region starts from nothing");
    }

    #[test]
    fn the_sum_of_every_ranks_vector_is_the_whole_profiles_trace() {
        let cluster = Cluster::new(vec![TwoLevel::new(2, 2, 2).build(), TwoLevel::new(2, 2, 2).build()]);
        let names: Vec<String> = cluster.hosts.iter().map(|h| h.name.clone()).collect();
        // Six ranks on four hosts (two share a host), each sending an odd amount to every other.
        let sections: Vec<RankSection> = (0..6u32).map(|r| section(r, &names[r as usize % 4])).collect();
        let peers: Vec<Vec<PeerBytes>> = (0..6u32)
            .map(|r| {
                (0..7u32)
                    .filter(|&p| p != r)
                    .map(|p| PeerBytes { peer: p, sent: 1001 + u64::from(r * p), recv: 0 })
                    .collect()
            })
            .collect();
        let traffic: Vec<RankTraffic<'_>> = sections
            .iter()
            .zip(&peers)
            .map(|(s, p)| RankTraffic { section: s, peers: p, lids: &[] })
            .collect();
        let map = HostMap::default();
        let mut tracer = RankTracer::new(
            &cluster,
            RailPolicy::Split,
            &map,
            sections.iter().map(|s| (s.rank, s.host.as_str())),
            2,
        );
        let mut sum = vec![0u64; tracer.layout().len()];
        for t in &traffic {
            for (a, b) in sum.iter_mut().zip(tracer.trace(t).vector) {
                *a += b;
            }
        }
        let input = RegionInput { region: Some(0), ranks: traffic.clone(), ..Default::default() };
        let (loads, _) = compute_loads(&cluster, &[input], None, &LoadOptions::default(), "t");
        let mine = tracer.layout().region_loads(&sum, Some(0));
        for (a, b) in mine.rails.iter().zip(&loads.regions[0].rails) {
            assert_eq!(a.bytes, b.bytes);
            assert_eq!((a.injected, a.delivered, a.undelivered), (b.injected, b.delivered, b.undelivered));
        }
        assert_eq!(mine.intra_node_bytes, loads.regions[0].intra_node_bytes);
        assert_eq!(mine.unplaced_bytes, loads.regions[0].unplaced_bytes);
        assert!(mine.unplaced_bytes > 0, "rank 6 is not in the job: its bytes are unplaced");
        assert!(tracer.problems().warnings("p").iter().any(|w| w.message.contains("rank 6")));
    }
}
