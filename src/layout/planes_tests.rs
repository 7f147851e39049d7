//! Specifications of the plane layout.

use super::*;
use crate::layout::crossings::layout_crossings;
use crate::layout::{HcaPlanes, layout_fat_tree};
use crate::model::synthetic::{RailOptimized, TwoLevel};
use crate::model::{Fabric, RailId};

/// Two scalable units of 32 eight-HCA hosts, as in NVIDIA's SuperPOD designs, on 4 spines.
fn rail_optimized() -> Cluster {
    Cluster::new(vec![RailOptimized::new(2, 32, 8, 4).links_per_spine(8).build()])
}

fn planes_on() -> FatTreeOptions {
    FatTreeOptions::default()
}

fn planes_off() -> FatTreeOptions {
    FatTreeOptions { hca_planes: HcaPlanes::Off, ..FatTreeOptions::default() }
}

fn ca_xs(fabric: &Fabric, rail: &RailLayout) -> Vec<f32> {
    fabric.cas().map(|ca| rail.positions[ca.index()].expect("every CA is placed").x).collect()
}

#[test]
fn leaf_to_ca_links_cross_nowhere_and_the_total_is_a_small_fraction_of_one_dot_per_host() {
    let cluster = rail_optimized();
    let planes = layout_fat_tree(&cluster, &planes_on());
    let thesis = layout_fat_tree(&cluster, &planes_off());
    assert!(planes.planes.is_some() && thesis.planes.is_none());
    let by_level = layout_crossings(&cluster, &planes);
    assert_eq!(by_level[0][1], 0, "leaf to CA");
    let total: u64 = by_level.iter().flatten().sum();
    let before: u64 = layout_crossings(&cluster, &thesis).iter().flatten().sum();
    assert!(total * 20 <= before, "plane layout {total} crossings, one dot per host {before}");
}

#[test]
fn every_ca_is_placed_once_on_the_host_row() {
    let cluster = rail_optimized();
    let layout = layout_fat_tree(&cluster, &planes_on());
    let mut xs = ca_xs(&cluster.rails[0], &layout.rails[0]);
    assert_eq!(xs.len(), 2 * 32 * 8);
    for ca in cluster.rails[0].cas() {
        assert_eq!(layout.rails[0].positions[ca.index()].unwrap().y, 0.0);
    }
    xs.sort_by(f32::total_cmp);
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "no two CAs share a spot");
}

#[test]
fn each_plane_is_one_block_with_its_leaves_above_and_a_host_at_the_same_place_in_each() {
    let cluster = rail_optimized();
    let layout = layout_fat_tree(&cluster, &planes_on());
    let blocks = &layout.planes.as_ref().unwrap().blocks;
    let labels: Vec<&str> = blocks.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7"]);
    let fabric = &cluster.rails[0];
    let rail = &layout.rails[0];
    for ca in fabric.cas() {
        let plane = cluster.plane_of(0, ca).unwrap();
        let block = blocks.iter().find(|b| b.plane == plane).unwrap();
        let x = rail.positions[ca.index()].unwrap().x;
        assert!(x >= block.x_min && x <= block.x_max);
        // The host's place within the block: same offset in every plane.
        let host: usize = fabric.node(ca).host_name()[3..].parse().unwrap();
        assert_eq!(x - block.x_min, (host - 1) as f32, "{}", fabric.node(ca).description);
    }
    for leaf in fabric.switches().filter(|&s| rail.levels[s.index()] == Some(1)) {
        let block = blocks.iter().find(|b| Some(b.plane) == cluster.plane_of(0, leaf)).unwrap();
        let p = rail.positions[leaf.index()].unwrap();
        assert!(p.y == 1.0 && p.x >= block.x_min && p.x <= block.x_max, "{}", fabric.node(leaf).description);
    }
}

#[test]
fn single_hca_fabrics_keep_the_thesis_layout() {
    let cluster = Cluster::new(vec![
        TwoLevel::new(4, 3, 2).build(),
        TwoLevel::new(4, 3, 2).rail(RailId(1), 0x9000_0000).build(),
    ]);
    let layout = layout_fat_tree(&cluster, &planes_on());
    assert_eq!(layout, layout_fat_tree(&cluster, &planes_off()));
    assert!(layout.planes.is_none());
}

#[test]
fn a_second_rail_optimized_subnet_is_mirrored_below_beside_the_first() {
    let mut second = RailOptimized::new(1, 3, 2, 2);
    second.guid_base += 1 << 40;
    let mut rail1 = second.build();
    rail1.rail = RailId(1);
    let cluster = Cluster::new(vec![RailOptimized::new(1, 3, 2, 2).build(), rail1]);
    let layout = layout_fat_tree(&cluster, &planes_on());
    let rail0_max = ca_xs(&cluster.rails[0], &layout.rails[0]).into_iter().fold(f32::MIN, f32::max);
    let rail1_min = ca_xs(&cluster.rails[1], &layout.rails[1]).into_iter().fold(f32::MAX, f32::min);
    assert!(rail0_max < rail1_min, "rail 1's blocks follow rail 0's");
    for (r, sign) in [(0, 1.0), (1, -1.0)] {
        for s in cluster.rails[r].switches() {
            assert!(layout.rails[r].positions[s.index()].unwrap().y * sign > 0.0);
        }
    }
    assert_eq!(layout.planes.as_ref().unwrap().blocks.len(), 4);
    assert!(layout_crossings(&cluster, &layout).iter().all(|levels| levels[1] == 0));
}

#[test]
fn the_plane_layout_is_deterministic() {
    let cluster = rail_optimized();
    assert_eq!(layout_fat_tree(&cluster, &planes_on()), layout_fat_tree(&cluster, &planes_on()));
}
