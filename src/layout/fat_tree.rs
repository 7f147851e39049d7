//! The fat-tree layout of Brown's thesis, made deterministic and less tangled.
//!
//! - **Levels.** A breadth-first search from every CA at once gives each node its hops to the
//!   nearest host; CAs are level 0.
//! - **Order.** The same search, seeded with the hosts in natural name order (`n2` before `n10`)
//!   and following ports in increasing order, reaches the nodes of each level in the order that
//!   becomes their x. This is the thesis's layout (`sweeps: 0`).
//! - **Improvement.** A few barycentre sweeps reorder each level by the mean position of its
//!   neighbours below, then above (hosts by their leaf switches on every rail). The ordering with
//!   the fewest crossings seen is kept, so the sweeps never make it worse.
//! - **Rails.** Hosts are drawn once at y = 0. Rail 0's switches sit at y = +level, rail 1's at
//!   y = −level: the second subnet is inverted below. Further rails stack outward, alternating:
//!   rail 2 above rail 0 and rail 3 below rail 1, each one level-gap beyond the rail before it
//!   (rail 2 at y = max_level(rail 0) + 1 + level).
//! - **x.** Each level is spread evenly over the width of the widest level and centred on x = 0.

use petgraph::graph::NodeIndex;

use super::crossings::count_crossings;
pub use super::fat_tree_options::{FatTreeOptions, HcaPlanes};
use super::planes::layout_planes;
use super::rail_order::{RailOrder, breadth_first};
use super::{ClusterLayout, Position, RailLayout};
pub use crate::model::natural_cmp;
use crate::model::{Cluster, NodeKind};

/// Lays out every rail of a cluster around one shared row of hosts.
/// With `HcaPlanes::Auto` on a rail-optimized cluster, this is [`super::planes::layout_planes`].
pub fn layout_fat_tree(cluster: &Cluster, options: &FatTreeOptions) -> ClusterLayout {
    if options.hca_planes == HcaPlanes::Auto && cluster.has_planes() {
        return layout_planes(cluster, options);
    }
    let mut host_order: Vec<usize> = (0..cluster.hosts.len()).collect();
    host_order.sort_by(|&a, &b| natural_cmp(&cluster.hosts[a].name, &cluster.hosts[b].name));
    let mut rails: Vec<RailOrder> =
        cluster.rails.iter().enumerate().map(|(r, f)| breadth_first(cluster, r, f, &host_order)).collect();

    let mut host_slot = slots_of(&host_order, cluster.hosts.len());
    let mut best = (total_crossings(&rails, &host_slot), host_order.clone(), snapshot(&rails));
    for _ in 0..options.sweeps {
        for rail in &mut rails {
            for level in 1..rail.by_level.len() {
                reorder_level(rail, level, level - 1, &host_slot, host_order.len());
            }
        }
        for rail in &mut rails {
            for level in (1..rail.by_level.len().saturating_sub(1)).rev() {
                reorder_level(rail, level, level + 1, &host_slot, host_order.len());
            }
        }
        reorder_hosts(&rails, &mut host_order, &host_slot);
        host_slot = slots_of(&host_order, cluster.hosts.len());
        let crossings = total_crossings(&rails, &host_slot);
        if crossings < best.0 {
            best = (crossings, host_order.clone(), snapshot(&rails));
        }
    }
    let (_, host_order, by_level) = best;
    for (rail, levels) in rails.iter_mut().zip(by_level) {
        rail.by_level = levels;
    }
    place(cluster, &rails, &host_order)
}

fn slots_of(order: &[usize], len: usize) -> Vec<u32> {
    let mut slots = vec![0; len];
    for (i, &h) in order.iter().enumerate() {
        slots[h] = i as u32;
    }
    slots
}

/// A node's position in its level as a fraction in (0, 1), so levels of any width compare.
fn fraction(rail: &RailOrder, node: NodeIndex, slot: &[u32], host_slot: &[u32], hosts: usize) -> Option<f64> {
    let level = rail.levels[node.index()]?;
    if level == 0 {
        let h = rail.host_of[node.index()]?;
        return Some((f64::from(host_slot[h]) + 0.5) / hosts.max(1) as f64);
    }
    let width = rail.by_level[level as usize].len().max(1) as f64;
    Some((f64::from(slot[node.index()]) + 0.5) / width)
}

fn level_slots(rail: &RailOrder) -> Vec<u32> {
    let mut slot = vec![0; rail.levels.len()];
    for level in &rail.by_level {
        for (i, n) in level.iter().enumerate() {
            slot[n.index()] = i as u32;
        }
    }
    slot
}

/// Sorts one level by the mean position of its neighbours on `toward` (stable: ties keep order).
fn reorder_level(rail: &mut RailOrder, level: usize, toward: usize, host_slot: &[u32], hosts: usize) {
    let slot = level_slots(rail);
    let width = rail.by_level[level].len().max(1) as f64;
    let mut keyed: Vec<(f64, NodeIndex)> = rail.by_level[level]
        .iter()
        .enumerate()
        .map(|(i, &node)| {
            let fracs: Vec<f64> = rail.neighbours[node.index()]
                .iter()
                .filter(|o| rail.levels[o.index()] == Some(toward as u32))
                .filter_map(|&o| fraction(rail, o, &slot, host_slot, hosts))
                .collect();
            let key = if fracs.is_empty() {
                (i as f64 + 0.5) / width
            } else {
                fracs.iter().sum::<f64>() / fracs.len() as f64
            };
            (key, node)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    rail.by_level[level] = keyed.into_iter().map(|(_, n)| n).collect();
}

/// Sorts hosts by the mean position of their level-1 neighbours over every rail.
fn reorder_hosts(rails: &[RailOrder], host_order: &mut [usize], host_slot: &[u32]) {
    let hosts = host_order.len();
    let mut sum = vec![0.0; host_slot.len()];
    let mut count = vec![0u32; host_slot.len()];
    for rail in rails {
        let slot = level_slots(rail);
        for (ca, host) in rail.host_of.iter().enumerate() {
            let Some(h) = *host else { continue };
            for &o in &rail.neighbours[ca] {
                if rail.levels[o.index()] == Some(1)
                    && let Some(f) = fraction(rail, o, &slot, host_slot, hosts)
                {
                    sum[h] += f;
                    count[h] += 1;
                }
            }
        }
    }
    let key = |h: usize| {
        if count[h] == 0 {
            (f64::from(host_slot[h]) + 0.5) / hosts as f64
        } else {
            sum[h] / f64::from(count[h])
        }
    };
    host_order.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
}

fn total_crossings(rails: &[RailOrder], host_slot: &[u32]) -> u64 {
    let mut total = 0;
    for rail in rails {
        let slot = level_slots(rail);
        let position = |n: NodeIndex| -> Option<u32> {
            match rail.levels[n.index()]? {
                0 => rail.host_of[n.index()].map(|h| host_slot[h]),
                _ => Some(slot[n.index()]),
            }
        };
        for level in 1..rail.by_level.len() {
            let mut edges = Vec::new();
            for &node in &rail.by_level[level] {
                for &o in &rail.neighbours[node.index()] {
                    if rail.levels[o.index()] == Some(level as u32 - 1)
                        && let (Some(a), Some(b)) = (position(node), position(o))
                    {
                        edges.push((a, b));
                    }
                }
            }
            total += count_crossings(&mut edges);
        }
    }
    total
}

fn snapshot(rails: &[RailOrder]) -> Vec<Vec<Vec<NodeIndex>>> {
    rails.iter().map(|r| r.by_level.clone()).collect()
}

/// Turns orders into positions: levels spread over the widest level, rails stacked outward.
fn place(cluster: &Cluster, rails: &[RailOrder], host_order: &[usize]) -> ClusterLayout {
    let widest = rails.iter().flat_map(|r| r.by_level.iter().map(Vec::len)).max().unwrap_or(0);
    let width = host_order.len().max(widest).max(1) as f32;
    let spread = |i: usize, n: usize| ((i as f32 + 0.5) / n as f32 - 0.5) * width;
    let mut hosts = vec![Position::default(); cluster.hosts.len()];
    for (i, &h) in host_order.iter().enumerate() {
        hosts[h] = Position { x: spread(i, host_order.len()), y: 0.0 };
    }
    let mut reach = [0.0f32; 2]; // how far up (0) and down (1) earlier rails already extend
    let mut out = Vec::with_capacity(rails.len());
    for (r, rail) in rails.iter().enumerate() {
        let side = r % 2;
        let sign = if side == 0 { 1.0 } else { -1.0 };
        let base = if reach[side] > 0.0 { reach[side] + 1.0 } else { 0.0 };
        let max_level = rail.by_level.len().saturating_sub(1) as u32;
        let mut positions = vec![None; rail.levels.len()];
        for (level, nodes) in rail.by_level.iter().enumerate().skip(1) {
            for (i, node) in nodes.iter().enumerate() {
                let y = sign * (base + level as f32);
                positions[node.index()] = Some(Position { x: spread(i, nodes.len()), y });
            }
        }
        for (ca, host) in rail.host_of.iter().enumerate() {
            if let Some(h) = host {
                positions[ca] = Some(hosts[*h]);
            }
        }
        let fabric = &cluster.rails[r];
        for ca in fabric.cas() {
            if positions[ca.index()].is_none() && fabric.node(ca).kind == NodeKind::Ca {
                positions[ca.index()] = Some(Position { x: 0.0, y: 0.0 });
            }
        }
        reach[side] = base + max_level as f32;
        out.push(RailLayout { positions, levels: rail.levels.clone(), max_level });
    }
    ClusterLayout { hosts, rails: out, planes: None }
}

#[cfg(test)]
#[path = "fat_tree_tests.rs"]
mod tests;
