//! The busiest link ends of a region, and the host pairs whose bytes put them there.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

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
    let wanted: HashSet<(usize, usize)> = ends.iter().map(|&(_, r, i)| (r, i)).collect();
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
            *contributions.entry((r, index)).or_default().entry(pair).or_insert(0) += bytes;
        }
    }
    ends.into_iter()
        .map(|(bytes, rail, index)| {
            let mut pairs: Vec<_> = contributions
                .remove(&(rail, index))
                .unwrap_or_default()
                .into_iter()
                .map(|((s, d), b)| (s, d, b))
                .collect();
            pairs.sort_unstable_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
            pairs.truncate(pairs_per_end);
            HotEnd { rail, end: LinkEnd::from_index(index), bytes, pairs }
        })
        .collect()
}
