//! Byte sums that reached 2^64 − 1 ([`crate::model::bytes`]) reported by name, so a capped
//! figure is never taken for a measured one.

use crate::model::bytes::is_saturated;
use crate::model::{Cluster, LinkEnd, Warning};

use super::loads::Loads;

/// One warning per rail and region whose link-end sums or totals saturated, naming the first
/// link end and how many more.
pub fn saturation_warnings(cluster: &Cluster, loads: &Loads, source: &str) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for region in loads.regions.iter().chain([&loads.total]) {
        let which = match region.region {
            Some(n) => format!("region {n}"),
            None => "the whole run".to_string(),
        };
        for (r, rail) in region.rails.iter().enumerate() {
            let ends: Vec<usize> =
                rail.bytes.nonzero().filter(|&(_, b)| is_saturated(b)).map(|(i, _)| i).collect();
            let totals: Vec<&str> = [
                ("injected", rail.injected),
                ("delivered", rail.delivered),
                ("undelivered", rail.undelivered),
            ]
            .into_iter()
            .filter(|(_, b)| is_saturated(*b))
            .map(|(name, _)| name)
            .collect();
            if ends.is_empty() && totals.is_empty() {
                continue;
            }
            let mut what = Vec::new();
            if let Some(&first) = ends.first() {
                let name = cluster.rails.get(r).map_or_else(|| format!("#{first}"), |f| end_name(f, first));
                let more =
                    if ends.len() > 1 { format!(" and {} more", ends.len() - 1) } else { String::new() };
                what.push(format!("the bytes of link end {name}{more}"));
            }
            if !totals.is_empty() {
                what.push(format!("the {} total", totals.join("/")));
            }
            warnings.push(Warning::in_file(
                source,
                format!(
                    "byte sum overflow on rail {r}, {which}: {} passed 2^64 - 1 B and are shown capped at \
                     that value (the profile's counters are implausibly large)",
                    what.join(" and ")
                ),
            ));
        }
        for (name, bytes) in [("intra-node", region.intra_node_bytes), ("unplaced", region.unplaced_bytes)] {
            if is_saturated(bytes) {
                let message = format!(
                    "byte sum overflow in {which}: the {name} bytes passed 2^64 - 1 B and are shown capped"
                );
                warnings.push(Warning::in_file(source, message));
            }
        }
    }
    warnings
}

fn end_name(fabric: &crate::model::Fabric, index: usize) -> String {
    match fabric.link_end_nodes(LinkEnd::from_index(index)) {
        Some(((a, ap), (b, bp))) => {
            format!("{} ({ap}) -> {} ({bp})", fabric.node(a).description, fabric.node(b).description)
        }
        None => format!("#{index}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_fabric::two_leaves;
    use crate::routing::{RailLoad, RegionLoads};

    #[test]
    fn a_saturated_link_end_sum_is_a_named_warning() {
        let fabric = two_leaves().fabric;
        let ends = fabric.link_end_count();
        let mut rail = RailLoad::with_link_ends(ends);
        rail.bytes = crate::routing::LinkBytes::from_sorted(ends, [(0, u64::MAX)]);
        rail.injected = u64::MAX;
        let region = RegionLoads { region: Some(2), rails: vec![rail], ..Default::default() };
        let loads = Loads { regions: vec![region], total: RegionLoads::default() };
        let cluster = Cluster::new(vec![fabric]);
        let warnings = saturation_warnings(&cluster, &loads, "p.ibprof");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let message = &warnings[0].message;
        assert!(message.starts_with("byte sum overflow on rail 0, region 2"), "{message}");
        assert!(message.contains("injected total"), "{message}");
        assert!(message.contains(" -> "), "names the link end: {message}");
    }

    #[test]
    fn ordinary_loads_give_no_warning() {
        let fabric = two_leaves().fabric;
        let rail = RailLoad::with_link_ends(fabric.link_end_count());
        let loads = Loads {
            regions: vec![RegionLoads { rails: vec![rail], ..Default::default() }],
            ..Default::default()
        };
        assert!(saturation_warnings(&Cluster::new(vec![fabric]), &loads, "p").is_empty());
    }
}
