//! A merge of a few lists already in key order (issue 23: a traffic matrix's first build). At
//! rank granularity each rail's flows, and the intra-node pairs, come sender by sender and,
//! within a sender, in the profile's peer order, which is the receivers' order. A pair table's
//! rows, sorted by (src, dst, rail), are then a merge of these lists, folded as it goes: no list
//! of parts, no sort, no sort's scratch. A list out of order stops the merge, and the caller
//! sorts instead.

use crate::model::bytes::add_bytes;

/// One part: its key (src high, dst low), bytes, hops.
pub(super) type Item = (u64, u64, Option<u32>);

/// Hands every part of `lists` (parts in key order, or the bytes of one without a key) to
/// `part` in key order, with its list's tag, and returns the
/// bytes of the parts without a key; `None` (part way through) when a list is out of order. On
/// equal keys the earlier list's part comes first.
pub(super) fn merge<T: Copy, L: Iterator<Item = Result<Item, u64>>>(
    mut lists: Vec<(T, L)>,
    mut part: impl FnMut(T, Item),
) -> Option<u64> {
    let mut without = 0u64;
    let mut heads: Vec<Option<Item>> = lists.iter_mut().map(|(_, list)| next(list, &mut without)).collect();
    loop {
        let mut lowest: Option<(usize, Item)> = None;
        for (i, head) in heads.iter().enumerate() {
            if let Some(head) = *head
                && lowest.is_none_or(|(_, low)| head.0 < low.0)
            {
                lowest = Some((i, head));
            }
        }
        let Some((i, item)) = lowest else { return Some(without) };
        let following = next(&mut lists[i].1, &mut without);
        if following.is_some_and(|f| f.0 < item.0) {
            return None;
        }
        heads[i] = following;
        part(lists[i].0, item);
    }
}

/// The list's next part, counting the bytes of those without a key on the way.
#[inline]
fn next(list: &mut impl Iterator<Item = Result<Item, u64>>, without: &mut u64) -> Option<Item> {
    loop {
        match list.next()? {
            Ok(item) => return Some(item),
            Err(bytes) => {
                add_bytes(without, bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[Result<u64, u64>]) -> impl Iterator<Item = Result<Item, u64>> + '_ {
        items.iter().map(|i| i.map(|key| (key, key * 10, None)))
    }

    #[test]
    fn parts_leave_in_key_order_earlier_lists_first_on_a_tie() {
        let (a, b) = ([Ok(1), Err(7), Ok(4), Ok(4)], [Ok(0), Ok(4), Err(5)]);
        let mut seen = Vec::new();
        let without = merge(vec![('a', list(&a)), ('b', list(&b))], |tag, item| seen.push((tag, item.0)));
        assert_eq!(without, Some(12));
        assert_eq!(seen, vec![('b', 0), ('a', 1), ('a', 4), ('a', 4), ('b', 4)]);
    }

    #[test]
    fn a_list_out_of_order_stops_the_merge() {
        let (a, b) = ([Ok(1), Ok(3)], [Ok(2), Ok(0)]);
        assert_eq!(merge(vec![(0, list(&a)), (1, list(&b))], |_, _| {}), None);
    }
}
