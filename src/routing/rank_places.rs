//! Where each rank runs and which LID it sends from on each rail, resolved once per rank:
//! placing a profile asks this for both ends of every counter (1.7 million pairs on two rails
//! for an all-to-all over 1,296 ranks), so it is a table lookup, not a walk through the host's
//! CAs per pair.

use std::collections::HashMap;

use crate::model::Lid;

use super::rank_cas::{HostCas, local_ranks};

/// Where a rank runs: its host (`None`: in no fabric), its local rank there (its position among
/// the profile's ranks on that host, by rank number, which picks its CA on a multi-HCA host, see
/// [`super::rank_cas`]), and the LID of that CA on each rail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Placed<'t> {
    pub host: Option<usize>,
    pub local: u32,
    /// By rail: `None` where the host has no CA, or its CA has LID 0.
    pub lids: &'t [Option<Lid>],
}

/// Marks a rank number that is not in the profile, in [`Lookup::Dense`].
const ABSENT: u32 = u32::MAX;

/// Rank number → its row in [`RankPlaces`]. Dense when the ranks are.
enum Lookup {
    Dense(Vec<u32>),
    Sparse(HashMap<u32, u32>),
}

/// Every rank of a profile, placed: see [`Placed`].
pub(super) struct RankPlaces {
    lookup: Lookup,
    /// By row: host and local rank.
    places: Vec<(Option<usize>, u32)>,
    /// `row * rails + rail`.
    lids: Vec<Option<Lid>>,
    rails: usize,
}

impl RankPlaces {
    /// `pairs` are (rank, host index); a rank given twice keeps its first host.
    pub fn new(pairs: impl Iterator<Item = (u32, Option<usize>)>, cas: &HostCas, rails: usize) -> Self {
        let ranks = local_ranks(pairs);
        let max = ranks.iter().map(|p| p.0).max().unwrap_or(0);
        let mut lookup = if (max as usize) < 4 * ranks.len() + 1024 {
            Lookup::Dense(vec![ABSENT; max as usize + 1])
        } else {
            Lookup::Sparse(HashMap::with_capacity(ranks.len()))
        };
        let mut places = Vec::with_capacity(ranks.len());
        let mut lids = Vec::with_capacity(ranks.len() * rails);
        for (row, &(rank, host, local)) in ranks.iter().enumerate() {
            let row = row as u32;
            match &mut lookup {
                Lookup::Dense(rows) => rows[rank as usize] = row,
                Lookup::Sparse(rows) => {
                    rows.insert(rank, row);
                }
            }
            places.push((host, local));
            lids.extend((0..rails).map(|r| host.and_then(|h| cas.lid(h, r, local))));
        }
        RankPlaces { lookup, places, lids, rails }
    }

    /// `None`: the rank is not in the profile.
    pub fn place(&self, rank: u32) -> Option<Placed<'_>> {
        let row = match &self.lookup {
            Lookup::Dense(rows) => rows.get(rank as usize).copied().filter(|&r| r != ABSENT)?,
            Lookup::Sparse(rows) => *rows.get(&rank)?,
        } as usize;
        let (host, local) = self.places[row];
        Some(Placed { host, local, lids: &self.lids[row * self.rails..(row + 1) * self.rails] })
    }

    /// `None`: the rank is not in the profile; `Some(None)`: its host is in no fabric.
    pub fn host(&self, rank: u32) -> Option<Option<usize>> {
        self.place(rank).map(|p| p.host)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Cluster;
    use crate::model::synthetic::TwoLevel;

    #[test]
    fn each_rank_has_its_host_local_rank_and_lids_and_absent_ranks_have_none() {
        let cluster = Cluster::new(vec![TwoLevel::new(2, 2, 2).build()]);
        let cas = HostCas::new(&cluster);
        let (a, b) = (cluster.host_index("n0001"), cluster.host_index("n0003"));
        for spread in [1, 1_000_000] {
            let pairs = [(0, a), (spread, b), (2 * spread, a), (3 * spread, None), (0, b)];
            let places = RankPlaces::new(pairs.into_iter(), &cas, 1);
            let zero = places.place(0).unwrap();
            assert_eq!((zero.host, zero.local), (a, 0), "the first host given wins");
            assert_eq!(zero.lids, [cas.lid(a.unwrap(), 0, 0)]);
            assert!(zero.lids[0].is_some());
            assert_eq!(places.place(2 * spread).map(|p| p.local), Some(1));
            assert_eq!(places.host(spread), Some(b));
            assert_eq!(places.place(3 * spread).map(|p| (p.host, p.lids)), Some((None, &[None][..])));
            assert_eq!(places.place(7), None);
        }
    }
}
