//! The synthetic fat trees of [`crate::model::synthetic`] route: their hand-made forwarding
//! tables deliver every pair. (Here, not beside the builders, because the model layer knows
//! nothing of tracing.)

use crate::model::Lid;
use crate::model::synthetic::{RailOptimized, ThreeLevel, TwoLevel};
use crate::routing::trace;

#[test]
fn every_pair_of_a_synthetic_tree_is_delivered() {
    let fabric = TwoLevel::new(4, 3, 2).build();
    assert_eq!(fabric.switches().count(), 6);
    assert_eq!(fabric.cas().count(), 12);
    assert_eq!(fabric.link_count(), 12 + 8);
    let lids: Vec<Lid> = fabric.graph.node_indices().filter_map(|n| fabric.node(n).base_lid()).collect();
    for &s in &lids {
        for &d in &lids {
            assert!(trace(&fabric, s, d).delivered(), "{s} -> {d}");
        }
    }
}

#[test]
fn a_small_k_ary_tree_builds_with_its_counts_and_delivers_every_pair() {
    let shape = ThreeLevel::k_ary(4);
    let fabric = shape.build();
    assert_eq!(fabric.cas().count(), shape.host_count());
    assert_eq!(fabric.switches().count(), shape.switch_count());
    assert_eq!(fabric.link_count(), shape.link_count());
    assert_eq!(fabric.switches_with_lft(), shape.switch_count());
    let lids: Vec<Lid> = fabric.graph.node_indices().filter_map(|n| fabric.node(n).base_lid()).collect();
    for &s in &lids {
        for &d in &lids {
            let path = trace(&fabric, s, d);
            assert!(path.delivered(), "{s} -> {d}: {:?}", path.outcome);
            assert!(path.link_ends.len() <= 6, "{s} -> {d} took {} links", path.link_ends.len());
        }
    }
}

#[test]
fn every_pair_of_a_rail_optimized_fabric_is_delivered_through_one_spine_at_most() {
    let fabric = RailOptimized::new(2, 3, 4, 2).links_per_spine(2).build();
    let lids: Vec<Lid> = fabric.cas().filter_map(|n| fabric.node(n).base_lid()).collect();
    for &s in &lids {
        for &d in &lids {
            let path = trace(&fabric, s, d);
            assert!(path.delivered(), "{s} -> {d}: {:?}", path.outcome);
            assert!(path.link_ends.len() <= 4, "{s} -> {d} took {} links", path.link_ends.len());
        }
    }
}
