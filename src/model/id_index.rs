//! Where each id of a list sits in it. Ids are usually `0..n` (link ends, nodes, ranks), so the
//! position is read from an array; only scattered ids pay for a hash map (seeded foldhash).
//!
//! `HashMap<i64, usize>` under SipHash for every id of every domain, and another for each join's
//! keys, were most of building a k = 36 fabric's run after its tables (perf of the window).

use std::collections::HashMap;

/// Position of each id in the list it was built from; the last position of a repeated id.
#[derive(Clone, Debug)]
pub enum IdIndex {
    /// Ids spanning at most four times their count: position by `id − min`, [`IdIndex::NONE`]
    /// where no id is.
    Dense {
        min: i64,
        at: Vec<u32>,
    },
    Sparse(HashMap<i64, usize, foldhash::fast::RandomState>),
}

impl Default for IdIndex {
    fn default() -> Self {
        IdIndex::Dense { min: 0, at: Vec::new() }
    }
}

impl IdIndex {
    /// What a dense index holds where no id is.
    const NONE: u32 = u32::MAX;

    /// The index of `ids`.
    pub fn new(ids: &[i64]) -> IdIndex {
        if let Some((min, span)) = dense_span(ids).filter(|_| ids.len() < Self::NONE as usize) {
            let mut at = vec![Self::NONE; span];
            for (i, &id) in ids.iter().enumerate() {
                at[(id - min) as usize] = i as u32;
            }
            return IdIndex::Dense { min, at };
        }
        let mut map = HashMap::with_capacity_and_hasher(ids.len(), foldhash::fast::RandomState::default());
        map.extend(ids.iter().enumerate().map(|(i, &id)| (id, i)));
        IdIndex::Sparse(map)
    }

    /// The position of `id`, if it is in the list.
    #[inline]
    pub fn get(&self, id: i64) -> Option<usize> {
        match self {
            IdIndex::Dense { min, at } => {
                let k = usize::try_from(id.checked_sub(*min)?).ok()?;
                at.get(k).copied().filter(|&p| p != Self::NONE).map(|p| p as usize)
            }
            IdIndex::Sparse(map) => map.get(&id).copied(),
        }
    }
}

/// `(smallest id, span)` when the ids span at most four times their count.
fn dense_span(ids: &[i64]) -> Option<(i64, usize)> {
    let (min, max) = (*ids.iter().min()?, *ids.iter().max()?);
    let span = usize::try_from(max.checked_sub(min)?).ok()?.checked_add(1)?;
    (span <= ids.len().saturating_mul(4)).then_some((min, span))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(index: &IdIndex, ids: impl IntoIterator<Item = i64>) -> Vec<Option<usize>> {
        ids.into_iter().map(|id| index.get(id)).collect()
    }

    #[test]
    fn ids_close_together_are_found_by_array_and_the_gaps_are_absent() {
        let index = IdIndex::new(&[7, 5, 9, 6]);
        assert!(matches!(index, IdIndex::Dense { min: 5, .. }));
        assert_eq!(positions(&index, 4..=10), [None, Some(1), Some(3), Some(0), None, Some(2), None]);
        assert_eq!(index.get(i64::MIN), None);
        assert_eq!(index.get(i64::MAX), None);
    }

    #[test]
    fn scattered_ids_are_found_by_hash_and_give_the_same_answers() {
        let ids = [i64::MIN, -3, 1 << 40, i64::MAX];
        let index = IdIndex::new(&ids);
        assert!(matches!(index, IdIndex::Sparse(_)));
        assert_eq!(positions(&index, ids), [Some(0), Some(1), Some(2), Some(3)]);
        assert_eq!(index.get(0), None);
    }

    #[test]
    fn a_repeated_id_is_at_its_last_position_either_way() {
        assert_eq!(IdIndex::new(&[1, 2, 1]).get(1), Some(2));
        assert_eq!(IdIndex::new(&[1, 1 << 50, 1]).get(1), Some(2));
        assert_eq!(IdIndex::new(&[]).get(0), None);
    }
}
