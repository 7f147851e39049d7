//! What a dump holds: the backends' counters as collected ([`DumpData`]), and as kept until
//! `MPI_Finalize` writes them ([`DumpRecord`]). Plain data, below the state that holds it.

use ibprof_format::{LidCounts, PeerCounts, Region};

/// What one dump holds before it is written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DumpData {
    /// `(sent, recv)` per world rank, dense.
    pub peers: Vec<(u64, u64)>,
    /// `(port index, remote LID, sent, recv)`, sorted.
    pub lids: Vec<(u32, u16, u64, u64)>,
}

/// One cumulative dump.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DumpRecord {
    pub region: u32,
    pub name: Option<String>,
    pub time: i64,
    /// `(peer, sent, recv)`, peers with traffic only, by rank.
    pub peers: Vec<(u32, u64, u64)>,
    /// `(port, lid, sent, recv)`, sorted.
    pub lids: Vec<(u32, u16, u64, u64)>,
}

impl DumpRecord {
    pub fn new(region: u32, name: Option<&str>, time: i64, data: DumpData) -> DumpRecord {
        let peers = data
            .peers
            .iter()
            .enumerate()
            .filter(|(_, (s, r))| *s != 0 || *r != 0)
            .map(|(p, &(s, r))| (p as u32, s, r))
            .collect();
        DumpRecord { region, name: name.map(str::to_string), time, peers, lids: data.lids }
    }

    /// The region's lines (`region`, `peer`…, `lid`…).
    pub fn write(&self, out: &mut Vec<u8>) {
        let name = self.name.as_deref().map(Into::into);
        ibprof_format::push_region(out, &Region { number: self.region, name, dumptime: self.time });
        for &(peer, sent, recv) in &self.peers {
            ibprof_format::push_peer(out, &PeerCounts { peer, sent, recv });
        }
        for &(port, lid, sent, recv) in &self.lids {
            ibprof_format::push_lid(out, &LidCounts { port, lid, sent, recv });
        }
    }
}
