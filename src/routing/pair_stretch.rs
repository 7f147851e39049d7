//! Senders in stretches, so that a traffic matrix's merge runs on every core (issue 23: the
//! first build of 10,000 ranks × 100 peers within 100 ms).
//!
//! At rank granularity each list of the merge (the intra-node pairs, each rail's flows) comes
//! sender by sender. A stretch is a range of senders and, in each list, the index range that
//! holds them: the stretches' merges are independent, and their rows, one stretch after the
//! other, are the whole merge's rows. A stretch's merge checks that every key it sees is its own
//! senders' (see [`Stretch::holds`]), so a list out of sender order, which would put a sender's
//! parts in two stretches, stops the merge as an out-of-order key does.

use std::ops::Range;

use super::flows::FlowSet;

/// Parts a stretch should hold at least: fewer would cost more in set-up than they save. Unit
/// tests cut even the small samples, so that every fold test there goes through stretches.
const PARTS_PER_STRETCH: usize = if cfg!(test) { 16 } else { 1 << 16 };
/// Stretches at most: enough for the cores to share the work evenly.
const MOST_STRETCHES: usize = 32;

/// One range of senders and where its parts lie in each list of the merge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Stretch {
    /// The senders, as the merge's keys (src high): `first..=last`.
    first: u64,
    last: u64,
    /// Indices into `FlowSet::intra_node_pairs`.
    pub intra: Range<usize>,
    /// Indices into each rail's flows.
    pub rails: Vec<Range<usize>>,
}

impl Stretch {
    /// The whole of every list: one merge, in one piece.
    pub fn whole(flows: &FlowSet) -> Stretch {
        Stretch {
            first: 0,
            last: u64::MAX,
            intra: 0..flows.intra_node_pairs.len(),
            rails: flows.flows.iter().map(|f| 0..f.len()).collect(),
        }
    }

    /// Whether a key (src high, dst low) belongs to this stretch's senders.
    #[inline]
    pub fn holds(&self, key: u64) -> bool {
        (self.first..=self.last).contains(&key)
    }
}

/// `flows`' lists cut into stretches of senders for a merge: several where the merge is keyed by
/// rank (`by_rank`: the rank granularity) and the lists are long, else [`Stretch::whole`]. The cuts fall at senders of
/// the longest list, found in every list by a binary search (which assumes sender order; the
/// merge checks it).
pub(super) fn stretches(flows: &FlowSet, by_rank: bool, workers: usize) -> Vec<Stretch> {
    let parts = flows.flows.iter().map(Vec::len).sum::<usize>() + flows.intra_node_pairs.len();
    let wanted = (parts / PARTS_PER_STRETCH).min(workers.saturating_mul(4)).min(MOST_STRETCHES);
    let longest = flows.origins.iter().max_by_key(|o| o.len()).filter(|o| !o.is_empty());
    let (true, Some(longest), 2..) = (by_rank, longest, wanted) else {
        return vec![Stretch::whole(flows)];
    };
    let mut cuts: Vec<u32> =
        (1..wanted).map(|j| longest[longest.len() * j / wanted].src_rank).filter(|&c| c > 0).collect();
    cuts.dedup();
    if cuts.windows(2).any(|w| w[0] > w[1]) {
        return vec![Stretch::whole(flows)]; // not in sender order: the whole merge finds out
    }
    let from = std::iter::once(0).chain(cuts.iter().copied());
    let to = cuts.iter().map(|&c| Some(c)).chain(std::iter::once(None));
    from.zip(to).map(|(first, next)| stretch_of(flows, first, next)).collect()
}

/// The stretch of senders `first..next` (`None`: to the end).
fn stretch_of(flows: &FlowSet, first: u32, next: Option<u32>) -> Stretch {
    Stretch {
        first: u64::from(first) << 32,
        last: next.map_or(u64::MAX, |n| (u64::from(n) << 32) - 1),
        intra: senders_at(&flows.intra_node_pairs, |p| p.0.src_rank, first, next),
        rails: flows.origins.iter().map(|o| senders_at(o, |o| o.src_rank, first, next)).collect(),
    }
}

/// Where the senders `first..next` lie in `list`, a list in sender order.
fn senders_at<T>(list: &[T], sender: impl Fn(&T) -> u32, first: u32, next: Option<u32>) -> Range<usize> {
    let at = |s: Option<u32>| s.map_or(list.len(), |s| list.partition_point(|x: &T| sender(x) < s));
    at(Some(first))..at(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Lid;
    use crate::routing::accumulate::Flow;
    use crate::routing::flows::FlowOrigin;

    fn origin(src: u32, dst: u32) -> FlowOrigin {
        FlowOrigin { src_rank: src, dst_rank: Some(dst), src_host: None, dst_host: None }
    }

    /// One rail with `senders` × `peers` flows, and one intra-node pair per sender.
    fn flows(senders: u32, peers: u32) -> FlowSet {
        let origins: Vec<FlowOrigin> =
            (0..senders).flat_map(|s| (0..peers).map(move |d| origin(s, d))).collect();
        let rail: Vec<Flow> = origins.iter().map(|_| Flow { src: Lid(1), dst: Lid(2), bytes: 7 }).collect();
        FlowSet {
            flows: vec![rail],
            origins: vec![origins],
            intra_node_pairs: (0..senders).map(|s| (origin(s, s + 1), 5)).collect(),
            ..FlowSet::default()
        }
    }

    #[test]
    fn stretches_cover_every_list_once_in_order_and_never_split_a_sender() {
        let set = flows(300, 10);
        let cut = stretches(&set, true, 2);
        assert_eq!(cut.len(), 8, "3,300 parts, 4 stretches per worker");
        let lists: [(Vec<Range<usize>>, Vec<u32>); 2] = [
            (
                cut.iter().map(|s| s.intra.clone()).collect(),
                set.intra_node_pairs.iter().map(|p| p.0.src_rank).collect(),
            ),
            (
                cut.iter().map(|s| s.rails[0].clone()).collect(),
                set.origins[0].iter().map(|o| o.src_rank).collect(),
            ),
        ];
        for (ranges, senders) in lists {
            assert_eq!(ranges.first().map(|r| r.start), Some(0));
            assert_eq!(ranges.last().map(|r| r.end), Some(senders.len()));
            assert!(ranges.windows(2).all(|w| w[0].end == w[1].start && !w[0].is_empty()));
            for (r, s) in ranges.iter().zip(&cut) {
                assert!(
                    senders[r.clone()].iter().all(|&x| s.holds(u64::from(x) << 32)),
                    "{r:?} outside {s:?}"
                );
            }
        }
    }

    #[test]
    fn few_parts_another_granularity_or_senders_out_of_order_keep_one_stretch() {
        let whole = |set: &FlowSet| vec![Stretch::whole(set)];
        let small = flows(3, 5);
        assert_eq!(stretches(&small, true, 8), whole(&small), "18 parts, 16 a stretch at least");
        let big = flows(300, 10);
        assert_eq!(stretches(&big, false, 8), whole(&big));
        let mut only_intra = flows(300, 10);
        only_intra.flows[0].clear();
        only_intra.origins[0].clear();
        assert_eq!(stretches(&only_intra, true, 8), whole(&only_intra), "no rail flows to cut at");
        let mut shuffled = flows(300, 10);
        shuffled.origins[0].reverse();
        assert_eq!(stretches(&shuffled, true, 8), whole(&shuffled));
    }

    #[test]
    fn a_stretch_holds_its_senders_keys_only() {
        let set = flows(300, 10);
        let s = stretch_of(&set, 10, Some(20));
        assert!(s.holds(10 << 32) && s.holds((19 << 32) | 0xffff_ffff));
        assert!(!s.holds((9 << 32) | 0xffff_ffff) && !s.holds(20 << 32));
        assert!(stretch_of(&set, 290, None).holds(u64::MAX));
    }
}
