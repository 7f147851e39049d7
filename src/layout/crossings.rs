//! Counting edge crossings between two adjacent layers, in O(E log E).
//!
//! Two edges (a1, b1) and (a2, b2) between layers cross when a1 < a2 but b1 > b2. Sorting by the
//! upper end and counting inversions of the lower end counts them all.

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
