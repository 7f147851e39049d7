//! Turns a profile's counters into LID → LID flows on each rail.
//!
//! - Rank-level counters (`peer R sent B`) map rank → host → one of that host's CAs on each rail
//!   (local rank i of a host with n CAs there uses the i mod n-th by adapter name, see
//!   [`super::rank_cas`]). The
//!   [`RailPolicy`] decides the rail: `Split` spreads the bytes evenly over the rails both hosts
//!   share (the remainder goes to the lowest rails, so no byte is lost); `Rail(n)` uses one rail.
//!   Only `sent` is used, so a transfer counted by both ends is routed once.
//! - Port-level counters (`lid I 0xL sent/recv`) already name a port and a LID: the port is found
//!   on its rail by GUID; `sent` flows port → L, `recv` (an RDMA read) flows L → port.
//! - Bytes between ranks on one host are intra-node: counted, not traced.
//! - Bytes that cannot be placed (unknown host, no shared rail) are counted as unplaced and named
//!   in a warning, never dropped silently.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::model::bytes::add_bytes;
use crate::model::{Cluster, Guid, Lid, LidBytes, PeerBytes, RankSection, Warning};

use super::accumulate::Flow;
use super::problems::{Problems, StrayLid};
use super::rank_places::{Placed, RankPlaces};

/// Re-exported, so `routing::HostMap` still names it; the type is plain model data.
pub use crate::model::HostMap;

/// Which rail carries rank-level traffic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RailPolicy {
    /// Evenly over the rails both hosts share.
    #[default]
    Split,
    /// Only this rail.
    Rail(u8),
}

/// One rank's counters for one region (or the cumulative total).
#[derive(Clone, Copy, Debug)]
pub struct RankTraffic<'a> {
    pub section: &'a RankSection,
    pub peers: &'a [PeerBytes],
    pub lids: &'a [LidBytes],
}

/// Who sent a flow's bytes to whom: host indices into `Cluster::hosts`, and ranks. Hosts are
/// `u32`: a data set keeps one origin per flow and rail (two million on a k = 36 fat tree with
/// 10,000 ranks × 100 peers), so 28 bytes instead of 48 is 40 MB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowOrigin {
    pub src_rank: u32,
    /// `None` for port-level counters, which name a LID rather than a rank.
    pub dst_rank: Option<u32>,
    pub src_host: Option<u32>,
    pub dst_host: Option<u32>,
}

impl FlowOrigin {
    /// The sending host, as an index into `Cluster::hosts`.
    pub fn src_host_index(&self) -> Option<usize> {
        self.src_host.map(|h| h as usize)
    }

    /// The receiving host, as an index into `Cluster::hosts`.
    pub fn dst_host_index(&self) -> Option<usize> {
        self.dst_host.map(|h| h as usize)
    }
}

/// A host index as a flow origin keeps it.
pub fn origin_host(host: Option<usize>) -> Option<u32> {
    host.and_then(|h| u32::try_from(h).ok())
}

/// Where placed traffic goes: a list of flows per rail ([`FlowSet`]), or straight into
/// accumulators (the multi-region tracer in [`super::demand`]).
pub trait FlowSink {
    /// The region whose counters follow (an index into the regions being placed).
    fn region(&mut self, _region: usize) {}
    fn flow(&mut self, rail: usize, flow: Flow, origin: FlowOrigin);
    fn intra_node(&mut self, bytes: u64);
    /// Intra-node bytes between two ranks of one host; sinks that keep no pairs count the bytes.
    fn intra_node_pair(&mut self, _origin: FlowOrigin, bytes: u64) {
        self.intra_node(bytes);
    }
    fn unplaced(&mut self, bytes: u64);
}

/// The flows of each region and of the total. Shared: a profile with one region has the same
/// flows for it and for the total, kept once (two million flows on a k = 36 fabric).
pub type RegionFlows = std::collections::BTreeMap<super::RegionKey, std::sync::Arc<FlowSet>>;

/// Flows per rail (with their origins alongside, if asked for), plus what was not traced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlowSet {
    pub flows: Vec<Vec<Flow>>,
    pub origins: Vec<Vec<FlowOrigin>>,
    /// With origins kept: the rank pairs of the intra-node bytes (hop class 0 of a traffic
    /// matrix), which no rail carries.
    pub intra_node_pairs: Vec<(FlowOrigin, u64)>,
    pub intra_node_bytes: u64,
    pub unplaced_bytes: u64,
    /// Per rail, the switches each flow's path crosses, one byte a flow in `flows`' order (see
    /// [`super::switch_count::keep_switch_counts`]): kept by a data set so that a traffic
    /// matrix looks its hop classes up instead of walking the tables. A rail whose list is not
    /// as long as its flows has none kept.
    pub hops: Vec<Vec<u8>>,
}

impl FlowSink for FlowSet {
    fn flow(&mut self, rail: usize, flow: Flow, origin: FlowOrigin) {
        self.flows[rail].push(flow);
        if let Some(origins) = self.origins.get_mut(rail) {
            origins.push(origin);
        }
    }

    fn intra_node(&mut self, bytes: u64) {
        add_bytes(&mut self.intra_node_bytes, bytes);
    }

    fn intra_node_pair(&mut self, origin: FlowOrigin, bytes: u64) {
        add_bytes(&mut self.intra_node_bytes, bytes);
        if !self.origins.is_empty() {
            self.intra_node_pairs.push((origin, bytes));
        }
    }

    fn unplaced(&mut self, bytes: u64) {
        add_bytes(&mut self.unplaced_bytes, bytes);
    }
}

/// Counts what a [`FlowSet`] with origins would keep: flows and intra-node pairs.
#[derive(Default)]
struct PairCount(usize);

impl FlowSink for PairCount {
    fn flow(&mut self, _rail: usize, _flow: Flow, _origin: FlowOrigin) {
        self.0 += 1;
    }

    fn intra_node(&mut self, _bytes: u64) {}

    fn intra_node_pair(&mut self, _origin: FlowOrigin, _bytes: u64) {
        self.0 += 1;
    }

    fn unplaced(&mut self, _bytes: u64) {}
}

/// Where a port GUID lives: (rail, LID of that port).
type PortIndex = HashMap<Guid, (usize, Lid)>;

fn port_index(cluster: &Cluster) -> PortIndex {
    let mut index = HashMap::new();
    for (r, fabric) in cluster.rails.iter().enumerate() {
        for ca in fabric.cas() {
            for info in fabric.node(ca).ports.values() {
                if let Some(guid) = info.guid {
                    index.insert(guid, (r, info.lid));
                }
            }
        }
    }
    index
}

/// Every rank's host, resolved once, for placing one rank's counters at a time: in situ, a rank
/// has its own counters and every rank's host name, not the other ranks' counters.
pub struct RankHostTable(RankPlaces);

impl RankHostTable {
    /// The host index of a rank (`None`: not placed on any fabric host, or not a rank).
    pub fn host(&self, rank: u32) -> Option<usize> {
        self.0.host(rank).flatten()
    }
}

/// Builds flows from the given ranks' counters. Problems are collected as one warning per
/// distinct problem (not per counter), so a thousand-rank profile with one unknown host says so
/// once, with the bytes it cost.
pub struct FlowBuilder<'c> {
    cluster: &'c Cluster,
    policy: RailPolicy,
    host_map: &'c HostMap,
    ports: PortIndex,
    /// Which CA (LID) of a host each of its ranks uses on each rail.
    cas: super::rank_cas::HostCas,
    keep_origins: bool,
    problems: Problems,
}

/// Ranks per parallel work item: large enough to amortise, small enough to balance.
const RANKS_PER_CHUNK: usize = 64;

impl<'c> FlowBuilder<'c> {
    pub fn new(cluster: &'c Cluster, policy: RailPolicy, host_map: &'c HostMap) -> Self {
        FlowBuilder {
            cluster,
            policy,
            host_map,
            ports: port_index(cluster),
            cas: super::rank_cas::HostCas::new(cluster),
            keep_origins: false,
            problems: Problems::default(),
        }
    }

    /// Also record who sent each flow (for "which pairs cross this link" questions). Off by
    /// default: origins cost more memory than the flows themselves.
    pub fn keep_origins(mut self, keep: bool) -> Self {
        self.keep_origins = keep;
        self
    }

    /// Flows for one region, given every rank's counters for it. Ranks are placed in parallel;
    /// the result is the same as placing them one by one, in order.
    pub fn flows(&mut self, ranks: &[RankTraffic<'_>]) -> FlowSet {
        let places = self.rank_places_of(ranks);
        let this = &*self;
        let parts: Vec<(FlowSet, Problems)> = ranks
            .par_chunks(RANKS_PER_CHUNK)
            .map(|chunk| {
                let mut set = this.empty_set();
                let mut problems = Problems::default();
                for traffic in chunk {
                    this.add_rank(&mut set, &mut problems, traffic, &places);
                }
                (set, problems)
            })
            .collect();
        let mut set = self.empty_set();
        // Exactly the room the parts need: doubling would leave up to half of two million
        // flows' room empty, and a data set keeps its flow sets for good.
        for (r, (flows, origins)) in set.flows.iter_mut().zip(&mut set.origins).enumerate() {
            flows.reserve_exact(parts.iter().map(|(p, _)| p.flows.get(r).map_or(0, Vec::len)).sum());
            origins.reserve_exact(parts.iter().map(|(p, _)| p.origins.get(r).map_or(0, Vec::len)).sum());
        }
        for (part, problems) in parts {
            for (all, more) in set.flows.iter_mut().zip(part.flows) {
                all.extend(more);
            }
            for (all, more) in set.origins.iter_mut().zip(part.origins) {
                all.extend(more);
            }
            set.intra_node_pairs.extend(part.intra_node_pairs);
            add_bytes(&mut set.intra_node_bytes, part.intra_node_bytes);
            add_bytes(&mut set.unplaced_bytes, part.unplaced_bytes);
            self.problems.merge(problems);
        }
        set
    }

    /// How many flows (each rail counted) and intra-node pairs [`FlowBuilder::flows`] would
    /// give for `ranks`, counted without keeping them.
    pub fn count_pairs(&self, ranks: &[RankTraffic<'_>]) -> usize {
        self.count_pairs_past(ranks, usize::MAX)
    }

    /// [`FlowBuilder::count_pairs`], stopping once more than `limit` are counted: exact up to
    /// `limit`, past it some number above it (a bound's check need not place every rank).
    pub fn count_pairs_past(&self, ranks: &[RankTraffic<'_>], limit: usize) -> usize {
        let places = self.rank_places_of(ranks);
        let counted = AtomicUsize::new(0);
        ranks.par_chunks(RANKS_PER_CHUNK).for_each(|chunk| {
            if counted.load(Ordering::Relaxed) > limit {
                return;
            }
            let mut count = PairCount::default();
            // Placement problems are the loads' to report: these are the same ranks.
            let mut problems = Problems::default();
            for traffic in chunk {
                self.add_rank(&mut count, &mut problems, traffic, &places);
            }
            counted.fetch_add(count.0, Ordering::Relaxed);
        });
        counted.into_inner()
    }

    fn rank_places_of<'t>(&self, ranks: impl IntoIterator<Item = &'t RankTraffic<'t>>) -> RankPlaces {
        self.rank_places(ranks.into_iter().map(|t| (t.section.rank, t.section.host.as_str())))
    }

    /// Every rank's host (through the host map) and LIDs, resolved once.
    fn rank_places<'a>(&self, ranks: impl Iterator<Item = (u32, &'a str)>) -> RankPlaces {
        let hosts = ranks.map(|(rank, host)| (rank, self.host_index(rank, host)));
        RankPlaces::new(hosts, &self.cas, self.cluster.rails.len())
    }

    /// Places several regions' counters at once into sinks made by `new_sink`, one per parallel
    /// piece of the ranks, then folded with `merge`. `regions[r][i]` is rank `i`'s traffic in
    /// region `r`; each rank's regions are placed in region order, after `sink.region(r)`.
    pub fn place_regions<S: FlowSink + Send>(
        &mut self,
        regions: &[&[RankTraffic<'_>]],
        new_sink: impl Fn() -> S + Sync,
        merge: impl Fn(S, S) -> S + Sync,
    ) -> S {
        let places = self.rank_places_of(regions.iter().flat_map(|ranks| ranks.iter()));
        let rank_count = regions.iter().map(|r| r.len()).max().unwrap_or(0);
        // One piece per thread: each sink may be large (a demand matrix per rail).
        let pieces = rayon::current_num_threads().clamp(1, rank_count.max(1));
        let per_piece = rank_count.div_ceil(pieces).max(1);
        let this = &*self;
        let (sink, problems) = (0..pieces)
            .into_par_iter()
            .map(|piece| {
                let mut sink = new_sink();
                let mut problems = Problems::default();
                let ranks = piece * per_piece..((piece + 1) * per_piece).min(rank_count);
                for i in ranks {
                    for (r, region) in regions.iter().enumerate() {
                        if let Some(traffic) = region.get(i) {
                            sink.region(r);
                            this.add_rank(&mut sink, &mut problems, traffic, &places);
                        }
                    }
                }
                (sink, problems)
            })
            .reduce_with(|(a, mut pa), (b, pb)| {
                pa.merge(pb);
                (merge(a, b), pa)
            })
            .unwrap_or_else(|| (new_sink(), Problems::default()));
        self.problems.merge(problems);
        sink
    }

    /// Resolves every rank's host (through the host map) once.
    pub fn rank_host_table<'a>(&self, ranks: impl Iterator<Item = (u32, &'a str)> + Clone) -> RankHostTable {
        RankHostTable(self.rank_places(ranks))
    }

    /// Places one rank's counters into `sink`, its peers' hosts taken from `hosts`: the same
    /// flows (rails, shares, intra-node and unplaced bytes, problems) that [`Self::flows`] gives
    /// that rank when the whole profile is placed.
    pub fn place_rank<S: FlowSink>(
        &mut self,
        sink: &mut S,
        traffic: &RankTraffic<'_>,
        hosts: &RankHostTable,
    ) {
        let mut problems = Problems::default();
        self.add_rank(sink, &mut problems, traffic, &hosts.0);
        self.problems.merge(problems);
    }

    /// The distinct placement problems so far, with the bytes each cost (stray port-level
    /// records included, as [`Self::warnings`] words them).
    pub fn problems(&self) -> &Problems {
        &self.problems
    }

    fn empty_set(&self) -> FlowSet {
        let rails = self.cluster.rails.len();
        let origins = if self.keep_origins { rails } else { 0 };
        FlowSet { flows: vec![Vec::new(); rails], origins: vec![Vec::new(); origins], ..Default::default() }
    }

    fn host_index(&self, rank: u32, profile_host: &str) -> Option<usize> {
        self.cluster.host_index(self.host_map.host_of_rank(rank, profile_host))
    }

    fn add_rank<S: FlowSink>(
        &self,
        set: &mut S,
        problems: &mut Problems,
        traffic: &RankTraffic<'_>,
        places: &RankPlaces,
    ) {
        let src_rank = traffic.section.rank;
        let src = places.place(src_rank);
        let src_host = src.and_then(|p| p.host);
        for peer in traffic.peers {
            if peer.sent == 0 {
                continue;
            }
            let Some(dst) = places.place(peer.peer) else {
                let message =
                    format!("rank {} is not in the profile; bytes sent to it are unplaced", peer.peer);
                problems.add(message, peer.sent);
                set.unplaced(peer.sent);
                continue;
            };
            let origin = FlowOrigin {
                src_rank,
                dst_rank: Some(peer.peer),
                src_host: origin_host(src_host),
                dst_host: origin_host(dst.host),
            };
            self.add_rank_flow(set, problems, origin, (src, dst), traffic, peer.sent);
        }
        for lid in traffic.lids {
            self.add_port_flows(set, problems, traffic, src_host, lid);
        }
    }

    /// The rails a pair's bytes may take under the policy (rails past the cluster's have no LIDs).
    fn usable_rails(&self) -> std::ops::Range<usize> {
        match self.policy {
            RailPolicy::Split => 0..self.cluster.rails.len(),
            RailPolicy::Rail(n) => usize::from(n)..usize::from(n) + 1,
        }
    }

    fn add_rank_flow<S: FlowSink>(
        &self,
        set: &mut S,
        problems: &mut Problems,
        origin: FlowOrigin,
        (src, dst): (Option<Placed<'_>>, Placed<'_>),
        traffic: &RankTraffic<'_>,
        bytes: u64,
    ) {
        let (Some(src), Some(dst_host)) = (src.filter(|p| p.host.is_some()), dst.host) else {
            let name = match origin.src_host {
                None => traffic.section.host.clone(),
                Some(_) => format!("of rank {}", origin.dst_rank.unwrap_or_default()),
            };
            problems.add(
                format!("host {name} is not in any fabric (use --host-map); its bytes are unplaced"),
                bytes,
            );
            set.unplaced(bytes);
            return;
        };
        if src.host == Some(dst_host) {
            set.intra_node_pair(origin, bytes);
            return;
        }
        let shared = |r: usize| match (src.lids.get(r), dst.lids.get(r)) {
            (Some(&Some(s)), Some(&Some(d))) => Some((s, d)),
            _ => None,
        };
        let count = self.usable_rails().filter(|&r| shared(r).is_some()).count() as u64;
        if count == 0 {
            return self.no_shared_rail(set, problems, (src, dst), bytes);
        }
        // Evenly, the remainder to the lowest rails; no division for the usual one rail.
        let (each, rest) = if count == 1 { (bytes, 0) } else { (bytes / count, bytes % count) };
        let mut i = 0;
        for r in self.usable_rails() {
            let Some((s, d)) = shared(r) else { continue };
            let share = each + u64::from(i < rest);
            i += 1;
            if share > 0 {
                set.flow(r, Flow { src: s, dst: d, bytes: share }, origin);
            }
        }
    }

    /// A pair of hosts with no usable rail in common: its bytes are unplaced, and why.
    fn no_shared_rail<S: FlowSink>(
        &self,
        set: &mut S,
        problems: &mut Problems,
        (src, dst): (Placed<'_>, Placed<'_>),
        bytes: u64,
    ) {
        let (Some(s), Some(d)) = (src.host, dst.host) else { return };
        let message = self.lid_zero_problem((s, src.local), (d, dst.local)).unwrap_or_else(|| {
            let hosts = &self.cluster.hosts;
            let what = match self.policy {
                RailPolicy::Split => "share no rail".to_string(),
                RailPolicy::Rail(n) => format!("are not both on rail {n}"),
            };
            format!("hosts {} and {} {what}; their bytes are unplaced", hosts[s].name, hosts[d].name)
        });
        problems.add(message, bytes);
        set.unplaced(bytes);
    }

    /// When a usable rail would carry the pair but one rank's CA there has LID 0, says so.
    fn lid_zero_problem(
        &self,
        (src, src_local): (usize, u32),
        (dst, dst_local): (usize, u32),
    ) -> Option<String> {
        let hosts = &self.cluster.hosts;
        self.usable_rails().filter(|&r| r < self.cluster.rails.len()).find_map(|r| {
            let cabled = |h: usize| !hosts[h].on_rail(r).is_empty();
            let lid_zero = |h: usize, local: u32| cabled(h) && self.cas.lid(h, r, local).is_none();
            let host = [(src, src_local), (dst, dst_local)].into_iter().find(|&(h, l)| lid_zero(h, l))?.0;
            (cabled(src) && cabled(dst)).then(|| {
                format!(
                    "host {}'s CA on rail {r} has LID 0 (no LID assigned); bytes to and from it are unplaced",
                    hosts[host].name
                )
            })
        })
    }

    fn add_port_flows<S: FlowSink>(
        &self,
        set: &mut S,
        problems: &mut Problems,
        traffic: &RankTraffic<'_>,
        src_host: Option<usize>,
        lid: &LidBytes,
    ) {
        let section = traffic.section;
        let bytes = lid.sent.saturating_add(lid.recv);
        let Some(port) = section.ports.iter().find(|p| p.index == lid.port) else {
            let message = format!(
                "rank {} counts traffic on port {} but declares no such port",
                section.rank, lid.port
            );
            problems.add(message, bytes);
            set.unplaced(bytes);
            return;
        };
        let Some(&(rail, own_lid)) = self.ports.get(&port.guid) else {
            let message = format!(
                "port GUID {} (rank {}, port {}) is in no fabric; its bytes are unplaced",
                port.guid, section.rank, port.index
            );
            problems.add(message, bytes);
            set.unplaced(bytes);
            return;
        };
        if own_lid != port.lid {
            let message = format!(
                "port GUID {} has LID {} in the profile but {} in the fabric; using the fabric's",
                port.guid, port.lid, own_lid
            );
            problems.add(message, 0);
        }
        let fabric = &self.cluster.rails[rail];
        let owner = fabric.owner_of_lid(lid.lid);
        let own = owner.is_some_and(|o| Some(o.node) == fabric.owner_of_lid(own_lid).map(|m| m.node));
        if let Some(kind) = StrayLid::of(lid.lid, owner.is_some(), own) {
            problems.stray(kind, section.rank, port.index, lid.lid, lid.sent, lid.recv);
            match kind {
                StrayLid::NotOwned => {} // traced below: the packets leave the HCA and are dropped
                StrayLid::OwnLid => return set.intra_node(bytes),
                _ => return set.unplaced(bytes),
            }
        }
        let dst_host = owner.and_then(|o| self.cluster.host_of(rail, o.node));
        let (src_host, dst_host) = (origin_host(src_host), origin_host(dst_host));
        let origin = FlowOrigin { src_rank: section.rank, dst_rank: None, src_host, dst_host };
        if lid.sent > 0 {
            set.flow(rail, Flow { src: own_lid, dst: lid.lid, bytes: lid.sent }, origin);
        }
        if lid.recv > 0 {
            let pulled = FlowOrigin { src_host: dst_host, dst_host: src_host, ..origin };
            set.flow(rail, Flow { src: lid.lid, dst: own_lid, bytes: lid.recv }, pulled);
        }
    }

    /// One warning per distinct problem, with the bytes it affected over every region.
    pub fn warnings(&self, source: &str) -> Vec<Warning> {
        self.problems.warnings(source)
    }
}

#[cfg(test)]
#[path = "flows_tests.rs"]
mod tests;
