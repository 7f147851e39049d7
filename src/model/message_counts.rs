//! Messages each rank sent to each peer, per region, from the dumps' message counts (issue 23
//! item 4). Region N's own messages are dump N − the rank's previous dump, matched by peer, as
//! the bytes are (`regions.rs`); a count that goes down gives 0, a rank without dump N sent
//! nothing in it, and the whole run is each rank's last dump.
//!
//! A profile counts messages or it does not: `None` when no dump counts any, so that a profile
//! of an older collector is "no counts", never zero messages.

use super::profile::{Dump, PeerMessages, Profile};

/// Messages sent per (src rank, dst rank), sorted, no pair twice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankPairMessages {
    pub pairs: Vec<((u32, u32), u64)>,
}

impl RankPairMessages {
    /// The messages `src` sent to `dst` (0 when the pair is not listed).
    pub fn get(&self, src: u32, dst: u32) -> u64 {
        self.pairs.binary_search_by_key(&(src, dst), |p| p.0).map_or(0, |at| self.pairs[at].1)
    }
}

/// The messages sent in region `region` (`None`: the whole run), or `None` when the profile
/// counts no messages.
pub fn sent_messages(profile: &Profile, region: Option<u32>) -> Option<RankPairMessages> {
    let counted = profile.ranks.iter().any(|r| r.dumps.iter().any(Dump::counts_messages));
    if !counted {
        return None;
    }
    let mut pairs = Vec::new();
    for rank in &profile.ranks {
        let (now, before) = match region {
            None => (rank.dumps.iter().max_by_key(|d| d.region), None),
            Some(n) => {
                let at = rank.dumps.iter().position(|d| d.region == n);
                let before = at.and_then(|i| i.checked_sub(1)).and_then(|i| rank.dumps.get(i));
                (at.and_then(|i| rank.dumps.get(i)), before)
            }
        };
        let Some(now) = now else { continue };
        for m in &now.messages {
            let earlier = before.and_then(|d| d.messages_of(m.peer)).map_or(0, |e: &PeerMessages| e.sent);
            let sent = m.sent.saturating_sub(earlier);
            if sent > 0 {
                pairs.push(((rank.rank, m.peer), sent));
            }
        }
    }
    pairs.sort_unstable_by_key(|p| p.0);
    // A rank found twice in a profile is kept once by the reader; sum defensively all the same.
    pairs.dedup_by(|b, a| {
        let same = a.0 == b.0;
        if same {
            a.1 = a.1.saturating_add(b.1);
        }
        same
    });
    Some(RankPairMessages { pairs })
}

/// The job's message-size histogram for region `region` (`None`: the whole run), summed over
/// the ranks, by bin: `(bin, sent, recv)`. `None` when no dump records sizes.
pub fn size_histogram(profile: &Profile, region: Option<u32>) -> Option<Vec<(u8, u64, u64)>> {
    let recorded = profile.ranks.iter().any(|r| r.dumps.iter().any(|d| !d.sizes.is_empty()));
    if !recorded {
        return None;
    }
    let mut bins = [(0u64, 0u64); 64];
    for rank in &profile.ranks {
        let (now, before) = match region {
            None => (rank.dumps.iter().max_by_key(|d| d.region), None),
            Some(n) => {
                let at = rank.dumps.iter().position(|d| d.region == n);
                (
                    at.and_then(|i| rank.dumps.get(i)),
                    at.and_then(|i| i.checked_sub(1)).and_then(|i| rank.dumps.get(i)),
                )
            }
        };
        for b in now.map(|d| d.sizes.as_slice()).unwrap_or_default() {
            let earlier = before.and_then(|d| d.sizes.iter().find(|e| e.bin == b.bin));
            let (s, r) = earlier.map_or((0, 0), |e| (e.sent, e.recv));
            if let Some(cell) = bins.get_mut(usize::from(b.bin)) {
                cell.0 = cell.0.saturating_add(b.sent.saturating_sub(s));
                cell.1 = cell.1.saturating_add(b.recv.saturating_sub(r));
            }
        }
    }
    let nonzero = bins.iter().enumerate().filter(|(_, c)| c.0 != 0 || c.1 != 0);
    Some(nonzero.map(|(bin, &(s, r))| (bin as u8, s, r)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{PeerBytes, RankSection};

    fn dump(region: u32, msgs: &[(u32, u64)]) -> Dump {
        Dump {
            region,
            peers: msgs.iter().map(|&(peer, _)| PeerBytes { peer, sent: 1, recv: 0 }).collect(),
            messages: msgs.iter().map(|&(peer, sent)| PeerMessages { peer, sent, recv: 0 }).collect(),
            ..Default::default()
        }
    }

    fn profile(dumps: Vec<Dump>) -> Profile {
        Profile {
            job_ranks: 3,
            ranks: vec![RankSection { rank: 0, dumps, ..Default::default() }],
            ..Default::default()
        }
    }

    #[test]
    fn a_region_counts_its_own_messages_and_the_run_the_last_dump() {
        let p = profile(vec![dump(1, &[(1, 2)]), dump(2, &[(1, 5), (2, 1)])]);
        let one = sent_messages(&p, Some(1)).unwrap_or_default();
        assert_eq!(one.pairs, vec![((0, 1), 2)]);
        let two = sent_messages(&p, Some(2)).unwrap_or_default();
        assert_eq!(two.pairs, vec![((0, 1), 3), ((0, 2), 1)]);
        let all = sent_messages(&p, None).unwrap_or_default();
        assert_eq!((all.get(0, 1), all.get(0, 2), all.get(1, 0)), (5, 1, 0));
    }

    #[test]
    fn a_regions_size_histogram_is_its_dump_minus_the_previous_summed_over_ranks() {
        use crate::model::SizeCounts;
        let bins = |b: &[(u8, u64)]| b.iter().map(|&(bin, sent)| SizeCounts { bin, sent, recv: 0 }).collect();
        let rank = |rank, d1: Vec<SizeCounts>, d2: Vec<SizeCounts>| RankSection {
            rank,
            dumps: vec![
                Dump { region: 1, sizes: d1, ..Default::default() },
                Dump { region: 2, sizes: d2, ..Default::default() },
            ],
            ..Default::default()
        };
        let p = Profile {
            ranks: vec![
                rank(0, bins(&[(3, 2)]), bins(&[(3, 5), (10, 1)])),
                rank(1, bins(&[]), bins(&[(10, 4)])),
            ],
            ..Default::default()
        };
        assert_eq!(size_histogram(&p, Some(2)), Some(vec![(3, 3, 0), (10, 5, 0)]));
        assert_eq!(size_histogram(&p, None), Some(vec![(3, 5, 0), (10, 5, 0)]));
        assert_eq!(size_histogram(&profile(vec![dump(1, &[(1, 2)])]), None), None, "no sizes recorded");
    }

    #[test]
    fn a_profile_without_counts_has_none_not_zeros() {
        let mut d = dump(1, &[(1, 2)]);
        d.messages.clear();
        assert_eq!(sent_messages(&profile(vec![d]), None), None);
    }

    #[test]
    fn a_count_that_goes_down_gives_no_messages_rather_than_wrapping() {
        let p = profile(vec![dump(1, &[(1, 9)]), dump(2, &[(1, 4)])]);
        assert_eq!(sent_messages(&p, Some(2)).unwrap_or_default().pairs, vec![]);
    }
}
