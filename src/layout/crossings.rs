//! Counting edge crossings between two adjacent layers, in O(E log E).
//!
//! Two edges (a1, b1) and (a2, b2) between layers cross when a1 < a2 but b1 > b2. Sorting by the
//! upper end and counting inversions of the lower end counts them all.

use super::ClusterLayout;
use crate::model::Cluster;

/// Crossings of a finished layout, read back from its positions: `[rail][level]` counts the
/// links between `level` and `level − 1` that cross (index 0 is always 0; index 1 is leaf to CA).
/// Parallel cables between two nodes count as one line.
pub fn layout_crossings(cluster: &Cluster, layout: &ClusterLayout) -> Vec<Vec<u64>> {
    // An order-preserving integer for an x coordinate (layout x is a multiple of 1/2 or finer).
    let key = |x: f32| ((x + 1.0e6) * 64.0) as u32;
    let mut out = Vec::new();
    for (fabric, rail) in cluster.rails.iter().zip(&layout.rails) {
        let mut per_level = vec![Vec::new(); rail.max_level as usize + 1];
        for e in fabric.graph.edge_indices() {
            let Some((a, b)) = fabric.graph.edge_endpoints(e) else { continue };
            let (Some(la), Some(lb)) = (rail.levels[a.index()], rail.levels[b.index()]) else { continue };
            let (upper, lower, level) = match (la, lb) {
                (x, y) if x == y + 1 => (a, b, x),
                (x, y) if y == x + 1 => (b, a, y),
                _ => continue,
            };
            let (Some(pu), Some(pl)) = (rail.positions[upper.index()], rail.positions[lower.index()]) else {
                continue;
            };
            if let Some(edges) = per_level.get_mut(level as usize) {
                edges.push((key(pu.x), key(pl.x)));
            }
        }
        // Parallel cables are drawn as one line: they cross what it crosses, once.
        for edges in &mut per_level {
            edges.sort_unstable();
            edges.dedup();
        }
        out.push(per_level.iter_mut().map(|edges| count_crossings(edges)).collect());
    }
    out
}

/// Counts crossings among edges given as (position in one layer, position in the other).
pub fn count_crossings(edges: &mut [(u32, u32)]) -> u64 {
    edges.sort_unstable();
    let mut lower: Vec<u32> = edges.iter().map(|&(_, b)| b).collect();
    let mut scratch = vec![0; lower.len()];
    inversions(&mut lower, &mut scratch)
}

/// Merge sort that counts strict inversions (pairs i < j with v[i] > v[j]).
fn inversions(v: &mut [u32], scratch: &mut [u32]) -> u64 {
    let n = v.len();
    if n < 2 {
        return 0;
    }
    let mid = n / 2;
    let (left, right) = v.split_at_mut(mid);
    let (sl, sr) = scratch.split_at_mut(mid);
    let mut count = inversions(left, sl) + inversions(right, sr);
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < left.len() && j < right.len() {
        if left[i] <= right[j] {
            scratch[k] = left[i];
            i += 1;
        } else {
            scratch[k] = right[j];
            count += (left.len() - i) as u64;
            j += 1;
        }
        k += 1;
    }
    scratch[k..k + left.len() - i].copy_from_slice(&left[i..]);
    k += left.len() - i;
    scratch[k..k + right.len() - j].copy_from_slice(&right[j..]);
    v.copy_from_slice(&scratch[..n]);
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force(edges: &[(u32, u32)]) -> u64 {
        let mut n = 0;
        for (i, a) in edges.iter().enumerate() {
            for b in &edges[i + 1..] {
                if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) {
                    n += 1;
                }
            }
        }
        n
    }

    #[test]
    fn parallel_edges_do_not_cross_and_an_x_crosses_once() {
        assert_eq!(count_crossings(&mut [(0, 0), (1, 1), (2, 2)]), 0);
        assert_eq!(count_crossings(&mut [(0, 1), (1, 0)]), 1);
        // Edges sharing an endpoint never cross.
        assert_eq!(count_crossings(&mut [(0, 0), (0, 1), (1, 1)]), 0);
    }

    #[test]
    fn counts_agree_with_brute_force() {
        let mut seed = 12345u64;
        for _ in 0..50 {
            let edges: Vec<(u32, u32)> = (0..40)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (((seed >> 33) % 9) as u32, ((seed >> 45) % 11) as u32)
                })
                .collect();
            assert_eq!(count_crossings(&mut edges.clone()), brute_force(&edges));
        }
    }
}
