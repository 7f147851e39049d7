//! The busiest link ends of a region, and the host pairs whose bytes put them there.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use crate::model::bytes::add_bytes;
use crate::model::{Cluster, Fabric, LinkEnd};

use super::accumulate::Flow;
use super::ar::{RoutingModel, flow_spread};
use super::flows::FlowSet;
use super::loads::RegionLoads;
use super::trace::trace;

/// Source and destination host (indices into `Cluster::hosts`) of some bytes.
pub type HostPair = (Option<usize>, Option<usize>);

/// One hot link end: its load and its largest contributors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HotEnd {
    pub rail: usize,
    pub end: LinkEnd,
    pub bytes: u64,
    /// (source host, destination host, bytes), largest first; hosts index `Cluster::hosts`.
    pub pairs: Vec<(Option<usize>, Option<usize>, u64)>,
}

/// The `top` busiest link ends over all rails (ties broken by rail, then link end, so the list
/// is stable), each with up to `pairs_per_end` contributing host pairs.
pub fn hottest(
    cluster: &Cluster,
    loads: &RegionLoads,
    flows: &FlowSet,
    top: usize,
    pairs_per_end: usize,
) -> Vec<HotEnd> {
    hottest_by(cluster, loads, flows, (top, pairs_per_end), RoutingModel::Static)
}

/// [`hottest`] for loads traced by `model`: with [`RoutingModel::AdaptiveModelled`] the pairs
/// are those whose AR spread crosses each end, with the bytes the spread puts there.
pub fn hottest_by(
    cluster: &Cluster,
    loads: &RegionLoads,
    flows: &FlowSet,
    (top, pairs_per_end): (usize, usize),
    model: RoutingModel,
) -> Vec<HotEnd> {
    let mut ends: Vec<(u64, usize, usize)> = loads
        .rails
        .iter()
        .enumerate()
        .flat_map(|(r, load)| load.bytes.nonzero().map(move |(i, b)| (b, r, i)))
        .collect();
    ends.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    ends.truncate(top);
    let wanted: Vec<(usize, LinkEnd)> = ends.iter().map(|&(_, r, i)| (r, LinkEnd::from_index(i))).collect();
    let mut contributions = pairs_through_by(cluster, flows, &wanted, pairs_per_end, model);
    ends.into_iter()
        .map(|(bytes, rail, index)| {
            let pairs = contributions.remove(&(rail, index)).unwrap_or_default();
            HotEnd { rail, end: LinkEnd::from_index(index), bytes, pairs }
        })
        .collect()
}

/// (source host, destination host, bytes), largest first.
pub type PairBytes = Vec<(Option<usize>, Option<usize>, u64)>;

/// The `per_end` largest host pairs whose flows cross each wanted link end, keyed by
/// (rail, link-end index): every flow of the set is traced once.
pub fn pairs_through(
    cluster: &Cluster,
    flows: &FlowSet,
    wanted: &[(usize, LinkEnd)],
    per_end: usize,
) -> HashMap<(usize, usize), PairBytes> {
    pairs_through_by(cluster, flows, wanted, per_end, RoutingModel::Static)
}

/// The link ends (by index) one flow crosses under `model`, with the bytes it puts on each.
fn flow_ends(fabric: &Fabric, flow: &Flow, model: RoutingModel) -> Vec<(usize, u64)> {
    match model {
        RoutingModel::Static => {
            trace(fabric, flow.src, flow.dst).link_ends.into_iter().map(|e| (e.index(), flow.bytes)).collect()
        }
        RoutingModel::AdaptiveModelled => flow_spread(fabric, *flow).0,
    }
}

/// [`pairs_through`] for loads traced by `model` (see [`hottest_by`]).
pub fn pairs_through_by(
    cluster: &Cluster,
    flows: &FlowSet,
    wanted: &[(usize, LinkEnd)],
    per_end: usize,
    model: RoutingModel,
) -> HashMap<(usize, usize), PairBytes> {
    let wanted: HashSet<(usize, usize)> = wanted.iter().map(|&(r, e)| (r, e.index())).collect();
    let mut contributions: HashMap<(usize, usize), HashMap<HostPair, u64>> = HashMap::new();
    for (r, fabric) in cluster.rails.iter().enumerate() {
        if !wanted.iter().any(|&(wr, _)| wr == r) {
            continue;
        }
        let rail_flows = flows.flows.get(r).map(Vec::as_slice).unwrap_or(&[]);
        let origins = flows.origins.get(r).map(Vec::as_slice).unwrap_or(&[]);
        let found: Vec<(usize, HostPair, u64)> = rail_flows
            .par_iter()
            .zip(origins.par_iter())
            .flat_map_iter(|(flow, origin)| {
                let pair = (origin.src_host_index(), origin.dst_host_index());
                flow_ends(fabric, flow, model)
                    .into_iter()
                    .filter(|&(end, _)| wanted.contains(&(r, end)))
                    .map(move |(end, bytes)| (end, pair, bytes))
                    .collect::<Vec<_>>()
            })
            .collect();
        for (index, pair, bytes) in found {
            add_bytes(contributions.entry((r, index)).or_default().entry(pair).or_insert(0), bytes);
        }
    }
    contributions
        .into_iter()
        .map(|(key, pairs)| {
            let mut pairs: PairBytes = pairs.into_iter().map(|((s, d), b)| (s, d, b)).collect();
            pairs.sort_unstable_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
            pairs.truncate(per_end);
            (key, pairs)
        })
        .collect()
}
