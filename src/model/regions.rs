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
///
/// A rank's first dump with counters is usually its own delta, as written (sorted, every
/// counter moved): that delta is kept as the dump's index, not copied. Copying it cost a
/// second copy of a one-region profile, and half of one with two regions (TSUBAME's 1,296-rank
/// all-to-all: 40 MB of new pages).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct RankDeltas {
    peers: Vec<PeerBytes>,
    /// `peers[peer_starts[r]..peer_starts[r + 1]]` is region `r`'s delta, unless `peer_whole`
    /// names the region.
    peer_starts: Vec<usize>,
    /// `(region, dump)`: region `region`'s delta is `RankSection::dumps[dump].peers` whole.
    peer_whole: Option<(usize, usize)>,
    lids: Vec<LidBytes>,
    lid_starts: Vec<usize>,
    lid_whole: Option<(usize, usize)>,
}

impl RankDeltas {
    /// Room for `regions` regions and, at most, every counter of `dumps` but a first dump
    /// that is kept whole: a delta has at most one counter per counter of its dump, so the
    /// lists never grow (growing by doubling copied and faulted in each rank's list several
    /// times over).
    fn with_room(regions: usize, dumps: &[(usize, &Dump)]) -> Self {
        let mut starts = Vec::with_capacity(regions + 1);
        starts.push(0);
        let room = |list: fn(&Dump) -> usize, whole: fn(&Dump) -> bool| {
            let all: usize = dumps.iter().map(|(_, d)| list(d)).sum();
            let first = dumps.iter().map(|(_, d)| *d).find(|d| list(d) > 0);
            all - first.filter(|d| whole(d)).map_or(0, list)
        };
        RankDeltas {
            peers: Vec::with_capacity(room(|d| d.peers.len(), |d| as_written(&d.peers))),
            peer_starts: starts.clone(),
            peer_whole: None,
            lids: Vec::with_capacity(room(|d| d.lids.len(), |d| as_written(&d.lids))),
            lid_starts: starts,
            lid_whole: None,
        }
    }

    /// Ends a region: the counters pushed since the previous one are its delta.
    fn end_region(&mut self) {
        self.peer_starts.push(self.peers.len());
        self.lid_starts.push(self.lids.len());
    }

    /// Counters that did not move (left out) can leave room unused: give it back.
    fn shrink(&mut self) {
        self.peers.shrink_to_fit();
        self.lids.shrink_to_fit();
    }

    /// Region `region`'s delta; `dumps` are the rank's own.
    fn get<'a>(&'a self, region: usize, dumps: &'a [Dump]) -> Delta<'a> {
        let range = |starts: &[usize]| match (starts.get(region), starts.get(region + 1)) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        };
        let whole = |kept: Option<(usize, usize)>| match kept {
            Some((r, dump)) if r == region => dumps.get(dump),
            _ => None,
        };
        Delta {
            peers: whole(self.peer_whole).map_or(&self.peers[range(&self.peer_starts)], |d| &d.peers),
            lids: whole(self.lid_whole).map_or(&self.lids[range(&self.lid_starts)], |d| &d.lids),
        }
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
    /// alone (empty when either is out of range). `profile` is the one the table was made from:
    /// a delta that is a dump as written is read from there.
    pub fn delta<'a>(&'a self, profile: &'a Profile, region_index: usize, rank_index: usize) -> Delta<'a> {
        let dumps = profile.ranks.get(rank_index).map_or(&[][..], |r| &r.dumps[..]);
        self.ranks.get(rank_index).map_or_else(Delta::default, |r| r.get(region_index, dumps))
    }

    /// Region `number` and its per-rank deltas, aligned with `profile.ranks`.
    pub fn region<'a>(
        &'a self,
        profile: &'a Profile,
        number: u32,
    ) -> Option<(&'a RegionInfo, Vec<Delta<'a>>)> {
        let at = self.index_of(number)?;
        Some((&self.regions[at], (0..self.ranks.len()).map(|i| self.delta(profile, at, i)).collect()))
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
    let mut out = RankDeltas::with_room(regions.len(), &dumps);
    let mut dumps = dumps.into_iter().peekable();
    let (mut peers, mut lids): (Cow<'_, [PeerBytes]>, Cow<'_, [LidBytes]>) = Default::default();
    let mut absent = Vec::new();
    let mut last = None;
    let mut went_down = false;
    let mut previous: Option<(u32, EpochMicros)> = None;
    for (at, info) in regions.iter().enumerate() {
        let Some((index, dump)) = dumps.next_if(|(_, d)| d.region == info.number) else {
            absent.push(info.number.to_string());
            out.end_region();
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
        peers = first_or_step(
            &peers,
            &dump.peers,
            (&mut out.peers, &mut out.peer_whole),
            (at, index),
            &mut notes,
        );
        lids = first_or_step(&lids, &dump.lids, (&mut out.lids, &mut out.lid_whole), (at, index), &mut notes);
        out.end_region();
        last = Some(index);
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
    if in_key_order(dump) {
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

/// Sorted by key, no key twice.
fn in_key_order<C: Counter>(list: &[C]) -> bool {
    list.windows(2).all(|w| w[0].key() < w[1].key())
}

/// True for a list that is its own first delta: [in key order](in_key_order), every counter moved.
fn as_written<C: Counter>(list: &[C]) -> bool {
    in_key_order(list) && list.iter().all(moved)
}

/// [`step`], except that the first dump with counters, when [as written](as_written), is its
/// own delta: `(region, dump)` goes into `whole` instead of a copy into `delta`.
fn first_or_step<'d, C: Counter>(
    state: &[C],
    dump: &'d [C],
    (delta, whole): (&mut Vec<C>, &mut Option<(usize, usize)>),
    at: (usize, usize),
    notes: &mut Notes,
) -> Cow<'d, [C]> {
    if state.is_empty() && whole.is_none() && !dump.is_empty() && as_written(dump) {
        *whole = Some(at);
        return Cow::Borrowed(dump);
    }
    step(state, dump, delta, notes)
}

/// One step from the cumulative `state` (sorted by key) to the next dump: pushes the delta's
/// counters that moved onto `delta`, and returns the new state: the dump itself (borrowed, when
/// it is sorted and lacks nothing), or the dump plus the counters it lacks carried forward.
fn step<'d, C: Counter>(state: &[C], dump: &'d [C], delta: &mut Vec<C>, notes: &mut Notes) -> Cow<'d, [C]> {
    use std::cmp::Ordering;
    let current = sorted(dump, notes);
    let mut push = |c: C| {
        if moved(&c) {
            delta.push(c);
        }
    };
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
                push(current[j]);
                j += 1;
            }
            Ordering::Equal => {
                let ((ps, pr), (cs, cr)) = (state[i].bytes(), current[j].bytes());
                for (what, before, now) in [("sent", ps, cs), ("recv", pr, cr)] {
                    if now < before {
                        notes.went_down.push(format!("{} {what} {before} → {now}", current[j].describe()));
                    }
                }
                push(current[j].with_bytes(cs.saturating_sub(ps), cr.saturating_sub(pr)));
                i += 1;
                j += 1;
            }
        }
    }
    if !lacking {
        return current;
    }
    let mut next: Vec<C> = current.iter().copied().chain(state.iter().copied()).collect();
    // Stable: for a key in both, the current value comes first and is the one kept.
    next.sort_by_key(C::key);
    next.dedup_by_key(|c| c.key());
    Cow::Owned(next)
}

#[cfg(test)]
#[path = "regions_tests.rs"]
mod tests;
