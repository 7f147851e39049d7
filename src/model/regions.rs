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
    /// Some counter shrank and was clamped, so the deltas no longer add up to the last dumps.
    pub clamped: bool,
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
    let per_rank: Vec<(Vec<RankCounters>, Vec<String>, bool)> =
        profile.ranks.par_iter().map(|rank| rank_deltas(rank, &regions)).collect();
    let mut deltas = vec![Vec::with_capacity(profile.ranks.len()); regions.len()];
    let mut warnings = Vec::new();
    let mut clamped = false;
    for (counters, messages, shrank) in per_rank {
        clamped |= shrank;
        for (region, c) in counters.into_iter().enumerate() {
            deltas[region].push(c);
        }
        warnings.extend(messages.into_iter().map(|m| Warning::in_file(source, m)));
    }
    (RegionTable { regions, deltas, clamped }, warnings)
}

fn rank_deltas(rank: &RankSection, regions: &[RegionInfo]) -> (Vec<RankCounters>, Vec<String>, bool) {
    let mut out = Vec::with_capacity(regions.len());
    let mut messages = Vec::new();
    let empty = Dump::default();
    let mut previous = &empty;
    let mut clamped = false;
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
            clamped = true;
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
    (out, messages, clamped)
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
    // Fast path: dumps of one rank usually list the same keys in the same order.
    if current.len() == previous.len() && current.iter().zip(previous).all(|(c, p)| key(c) == key(p)) {
        return current
            .iter()
            .zip(previous)
            .map(|(c, p)| {
                let ((sent, recv), (ps, pr)) = (values(c), values(p));
                if sent < ps || recv < pr {
                    shrunk.push(name(c));
                }
                with(c, (sent.saturating_sub(ps), recv.saturating_sub(pr)))
            })
            .collect();
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Lid;

    fn dump(region: u32, peers: &[(u32, u64, u64)]) -> Dump {
        Dump {
            region,
            name: Some(format!("r{region}")),
            dumptime: EpochMicros(i64::from(region)),
            peers: peers.iter().map(|&(peer, sent, recv)| PeerBytes { peer, sent, recv }).collect(),
            lids: Vec::new(),
        }
    }

    fn rank(rank: u32, dumps: Vec<Dump>) -> RankSection {
        RankSection { rank, host: format!("n{rank}"), dumps, ..Default::default() }
    }

    #[test]
    fn each_region_holds_only_its_own_bytes() {
        let profile = Profile {
            ranks: vec![rank(
                0,
                vec![
                    dump(1, &[(1, 100, 10)]),
                    dump(2, &[(1, 250, 10), (2, 7, 0)]),
                    dump(3, &[(1, 250, 40), (2, 7, 0)]),
                ],
            )],
            ..Default::default()
        };
        let (table, warnings) = region_table(&profile, "p");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(table.regions.iter().map(|r| r.number).collect::<Vec<_>>(), [1, 2, 3]);
        let peers = |region: usize| table.deltas[region][0].peers.clone();
        assert_eq!(peers(0), vec![PeerBytes { peer: 1, sent: 100, recv: 10 }]);
        assert_eq!(
            peers(1),
            vec![PeerBytes { peer: 1, sent: 150, recv: 0 }, PeerBytes { peer: 2, sent: 7, recv: 0 }]
        );
        assert_eq!(
            peers(2),
            vec![PeerBytes { peer: 1, sent: 0, recv: 30 }, PeerBytes { peer: 2, sent: 0, recv: 0 }]
        );
    }

    #[test]
    fn a_shrinking_counter_is_clamped_to_zero_and_reported() {
        let profile = Profile {
            ranks: vec![rank(3, vec![dump(1, &[(1, 100, 0)]), dump(2, &[(1, 60, 0)])])],
            ..Default::default()
        };
        let (table, warnings) = region_table(&profile, "p.ibprof");
        assert_eq!(table.deltas[1][0].peers[0].sent, 0);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.contains("rank 3 region 2") && warnings[0].message.contains("peer 1"));
    }

    #[test]
    fn a_rank_missing_a_region_is_unchanged_there_and_its_next_delta_spans_both() {
        let profile = Profile {
            ranks: vec![
                rank(0, vec![dump(1, &[(1, 10, 0)]), dump(2, &[(1, 30, 0)]), dump(3, &[(1, 60, 0)])]),
                rank(1, vec![dump(1, &[(0, 5, 0)]), dump(3, &[(0, 50, 0)])]),
            ],
            ..Default::default()
        };
        let (table, warnings) = region_table(&profile, "p");
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.contains("rank 1 has no dump for region 2"));
        assert!(table.deltas[1][1].peers.is_empty());
        assert_eq!(table.deltas[2][1].peers[0].sent, 45);
    }

    #[test]
    fn port_level_counters_are_differenced_by_port_and_lid() {
        let mut d1 = dump(1, &[]);
        d1.lids = vec![
            LidBytes { port: 0, lid: Lid(5), sent: 10, recv: 1 },
            LidBytes { port: 1, lid: Lid(5), sent: 3, recv: 0 },
        ];
        let mut d2 = dump(2, &[]);
        d2.lids = vec![
            LidBytes { port: 1, lid: Lid(5), sent: 4, recv: 0 },
            LidBytes { port: 0, lid: Lid(5), sent: 15, recv: 1 },
        ];
        let profile = Profile { ranks: vec![rank(0, vec![d1, d2])], ..Default::default() };
        let (table, _) = region_table(&profile, "p");
        let sent: Vec<u64> = table.deltas[1][0].lids.iter().map(|l| l.sent).collect();
        assert_eq!(sent, [1, 5]);
    }

    #[test]
    fn regions_take_the_latest_dump_time_and_the_first_name_given() {
        let mut a = dump(1, &[]);
        a.dumptime = EpochMicros(10);
        let mut b = dump(1, &[]);
        b.dumptime = EpochMicros(20);
        b.name = None;
        let profile = Profile { ranks: vec![rank(0, vec![b]), rank(1, vec![a])], ..Default::default() };
        let (table, _) = region_table(&profile, "p");
        assert_eq!(
            table.regions,
            vec![RegionInfo { number: 1, name: Some("r1".into()), dumptime: EpochMicros(20) }]
        );
    }
}
