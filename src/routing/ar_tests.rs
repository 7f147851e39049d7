//! The AR spread on the hand-checked two-leaf fabric of `model::test_fabric`:
//!
//! ```text
//!        spine0            spine1
//!        leaf0 (3 → spine0, 4 → spine1)   leaf1
//!     h0 0x10  h1 0x11   h2 0x12  h3 0x13
//! ```

use std::collections::BTreeMap;

use super::*;
use crate::model::test_fabric::{TwoLeaves, two_leaves};
use crate::model::{ArState, ArTable, LinkEnd};
use crate::routing::accumulate;

/// Every leaf spreads the other leaf's hosts over both spines (group 0 = ports 3 and 4), or
/// with `one_port`, over a group holding only the static port.
fn with_ar(one_port: bool) -> TwoLeaves {
    let mut t = two_leaves();
    for (leaf, remote) in [(t.leaf[0], [0x12u16, 0x13, 0x14]), (t.leaf[1], [0x10, 0x11, 0])] {
        let mut table = ArTable::default();
        for lid in remote.into_iter().filter(|&l| l != 0) {
            let group = if one_port { lid } else { 0 };
            let static_port = t.fabric.lft(leaf).unwrap().get(Lid(lid));
            let ports = match (one_port, static_port) {
                (true, crate::model::LftEntry::Port(p)) => vec![p],
                _ => vec![PortNum(3), PortNum(4)],
            };
            table.groups.insert(group, ports);
            table.lids.insert(Lid(lid), ArState::Adaptive { group });
        }
        t.fabric.replace_ar(leaf, Some(table));
    }
    t
}

fn bytes_at(t: &TwoLeaves, load: &RailLoad, from: NodeIndex, to: NodeIndex) -> u64 {
    let f = &t.fabric;
    f.graph
        .edge_indices()
        .flat_map(|edge| {
            [LinkEnd { edge, side: crate::model::Side::A }, LinkEnd { edge, side: crate::model::Side::B }]
        })
        .filter(|&end| f.link_end_nodes(end).is_some_and(|((s, _), (d, _))| s == from && d == to))
        .map(|end| load.at(end))
        .sum()
}

#[test]
fn bytes_to_an_adaptive_destination_split_evenly_over_both_spines_and_all_arrive() {
    let t = with_ar(false);
    let flows = [Flow { src: Lid(0x10), dst: Lid(0x12), bytes: 1001 }];
    let load = spread(&t.fabric, &flows);
    assert!(load.is_conserved());
    assert_eq!((load.injected, load.delivered, load.undelivered), (1001, 1001, 0));
    let spine1 =
        t.fabric.graph.neighbors(t.leaf[0]).find(|&n| t.fabric.node(n).description == "spine1").unwrap();
    assert_eq!(bytes_at(&t, &load, t.h[0], t.leaf[0]), 1001);
    assert_eq!(bytes_at(&t, &load, t.leaf[0], t.spine), 501, "the odd byte goes to the lower port");
    assert_eq!(bytes_at(&t, &load, t.leaf[0], spine1), 500);
    assert_eq!(bytes_at(&t, &load, t.spine, t.leaf[1]), 501);
    assert_eq!(bytes_at(&t, &load, spine1, t.leaf[1]), 500);
    assert_eq!(bytes_at(&t, &load, t.leaf[1], t.h[2]), 1001);
    // Static tracing puts it all on spine0 (the table's port 3).
    let static_load = accumulate(&t.fabric, &flows);
    assert_eq!(bytes_at(&t, &static_load, t.leaf[0], t.spine), 1001);
}

#[test]
fn with_one_port_groups_or_no_ar_tables_the_spread_is_the_static_trace() {
    let flows: Vec<Flow> = [0x10u16, 0x11, 0x12, 0x13]
        .iter()
        .flat_map(|&s| [0x10u16, 0x11, 0x12, 0x13, 0x14].map(move |d| (s, d)))
        .filter(|(s, d)| s != d)
        .map(|(s, d)| Flow { src: Lid(s), dst: Lid(d), bytes: u64::from(s) * 1000 + u64::from(d) })
        .collect();
    for t in [with_ar(true), two_leaves()] {
        let ar = spread(&t.fabric, &flows);
        let stat = accumulate(&t.fabric, &flows);
        assert_eq!(ar.bytes, stat.bytes);
        assert_eq!(
            (ar.injected, ar.delivered, ar.undelivered),
            (stat.injected, stat.delivered, stat.undelivered)
        );
    }
}

#[test]
fn ar_loads_keep_every_region_and_conserve_bytes() {
    let t = with_ar(false);
    let cluster = crate::model::Cluster::new(vec![t.fabric.clone()]);
    let flows = vec![
        Flow { src: Lid(0x10), dst: Lid(0x13), bytes: 4096 },
        Flow { src: Lid(0x12), dst: Lid(0x11), bytes: 10 },
    ];
    let set = FlowSet { flows: vec![flows.clone()], ..Default::default() };
    let region =
        RegionLoads { region: Some(1), rails: vec![accumulate(&t.fabric, &flows)], ..Default::default() };
    let loads = Loads { regions: vec![region.clone()], total: RegionLoads { region: None, ..region } };
    let set = std::sync::Arc::new(set);
    let map = BTreeMap::from([(RegionKey::Region(1), set.clone()), (RegionKey::Total, set)]);
    let ar = ar_loads(&cluster, &loads, &map);
    for r in ar.regions.iter().chain([&ar.total]) {
        let rail = &r.rails[0];
        assert!(rail.is_conserved() && rail.delivered == 4106);
        assert_ne!(rail.bytes, loads.total.rails[0].bytes, "spread differs from static");
    }
}

#[test]
fn hot_ends_under_ar_name_each_pair_with_the_bytes_its_spread_puts_there() {
    use crate::routing::flows::FlowOrigin;
    use crate::routing::hot::hottest_by;
    let t = with_ar(false);
    let cluster = crate::model::Cluster::new(vec![t.fabric.clone()]);
    let flows = vec![
        Flow { src: Lid(0x10), dst: Lid(0x12), bytes: 1000 },
        Flow { src: Lid(0x11), dst: Lid(0x13), bytes: 600 },
    ];
    let origin = |s, d| FlowOrigin { src_rank: 0, dst_rank: None, src_host: Some(s), dst_host: Some(d) };
    let set = FlowSet {
        flows: vec![flows.clone()],
        origins: vec![vec![origin(0, 2), origin(1, 3)]],
        ..Default::default()
    };
    let static_loads = RegionLoads { rails: vec![accumulate(&t.fabric, &flows)], ..Default::default() };
    let ar = ar_region(&cluster, &static_loads, Some(&set));
    let hot = hottest_by(&cluster, &ar, &set, (usize::MAX, 2), RoutingModel::AdaptiveModelled);
    let up = hot
        .iter()
        .find(|h| {
            t.fabric.link_end_nodes(h.end).is_some_and(|((s, _), (d, _))| s == t.leaf[0] && d == t.spine)
        })
        .expect("leaf0 -> spine0 carries AR bytes");
    assert_eq!(up.bytes, 800, "half of each flow");
    assert_eq!(up.pairs, vec![(Some(0), Some(2), 500), (Some(1), Some(3), 300)]);
    // The static ranking puts both flows whole on the table's port.
    let hot = hottest_by(&cluster, &static_loads, &set, (usize::MAX, 2), RoutingModel::Static);
    let up = hot.iter().find(|h| h.end == up.end).expect("static leaf0 -> spine0");
    assert_eq!((up.bytes, up.pairs.len()), (1600, 2));
}

#[test]
fn ar_sums_past_two_to_the_64_saturate_and_are_named_as_the_static_ones_are() {
    let t = with_ar(false);
    let huge = u64::MAX - 10;
    let flows = [
        Flow { src: Lid(0x10), dst: Lid(0x12), bytes: huge },
        Flow { src: Lid(0x11), dst: Lid(0x12), bytes: huge },
    ];
    let load = spread(&t.fabric, &flows);
    assert_eq!((load.injected, load.delivered), (u64::MAX, u64::MAX), "capped, not wrapped");
    assert_eq!(bytes_at(&t, &load, t.leaf[1], t.h[2]), u64::MAX);
    let loads = Loads { regions: Vec::new(), total: RegionLoads { rails: vec![load], ..Default::default() } };
    let cluster = Cluster::new(vec![t.fabric.clone()]);
    let warnings = crate::routing::saturation::saturation_warnings(&cluster, &loads, "AR model");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("byte sum overflow on rail 0, the whole run"), "{warnings:?}");
}
