//! In-situ tracing (`IBPROF_RAILS`): each rank traces its own counters through the fabric's
//! forwarding tables at every region dump, and at `MPI_Finalize` the ranks' link-end vectors are
//! summed to rank 0, which writes `IBPROF_LOADS` (shoal convert's `links.csv`, plus comment
//! lines). The tracing is shoal's own ([`shoal::routing::in_situ`]), not a copy.
//!
//! - [`setup`]: at `MPI_Init`, rank 0 reads the dumps and broadcasts them; every rank builds the
//!   fabric from those bytes and learns every rank's host by an allgather.
//! - [`InSitu::at_dump`]: one region of this rank, traced into a sparse record.
//! - [`finish`]: the reductions and the file.
//!
//! Safety: a fabric that fails to load, a host missing from the map and an undeliverable LID
//! are each one message on rank 0's stderr and a counted comment line in the loads file; the
//! job goes on. Every step is collective in the same order on every rank whatever failed.

mod budget;
mod setup;

use shoal::model::{Cluster, EpochMicros, Lid, LidBytes, LocalPort, PeerBytes, RankSection};
use shoal::routing::RankTraffic;
use shoal::routing::in_situ::RankTracer;
use shoal::routing::topk::Contributor;

use crate::dump_data::DumpRecord;

pub use setup::setup;

/// One region of this rank, as traced at its dump.
#[derive(Clone, Debug, Default)]
pub struct RegionRecord {
    pub number: u32,
    pub name: Option<String>,
    pub time: i64,
    /// Non-zero entries of the rank's vector: (position, bytes).
    pub sparse: Vec<(u32, u64)>,
    /// Top-K summaries of the link ends this rank touched: (position, slots).
    pub top: Vec<(u32, Vec<Contributor>)>,
}

/// The in-situ state of one rank.
pub struct InSitu {
    /// `None` when the fabric did not load (the same on every rank); `failure` says why.
    pub tracer: Option<RankTracer<'static>>,
    pub cluster: &'static Cluster,
    pub failure: Option<String>,
    pub top_k: usize,
    pub regions: Vec<RegionRecord>,
    /// This rank as the profile would describe it (rank, host, ports).
    section: RankSection,
    previous_peers: Vec<PeerBytes>,
    previous_lids: Vec<LidBytes>,
}

impl InSitu {
    fn new(
        tracer: Option<RankTracer<'static>>,
        cluster: &'static Cluster,
        failure: Option<String>,
        top_k: usize,
        section: RankSection,
    ) -> InSitu {
        InSitu {
            tracer,
            cluster,
            failure,
            top_k,
            regions: Vec::new(),
            section,
            previous_peers: Vec::new(),
            previous_lids: Vec::new(),
        }
    }

    /// Traces one cumulative dump's new bytes (this dump minus the previous one, as shoal
    /// derives a region from the gathered profile).
    pub fn at_dump(&mut self, dump: &DumpRecord) {
        let peers: Vec<PeerBytes> =
            dump.peers.iter().map(|&(peer, sent, recv)| PeerBytes { peer, sent, recv }).collect();
        let lids: Vec<LidBytes> = dump
            .lids
            .iter()
            .map(|&(port, lid, sent, recv)| LidBytes { port, lid: Lid(lid), sent, recv })
            .collect();
        let peer_delta = delta(
            &self.previous_peers,
            &peers,
            |p| p.peer,
            |p| (p.sent, p.recv),
            |p, s, r| PeerBytes { sent: s, recv: r, ..*p },
        );
        let lid_delta = delta(
            &self.previous_lids,
            &lids,
            |l| (l.port, l.lid),
            |l| (l.sent, l.recv),
            |l, s, r| LidBytes { sent: s, recv: r, ..*l },
        );
        let mut record = RegionRecord {
            number: dump.region,
            name: dump.name.clone(),
            time: dump.time,
            ..Default::default()
        };
        if let Some(tracer) = self.tracer.as_mut() {
            let traffic = RankTraffic { section: &self.section, peers: &peer_delta, lids: &lid_delta };
            let traced = tracer.trace(&traffic);
            record.sparse = traced
                .vector
                .iter()
                .enumerate()
                .filter(|(_, b)| **b > 0)
                .map(|(i, &b)| (i as u32, b))
                .collect();
            record.top = traced.top;
        }
        self.regions.push(record);
        (self.previous_peers, self.previous_lids) = (peers, lids);
    }
}

/// What each counter added since the previous dump (a counter that went down adds nothing).
fn delta<T, K: Ord>(
    before: &[T],
    now: &[T],
    key: impl Fn(&T) -> K,
    bytes: impl Fn(&T) -> (u64, u64),
    with: impl Fn(&T, u64, u64) -> T,
) -> Vec<T> {
    let mut out = Vec::with_capacity(now.len());
    let mut i = 0;
    for item in now {
        while i < before.len() && key(&before[i]) < key(item) {
            i += 1;
        }
        let (s, r) = bytes(item);
        let (ps, pr) = before.get(i).filter(|b| key(b) == key(item)).map_or((0, 0), &bytes);
        let (ds, dr) = (s.saturating_sub(ps), r.saturating_sub(pr));
        if ds > 0 || dr > 0 {
            out.push(with(item, ds, dr));
        }
    }
    out
}

/// This rank's section as the profile writes it (no dumps: those are traced one by one).
/// Where each rank's part starts in a gathered buffer (a `gatherv` displacement), and the total.
pub(crate) fn displacements(lens: &[std::ffi::c_int]) -> (Vec<std::ffi::c_int>, std::ffi::c_int) {
    let mut at: std::ffi::c_int = 0;
    let displs = lens
        .iter()
        .map(|l| {
            let d = at;
            at = at.saturating_add(*l);
            d
        })
        .collect();
    (displs, at)
}

fn own_section(rank: u32, host: &str, ports: Vec<LocalPort>) -> RankSection {
    RankSection {
        rank,
        host: host.to_string(),
        pid: None,
        starttime: EpochMicros(0),
        ports,
        dumps: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_is_what_each_counter_added_since_the_last_dump() {
        let before = [PeerBytes { peer: 1, sent: 10, recv: 0 }, PeerBytes { peer: 3, sent: 5, recv: 5 }];
        let now = [
            PeerBytes { peer: 0, sent: 7, recv: 0 },
            PeerBytes { peer: 1, sent: 10, recv: 0 },
            PeerBytes { peer: 3, sent: 9, recv: 6 },
        ];
        let d = delta(
            &before,
            &now,
            |p| p.peer,
            |p| (p.sent, p.recv),
            |p, s, r| PeerBytes { sent: s, recv: r, ..*p },
        );
        assert_eq!(d, vec![PeerBytes { peer: 0, sent: 7, recv: 0 }, PeerBytes { peer: 3, sent: 4, recv: 1 }]);
    }
}
