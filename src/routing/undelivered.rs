//! Profile bytes the fabric did not deliver, as warnings: per rail, where they stopped and why,
//! largest first (the README promises undelivered bytes are reported with the switch that
//! dropped them).

use crate::model::{Cluster, Warning};

use super::loads::Loads;

/// Places named per rail; the rest are counted.
const SHOWN: usize = 5;

/// One warning per rail whose whole-run loads hold undelivered bytes.
pub fn undelivered_warnings(cluster: &Cluster, loads: &Loads, source: &str) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for (r, rail) in loads.total.rails.iter().enumerate() {
        if rail.undelivered == 0 {
            continue;
        }
        let fabric = cluster.rails.get(r);
        let place = |at: Option<petgraph::graph::NodeIndex>| match (at, fabric) {
            (Some(n), Some(f)) if n.index() < f.graph.node_count() => {
                format!("at '{}'", f.node(n).description)
            }
            _ => "before the first hop".to_string(),
        };
        let mut shown: Vec<String> = rail
            .undelivered_detail
            .iter()
            .take(SHOWN)
            .map(|u| format!("{} B to {} {} ({})", u.bytes, u.destination, place(u.at), u.reason))
            .collect();
        let rest = rail.undelivered_detail.len().saturating_sub(SHOWN);
        if rest > 0 {
            shown.push(format!("and {rest} more places"));
        }
        let message =
            format!("rail {r}: {} B of the whole run undelivered: {}", rail.undelivered, shown.join("; "));
        warnings.push(Warning::in_file(source, message));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Lid;
    use crate::model::test_fabric::two_leaves;
    use crate::routing::{DropReason, RailLoad, RegionLoads, Undelivered};

    #[test]
    fn undelivered_bytes_are_a_warning_naming_the_switch_and_the_reason() {
        let t = two_leaves();
        let mut rail = RailLoad::with_link_ends(t.fabric.link_end_count());
        rail.undelivered = 4000;
        rail.undelivered_detail = vec![Undelivered {
            at: Some(t.leaf[0]),
            destination: Lid(0x0fff),
            reason: DropReason::MissingEntry,
            bytes: 4000,
        }];
        let loads = Loads { total: RegionLoads { rails: vec![rail], ..Default::default() }, regions: vec![] };
        let warnings = undelivered_warnings(&Cluster::new(vec![t.fabric]), &loads, "p");
        assert_eq!(warnings.len(), 1);
        assert_eq!(
            warnings[0].message,
            "rail 0: 4000 B of the whole run undelivered: 4000 B to 0x0fff at 'leaf0' \
             (no forwarding-table row for the destination)"
        );
    }
}
