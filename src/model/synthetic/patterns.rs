//! Synthetic traffic patterns for what-ifs (`shoal pattern`, issue 12): a job's bytes with no
//! hosts recorded, to be put on a fabric with `--place`.
//!
//! - `alltoall`: every rank sends `bytes` to every other rank;
//! - `shift`: rank r sends `bytes` to rank r + ranks/2 (mod ranks), the pattern that loads a
//!   fat tree's top;
//! - `io`: the last `servers` ranks are servers (Lustre OSSes), the others clients; client c
//!   writes `bytes`, split evenly over `stripes` servers taken round-robin from c mod servers,
//!   as Lustre clients spread a striped file over their targets;
//! - `cg`: NAS CG's exchanges (PFAnalyzer, issue 23): the ranks as NPB-CG's process grid
//!   (`nprows × npcols`, npcols = nprows or 2 × nprows, row-major), recursive doubling within
//!   each row (partners `rank XOR 1, 2, 4, …` below npcols) and NPB-CG's transpose partner;
//! - `milc`: MILC's 4-D nearest-neighbour stencil: the ranks as a periodic 4-D grid as even as
//!   powers of two allow (128 = 4 × 4 × 4 × 2), `bytes` to each of the ±1 neighbours per axis.
//!
//! `cg` and `milc` need a power-of-two rank count; their exchanges are symmetric, so a rank
//! receives from each peer what it sends it.
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
    Cg { ranks: u32, bytes: u64 },
    Milc { ranks: u32, bytes: u64 },
}

impl Pattern {
    pub fn name(self) -> &'static str {
        match self {
            Pattern::AllToAll { .. } => "alltoall",
            Pattern::Shift { .. } => "shift",
            Pattern::Io { .. } => "io",
            Pattern::Cg { .. } => "cg",
            Pattern::Milc { .. } => "milc",
        }
    }

    pub fn ranks(self) -> u32 {
        match self {
            Pattern::AllToAll { ranks, .. }
            | Pattern::Shift { ranks, .. }
            | Pattern::Io { ranks, .. }
            | Pattern::Cg { ranks, .. }
            | Pattern::Milc { ranks, .. } => ranks,
        }
    }

    /// Why the pattern cannot be built, if it cannot.
    pub fn check(self) -> Result<(), String> {
        if self.ranks() < 2 {
            return Err("a pattern needs at least 2 ranks".into());
        }
        if matches!(self, Pattern::Cg { .. } | Pattern::Milc { .. }) && !self.ranks().is_power_of_two() {
            return Err(format!("{} needs a power-of-two rank count, got {}", self.name(), self.ranks()));
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

    /// Rank `r`'s peers in rank order, each with what `r` sent it and received from it, made
    /// one at a time: a writer streams them (`shoal pattern` on 100,000 ranks holds no matrix).
    pub fn peers(self, r: u32) -> Box<dyn Iterator<Item = PeerBytes>> {
        match self {
            Pattern::AllToAll { ranks, bytes } => {
                Box::new((0..ranks).filter(move |&p| p != r).map(move |peer| PeerBytes {
                    peer,
                    sent: bytes,
                    recv: bytes,
                }))
            }
            Pattern::Shift { ranks, bytes } => {
                let (r64, n, half) = (u64::from(r), u64::from(ranks), u64::from(ranks / 2));
                let (to, from) = (((r64 + half) % n) as u32, ((r64 + n - half) % n) as u32);
                let mut peers: Vec<PeerBytes> = Vec::with_capacity(2);
                for (peer, sent, recv) in [(to, bytes, 0), (from, 0, bytes)] {
                    if peer == r {
                        continue;
                    }
                    match peers.iter_mut().find(|p| p.peer == peer) {
                        Some(p) => (p.sent, p.recv) = (p.sent + sent, p.recv + recv),
                        None => peers.push(PeerBytes { peer, sent, recv }),
                    }
                }
                peers.sort_unstable_by_key(|p| p.peer);
                Box::new(peers.into_iter())
            }
            Pattern::Io { ranks, bytes, servers, stripes } => {
                io_peers(r, ranks - servers, (bytes, servers, stripes))
            }
            Pattern::Cg { ranks, bytes } => symmetric(r, bytes, cg_partners(r, ranks)),
            Pattern::Milc { ranks, bytes } => symmetric(r, bytes, milc_partners(r, ranks)),
        }
    }

    /// How many `peer` lines the profile has (what its size is made of).
    pub fn peer_lines(self) -> u64 {
        match self {
            Pattern::AllToAll { ranks, .. } => u64::from(ranks) * u64::from(ranks - 1),
            Pattern::Shift { ranks, .. } => 2 * u64::from(ranks),
            Pattern::Io { ranks, servers, stripes, .. } => {
                2 * u64::from(ranks - servers) * u64::from(stripes)
            }
            Pattern::Cg { ranks, .. } | Pattern::Milc { ranks, .. } => {
                (0..ranks).map(|r| self.peers(r).count() as u64).sum()
            }
        }
    }

    /// Rank `r`'s section without its dump's peers (see [`Pattern::peers`]).
    pub fn section_head(self, r: u32) -> RankSection {
        RankSection { rank: r, host: String::new(), starttime: START, ..Default::default() }
    }

    /// The one dump of every rank, without peers.
    pub fn dump_head(self) -> Dump {
        Dump {
            region: 1,
            name: Some(self.name().into()),
            dumptime: EpochMicros(START.0 + 1_000_000),
            peers: Vec::new(),
            lids: Vec::new(),
            ..Default::default()
        }
    }

    /// The `job` line's fields: rank count and `mpi`.
    pub fn job(self) -> (u32, String) {
        (self.ranks(), format!("synthetic {}", self.name()))
    }

    /// The profile in memory (small patterns and tests; `shoal pattern` streams it instead).
    pub fn build(self) -> Profile {
        let ranks = self.ranks();
        let sections = (0..ranks)
            .map(|r| {
                let dump = Dump { peers: self.peers(r).collect(), ..self.dump_head() };
                RankSection { dumps: vec![dump], ..self.section_head(r) }
            })
            .collect();
        Profile {
            job_ranks: ranks,
            mpi: Some(self.job().1),
            source: Some(ProfileSource::Pmpi),
            ranks: sections,
        }
    }
}

/// `io`: client `c` writes `bytes` split over `stripes` servers `(c + i) mod servers`, the first
/// `bytes mod stripes` stripes one byte larger; a server receives from every client whose
/// window covers it. Both listed in rank order, made one at a time.
fn io_peers(
    r: u32,
    clients: u32,
    (bytes, servers, stripes): (u64, u32, u32),
) -> Box<dyn Iterator<Item = PeerBytes>> {
    let share =
        move |i: u32| bytes / u64::from(stripes) + u64::from(u64::from(i) < bytes % u64::from(stripes));
    if r < clients {
        // Server index s gets stripe i = (s − r) mod servers when i < stripes; s ascending.
        let first = r % servers;
        Box::new((0..servers).filter_map(move |s| {
            let i = ((u64::from(s) + u64::from(servers) - u64::from(first)) % u64::from(servers)) as u32;
            (i < stripes).then(|| PeerBytes { peer: clients + s, sent: share(i), recv: 0 })
        }))
    } else {
        let s = r - clients;
        Box::new((0..clients).filter_map(move |c| {
            let i =
                ((u64::from(s) + u64::from(servers) - u64::from(c % servers)) % u64::from(servers)) as u32;
            (i < stripes).then(|| PeerBytes { peer: c, sent: 0, recv: share(i) })
        }))
    }
}

/// One peer line per distinct partner (itself left out), `bytes` per occurrence both ways.
fn symmetric(r: u32, bytes: u64, partners: Vec<u32>) -> Box<dyn Iterator<Item = PeerBytes>> {
    let mut partners: Vec<u32> = partners.into_iter().filter(|&p| p != r).collect();
    partners.sort_unstable();
    let mut peers: Vec<PeerBytes> = Vec::with_capacity(partners.len());
    for peer in partners {
        match peers.last_mut() {
            Some(last) if last.peer == peer => {
                last.sent = last.sent.saturating_add(bytes);
                last.recv = last.sent;
            }
            _ => peers.push(PeerBytes { peer, sent: bytes, recv: bytes }),
        }
    }
    Box::new(peers.into_iter())
}

/// NPB-CG's partners of rank `r` (`setup_proc_info`, `setup_submatrix_info`): the row's
/// recursive-doubling partners and the transpose partner.
fn cg_partners(r: u32, ranks: u32) -> Vec<u32> {
    let log2 = ranks.trailing_zeros();
    let npcols = 1u32 << log2.div_ceil(2);
    let nprows = ranks / npcols;
    let mut partners: Vec<u32> = (0..npcols.trailing_zeros()).map(|i| r ^ (1 << i)).collect();
    let transpose = if npcols == nprows {
        (r % nprows) * nprows + r / nprows
    } else {
        2 * (((r / 2) % nprows) * nprows + (r / 2) / nprows) + r % 2
    };
    partners.push(transpose);
    partners
}

/// The 4-D grid's sides for `ranks` (a power of two): the exponent spread evenly, larger first.
pub fn milc_grid(ranks: u32) -> [u32; 4] {
    let log2 = ranks.trailing_zeros();
    std::array::from_fn(|axis| 1 << (log2 / 4 + u32::from((axis as u32) < log2 % 4)))
}

/// MILC's neighbours of rank `r`: ±1 along each axis of a periodic grid (x fastest), once per
/// direction, so an axis of side 2 names its one neighbour twice.
fn milc_partners(r: u32, ranks: u32) -> Vec<u32> {
    let grid = milc_grid(ranks);
    let mut stride = 1;
    let mut partners = Vec::with_capacity(8);
    for side in grid {
        let at = (r / stride) % side;
        if side > 1 {
            for step in [1, side - 1] {
                partners.push(r - at * stride + ((at + step) % side) * stride);
            }
        }
        stride *= side;
    }
    partners
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

    /// The pair-by-pair construction the streamed peers replace: every send added to both ends.
    fn built_pair_by_pair(pattern: Pattern, sends: impl Fn(u32) -> Vec<(u32, u64)>) -> Vec<Vec<PeerBytes>> {
        let ranks = pattern.ranks();
        let mut peers = vec![std::collections::BTreeMap::<u32, PeerBytes>::new(); ranks as usize];
        for r in 0..ranks {
            for (to, bytes) in sends(r) {
                peers[r as usize].entry(to).or_insert(PeerBytes { peer: to, sent: 0, recv: 0 }).sent += bytes;
                peers[to as usize].entry(r).or_insert(PeerBytes { peer: r, sent: 0, recv: 0 }).recv += bytes;
            }
        }
        peers.into_iter().map(|m| m.into_values().collect()).collect()
    }

    #[test]
    fn streamed_peers_equal_every_send_added_at_both_ends_and_their_count_is_known() {
        for ranks in [2u32, 3, 7, 10] {
            let shift = Pattern::Shift { ranks, bytes: 5 };
            let by_pairs = built_pair_by_pair(shift, |r| vec![((r + ranks / 2) % ranks, 5)]);
            for servers in 1..ranks {
                for stripes in 1..=servers {
                    let io = Pattern::Io { ranks, bytes: 11, servers, stripes };
                    let clients = ranks - servers;
                    let expected = built_pair_by_pair(io, |r| {
                        if r >= clients {
                            return Vec::new();
                        }
                        (0..stripes)
                            .map(|i| {
                                (
                                    clients + (r + i) % servers,
                                    11 / u64::from(stripes)
                                        + u64::from(u64::from(i) < 11 % u64::from(stripes)),
                                )
                            })
                            .collect()
                    });
                    let streamed: Vec<Vec<PeerBytes>> = (0..ranks).map(|r| io.peers(r).collect()).collect();
                    assert_eq!(streamed, expected, "{io:?}");
                    assert_eq!(streamed.iter().map(Vec::len).sum::<usize>() as u64, io.peer_lines());
                }
            }
            let streamed: Vec<Vec<PeerBytes>> = (0..ranks).map(|r| shift.peers(r).collect()).collect();
            assert_eq!(streamed, by_pairs, "shift on {ranks}");
            assert!(streamed.iter().map(Vec::len).sum::<usize>() as u64 <= shift.peer_lines());
        }
    }

    #[test]
    fn cg_pairs_each_rank_with_its_row_doubling_partners_and_its_transpose() {
        let p = Pattern::Cg { ranks: 128, bytes: 1 }.build();
        let peers = |r: usize| p.ranks[r].dumps[0].peers.iter().map(|b| b.peer).collect::<Vec<_>>();
        // Rank 0 (row 0, col 0) is its own transpose: only its row partners.
        assert_eq!(peers(0), [1, 2, 4, 8]);
        // Rank 3 = pair 1 (a = 0, b = 1), side 1 → pair 8 → rank 17.
        assert_eq!(peers(3), [1, 2, 7, 11, 17]);
        assert_eq!(peers(17), [3, 16, 19, 21, 25]);
        let symmetric = p.ranks.iter().all(|s| {
            s.dumps[0]
                .peers
                .iter()
                .all(|b| p.ranks[b.peer as usize].dumps[0].peers.iter().any(|c| c.peer == s.rank))
        });
        assert!(symmetric, "every exchange goes both ways");
    }

    #[test]
    fn milc_is_a_periodic_4d_stencil_and_a_side_of_two_doubles_its_one_neighbour() {
        assert_eq!(milc_grid(128), [4, 4, 4, 2]);
        let p = Pattern::Milc { ranks: 128, bytes: 10 }.build();
        let peers: Vec<(u32, u64)> = p.ranks[0].dumps[0].peers.iter().map(|b| (b.peer, b.sent)).collect();
        assert_eq!(peers, [(1, 10), (3, 10), (4, 10), (12, 10), (16, 10), (48, 10), (64, 20)]);
        assert_eq!(Pattern::Milc { ranks: 128, bytes: 1 }.peer_lines(), 128 * 7);
        assert!(Pattern::Cg { ranks: 96, bytes: 1 }.check().is_err());
    }
}
