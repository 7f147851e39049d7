//! What a dump holds: the backends' counters as collected ([`DumpData`]), and as kept until
//! `MPI_Finalize` writes them ([`DumpRecord`]). Plain data, below the state that holds it.

use ibprof_format::{LidCounts, MsgCounts, PeerCounts, Region, SizeBin};

/// What one dump holds before it is written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DumpData {
    /// `(sent, recv)` per world rank, dense.
    pub peers: Vec<(u64, u64)>,
    /// `(port index, remote LID, sent, recv)`, sorted.
    pub lids: Vec<(u32, u16, u64, u64)>,
    /// Messages `(sent, recv)` per world rank, dense, where the backend counts them.
    pub msgs: Option<Vec<(u64, u64)>>,
    /// Messages `(sent, recv)` per size bin (all of them), where the backend counts them.
    pub sizes: Option<Vec<(u64, u64)>>,
}

/// One cumulative dump.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DumpRecord {
    pub region: u32,
    pub name: Option<String>,
    pub time: i64,
    /// `(peer, sent, recv)`, peers with traffic only, by rank.
    pub peers: Vec<(u32, u64, u64)>,
    /// Messages `(sent, recv)` of each of `peers`, in the same order; empty when not counted.
    pub msgs: Vec<(u64, u64)>,
    /// `(port, lid, sent, recv)`, sorted.
    pub lids: Vec<(u32, u16, u64, u64)>,
    /// `(bin, sent, recv)` of the size bins that counted a message, by bin.
    pub sizes: Vec<(u32, u64, u64)>,
}

impl DumpRecord {
    pub fn new(region: u32, name: Option<&str>, time: i64, data: DumpData) -> DumpRecord {
        let with_traffic = || data.peers.iter().enumerate().filter(|(_, (s, r))| *s != 0 || *r != 0);
        let peers = with_traffic().map(|(p, &(s, r))| (p as u32, s, r)).collect();
        let msgs = match &data.msgs {
            Some(m) => with_traffic().map(|(p, _)| m.get(p).copied().unwrap_or_default()).collect(),
            None => Vec::new(),
        };
        let sizes = data.sizes.iter().flatten().enumerate();
        let sizes =
            sizes.filter(|(_, (s, r))| *s != 0 || *r != 0).map(|(b, &(s, r))| (b as u32, s, r)).collect();
        DumpRecord { region, name: name.map(str::to_string), time, peers, msgs, lids: data.lids, sizes }
    }

    /// The region's lines (`region`, `peer`…, `lid`…, `msgsize`…).
    pub fn write(&self, out: &mut Vec<u8>) {
        let name = self.name.as_deref().map(Into::into);
        ibprof_format::push_region(out, &Region { number: self.region, name, dumptime: self.time });
        for (i, &(peer, sent, recv)) in self.peers.iter().enumerate() {
            let msgs = self.msgs.get(i).map(|&(sent, recv)| MsgCounts { sent, recv });
            ibprof_format::push_peer(out, &PeerCounts { peer, sent, recv, msgs });
        }
        for &(port, lid, sent, recv) in &self.lids {
            ibprof_format::push_lid(out, &LidCounts { port, lid, sent, recv });
        }
        for &(bin, sent, recv) in &self.sizes {
            ibprof_format::push_size_bin(out, &SizeBin { bin, msgs: MsgCounts { sent, recv } });
        }
    }
}
