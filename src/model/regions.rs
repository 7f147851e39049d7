//! Per-region traffic from cumulative dumps: region N's own bytes are dump N − dump N−1.
//!
//! The job's region list is the union of every rank's region numbers. A rank with no dump for a
//! region is taken as unchanged there (delta 0); a counter that shrinks between dumps is clamped
//! to 0. Both are warnings, one per rank and region, never silent.

use rayon::prelude::*;

use super::profile::{Dump, EpochMicros, LidBytes, PeerBytes, Profile, RankSection};
use super::warning::Warning;

/// A region of the job: its number, the name the dumps gave it, and the latest dump time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionInfo {
    pub number: u32,
    pub name: Option<String>,
    pub dumptime: EpochMicros,
}

/// One rank's counters for one region.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankCounters {
    pub peers: Vec<PeerBytes>,
    pub lids: Vec<LidBytes>,
}

/// Regions and their deltas: `deltas[region][rank section index]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionTable {
    pub regions: Vec<RegionInfo>,
    pub deltas: Vec<Vec<RankCounters>>,
}

impl RegionTable {
    pub fn index_of(&self, number: u32) -> Option<usize> {
        self.regions.iter().position(|r| r.number == number)
    }
}

/// The cumulative total of a rank: its last dump, if it has any.
pub fn last_dump(rank: &RankSection) -> Option<&Dump> {
    rank.dumps.last()
}

/// Derives the region list and every rank's per-region deltas.
pub fn region_table(profile: &Profile, source: &str) -> (RegionTable, Vec<Warning>) {
    let mut regions: Vec<RegionInfo> = Vec::new();
    for dump in profile.ranks.iter().flat_map(|r| &r.dumps) {
        match regions.iter_mut().find(|r| r.number == dump.region) {
            Some(info) => {
                info.dumptime = info.dumptime.max(dump.dumptime);
                if info.name.is_none() {
                    info.name = dump.name.clone();
                }
            }
            None => regions.push(RegionInfo {
                number: dump.region,
                name: dump.name.clone(),
                dumptime: dump.dumptime,
            }),
        }
    }
    regions.sort_by_key(|r| r.number);
    let per_rank: Vec<(Vec<RankCounters>, Vec<String>)> =
        profile.ranks.par_iter().map(|rank| rank_deltas(rank, &regions)).collect();
    let mut deltas = vec![Vec::with_capacity(profile.ranks.len()); regions.len()];
    let mut warnings = Vec::new();
    for (counters, messages) in per_rank {
        for (region, c) in counters.into_iter().enumerate() {
            deltas[region].push(c);
        }
        warnings.extend(messages.into_iter().map(|m| Warning::in_file(source, m)));
    }
    (RegionTable { regions, deltas }, warnings)
}

fn rank_deltas(rank: &RankSection, regions: &[RegionInfo]) -> (Vec<RankCounters>, Vec<String>) {
    let mut out = Vec::with_capacity(regions.len());
    let mut messages = Vec::new();
    let empty = Dump::default();
    let mut previous = &empty;
    for info in regions {
        let Some(dump) = rank.dumps.iter().find(|d| d.region == info.number) else {
            messages.push(format!(
                "rank {} has no dump for region {}; taken as unchanged there",
                rank.rank, info.number
            ));
            out.push(RankCounters::default());
            continue;
        };
        let mut shrunk = Vec::new();
        let peers = subtract(
            &dump.peers,
            &previous.peers,
            |p| p.peer,
            |p| (p.sent, p.recv),
            |p, (sent, recv)| PeerBytes { sent, recv, ..*p },
            &mut shrunk,
            |p| format!("peer {}", p.peer),
        );
        let lids = subtract(
            &dump.lids,
            &previous.lids,
            |l| (l.port, l.lid),
            |l| (l.sent, l.recv),
            |l, (sent, recv)| LidBytes { sent, recv, ..*l },
            &mut shrunk,
            |l| format!("port {} LID {}", l.port, l.lid),
        );
        if let Some(first) = shrunk.first() {
            messages.push(format!(
                "rank {} region {}: {} counter(s) shrank since the previous dump (first: {first}); clamped to 0",
                rank.rank,
                info.number,
                shrunk.len()
            ));
        }
        out.push(RankCounters { peers, lids });
        previous = dump;
    }
    (out, messages)
}

/// `current − previous` per key; keys only in `previous` are gone (delta 0, counted as shrunk).
fn subtract<T, K: Ord + Copy>(
    current: &[T],
    previous: &[T],
    key: impl Fn(&T) -> K,
    values: impl Fn(&T) -> (u64, u64),
    with: impl Fn(&T, (u64, u64)) -> T,
    shrunk: &mut Vec<String>,
    name: impl Fn(&T) -> String,
) -> Vec<T> {
    let mut prev: Vec<(K, (u64, u64))> = previous.iter().map(|p| (key(p), values(p))).collect();
    prev.sort_unstable_by_key(|p| p.0);
    let mut out = Vec::with_capacity(current.len());
    for item in current {
        let (sent, recv) = values(item);
        let (ps, pr) = prev.binary_search_by_key(&key(item), |p| p.0).map_or((0, 0), |i| prev[i].1);
        if sent < ps || recv < pr {
            shrunk.push(name(item));
        }
        out.push(with(item, (sent.saturating_sub(ps), recv.saturating_sub(pr))));
    }
    let mut now: Vec<K> = current.iter().map(&key).collect();
    now.sort_unstable();
    for p in previous.iter().filter(|p| now.binary_search(&key(p)).is_err()) {
        shrunk.push(format!("{} vanished", name(p)));
    }
    out
}
