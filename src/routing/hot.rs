//! The busiest link ends of a region, and the host pairs whose bytes put them there.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use crate::model::bytes::add_bytes;
use crate::model::{Cluster, LinkEnd};

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
    let mut ends: Vec<(u64, usize, usize)> = loads
        .rails
        .iter()
        .enumerate()
        .flat_map(|(r, load)| load.bytes.nonzero().map(move |(i, b)| (b, r, i)))
        .collect();
    ends.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    ends.truncate(top);
    let wanted: Vec<(usize, LinkEnd)> = ends.iter().map(|&(_, r, i)| (r, LinkEnd::from_index(i))).collect();
    let mut contributions = pairs_through(cluster, flows, &wanted, pairs_per_end);
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
                let path = trace(fabric, flow.src, flow.dst);
                let pair = (origin.src_host, origin.dst_host);
                path.link_ends
                    .into_iter()
                    .filter(|end| wanted.contains(&(r, end.index())))
                    .map(move |end| (end.index(), pair, flow.bytes))
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
