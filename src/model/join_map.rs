//! One direction of a projection between two domains: each id's related ids, in one flat list.
//!
//! A map from each id to its own `Vec` cost an allocation per id to build and a free per id to
//! drop: on a two-rail fabric of 100,000 links (the `view_model` bench) the allocator was a
//! third of building the view model's joins, and freeing them as long again (perf). The keys are
//! found through an [`IdIndex`]: by array for keys that are usually `0..n`.

use super::id_index::IdIndex;

/// Each key's values, in the order the pairs gave them.
#[derive(Clone, Debug, Default)]
pub struct JoinMap {
    /// Key → its ordinal among the distinct keys.
    keys: IdIndex,
    /// Key ordinal `k`'s values are `values[starts[k]..starts[k + 1]]`.
    starts: Vec<usize>,
    values: Vec<i64>,
}

impl JoinMap {
    /// From `(key, value)` pairs; a key's values keep their order.
    pub fn from_pairs(pairs: impl Iterator<Item = (i64, i64)>) -> Self {
        let mut pairs: Vec<(i64, i64)> = pairs.collect();
        // Stable: equal keys keep the pairs' order.
        pairs.sort_by_key(|&(key, _)| key);
        let (mut keys, mut starts) = (Vec::new(), Vec::new());
        for (i, pair) in pairs.iter().enumerate() {
            if i == 0 || pairs[i - 1].0 != pair.0 {
                keys.push(pair.0);
                starts.push(i);
            }
        }
        starts.push(pairs.len());
        // Copied out, not collected in place: that would keep the pairs' allocation, twice the size.
        let mut values = Vec::with_capacity(pairs.len());
        values.extend(pairs.iter().map(|&(_, value)| value));
        JoinMap { keys: IdIndex::new(&keys), starts, values }
    }

    /// The values of `key` (none for an unknown key).
    pub fn get(&self, key: i64) -> &[i64] {
        self.keys.get(key).map_or(&[], |k| &self.values[self.starts[k]..self.starts[k + 1]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_gets_its_values_in_the_order_given() {
        let map = JoinMap::from_pairs([(5, 1), (2, 9), (5, 3), (2, 8), (5, 2), (7, 7)].into_iter());
        assert_eq!(map.get(5), &[1, 3, 2]);
        assert_eq!(map.get(2), &[9, 8]);
        assert_eq!(map.get(7), &[7]);
        assert!(map.get(4).is_empty());
        assert!(JoinMap::from_pairs(std::iter::empty()).get(0).is_empty());
    }
}
