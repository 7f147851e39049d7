//! Bytes per link end of one rail, stored by what moved (issue 13).
//!
//! A profile with 20,000 regions on a fabric of 3,000 link ends would hold 60 million counters
//! if every region kept one per end; a time step touches a few hundred. So a [`LinkBytes`] keeps
//! only the ends that carried bytes, as a sorted index list, and their counts at the narrowest
//! fixed width (1 to 8 bytes, little-endian) that holds the largest. Consecutive regions of a
//! time-step loop mostly use the same ends: [`LinkBytes::share_ends`] lets them share one list.
//! The representation is canonical (no zero entries, minimal width), so equality is by value.

use std::sync::Arc;

#[derive(Clone, Default, PartialEq, Eq)]
pub struct LinkBytes {
    /// Link ends on the rail: indexes run `0..len`.
    len: u32,
    /// The ends that carried bytes, ascending.
    ends: Arc<[u32]>,
    /// Bytes per listed end, `width` bytes each, little-endian.
    counts: Box<[u8]>,
    width: u8,
}

impl LinkBytes {
    /// `len` link ends, none carrying bytes.
    pub fn zeros(len: usize) -> Self {
        Self::from_sorted(len, [])
    }

    /// From one count per link end.
    pub fn from_dense(bytes: &[u64]) -> Self {
        let pairs = bytes.iter().enumerate().filter(|(_, b)| **b > 0).map(|(i, &b)| (i as u32, b));
        Self::from_sorted(bytes.len(), pairs)
    }

    /// From (end, bytes) pairs in ascending end order, each end once; zero counts are dropped.
    pub fn from_sorted(len: usize, pairs: impl IntoIterator<Item = (u32, u64)>) -> Self {
        let (ends, values): (Vec<u32>, Vec<u64>) = pairs.into_iter().filter(|p| p.1 > 0).unzip();
        let max = values.iter().copied().max().unwrap_or(0);
        let width = (8 - max.leading_zeros() / 8).max(1) as u8;
        let mut counts = Vec::with_capacity(values.len() * usize::from(width));
        for v in values {
            counts.extend_from_slice(&v.to_le_bytes()[..usize::from(width)]);
        }
        LinkBytes { len: len as u32, ends: ends.into(), counts: counts.into(), width }
    }

    /// Link ends on the rail (carrying bytes or not).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many ends carried bytes.
    pub fn used(&self) -> usize {
        self.ends.len()
    }

    fn count(&self, k: usize) -> u64 {
        let w = usize::from(self.width);
        let mut raw = [0u8; 8];
        raw[..w].copy_from_slice(&self.counts[k * w..(k + 1) * w]);
        u64::from_le_bytes(raw)
    }

    /// The bytes at link end `index` (0 outside the rail).
    pub fn get(&self, index: usize) -> u64 {
        let Ok(index) = u32::try_from(index) else { return 0 };
        self.ends.binary_search(&index).map_or(0, |k| self.count(k))
    }

    /// The ends that carried bytes, ascending: (end index, bytes).
    pub fn nonzero(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.ends.iter().enumerate().map(|(k, &e)| (e as usize, self.count(k)))
    }

    /// One count per link end.
    pub fn to_dense(&self) -> Vec<u64> {
        let mut out = vec![0; self.len()];
        for (e, b) in self.nonzero() {
            out[e] = b;
        }
        out
    }

    /// Adds this rail's counts into `into` (one slot per link end), times `sign`.
    pub fn add_into(&self, into: &mut [f64], sign: f64) {
        for (e, b) in self.nonzero() {
            if let Some(slot) = into.get_mut(e) {
                *slot += sign * b as f64;
            }
        }
    }

    /// The sum of two rails' counts, end by end (saturating).
    pub fn sum(&self, other: &LinkBytes) -> LinkBytes {
        let (mut a, mut b) = (self.nonzero().peekable(), other.nonzero().peekable());
        let mut merged = Vec::with_capacity(self.used().max(other.used()));
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(&(i, x)), Some(&(j, y))) if i == j => {
                    a.next();
                    b.next();
                    (i, x.saturating_add(y))
                }
                (Some(&(i, _)), Some(&(j, _))) if j < i => b.next().unwrap_or((j, 0)),
                (Some(_), _) => a.next().unwrap_or_default(),
                (None, Some(_)) => b.next().unwrap_or_default(),
                (None, None) => break,
            };
            merged.push((next.0 as u32, next.1));
        }
        LinkBytes::from_sorted(self.len().max(other.len()), merged)
    }

    /// Uses `other`'s end list when it holds the same ends, so the two share one copy.
    pub fn share_ends(&mut self, other: &LinkBytes) {
        if !Arc::ptr_eq(&self.ends, &other.ends) && self.ends == other.ends {
            self.ends = Arc::clone(&other.ends);
        }
    }

    /// Heap bytes this rail holds (its end list counted whole even when shared).
    pub fn heap_bytes(&self) -> usize {
        self.ends.len() * 4 + self.counts.len()
    }
}

/// From one count per link end, in end order.
impl FromIterator<u64> for LinkBytes {
    fn from_iter<I: IntoIterator<Item = u64>>(counts: I) -> Self {
        let mut len = 0u32;
        let pairs: Vec<(u32, u64)> = counts
            .into_iter()
            .enumerate()
            .inspect(|_| len += 1)
            .filter(|p| p.1 > 0)
            .map(|(i, b)| (i as u32, b))
            .collect();
        LinkBytes::from_sorted(len as usize, pairs)
    }
}

impl std::fmt::Debug for LinkBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LinkBytes({} ends) ", self.len)?;
        f.debug_map().entries(self.nonzero()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_counts_come_back_unchanged_and_only_used_ends_are_stored() {
        let dense = vec![0, 5, 0, 0, 70_000, 0, 1 << 40];
        let b = LinkBytes::from_dense(&dense);
        assert_eq!(b.to_dense(), dense);
        assert_eq!((b.len(), b.used()), (7, 3));
        assert_eq!(b.get(4), 70_000);
        assert_eq!(b.get(3), 0);
        assert_eq!(b.get(99), 0);
        assert_eq!(b.heap_bytes(), 3 * 4 + 3 * 6, "six bytes hold 2^40");
    }

    #[test]
    fn sums_merge_ends_and_equal_the_dense_sum() {
        let a = LinkBytes::from_dense(&[1, 0, 3, 0]);
        let b = LinkBytes::from_dense(&[0, 0, 4, 9]);
        assert_eq!(a.sum(&b).to_dense(), vec![1, 0, 7, 9]);
        assert_eq!(a.sum(&LinkBytes::zeros(4)), a);
        assert_eq!(LinkBytes::from_dense(&[u64::MAX]).sum(&LinkBytes::from_dense(&[1])).get(0), u64::MAX);
    }

    #[test]
    fn equal_end_lists_are_shared_and_values_stay_their_own() {
        let a = LinkBytes::from_dense(&[1, 0, 2]);
        let mut b = LinkBytes::from_dense(&[300, 0, 4]);
        b.share_ends(&a);
        assert!(Arc::ptr_eq(&a.ends, &b.ends));
        assert_eq!(b.to_dense(), vec![300, 0, 4]);
        let mut c = LinkBytes::from_dense(&[0, 1, 2]);
        c.share_ends(&a);
        assert!(!Arc::ptr_eq(&a.ends, &c.ends));
    }

    #[test]
    fn all_zero_equals_zeros_of_the_same_length() {
        assert_eq!(LinkBytes::from_dense(&[0, 0]), LinkBytes::zeros(2));
        assert_ne!(LinkBytes::zeros(2), LinkBytes::zeros(3));
    }
}
