//! A synthetic traffic profile: `ranks` ranks, each sending to `peers` peers spread over the job,
//! for `shoal gen --ranks N --peers P` and the scale benchmark.

use crate::model::{Dump, EpochMicros, PeerBytes, Profile, ProfileSource, RankSection};

/// When the synthetic job starts (2023-11-14, in microseconds since the epoch); its one region
/// is dumped a second later.
const START: EpochMicros = EpochMicros(1_700_000_000_000_000);

/// The shape of a synthetic profile; see [`PeerProfile::build`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerProfile {
    pub ranks: u32,
    /// Peers each rank sends to (fewer if the job has fewer other ranks).
    pub peers: u32,
}

impl PeerProfile {
    pub fn new(ranks: u32, peers: u32) -> Self {
        PeerProfile { ranks, peers }
    }

    /// Builds the profile: rank `r` runs on `hosts[r mod hosts.len()]` and, in one region named
    /// `exchange`, sends to ranks `r + 1`, `r + 1 + s`, `r + 1 + 2s`, … (mod ranks) with a stride
    /// `s` of about `ranks / peers + 7`, prime to `ranks` so no peer repeats, that crosses pods:
    /// most bytes climb to the top of a fat tree.
    /// Byte counts vary a little by peer (64 KiB + (peer mod 7) × 4 KiB sent, 64 KiB received).
    /// No hosts: every rank has an empty host name.
    pub fn build(&self, hosts: &[String]) -> Profile {
        Profile {
            job_ranks: self.ranks,
            mpi: Some("synthetic".into()),
            source: Some(ProfileSource::Pmpi),
            ranks: (0..self.ranks).map(|r| self.section(r, hosts)).collect(),
        }
    }

    /// Rank `r`'s section alone, as [`PeerProfile::build`] has it: `shoal gen --ranks` writes
    /// the profile section by section, so it holds one rank's peers at a time (at most
    /// `--peers`, which the free-disk check bounds: the file holds ranks × peers lines).
    pub fn section(&self, r: u32, hosts: &[String]) -> RankSection {
        let ranks = self.ranks;
        let stride = self.stride();
        let wanted = self.peers.min(ranks.saturating_sub(1)) as usize;
        let mut peers: Vec<PeerBytes> = (0..u64::from(ranks))
            .map(|j| ((u64::from(r) + 1 + j * stride) % u64::from(ranks)) as u32)
            .filter(|&p| p != r)
            .take(wanted)
            .map(|p| PeerBytes { peer: p, sent: 65_536 + u64::from(p % 7) * 4096, recv: 65_536 })
            .collect();
        // A profile lists each peer once (the stride is prime to `ranks`), in rank order.
        peers.sort_unstable_by_key(|p| p.peer);
        let dump = Dump {
            region: 1,
            name: Some("exchange".into()),
            dumptime: EpochMicros(START.0 + 1_000_000),
            peers,
            lids: Vec::new(),
            ..Default::default()
        };
        let host = if hosts.is_empty() { String::new() } else { hosts[r as usize % hosts.len()].clone() };
        RankSection { rank: r, host, starttime: START, dumps: vec![dump], ..Default::default() }
    }

    /// How many `peer` lines the profile has.
    pub fn peer_lines(&self) -> u64 {
        u64::from(self.ranks) * u64::from(self.peers.min(self.ranks.saturating_sub(1)))
    }

    /// About `ranks / peers + 7`, moved up until it is prime to `ranks`.
    fn stride(&self) -> u64 {
        let ranks = self.ranks;
        let mut stride = u64::from((ranks / self.peers.max(1)).max(1) + 7);
        while gcd(stride, u64::from(ranks.max(1))) != 1 {
            stride += 1;
        }
        stride
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_sends_to_its_peers_once_each_never_to_itself() {
        let hosts: Vec<String> = (0..4).map(|h| format!("n{h}")).collect();
        let profile = PeerProfile::new(10, 3).build(&hosts);
        assert_eq!(profile.job_ranks, 10);
        assert_eq!(profile.ranks.len(), 10);
        for section in &profile.ranks {
            let peers: Vec<u32> = section.dumps[0].peers.iter().map(|p| p.peer).collect();
            assert_eq!(peers.len(), 3, "rank {}: {peers:?}", section.rank);
            assert!(!peers.contains(&section.rank));
            assert!(peers.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats: {peers:?}");
            assert_eq!(section.host, hosts[section.rank as usize % 4]);
        }
    }

    #[test]
    fn more_peers_than_other_ranks_gives_each_rank_every_other_rank() {
        let profile = PeerProfile::new(3, 100).build(&[]);
        for section in &profile.ranks {
            let peers: Vec<u32> = section.dumps[0].peers.iter().map(|p| p.peer).collect();
            let others: Vec<u32> = (0..3).filter(|&p| p != section.rank).collect();
            assert_eq!(peers, others);
            assert!(section.host.is_empty());
        }
    }

    #[test]
    fn a_stride_dividing_the_rank_count_does_not_repeat_peers() {
        // 2,916 ranks / 100 peers + 7 = 36, which divides 2,916: it is moved to 37.
        let profile = PeerProfile::new(2_916, 100).build(&[]);
        assert!(profile.ranks.iter().all(|s| s.dumps[0].peers.len() == 100));
    }
}
