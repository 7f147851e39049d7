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
        RankTracer { cluster, builder, hosts, layout: VectorLayout::new(cluster), top_k }
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
        let mut sink =
            PairSink { pairs: vec![HashMap::new(); self.cluster.rails.len()], intra: 0, unplaced: 0 };
        self.builder.place_rank(&mut sink, traffic, &self.hosts);
        let layout = &self.layout;
        let mut vector = vec![0u64; layout.len()];
        let mut tops: HashMap<u32, Vec<Contributor>> = HashMap::new();
        for (r, pairs) in sink.pairs.iter().enumerate() {
            let fabric = &self.cluster.rails[r];
            let base = layout.accounting(r);
            for (&(src, dst), &(bytes, src_host, dst_host)) in pairs {
                let path = trace(fabric, Lid(src), Lid(dst));
                let (s, d) =
                    (src_host.map_or(u32::MAX, |h| h as u32), dst_host.map_or(u32::MAX, |h| h as u32));
                for end in &path.link_ends {
                    let position = layout.offsets[r] + end.index();
                    add(&mut vector[position], bytes);
                    if self.top_k > 0 {
                        topk::add(tops.entry(position as u32).or_default(), self.top_k, s, d, bytes);
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
        }
        add(&mut vector[layout.unplaced()], sink.unplaced);
        add(&mut vector[layout.unplaced() + 1], sink.intra);
        let mut top: Vec<(u32, Vec<Contributor>)> = tops.into_iter().collect();
        top.sort_unstable_by_key(|(p, _)| *p);
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
    pairs: Vec<HashMap<LidPair, LidPairBytes>>,
    intra: u64,
    unplaced: u64,
}

impl FlowSink for PairSink {
    fn flow(&mut self, rail: usize, flow: Flow, origin: FlowOrigin) {
        let entry =
            self.pairs[rail].entry((flow.src.0, flow.dst.0)).or_insert((0, origin.src_host, origin.dst_host));
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
