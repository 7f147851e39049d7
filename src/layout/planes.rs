//! The plane layout, for rail-optimized clusters (hosts with one HCA per plane in one subnet).
//!
//! The thesis layout draws a host as one dot; with 8 HCAs its 8 links fan out to 8 leaves and
//! cross everything between. Here every CA gets its own spot on the host row (y = 0):
//! - **Blocks.** The row is cut into one block per (rail, plane), rails left to right, planes in
//!   natural adapter order (`mlx5_0` … `mlx5_7`), one empty slot between blocks, two between rails.
//! - **Leaves.** Within a plane, leaves are ordered by the first host (natural name order) they
//!   serve; each leaf's CAs come down to one contiguous run, in host order, and the leaf sits
//!   over the middle of its run. So leaf-to-CA links cross nowhere, and host h sits at the same
//!   place within every plane's block.
//! - **Above.** Levels from 2 up are ordered by barycentre sweeps (the fewest crossings seen is
//!   kept) and spread over the x-span of their rail's blocks. Rail 0 (and 2, 4 …) grows upward,
//!   rail 1 (and 3, 5 …) mirrored below, as in the thesis layout.
//!
//! A host is then all of its CAs: the scene marks each, lit together, and [`PlaneLayout`] says
//! where each block is for its bracket and label.

use petgraph::graph::NodeIndex;

use super::crossings::count_crossings;
use super::fat_tree_options::FatTreeOptions;
use super::rail_order::{RailOrder, breadth_first};
use super::{ClusterLayout, Position, RailLayout};
use crate::model::{Cluster, NodeKind, natural_cmp};

/// Where the plane layout put its blocks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlaneLayout {
    /// One per (rail, plane) that holds CAs, left to right.
    pub blocks: Vec<PlaneBlock>,
    /// World distance between neighbouring CAs.
    pub slot: f32,
}

/// One plane's run of CAs on the host row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlaneBlock {
    pub rail: usize,
    pub plane: u16,
    /// `mlx5_3`, or `plane 3` where the adapters have no names.
    pub label: String,
    /// The x of its first and last CA.
    pub x_min: f32,
    pub x_max: f32,
    pub cas: usize,
}

const SLOT: f32 = 1.0;

/// Lays out a cluster with its hosts expanded into their CAs by plane (see the module comment).
pub fn layout_planes(cluster: &Cluster, options: &FatTreeOptions) -> ClusterLayout {
    let mut host_order: Vec<usize> = (0..cluster.hosts.len()).collect();
    host_order.sort_by(|&a, &b| natural_cmp(&cluster.hosts[a].name, &cluster.hosts[b].name));
    let mut host_rank = vec![0usize; cluster.hosts.len()];
    for (i, &h) in host_order.iter().enumerate() {
        host_rank[h] = i;
    }
    let mut rails: Vec<RailOrder> =
        cluster.rails.iter().enumerate().map(|(r, f)| breadth_first(cluster, r, f, &host_order)).collect();
    let mut x_next = 0.0f32;
    let mut blocks = Vec::new();
    let mut positions: Vec<Vec<Option<Position>>> = Vec::with_capacity(rails.len());
    for (r, rail) in rails.iter_mut().enumerate() {
        if r > 0 {
            x_next += SLOT; // two empty slots between rails (one more than between planes)
        }
        let mut pos = vec![None; rail.levels.len()];
        let span_start = x_next;
        order_leaves(cluster, r, rail, &host_rank);
        place_row(cluster, r, rail, &host_rank, &mut pos, &mut x_next, &mut blocks);
        let span = (span_start, (x_next - 2.0 * SLOT).max(span_start));
        let sign = if r.is_multiple_of(2) { 1.0 } else { -1.0 };
        order_upper_levels(rail, &mut pos, span, sign, options.sweeps);
        positions.push(pos);
    }
    // Centre the row on x = 0, as the thesis layout does.
    let shift = (x_next - 2.0 * SLOT).max(0.0) / 2.0;
    for p in positions.iter_mut().flatten().flatten() {
        p.x -= shift;
    }
    for b in &mut blocks {
        b.x_min -= shift;
        b.x_max -= shift;
    }
    let mut hosts = vec![Position::default(); cluster.hosts.len()];
    for (h, host) in cluster.hosts.iter().enumerate() {
        let positions = &positions;
        let leftmost = (0..cluster.rails.len())
            .flat_map(|r| host.on_rail(r).iter().filter_map(move |ca| positions[r][ca.index()]))
            .min_by(|a, b| a.x.total_cmp(&b.x));
        hosts[h] = leftmost.unwrap_or_default();
    }
    let out = rails
        .into_iter()
        .zip(positions)
        .map(|(rail, positions)| {
            let max_level = rail.by_level.len().saturating_sub(1) as u32;
            RailLayout { positions, levels: rail.levels, max_level }
        })
        .collect();
    ClusterLayout { hosts, rails: out, planes: Some(PlaneLayout { blocks, slot: SLOT }) }
}

/// The leaves (level 1) by plane, then by the first host they serve, then by name.
fn order_leaves(cluster: &Cluster, r: usize, rail: &mut RailOrder, host_rank: &[usize]) {
    let fabric = &cluster.rails[r];
    let Some(leaves) = rail.by_level.get_mut(1) else { return };
    let first_host = |leaf: NodeIndex| {
        rail.neighbours[leaf.index()]
            .iter()
            .filter_map(|o| rail.host_of[o.index()].map(|h| host_rank[h]))
            .min()
            .unwrap_or(usize::MAX)
    };
    let plane = |n: NodeIndex| cluster.plane_of(r, n).unwrap_or(u16::MAX);
    let mut keyed: Vec<(u16, usize, NodeIndex)> =
        leaves.iter().map(|&l| (plane(l), first_host(l), l)).collect();
    keyed.sort_by(|a, b| {
        (a.0, a.1)
            .cmp(&(b.0, b.1))
            .then_with(|| natural_cmp(&fabric.node(a.2).description, &fabric.node(b.2).description))
    });
    *leaves = keyed.into_iter().map(|(_, _, l)| l).collect();
}

/// Places the rail's CAs on the host row, block by block, and each leaf over its run.
fn place_row(
    cluster: &Cluster,
    r: usize,
    rail: &RailOrder,
    host_rank: &[usize],
    pos: &mut [Option<Position>],
    x_next: &mut f32,
    blocks: &mut Vec<PlaneBlock>,
) {
    let fabric = &cluster.rails[r];
    let ca_key = |ca: NodeIndex| {
        let rank = rail.host_of[ca.index()].map_or(usize::MAX, |h| host_rank[h]);
        (rank, fabric.node(ca).adapter_name().to_string())
    };
    let sort_cas = |cas: &mut Vec<NodeIndex>| {
        cas.sort_by(|&a, &b| {
            let (ka, kb) = (ca_key(a), ca_key(b));
            ka.0.cmp(&kb.0).then_with(|| natural_cmp(&ka.1, &kb.1)).then(a.cmp(&b))
        })
    };
    let leaves = rail.by_level.get(1).cloned().unwrap_or_default();
    let mut placed = vec![false; rail.levels.len()];
    let plane_of = |n: NodeIndex| cluster.plane_of(r, n).unwrap_or(u16::MAX);
    let mut open_block: Option<PlaneBlock> = None;
    let close = |block: Option<PlaneBlock>, blocks: &mut Vec<PlaneBlock>, x_next: &mut f32| {
        if let Some(b) = block.filter(|b| b.cas > 0) {
            blocks.push(b);
            *x_next += SLOT; // the gap after a block
        }
    };
    let mut put = |ca: NodeIndex, plane: u16, block: &mut Option<PlaneBlock>, x: &mut f32| {
        pos[ca.index()] = Some(Position { x: *x, y: 0.0 });
        let b = block.get_or_insert_with(|| new_block(cluster, r, plane, *x));
        b.x_max = *x;
        b.cas += 1;
        *x += SLOT;
    };
    for &leaf in &leaves {
        let plane = plane_of(leaf);
        if open_block.as_ref().is_some_and(|b| b.plane != plane) {
            close(open_block.take(), blocks, x_next);
        }
        let mut cas: Vec<NodeIndex> = rail.neighbours[leaf.index()]
            .iter()
            .copied()
            .filter(|&o| fabric.node(o).kind == NodeKind::Ca && !placed[o.index()])
            .collect();
        cas.dedup();
        sort_cas(&mut cas);
        for &ca in &cas {
            placed[ca.index()] = true;
            put(ca, plane, &mut open_block, x_next);
        }
    }
    close(open_block.take(), blocks, x_next);
    // CAs cabled to no switch (back to back) close the rail, in one block of their own.
    let mut rest: Vec<NodeIndex> = fabric.cas().filter(|c| !placed[c.index()]).collect();
    sort_cas(&mut rest);
    for ca in rest {
        put(ca, plane_of(ca), &mut open_block, x_next);
    }
    close(open_block.take(), blocks, x_next);
    for &leaf in &leaves {
        let xs: Vec<f32> = rail.neighbours[leaf.index()]
            .iter()
            .filter(|o| fabric.node(**o).kind == NodeKind::Ca)
            .filter_map(|o| pos[o.index()])
            .map(|p| p.x)
            .collect();
        let x = if xs.is_empty() { *x_next } else { xs.iter().sum::<f32>() / xs.len() as f32 };
        pos[leaf.index()] = Some(Position { x, y: 0.0 });
    }
    for &leaf in &leaves {
        if let Some(p) = &mut pos[leaf.index()] {
            p.y = if r.is_multiple_of(2) { 1.0 } else { -1.0 };
        }
    }
}

fn new_block(cluster: &Cluster, r: usize, plane: u16, x: f32) -> PlaneBlock {
    let label = cluster
        .planes
        .get(r)
        .and_then(|p| p.planes.get(usize::from(plane)))
        .map_or_else(|| "no plane".to_string(), |p| p.label(usize::from(plane)));
    let label = if cluster.rails.len() > 1 { format!("{label} (rail {r})") } else { label };
    PlaneBlock { rail: r, plane, label, x_min: x, x_max: x, cas: 0 }
}

/// Orders levels 2 and up by barycentre sweeps against the placed level below (and above),
/// keeping the fewest crossings seen, then spreads each over the rail's span.
fn order_upper_levels(
    rail: &mut RailOrder,
    pos: &mut [Option<Position>],
    span: (f32, f32),
    sign: f32,
    sweeps: usize,
) {
    let top = rail.by_level.len();
    if top <= 2 {
        return;
    }
    let spread = |rail: &RailOrder, pos: &mut [Option<Position>], level: usize| {
        let nodes = &rail.by_level[level];
        let n = nodes.len().max(1) as f32;
        for (i, node) in nodes.iter().enumerate() {
            let x = span.0 + (i as f32 + 0.5) / n * (span.1 - span.0 + SLOT) - SLOT / 2.0;
            pos[node.index()] = Some(Position { x, y: sign * level as f32 });
        }
    };
    let sort_by_neighbours = |rail: &mut RailOrder, pos: &[Option<Position>], level: usize, toward: u32| {
        let keyed: Vec<(f32, NodeIndex)> = rail.by_level[level]
            .iter()
            .enumerate()
            .map(|(i, &node)| {
                let xs: Vec<f32> = rail.neighbours[node.index()]
                    .iter()
                    .filter(|o| rail.levels[o.index()] == Some(toward))
                    .filter_map(|o| pos[o.index()].map(|p| p.x))
                    .collect();
                let fallback = pos[node.index()].map_or(i as f32, |p| p.x);
                (if xs.is_empty() { fallback } else { xs.iter().sum::<f32>() / xs.len() as f32 }, node)
            })
            .collect();
        let mut keyed = keyed;
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        rail.by_level[level] = keyed.into_iter().map(|(_, n)| n).collect();
    };
    for level in 2..top {
        sort_by_neighbours(rail, pos, level, level as u32 - 1);
        spread(rail, pos, level);
    }
    let mut best = (upper_crossings(rail, pos), rail.by_level.clone());
    for _ in 1..sweeps {
        for level in (2..top - 1).rev() {
            sort_by_neighbours(rail, pos, level, level as u32 + 1);
            spread(rail, pos, level);
        }
        for level in 2..top {
            sort_by_neighbours(rail, pos, level, level as u32 - 1);
            spread(rail, pos, level);
        }
        let crossings = upper_crossings(rail, pos);
        if crossings < best.0 {
            best = (crossings, rail.by_level.clone());
        }
    }
    rail.by_level = best.1;
    for level in 2..top {
        spread(rail, pos, level);
    }
}

/// Crossings between levels 1 and up, from the positions (leaf-to-CA ones are zero by
/// construction).
fn upper_crossings(rail: &RailOrder, pos: &[Option<Position>]) -> u64 {
    let key = |x: f32| (x * 64.0 + 1.0e7) as u32;
    let mut total = 0;
    for level in 2..rail.by_level.len() {
        let mut edges = Vec::new();
        for &node in &rail.by_level[level] {
            for &o in &rail.neighbours[node.index()] {
                if rail.levels[o.index()] == Some(level as u32 - 1)
                    && let (Some(a), Some(b)) = (pos[node.index()], pos[o.index()])
                {
                    edges.push((key(a.x), key(b.x)));
                }
            }
        }
        total += count_crossings(&mut edges);
    }
    total
}

#[cfg(test)]
#[path = "planes_tests.rs"]
mod tests;
