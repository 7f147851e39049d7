//! Who crossed a link end: the source → destination pairs (hosts and ranks) whose traced paths
//! use it, with their bytes, largest first. The same tracing that `routing::hottest` does, for
//! one picked end.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::model::{Cluster, LinkEnd};
use crate::routing::ar::flow_spread;
use crate::routing::{FlowSet, RoutingModel, trace};

/// (source host, destination host, source rank, destination rank).
type PairKey = (Option<usize>, Option<usize>, u32, Option<u32>);

/// One row of the "crossing this link end" table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crossing {
    pub src_host: Option<usize>,
    pub dst_host: Option<usize>,
    pub src_rank: u32,
    pub dst_rank: Option<u32>,
    pub bytes: u64,
}

/// The pairs crossing `end` on `rail` in these flow sets, merged by (hosts, ranks), largest first
/// (ties by source rank then destination rank, so the order is stable), at most `limit` rows.
pub fn crossings(
    cluster: &Cluster,
    flows: &[&FlowSet],
    rail: usize,
    end: LinkEnd,
    limit: usize,
) -> Vec<Crossing> {
    crossings_by(cluster, flows, (rail, end), limit, RoutingModel::Static)
}

/// [`crossings`] under `model`: with the AR spread (modelled), each pair whose spread touches
/// the end, with the bytes its spread puts there.
pub fn crossings_by(
    cluster: &Cluster,
    flows: &[&FlowSet],
    (rail, end): (usize, LinkEnd),
    limit: usize,
    model: RoutingModel,
) -> Vec<Crossing> {
    let Some(fabric) = cluster.rails.get(rail) else { return Vec::new() };
    let bytes_at = |flow: &crate::routing::Flow| match model {
        RoutingModel::Static => {
            trace(fabric, flow.src, flow.dst).link_ends.contains(&end).then_some(flow.bytes)
        }
        RoutingModel::AdaptiveModelled => {
            flow_spread(fabric, *flow).0.iter().find(|(i, _)| *i == end.index()).map(|&(_, b)| b)
        }
    };
    let mut merged: HashMap<PairKey, u64> = HashMap::new();
    for set in flows {
        let (Some(rail_flows), Some(origins)) = (set.flows.get(rail), set.origins.get(rail)) else {
            continue;
        };
        let hits: Vec<_> = rail_flows
            .par_iter()
            .zip(origins.par_iter())
            .filter_map(|(flow, o)| {
                Some(((o.src_host_index(), o.dst_host_index(), o.src_rank, o.dst_rank), bytes_at(flow)?))
            })
            .collect();
        for (key, bytes) in hits {
            *merged.entry(key).or_insert(0) += bytes;
        }
    }
    let mut rows: Vec<Crossing> = merged
        .into_iter()
        .map(|((src_host, dst_host, src_rank, dst_rank), bytes)| Crossing {
            src_host,
            dst_host,
            src_rank,
            dst_rank,
            bytes,
        })
        .collect();
    rows.sort_by(|a, b| {
        b.bytes.cmp(&a.bytes).then(a.src_rank.cmp(&b.src_rank)).then(a.dst_rank.cmp(&b.dst_rank))
    });
    rows.truncate(limit);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::RegionKey;
    use crate::view_model::dataset::Dataset;

    #[test]
    fn the_pairs_crossing_an_end_add_up_to_its_load() {
        let d = Dataset::synthetic(4, 2, 2, 1);
        let load = &d.fabric.as_ref().unwrap().loads.total.rails[0];
        let (index, bytes) = load.bytes.nonzero().max_by_key(|(_, b)| *b).unwrap();
        let end = LinkEnd::from_index(index);
        let flows = [&*d.fabric.as_ref().unwrap().flows.all()[&RegionKey::Total]];
        let rows = crossings(&d.fabric.as_ref().unwrap().cluster, &flows, 0, end, usize::MAX);
        assert_eq!(rows.iter().map(|r| r.bytes).sum::<u64>(), bytes);
        assert!(rows.windows(2).all(|w| w[0].bytes >= w[1].bytes));
        assert_eq!(
            crossings(&d.fabric.as_ref().unwrap().cluster, &flows, 0, end, 3).len(),
            3.min(rows.len())
        );
    }
}
