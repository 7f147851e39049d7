//! Per-region traffic from cumulative dumps: region N's own bytes are dump N − dump N−1.
//!
//! - The job's region list is the union of every rank's region numbers, in increasing order, each
//!   with the first name a rank gave it and the latest dump time.
//! - Counters are matched by peer rank (`peer`) or by (local port, LID) (`lid`). A counter seen for
//!   the first time counts whole (the first region is "minus zero").
//! - A counter that goes down is clamped at a delta of 0, with a warning naming the rank, region
//!   and counter (one warning per rank and region, listing the first few counters).
//! - A rank with no dump for a region that others have is taken as unchanged there (delta 0), and
//!   so is a counter that an earlier dump had and a later one lacks: the next delta is taken
//!   against the last value seen, so no byte is counted twice. Both are warnings.
//! - The cumulative total of a rank is its last dump (plus any counter carried forward as above).
//!
//! Everything is `[region][rank]` with ranks aligned to `Profile::ranks`, the order a tracer
//! walks: regions → ranks → counters. Counters are sorted by peer, or by (port, LID).

use std::borrow::Cow;

use rayon::prelude::*;

use super::bytes::add_bytes;
use super::profile::{Dump, EpochMicros, LidBytes, PeerBytes, Profile, RankSection};
use super::warning::Warning;

/// A region: its number, the name the dumps gave it, and the latest dump time (a profile's
/// regions always have one; a run's `code_region`s have none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionInfo {
    pub number: u32,
    pub name: Option<String>,
    pub dumptime: Option<EpochMicros>,
}

/// One rank's counters for the whole run (cumulative), when they are no single dump as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankCounters {
    /// Sorted by peer rank.
    pub peers: Vec<PeerBytes>,
    /// Sorted by (port, LID).
    pub lids: Vec<LidBytes>,
}

/// One rank's counters for one region (a delta), borrowed from the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta<'a> {
    /// Sorted by peer rank; counters that did not move are left out.
    pub peers: &'a [PeerBytes],
    /// Sorted by (port, LID); counters that did not move are left out.
    pub lids: &'a [LidBytes],
}

/// Regions and their deltas.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionTable {
    /// In increasing region number.
    pub regions: Vec<RegionInfo>,
    /// Per rank section: its deltas for every region. Read with [`RegionTable::delta`].
    ranks: Vec<RankDeltas>,
    /// Some counter went down and was clamped, so the deltas no longer add up to the totals.
    /// When false, for every rank the sum of its region deltas is exactly its total.
    pub clamped: bool,
    /// Per rank section: where its cumulative total is. Read with [`RegionTable::total`].
    totals: Vec<Total>,
}

/// One rank's deltas for every region, each kind in one allocation: a 20,000-region profile
/// would otherwise cost two small heap blocks (and their headers) per rank and region, more
/// than the counters themselves (issue 13).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct RankDeltas {
    peers: Vec<PeerBytes>,
    /// `peers[peer_starts[r]..peer_starts[r + 1]]` is region `r`'s delta.
    peer_starts: Vec<usize>,
    lids: Vec<LidBytes>,
    lid_starts: Vec<usize>,
}

impl RankDeltas {
    fn with_regions(regions: usize) -> Self {
        let mut starts = Vec::with_capacity(regions + 1);
        starts.push(0);
        RankDeltas { peer_starts: starts.clone(), lid_starts: starts, ..Default::default() }
    }

    fn push(&mut self, peers: impl IntoIterator<Item = PeerBytes>, lids: impl IntoIterator<Item = LidBytes>) {
        self.peers.extend(peers);
        self.peer_starts.push(self.peers.len());
        self.lids.extend(lids);
        self.lid_starts.push(self.lids.len());
    }

    /// Growth by doubling can leave up to half of each list unused: give it back.
    fn shrink(&mut self) {
        self.peers.shrink_to_fit();
        self.lids.shrink_to_fit();
    }

    fn get(&self, region: usize) -> Delta<'_> {
        let range = |starts: &[usize]| match (starts.get(region), starts.get(region + 1)) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        };
        Delta { peers: &self.peers[range(&self.peer_starts)], lids: &self.lids[range(&self.lid_starts)] }
    }
}

/// Where a rank's cumulative total is. Usually its last dump as written, which is not copied:
/// a copy of every total would cost as much as the deltas of a whole region.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Total {
    /// `RankSection::dumps[i]`.
    Dump(usize),
    /// A total that is no single dump as written: counters carried forward, a dump sorted, or none.
    Own(RankCounters),
}

impl RegionTable {
    /// The position of region `number` in [`RegionTable::regions`].
    pub fn index_of(&self, number: u32) -> Option<usize> {
        self.regions.binary_search_by_key(&number, |r| r.number).ok()
    }

    /// The bytes of rank section `profile.ranks[rank_index]` in region `regions[region_index]`
    /// alone (empty when either is out of range).
    pub fn delta(&self, region_index: usize, rank_index: usize) -> Delta<'_> {
        self.ranks.get(rank_index).map_or_else(Delta::default, |r| r.get(region_index))
    }

    /// Region `number` and its per-rank deltas, aligned with `profile.ranks`.
    pub fn region(&self, number: u32) -> Option<(&RegionInfo, Vec<Delta<'_>>)> {
        let at = self.index_of(number)?;
        Some((&self.regions[at], (0..self.ranks.len()).map(|i| self.delta(at, i)).collect()))
    }
}

impl RegionTable {
    /// The cumulative counters of `profile.ranks[rank_index]` (`profile` being the one the table
    /// was made from): its last dump, plus any counter an earlier dump had and the last lacks.
    /// Empty for a rank without dumps or an index out of range.
    pub fn total<'a>(&'a self, profile: &'a Profile, rank_index: usize) -> (&'a [PeerBytes], &'a [LidBytes]) {
        let dump = |i: usize| profile.ranks.get(rank_index).and_then(|r| r.dumps.get(i));
        match self.totals.get(rank_index) {
            Some(Total::Dump(i)) => dump(*i).map_or((&[], &[]), |d| (&d.peers, &d.lids)),
            Some(Total::Own(c)) => (&c.peers, &c.lids),
            None => (&[], &[]),
        }
    }
}

/// A rank's last dump, if it has any: its cumulative counters as written.
pub fn last_dump(rank: &RankSection) -> Option<&Dump> {
    rank.dumps.iter().max_by_key(|d| d.region)
}

/// Derives the region list, every rank's per-region deltas, and the cumulative totals.
/// `source` names the profile in warnings.
pub fn region_table(profile: &Profile, source: &str) -> (RegionTable, Vec<Warning>) {
    let (regions, mut messages) = job_regions(profile);
    let per_rank: Vec<(RankDeltas, Total, Vec<String>, bool)> =
        profile.ranks.par_iter().map(|rank| rank_deltas(rank, &regions)).collect();
    let mut ranks = Vec::with_capacity(profile.ranks.len());
    let mut totals = Vec::with_capacity(profile.ranks.len());
    let mut clamped = false;
    for (deltas, total, notes, went_down) in per_rank {
        clamped |= went_down;
        ranks.push(deltas);
        totals.push(total);
        messages.extend(notes);
    }
    let warnings = messages.into_iter().map(|m| Warning::in_file(source, m)).collect();
    (RegionTable { regions, ranks, clamped, totals }, warnings)
}

/// The union of the ranks' regions, with a warning for a region two ranks name differently.
fn job_regions(profile: &Profile) -> (Vec<RegionInfo>, Vec<String>) {
    struct Seen {
        info: RegionInfo,
        named_by: u32,
        warned: bool,
    }
    let mut regions: Vec<Seen> = Vec::new();
    let mut messages = Vec::new();
    let mut all: Vec<(&Dump, u32)> =
        profile.ranks.iter().flat_map(|r| r.dumps.iter().map(move |d| (d, r.rank))).collect();
    all.sort_by_key(|(d, _)| d.region);
    for (dump, rank) in all {
        let seen = match regions.last_mut() {
            Some(seen) if seen.info.number == dump.region => seen,
            _ => {
                let info = RegionInfo {
                    number: dump.region,
                    name: dump.name.clone(),
                    dumptime: Some(dump.dumptime),
                };
                regions.push(Seen { info, named_by: rank, warned: false });
                continue;
            }
        };
        seen.info.dumptime = seen.info.dumptime.max(Some(dump.dumptime));
        match (&seen.info.name, &dump.name) {
            (None, Some(name)) => (seen.info.name, seen.named_by) = (Some(name.clone()), rank),
            (Some(a), Some(b)) if a != b && !seen.warned => {
                seen.warned = true;
                messages.push(format!(
                    "region {} is named {a:?} by rank {} and {b:?} by rank {rank}; keeping {a:?}",
                    seen.info.number, seen.named_by
                ));
            }
            _ => {}
        }
    }
    (regions.into_iter().map(|seen| seen.info).collect(), messages)
}

/// A counter that can be differenced: a key to match it across dumps, and two byte counts.
trait Counter: Copy {
    type Key: Ord + Copy;
    fn key(&self) -> Self::Key;
    fn bytes(&self) -> (u64, u64);
    fn with_bytes(&self, sent: u64, recv: u64) -> Self;
    fn describe(&self) -> String;
}

impl Counter for PeerBytes {
    type Key = u32;
    fn key(&self) -> u32 {
        self.peer
    }
    fn bytes(&self) -> (u64, u64) {
        (self.sent, self.recv)
    }
    fn with_bytes(&self, sent: u64, recv: u64) -> Self {
        PeerBytes { sent, recv, ..*self }
    }
    fn describe(&self) -> String {
        format!("peer {}", self.peer)
    }
}

impl Counter for LidBytes {
    type Key = (u32, u16);
    fn key(&self) -> (u32, u16) {
        (self.port, self.lid.0)
    }
    fn bytes(&self) -> (u64, u64) {
        (self.sent, self.recv)
    }
    fn with_bytes(&self, sent: u64, recv: u64) -> Self {
        LidBytes { sent, recv, ..*self }
    }
    fn describe(&self) -> String {
        format!("lid {} {}", self.port, self.lid)
    }
}

/// What one rank's step from one dump to the next found wrong, as short descriptions.
#[derive(Default)]
struct Notes {
    went_down: Vec<String>,
    missing: Vec<String>,
    twice: Vec<String>,
}

/// A rank's deltas for every job region, its cumulative total, its warnings, and whether a
/// counter went down.
fn rank_deltas(rank: &RankSection, regions: &[RegionInfo]) -> (RankDeltas, Total, Vec<String>, bool) {
    let r = rank.rank;
    let mut messages = Vec::new();
    let mut dumps: Vec<(usize, &Dump)> = rank.dumps.iter().enumerate().collect();
    dumps.sort_by_key(|(_, d)| d.region);
    dumps.dedup_by(|(_, later), (_, first)| {
        let same = later.region == first.region;
        if same {
            messages
                .push(format!("rank {r} has two dumps for region {}; the second is ignored", first.region));
        }
        same
    });
    let mut dumps = dumps.into_iter().peekable();
    let (mut peers, mut lids): (Cow<'_, [PeerBytes]>, Cow<'_, [LidBytes]>) = Default::default();
    let mut out = RankDeltas::with_regions(regions.len());
    let mut absent = Vec::new();
    let mut last = None;
    let mut went_down = false;
    let mut previous: Option<(u32, EpochMicros)> = None;
    for info in regions {
        let Some((index, dump)) = dumps.next_if(|(_, d)| d.region == info.number) else {
            absent.push(info.number.to_string());
            out.push([], []);
            continue;
        };
        if let Some((before, time)) = previous.filter(|(_, time)| dump.dumptime < *time) {
            messages.push(format!(
                "rank {r}, region {}: dumptime {} is before region {before}'s {time}: the dump times \
                 go backwards (a clock step, or dumps written out of order); regions are kept in number order",
                info.number, dump.dumptime
            ));
        }
        previous = Some((info.number, dump.dumptime));
        let mut notes = Notes::default();
        let (peer_delta, peer_state) = step(&peers, &dump.peers, &mut notes);
        let (lid_delta, lid_state) = step(&lids, &dump.lids, &mut notes);
        (peers, lids) = (peer_state, lid_state);
        last = Some(index);
        out.push(peer_delta.into_iter().filter(moved), lid_delta.into_iter().filter(moved));
        let n = info.number;
        if !notes.twice.is_empty() {
            messages.push(format!("rank {r}, region {n}: {} listed twice; summed", listing(&notes.twice)));
        }
        if !notes.went_down.is_empty() {
            went_down = true;
            messages.push(format!(
                "rank {r}, region {n}: {} shrank since the previous dump; delta clamped at 0",
                listing(&notes.went_down)
            ));
        }
        if !notes.missing.is_empty() {
            messages.push(format!(
                "rank {r}, region {n}: {} of earlier dumps missing; taken as unchanged",
                listing(&notes.missing)
            ));
        }
    }
    if !absent.is_empty() {
        let s = if absent.len() == 1 { "" } else { "s" };
        messages.push(format!(
            "rank {r} has no dump for region{s} {} that other ranks have; its counters are taken as unchanged there",
            absent.join(", ")
        ));
    }
    out.shrink();
    // Both borrowed means both are the last dump's own lists, as written.
    let total = match (last, &peers, &lids) {
        (Some(i), Cow::Borrowed(_), Cow::Borrowed(_)) => Total::Dump(i),
        _ => Total::Own(RankCounters { peers: peers.into_owned(), lids: lids.into_owned() }),
    };
    (out, total, messages, went_down)
}

/// False for a counter that did not move in a region: it adds nothing, so it is not kept.
fn moved<C: Counter>(c: &C) -> bool {
    c.bytes() != (0, 0)
}

/// "peer 3 sent 10 → 4" or "3 counters (peer 3 …, peer 5 …, peer 9 …, and 1 more)".
fn listing(items: &[String]) -> String {
    const SHOWN: usize = 3;
    match items {
        [one] => one.clone(),
        _ => {
            let head = items.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
            let more = items.len().saturating_sub(SHOWN);
            let tail = if more > 0 { format!(", and {more} more") } else { String::new() };
            format!("{} counters ({head}{tail})", items.len())
        }
    }
}

/// `dump` sorted by key with repeated keys summed (noted); borrowed when already so.
fn sorted<'d, C: Counter>(dump: &'d [C], notes: &mut Notes) -> Cow<'d, [C]> {
    if dump.windows(2).all(|w| w[0].key() < w[1].key()) {
        return Cow::Borrowed(dump);
    }
    let mut v = dump.to_vec();
    v.sort_by_key(C::key);
    let mut out: Vec<C> = Vec::with_capacity(v.len());
    for c in v {
        match out.last_mut() {
            Some(last) if last.key() == c.key() => {
                let ((a, b), (x, y)) = (last.bytes(), c.bytes());
                let (mut sent, mut recv) = (a, b);
                let overflow = add_bytes(&mut sent, x) | add_bytes(&mut recv, y);
                *last = last.with_bytes(sent, recv);
                let note = if overflow { " (byte sum overflow: capped at 2^64 - 1)" } else { "" };
                notes.twice.push(format!("{}{note}", c.describe()));
            }
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// One step from the cumulative `state` (sorted by key) to the next dump: the delta, and the new
/// state: the dump itself (borrowed, when it is sorted and lacks nothing), or the dump plus the
/// counters it lacks carried forward.
fn step<'d, C: Counter>(state: &[C], dump: &'d [C], notes: &mut Notes) -> (Vec<C>, Cow<'d, [C]>) {
    use std::cmp::Ordering;
    let current = sorted(dump, notes);
    let mut delta = Vec::with_capacity(current.len());
    let (mut i, mut j) = (0, 0);
    let mut lacking = false;
    while i < state.len() || j < current.len() {
        let order = match (state.get(i), current.get(j)) {
            (Some(s), Some(c)) => s.key().cmp(&c.key()),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                notes.missing.push(state[i].describe());
                lacking = true;
                i += 1;
            }
            Ordering::Greater => {
                delta.push(current[j]);
                j += 1;
            }
            Ordering::Equal => {
                let ((ps, pr), (cs, cr)) = (state[i].bytes(), current[j].bytes());
                for (what, before, now) in [("sent", ps, cs), ("recv", pr, cr)] {
                    if now < before {
                        notes.went_down.push(format!("{} {what} {before} → {now}", current[j].describe()));
                    }
                }
                delta.push(current[j].with_bytes(cs.saturating_sub(ps), cr.saturating_sub(pr)));
                i += 1;
                j += 1;
            }
        }
    }
    if !lacking {
        return (delta, current);
    }
    let mut next: Vec<C> = current.iter().copied().chain(state.iter().copied()).collect();
    // Stable: for a key in both, the current value comes first and is the one kept.
    next.sort_by_key(C::key);
    next.dedup_by_key(|c| c.key());
    (delta, Cow::Owned(next))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Lid;

    fn peers(list: &[(u32, u64, u64)]) -> Vec<PeerBytes> {
        list.iter().map(|&(peer, sent, recv)| PeerBytes { peer, sent, recv }).collect()
    }

    fn lids(list: &[(u32, u16, u64, u64)]) -> Vec<LidBytes> {
        list.iter().map(|&(port, lid, sent, recv)| LidBytes { port, lid: Lid(lid), sent, recv }).collect()
    }

    fn dump(region: u32, p: &[(u32, u64, u64)], l: &[(u32, u16, u64, u64)]) -> Dump {
        Dump {
            region,
            name: Some(format!("r{region}")),
            dumptime: EpochMicros(i64::from(region) * 1_000_000),
            peers: peers(p),
            lids: lids(l),
        }
    }

    fn rank(rank: u32, dumps: Vec<Dump>) -> RankSection {
        RankSection { rank, host: format!("n{rank}"), dumps, ..Default::default() }
    }

    fn profile(ranks: Vec<RankSection>) -> Profile {
        Profile { job_ranks: ranks.len() as u32, ranks, ..Default::default() }
    }

    /// Worked by hand: region 2's delta is dump 2 minus dump 1, counter by counter.
    #[test]
    fn each_region_holds_only_its_own_bytes_for_peers_and_lids() {
        let p = profile(vec![
            rank(
                0,
                vec![
                    dump(1, &[(1, 100, 10), (2, 50, 0)], &[(0, 0x11, 100, 0)]),
                    dump(2, &[(1, 250, 10), (2, 50, 5), (3, 7, 0)], &[(0, 0x11, 250, 0), (0, 0x12, 5, 5)]),
                ],
            ),
            rank(1, vec![dump(1, &[(0, 10, 100)], &[]), dump(2, &[(0, 10, 250)], &[])]),
        ]);
        let (table, warnings) = region_table(&p, "p.ibprof");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(table.regions.iter().map(|r| r.number).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(table.delta(0, 0).peers, peers(&[(1, 100, 10), (2, 50, 0)]));
        assert_eq!(table.delta(1, 0).peers, peers(&[(1, 150, 0), (2, 0, 5), (3, 7, 0)]));
        assert_eq!(table.delta(1, 0).lids, lids(&[(0, 0x11, 150, 0), (0, 0x12, 5, 5)]));
        assert_eq!(table.delta(1, 1).peers, peers(&[(0, 0, 150)]));
        assert_eq!(table.total(&p, 0).0, p.ranks[0].dumps[1].peers);
        assert!(
            std::ptr::eq(table.total(&p, 0).0, p.ranks[0].dumps[1].peers.as_slice()),
            "borrowed, not copied"
        );
        assert_eq!(table.total(&p, 1).0, peers(&[(0, 10, 250)]));
        assert_eq!(
            table.region(2).map(|(info, ranks)| (info.name.clone(), ranks.len())),
            Some((Some("r2".into()), 2))
        );
    }

    #[test]
    fn a_counter_that_goes_down_is_clamped_at_zero_and_named_in_a_warning() {
        let p = profile(vec![rank(3, vec![dump(1, &[(1, 100, 9)], &[]), dump(2, &[(1, 60, 12)], &[])])]);
        let (table, warnings) = region_table(&p, "p.ibprof");
        assert!(table.clamped);
        assert_eq!(table.delta(1, 0).peers, peers(&[(1, 0, 3)]));
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].file, "p.ibprof");
        assert_eq!(
            warnings[0].message,
            "rank 3, region 2: peer 1 sent 100 → 60 shrank since the previous dump; delta clamped at 0"
        );
    }

    #[test]
    fn a_rank_missing_a_region_is_unchanged_there_and_its_next_delta_spans_both() {
        let p = profile(vec![
            rank(
                0,
                vec![dump(1, &[(1, 10, 0)], &[]), dump(2, &[(1, 30, 0)], &[]), dump(3, &[(1, 60, 0)], &[])],
            ),
            rank(1, vec![dump(1, &[(0, 5, 0)], &[]), dump(3, &[(0, 50, 0)], &[])]),
        ]);
        let (table, warnings) = region_table(&p, "p");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].message.starts_with("rank 1 has no dump for region 2 that other ranks have"));
        assert_eq!(table.delta(1, 1), Delta::default());
        assert_eq!(table.delta(2, 1).peers, peers(&[(0, 45, 0)]));
    }

    #[test]
    fn a_counter_missing_from_a_later_dump_is_carried_forward_not_counted_twice() {
        let p = profile(vec![rank(
            0,
            vec![
                dump(1, &[(1, 10, 0), (2, 20, 0)], &[]),
                dump(2, &[(1, 15, 0)], &[]),
                dump(3, &[(1, 15, 0), (2, 26, 0)], &[]),
            ],
        )]);
        let (table, warnings) = region_table(&p, "p");
        assert_eq!(table.delta(1, 0).peers, peers(&[(1, 5, 0)]));
        assert_eq!(table.delta(2, 0).peers, peers(&[(2, 6, 0)]), "a counter that did not move is left out");
        assert_eq!(table.total(&p, 0).0, peers(&[(1, 15, 0), (2, 26, 0)]));
        assert!(!table.clamped, "the deltas still add up to the total");
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.contains("region 2: peer 2 of earlier dumps missing"), "{warnings:?}");
    }

    #[test]
    fn a_counter_missing_from_the_last_dump_stays_in_the_total() {
        let p = profile(vec![rank(
            0,
            vec![dump(1, &[(1, 10, 0), (2, 20, 0)], &[]), dump(2, &[(1, 15, 0)], &[])],
        )]);
        let (table, _) = region_table(&p, "p");
        assert_eq!(table.total(&p, 0).0, peers(&[(1, 15, 0), (2, 20, 0)]));
    }

    #[test]
    fn unsorted_dumps_are_matched_by_key_and_repeated_counters_summed() {
        let d1 = dump(1, &[], &[(1, 5, 3, 0), (0, 5, 10, 1)]);
        let d2 = dump(2, &[(2, 1, 1), (1, 1, 1), (2, 1, 1)], &[(1, 5, 4, 0), (0, 5, 15, 1)]);
        let (table, warnings) = region_table(&profile(vec![rank(0, vec![d1, d2])]), "p");
        assert_eq!(table.delta(1, 0).lids, lids(&[(0, 5, 5, 0), (1, 5, 1, 0)]));
        assert_eq!(table.delta(1, 0).peers, peers(&[(1, 1, 1), (2, 2, 2)]));
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].message, "rank 0, region 2: peer 2 listed twice; summed");
    }

    #[test]
    fn many_problems_in_one_region_make_one_warning_listing_the_first_three() {
        let before: Vec<(u32, u64, u64)> = (0..5).map(|p| (p, 100, 0)).collect();
        let after: Vec<(u32, u64, u64)> = (0..5).map(|p| (p, 1, 0)).collect();
        let p = profile(vec![rank(0, vec![dump(1, &before, &[]), dump(2, &after, &[])])]);
        let (_, warnings) = region_table(&p, "p");
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].message.contains(
                "5 counters (peer 0 sent 100 → 1, peer 1 sent 100 → 1, peer 2 sent 100 → 1, and 2 more)"
            ),
            "{}",
            warnings[0].message
        );
    }

    #[test]
    fn regions_take_the_latest_dump_time_and_the_first_name_and_warn_on_a_second_name() {
        let mut a = dump(1, &[], &[]);
        a.dumptime = EpochMicros(10);
        let mut b = dump(1, &[], &[]);
        b.dumptime = EpochMicros(20);
        b.name = None;
        let mut c = dump(1, &[], &[]);
        c.name = Some("other".into());
        c.dumptime = EpochMicros(15);
        let p = profile(vec![rank(0, vec![b]), rank(1, vec![a]), rank(2, vec![c])]);
        let (table, warnings) = region_table(&p, "p");
        assert_eq!(
            table.regions,
            vec![RegionInfo { number: 1, name: Some("r1".into()), dumptime: Some(EpochMicros(20)) }]
        );
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].message.contains(r#"named "r1" by rank 1 and "other" by rank 2"#),
            "{warnings:?}"
        );
    }

    #[test]
    fn a_rank_without_dumps_has_empty_deltas_and_total() {
        let p = profile(vec![rank(0, vec![dump(1, &[(1, 1, 1)], &[])]), rank(1, vec![])]);
        let (table, warnings) = region_table(&p, "p");
        assert_eq!(table.delta(0, 1), Delta::default());
        assert_eq!(table.total(&p, 1), (&[][..], &[][..]));
        assert_eq!(table.total(&p, 9), (&[][..], &[][..]));
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn the_sum_of_the_deltas_is_the_total_when_nothing_goes_down() {
        let dumps =
            (1..=4).map(|n| dump(n, &[(0, u64::from(n * n), 3), (1, 7, u64::from(n))], &[])).collect();
        let p = profile(vec![rank(0, dumps)]);
        let (table, warnings) = region_table(&p, "p");
        assert!(warnings.is_empty());
        assert!(!table.clamped);
        let mut sum = [(0u64, 0u64); 2];
        for region in 0..table.regions.len() {
            for c in table.delta(region, 0).peers {
                sum[c.peer as usize].0 += c.sent;
                sum[c.peer as usize].1 += c.recv;
            }
        }
        let total: Vec<(u64, u64)> = table.total(&p, 0).0.iter().map(|c| (c.sent, c.recv)).collect();
        assert_eq!(sum.to_vec(), total);
    }

    #[test]
    fn dump_times_going_backwards_are_a_warning_naming_both_regions() {
        let mut late = dump(2, &[(1, 10, 10)], &[]);
        late.dumptime = EpochMicros(500_000);
        let p = profile(vec![rank(0, vec![dump(1, &[(1, 5, 5)], &[]), late])]);
        let (_, warnings) = region_table(&p, "p");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].message.starts_with("rank 0, region 2: dumptime "), "{}", warnings[0].message);
        assert!(warnings[0].message.contains("is before region 1's"), "{}", warnings[0].message);
    }
}
