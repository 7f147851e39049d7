//! Specifications of the fat-tree layout.

use super::*;
use crate::layout::crossings::layout_crossings;
use crate::model::synthetic::TwoLevel;
use crate::model::{Cluster, Fabric, NodeKind, RailId};

fn two_rails() -> Cluster {
    let rail0 = TwoLevel::new(4, 3, 2).build();
    let rail1 = TwoLevel::new(4, 3, 3).rail(RailId(1), 0x9000_0000).build();
    Cluster::new(vec![rail0, rail1])
}

fn switch_positions(fabric: &Fabric, rail: &RailLayout) -> Vec<Position> {
    fabric.switches().filter_map(|n| rail.positions[n.index()]).collect()
}

/// Crossings between adjacent levels, read back from the final positions.
fn crossings(cluster: &Cluster, layout: &ClusterLayout) -> u64 {
    layout_crossings(cluster, layout).iter().flatten().sum()
}

#[test]
fn levels_are_hops_to_the_nearest_host() {
    let cluster = two_rails();
    let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
    let fabric = &cluster.rails[0];
    for node in fabric.graph.node_indices() {
        let expected = match (fabric.node(node).kind, fabric.node(node).description.as_str()) {
            (NodeKind::Ca, _) => 0,
            (_, d) if d.starts_with("L1") => 1,
            _ => 2,
        };
        assert_eq!(layout.rails[0].levels[node.index()], Some(expected), "{}", fabric.node(node).description);
    }
    assert_eq!(layout.rails[0].max_level, 2);
}

#[test]
fn no_two_nodes_of_one_level_share_a_position() {
    let cluster = two_rails();
    let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
    for (fabric, rail) in cluster.rails.iter().zip(&layout.rails) {
        let mut seen = switch_positions(fabric, rail);
        seen.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
        assert!(seen.windows(2).all(|w| w[0] != w[1]));
    }
    let mut hosts = layout.hosts.clone();
    hosts.sort_by(|a, b| a.x.total_cmp(&b.x));
    assert!(hosts.windows(2).all(|w| w[0].x < w[1].x));
}

#[test]
fn second_rail_is_mirrored_below_the_hosts() {
    let cluster = two_rails();
    let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
    assert!(switch_positions(&cluster.rails[0], &layout.rails[0]).iter().all(|p| p.y > 0.0));
    assert!(switch_positions(&cluster.rails[1], &layout.rails[1]).iter().all(|p| p.y < 0.0));
    let levels = |r: usize| {
        let mut ys: Vec<f32> =
            switch_positions(&cluster.rails[r], &layout.rails[r]).iter().map(|p| p.y.abs()).collect();
        ys.sort_by(f32::total_cmp);
        ys.dedup();
        ys
    };
    assert_eq!(levels(0), vec![1.0, 2.0]);
    assert_eq!(levels(1), vec![1.0, 2.0]);
}

#[test]
fn a_host_sits_once_at_y_zero_and_its_adapters_on_every_rail_share_that_spot() {
    let cluster = two_rails();
    let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
    for (h, host) in cluster.hosts.iter().enumerate() {
        assert_eq!(layout.hosts[h].y, 0.0);
        for (r, rail) in layout.rails.iter().enumerate() {
            for ca in host.on_rail(r) {
                assert_eq!(rail.positions[ca.index()], Some(layout.hosts[h]));
            }
        }
    }
}

#[test]
fn hosts_on_only_one_rail_still_sit_on_the_host_row() {
    let rail0 = TwoLevel::new(4, 3, 2).build(); // n0001..n0012
    let rail1 = TwoLevel::new(4, 2, 2).rail(RailId(1), 0x9000_0000).build(); // n0001..n0008
    let cluster = Cluster::new(vec![rail0, rail1]);
    let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
    assert_eq!(layout.hosts.len(), 12);
    let only_rail0 = cluster.host_index("n0012").unwrap();
    assert!(cluster.hosts[only_rail0].on_rail(1).is_empty());
    assert_eq!(layout.hosts[only_rail0].y, 0.0);
}

#[test]
fn third_and_fourth_rails_stack_outward_beyond_the_first_two() {
    let rails = (0..4).map(|r| TwoLevel::new(2, 2, 2).rail(RailId(r), u64::from(r) << 32).build()).collect();
    let cluster = Cluster::new(rails);
    let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
    let ys = |r: usize| {
        switch_positions(&cluster.rails[r], &layout.rails[r]).iter().map(|p| p.y).collect::<Vec<_>>()
    };
    assert!(ys(2).iter().all(|&y| y > 2.0), "rail 2 above rail 0: {:?}", ys(2));
    assert!(ys(3).iter().all(|&y| y < -2.0), "rail 3 below rail 1: {:?}", ys(3));
}

#[test]
fn the_thesis_layout_orders_each_level_by_breadth_first_discovery() {
    let cluster = Cluster::new(vec![TwoLevel::new(4, 3, 2).build()]);
    let layout = layout_fat_tree(&cluster, &FatTreeOptions { sweeps: 0, ..Default::default() });
    let fabric = &cluster.rails[0];
    let mut leaves: Vec<(f32, String)> = fabric
        .switches()
        .filter(|&n| layout.rails[0].levels[n.index()] == Some(1))
        .map(|n| (layout.rails[0].positions[n.index()].unwrap().x, fabric.node(n).description.clone()))
        .collect();
    leaves.sort_by(|a, b| a.0.total_cmp(&b.0));
    let names: Vec<&str> = leaves.iter().map(|(_, d)| d.as_str()).collect();
    assert_eq!(names, ["L1-000", "L1-001", "L1-002", "L1-003"]);
}

#[test]
fn barycentre_sweeps_untangle_hosts_named_across_leaves() {
    // Host i hangs on leaf i % 4, so name order scatters every leaf's hosts.
    let mut fabric = TwoLevel::new(4, 4, 2).build();
    let cas: Vec<_> = fabric.cas().collect();
    for ca in cas {
        let leaf_port = fabric.graph.neighbors(ca).next().unwrap();
        let leaf: usize = fabric.node(leaf_port).description[3..].parse().unwrap();
        let slot = fabric.node(ca).description[1..5].parse::<usize>().unwrap() - 1;
        fabric.graph[ca].description = format!("n{:04} HCA-1", (slot % 4) * 4 + leaf + 1);
    }
    let cluster = Cluster::new(vec![fabric]);
    let thesis =
        crossings(&cluster, &layout_fat_tree(&cluster, &FatTreeOptions { sweeps: 0, ..Default::default() }));
    let swept = crossings(&cluster, &layout_fat_tree(&cluster, &FatTreeOptions::default()));
    assert!(thesis > 0);
    assert!(swept < thesis, "sweeps {swept} vs thesis {thesis}");
}

#[test]
fn the_layout_is_deterministic() {
    let cluster = two_rails();
    let a = layout_fat_tree(&cluster, &FatTreeOptions::default());
    let b = layout_fat_tree(&cluster, &FatTreeOptions::default());
    assert_eq!(a, b);
}

#[test]
fn natural_order_compares_digit_runs_as_numbers() {
    let mut names = vec!["n10", "n2", "n1", "stor01", "n02"];
    names.sort_by(|a, b| natural_cmp(a, b));
    assert_eq!(names, ["n1", "n02", "n2", "n10", "stor01"]);
}
