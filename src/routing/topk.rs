//! Who put the bytes on a link end, when the per-pair flows are gone: a mergeable top-K summary
//! of (source host, destination host) contributors per link end.
//!
//! The summary is Misra–Gries with `k` counters, merged as Agarwal et al. ("Mergeable
//! summaries", PODS 2012) do: add the two counter sets, then subtract the (k+1)-th largest count
//! from every counter and keep the positive ones. Whatever the order of adds and merges (so
//! whatever the shape of an `MPI_Reduce` tree), for a link end that carried `N` bytes in all and
//! whose kept counters sum to `N̂`:
//!
//! - every kept count is a lower bound: `count ≤ true bytes ≤ count + (N − N̂) / (k + 1)`;
//! - a pair missing from the summary carried at most `(N − N̂) / (k + 1)` bytes;
//! - so every pair that carried more than `N / (k + 1)` bytes is listed.
//!
//! When a link end had at most `k` distinct contributors nothing is ever subtracted and the
//! counts are exact. Hosts are indices into `Cluster::hosts` (the same sorted host list on
//! every process that loaded the same rails).

/// One contributor: bytes from host `src` to host `dst` (indices into `Cluster::hosts`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Contributor {
    pub src: u32,
    pub dst: u32,
    pub bytes: u64,
}

/// An empty slot of a fixed-width summary (bytes 0 means empty).
pub const EMPTY: Contributor = Contributor { src: u32::MAX, dst: u32::MAX, bytes: 0 };

/// Adds `bytes` from `src` to `dst` into a summary of at most `k` counters (Misra–Gries:
/// when a new pair finds every counter taken, the smallest amount is subtracted from all).
pub fn add(summary: &mut Vec<Contributor>, k: usize, src: u32, dst: u32, bytes: u64) {
    if bytes == 0 || k == 0 {
        return;
    }
    if let Some(c) = summary.iter_mut().find(|c| c.src == src && c.dst == dst) {
        c.bytes = c.bytes.saturating_add(bytes);
        return;
    }
    summary.push(Contributor { src, dst, bytes });
    if summary.len() > k {
        shrink(summary, k);
    }
}

/// Merges `other` into `summary` (both of at most `k` counters).
pub fn merge(summary: &mut Vec<Contributor>, other: &[Contributor], k: usize) {
    for c in other.iter().filter(|c| c.bytes > 0) {
        match summary.iter_mut().find(|s| s.src == c.src && s.dst == c.dst) {
            Some(s) => s.bytes = s.bytes.saturating_add(c.bytes),
            None => summary.push(*c),
        }
    }
    if summary.len() > k {
        shrink(summary, k);
    }
}

/// Subtracts the (k+1)-th largest count from every counter and drops those left at zero, then
/// orders largest first (ties by pair, so every merge order prints the same).
fn shrink(summary: &mut Vec<Contributor>, k: usize) {
    summary.sort_unstable_by(|a, b| b.bytes.cmp(&a.bytes).then((a.src, a.dst).cmp(&(b.src, b.dst))));
    let cut = summary.get(k).map_or(0, |c| c.bytes);
    summary.truncate(k);
    for c in summary.iter_mut() {
        c.bytes -= cut;
    }
    summary.retain(|c| c.bytes > 0);
}

/// Largest first, ties by pair.
pub fn sorted(mut summary: Vec<Contributor>) -> Vec<Contributor> {
    summary.retain(|c| c.bytes > 0);
    summary.sort_unstable_by(|a, b| b.bytes.cmp(&a.bytes).then((a.src, a.dst).cmp(&(b.src, b.dst))));
    summary
}

/// Merges two fixed-width blocks of `k` slots each (as an `MPI_Op` sees them): `inout ⊕= input`.
pub fn merge_slots(inout: &mut [Contributor], input: &[Contributor]) {
    let k = inout.len();
    let mut merged: Vec<Contributor> = inout.iter().copied().filter(|c| c.bytes > 0).collect();
    let other: Vec<Contributor> = input.iter().copied().filter(|c| c.bytes > 0).collect();
    merge(&mut merged, &other, k);
    let merged = sorted(merged);
    for (i, slot) in inout.iter_mut().enumerate() {
        *slot = merged.get(i).copied().unwrap_or(EMPTY);
    }
}

/// The bound on how far any count (listed or not) is below the truth: `(N − N̂) / (k + 1)`.
pub fn error_bound(summary: &[Contributor], link_end_bytes: u64, k: usize) -> u64 {
    let kept: u64 = summary.iter().map(|c| c.bytes).fold(0, u64::saturating_add);
    link_end_bytes.saturating_sub(kept) / (k as u64).saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_of(s: &[Contributor], src: u32, dst: u32) -> u64 {
        s.iter().find(|c| c.src == src && c.dst == dst).map_or(0, |c| c.bytes)
    }

    #[test]
    fn few_contributors_are_counted_exactly() {
        let mut s = Vec::new();
        add(&mut s, 3, 0, 1, 10);
        add(&mut s, 3, 0, 2, 5);
        add(&mut s, 3, 0, 1, 7);
        assert_eq!(
            sorted(s),
            vec![Contributor { src: 0, dst: 1, bytes: 17 }, Contributor { src: 0, dst: 2, bytes: 5 }]
        );
    }

    #[test]
    fn merging_in_any_order_keeps_the_heavy_pairs_within_the_bound() {
        // 40 light pairs of 1 byte and two heavy ones of 100, spread over four partial summaries.
        let k = 2;
        let mut parts = vec![Vec::new(); 4];
        for i in 0..40u32 {
            add(&mut parts[i as usize % 4], k, i, i + 1, 1);
        }
        add(&mut parts[1], k, 100, 101, 100);
        add(&mut parts[3], k, 200, 201, 100);
        let total = 240;
        let mut left = parts[0].clone();
        merge(&mut left, &parts[1], k);
        let mut right = parts[2].clone();
        merge(&mut right, &parts[3], k);
        merge(&mut left, &right, k);
        let bound = error_bound(&left, total, k);
        for (src, dst, truth) in [(100, 101, 100), (200, 201, 100)] {
            let got = bytes_of(&left, src, dst);
            assert!(got <= truth && truth <= got + bound, "{got} {truth} {bound}");
            assert!(got > 0, "a pair above N/(k+1) is listed");
        }
    }

    #[test]
    fn fixed_width_slots_merge_like_lists() {
        let a = [Contributor { src: 1, dst: 2, bytes: 5 }, EMPTY];
        let mut b = [Contributor { src: 1, dst: 2, bytes: 3 }, Contributor { src: 3, dst: 4, bytes: 9 }];
        merge_slots(&mut b, &a);
        assert_eq!(b, [Contributor { src: 3, dst: 4, bytes: 9 }, Contributor { src: 1, dst: 2, bytes: 8 }]);
    }
}
