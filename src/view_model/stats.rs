//! Numbers behind the plots: bytes per rail and their imbalance, the hop-count histogram
//! weighted by bytes, and the link-load CCDF per level.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::layout::ClusterLayout;
use crate::model::bytes::add_bytes;
use crate::model::{Cluster, LinkEnd, NodeKind};
use crate::routing::{FlowSet, trace};

use super::values::LinkValues;

/// Bytes each rail's hosts put onto it (the sum over link ends sent by a CA).
pub fn bytes_per_rail(cluster: &Cluster, values: &LinkValues) -> Vec<f64> {
    cluster
        .rails
        .iter()
        .enumerate()
        .map(|(r, f)| {
            (0..f.link_end_count())
                .map(LinkEnd::from_index)
                .filter(|&e| f.link_end_nodes(e).is_some_and(|((s, _), _)| f.node(s).kind == NodeKind::Ca))
                .map(|e| values.at(r, e))
                .sum()
        })
        .collect()
}

/// max / mean over the rails (1 = perfectly balanced; 0 when nothing was sent).
pub fn imbalance(per_rail: &[f64]) -> f64 {
    let mean = per_rail.iter().sum::<f64>() / per_rail.len().max(1) as f64;
    let max = per_rail.iter().copied().fold(0.0, f64::max);
    if mean > 0.0 { max / mean } else { 0.0 }
}

/// Bytes by the number of links their path crossed (delivered flows only), over all rails.
pub fn hop_histogram(cluster: &Cluster, flows: &[&FlowSet]) -> BTreeMap<usize, u64> {
    let mut hist = BTreeMap::new();
    for set in flows {
        for (fabric, rail_flows) in cluster.rails.iter().zip(&set.flows) {
            let hops: Vec<(usize, u64)> = rail_flows
                .par_iter()
                .filter_map(|f| {
                    let path = trace(fabric, f.src, f.dst);
                    path.delivered().then_some((path.link_ends.len(), f.bytes))
                })
                .collect();
            for (h, b) in hops {
                add_bytes(hist.entry(h).or_insert(0), b);
            }
        }
    }
    hist
}

/// For each link level (1 = host–leaf), the CCDF of link-end loads: points (bytes, fraction of
/// that level's link ends carrying at least that many bytes), bytes increasing.
pub fn ccdf_per_level(
    cluster: &Cluster,
    layout: &ClusterLayout,
    values: &LinkValues,
) -> BTreeMap<u32, Vec<[f64; 2]>> {
    let mut by_level: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
    for (r, f) in cluster.rails.iter().enumerate() {
        let Some(l) = layout.rails.get(r) else { continue };
        for e in f.graph.edge_indices() {
            let Some((a, b)) = f.graph.edge_endpoints(e) else { continue };
            let level = match (
                l.levels.get(a.index()).copied().flatten(),
                l.levels.get(b.index()).copied().flatten(),
            ) {
                (Some(x), Some(y)) => x.max(y),
                _ => continue,
            };
            for side in [crate::model::Side::A, crate::model::Side::B] {
                by_level.entry(level).or_default().push(values.at(r, LinkEnd { edge: e, side }).abs());
            }
        }
    }
    by_level
        .into_iter()
        .map(|(level, mut v)| {
            v.sort_by(f64::total_cmp);
            let n = v.len() as f64;
            let points = v.iter().enumerate().map(|(i, &x)| [x, (n - i as f64) / n]).collect();
            (level, points)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::RegionKey;
    use crate::view_model::dataset::Dataset;
    use crate::view_model::values::RegionSelection;

    #[test]
    fn rails_carry_what_the_hosts_injected_and_split_traffic_is_balanced() {
        let d = Dataset::synthetic(4, 3, 2, 2);
        let v = LinkValues::select(&d.fabric.as_ref().unwrap().loads, RegionSelection::Total).unwrap();
        let per_rail = bytes_per_rail(&d.fabric.as_ref().unwrap().cluster, &v);
        for (r, bytes) in per_rail.iter().enumerate() {
            assert_eq!(*bytes, d.fabric.as_ref().unwrap().loads.total.rails[r].injected as f64);
        }
        assert!((imbalance(&per_rail) - 1.0).abs() < 1e-6);
        assert_eq!(imbalance(&[0.0, 0.0]), 0.0);
        assert_eq!(imbalance(&[3.0, 1.0]), 1.5);
    }

    #[test]
    fn hop_histogram_weighs_paths_by_bytes() {
        let d = Dataset::synthetic(4, 3, 2, 1);
        let hist = hop_histogram(
            &d.fabric.as_ref().unwrap().cluster,
            &[&d.fabric.as_ref().unwrap().flows.all()[&RegionKey::Total]],
        );
        // same leaf: 2 links; other leaf: host-leaf-spine-leaf-host = 4 links
        assert_eq!(hist.keys().copied().collect::<Vec<_>>(), [2, 4]);
        assert_eq!(hist.values().sum::<u64>(), d.fabric.as_ref().unwrap().loads.total.rails[0].delivered);
    }

    #[test]
    fn ccdf_starts_at_one_and_falls() {
        let d = Dataset::synthetic(4, 3, 2, 2);
        let v = LinkValues::select(&d.fabric.as_ref().unwrap().loads, RegionSelection::Region(2)).unwrap();
        let c = ccdf_per_level(&d.fabric.as_ref().unwrap().cluster, &d.fabric.as_ref().unwrap().layout, &v);
        assert_eq!(c.keys().copied().collect::<Vec<_>>(), [1, 2]);
        for points in c.values() {
            assert_eq!(points[0][1], 1.0);
            assert!(points.windows(2).all(|w| w[0][0] <= w[1][0] && w[0][1] >= w[1][1]));
        }
    }
}
