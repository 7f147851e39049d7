//! Synthetic traffic patterns for what-ifs (`shoal pattern`, issue 12): a job's bytes with no
//! hosts recorded, to be put on a fabric with `--place`.
//!
//! - `alltoall`: every rank sends `bytes` to every other rank;
//! - `shift`: rank r sends `bytes` to rank r + ranks/2 (mod ranks), the pattern that loads a
//!   fat tree's top;
//! - `io`: the last `servers` ranks are servers (Lustre OSSes), the others clients; client c
//!   writes `bytes`, split evenly over `stripes` servers taken round-robin from c mod servers,
//!   as Lustre clients spread a striped file over their targets.
//!
//! Every rank has one dump, region 1 named after the pattern; the `job` line's `mpi` field says
//! `synthetic PATTERN`, so a file says what it is.

use crate::model::{Dump, EpochMicros, PeerBytes, Profile, ProfileSource, RankSection};

const START: EpochMicros = EpochMicros(1_700_000_000_000_000);

/// A traffic pattern and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    AllToAll { ranks: u32, bytes: u64 },
    Shift { ranks: u32, bytes: u64 },
    Io { ranks: u32, bytes: u64, servers: u32, stripes: u32 },
}

impl Pattern {
    pub fn name(self) -> &'static str {
        match self {
            Pattern::AllToAll { .. } => "alltoall",
            Pattern::Shift { .. } => "shift",
            Pattern::Io { .. } => "io",
        }
    }

    pub fn ranks(self) -> u32 {
        match self {
            Pattern::AllToAll { ranks, .. } | Pattern::Shift { ranks, .. } | Pattern::Io { ranks, .. } => {
                ranks
            }
        }
    }

    /// Why the pattern cannot be built, if it cannot.
    pub fn check(self) -> Result<(), String> {
        if self.ranks() < 2 {
            return Err("a pattern needs at least 2 ranks".into());
        }
        if let Pattern::Io { ranks, servers, stripes, .. } = self {
            if servers == 0 || servers >= ranks {
                return Err(format!(
                    "--servers must be between 1 and ranks − 1 ({}), got {servers}",
                    ranks - 1
                ));
            }
            if stripes == 0 || stripes > servers {
                return Err(format!("--stripes must be between 1 and --servers ({servers}), got {stripes}"));
            }
        }
        Ok(())
    }

    /// (destination, bytes) that rank `r` sends.
    fn sends(self, r: u32) -> Vec<(u32, u64)> {
        match self {
            Pattern::AllToAll { ranks, bytes } => {
                (0..ranks).filter(|&p| p != r).map(|p| (p, bytes)).collect()
            }
            Pattern::Shift { ranks, bytes } => {
                let to = (r + ranks / 2) % ranks;
                if to == r { Vec::new() } else { vec![(to, bytes)] }
            }
            Pattern::Io { ranks, bytes, servers, stripes } => {
                let clients = ranks - servers;
                if r >= clients {
                    return Vec::new();
                }
                let share = bytes / u64::from(stripes);
                (0..stripes)
                    .map(|i| {
                        let extra = u64::from(u64::from(i) < bytes % u64::from(stripes));
                        (clients + (r + i) % servers, share + extra)
                    })
                    .collect()
            }
        }
    }

    /// The profile: one rank section per rank, no hosts.
    pub fn build(self) -> Profile {
        let ranks = self.ranks();
        let mut peers: Vec<std::collections::BTreeMap<u32, PeerBytes>> =
            vec![Default::default(); ranks as usize];
        for r in 0..ranks {
            for (to, bytes) in self.sends(r) {
                let e = peers[r as usize].entry(to).or_insert(PeerBytes { peer: to, sent: 0, recv: 0 });
                e.sent += bytes;
                let e = peers[to as usize].entry(r).or_insert(PeerBytes { peer: r, sent: 0, recv: 0 });
                e.recv += bytes;
            }
        }
        let sections = peers
            .into_iter()
            .enumerate()
            .map(|(r, peers)| RankSection {
                rank: r as u32,
                host: String::new(),
                starttime: START,
                dumps: vec![Dump {
                    region: 1,
                    name: Some(self.name().into()),
                    dumptime: EpochMicros(START.0 + 1_000_000),
                    peers: peers.into_values().collect(),
                    lids: Vec::new(),
                }],
                ..Default::default()
            })
            .collect();
        Profile {
            job_ranks: ranks,
            mpi: Some(format!("synthetic {}", self.name())),
            source: Some(ProfileSource::Pmpi),
            ranks: sections,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(p: &Profile) -> u64 {
        p.ranks.iter().flat_map(|r| &r.dumps[0].peers).map(|b| b.sent).sum()
    }

    #[test]
    fn alltoall_sends_to_every_other_rank() {
        let p = Pattern::AllToAll { ranks: 4, bytes: 10 }.build();
        assert_eq!(p.ranks.len(), 4);
        assert!(p.ranks.iter().all(|r| r.host.is_empty() && r.dumps[0].peers.len() == 3));
        assert_eq!(sent(&p), 4 * 3 * 10);
        assert_eq!(p.mpi.as_deref(), Some("synthetic alltoall"));
    }

    #[test]
    fn io_clients_write_round_robin_over_the_servers() {
        let p = Pattern::Io { ranks: 10, bytes: 9, servers: 2, stripes: 2 }.build();
        assert_eq!(sent(&p), 8 * 9, "8 clients write 9 bytes each");
        let client = &p.ranks[1].dumps[0].peers;
        assert_eq!(client.iter().map(|b| (b.peer, b.sent)).collect::<Vec<_>>(), [(8, 4), (9, 5)]);
        let server: u64 = p.ranks[8].dumps[0].peers.iter().map(|b| b.recv).sum();
        assert_eq!(server, 4 * 5 + 4 * 4, "each server gets one stripe of every client");
        assert!(p.ranks[9].dumps[0].peers.iter().all(|b| b.sent == 0), "servers only receive");
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(Pattern::Io { ranks: 4, bytes: 1, servers: 4, stripes: 1 }.check().is_err());
        assert!(Pattern::Io { ranks: 4, bytes: 1, servers: 2, stripes: 3 }.check().is_err());
        assert!(Pattern::AllToAll { ranks: 1, bytes: 1 }.check().is_err());
    }
}
