//! `in_situ`: one rank's work at a region dump when libibprof traces in situ (`IBPROF_RAILS`):
//! 100,000 peers (ranks spread over the 1,296 hosts of the TSUBAME-sized two rails of
//! `benches/data/tsubame`), placed and traced into the rank's dense link-end vector, with and
//! without a top-8 summary. Targets: ≤ 20 ms and ≤ 64 MB per rank (fabric included).
//!
//! Printed first: the peak heap of one rank (fabric built from the packed rails, the tracer with
//! every rank's host, one traced region), and the size of the loads file rank 0 writes for
//! these rails (two regions plus total; it does not depend on the number of ranks).
//!
//! Run: `cargo bench -p ibprof --bench in_situ` (the collector's bench: it builds shoal without
//! the GUI).

use std::path::PathBuf;

use shoal::export::loads_file::{LoadsNotes, write_loads_file};
use shoal::model::{Cluster, EpochMicros, HostMap, PeerBytes, RankSection};
use shoal::profile_io::rail_bundle::{pack_rails, unpack_cluster};
use shoal::routing::in_situ::{RankRegion, RankTracer};
use shoal::routing::{Loads, RailPolicy, RankTraffic, RegionLoads};

#[path = "../../tests/support/peak_alloc.rs"]
mod peak_alloc;
use peak_alloc::{PeakAlloc, peak_of};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

const RANKS: u32 = 100_000;

fn packed_rails() -> Vec<u8> {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../benches/data/tsubame");
    pack_rails(&[vec![data.join("rail0")], vec![data.join("rail1")]]).expect("benchmark rails").0
}

/// Rank `r` runs on host `r mod hosts`, as a block-cyclic placement would put it.
fn host_names(cluster: &Cluster) -> Vec<String> {
    (0..RANKS).map(|r| cluster.hosts[r as usize % cluster.hosts.len()].name.clone()).collect()
}

/// Rank 0's counters for one region: every peer, 1 KiB plus a little that varies.
fn rank_zero(names: &[String]) -> (RankSection, Vec<PeerBytes>) {
    let section =
        RankSection { rank: 0, host: names[0].clone(), starttime: EpochMicros(0), ..Default::default() };
    let peers = (1..RANKS).map(|p| PeerBytes { peer: p, sent: 1024 + u64::from(p % 97), recv: 0 }).collect();
    (section, peers)
}

fn tracer<'c>(cluster: &'c Cluster, map: &'c HostMap, names: &[String], top_k: usize) -> RankTracer<'c> {
    RankTracer::new(
        cluster,
        RailPolicy::Split,
        map,
        names.iter().enumerate().map(|(r, n)| (r as u32, n.as_str())),
        top_k,
    )
}

/// The dump's work: trace, then keep the non-zero entries (what the collector stores).
fn dump(
    tracer: &mut RankTracer<'_>,
    section: &RankSection,
    peers: &[PeerBytes],
) -> (Vec<(u32, u64)>, RankRegion) {
    let region = tracer.trace(&RankTraffic { section, peers, lids: &[] });
    let sparse =
        region.vector.iter().enumerate().filter(|(_, b)| **b > 0).map(|(i, &b)| (i as u32, b)).collect();
    (sparse, region)
}

fn main() {
    let packed = packed_rails();
    let map = HostMap::default();
    let ((links, loads_file_bytes), peak) = peak_of(|| {
        let (cluster, _) = unpack_cluster(&packed).expect("rails build");
        let names = host_names(&cluster);
        let (section, peers) = rank_zero(&names);
        let mut t = tracer(&cluster, &map, &names, 8);
        let (_, region) = dump(&mut t, &section, &peers);
        let one = t.layout().region_loads(&region.vector, Some(0));
        let loads = Loads {
            regions: vec![one.clone(), RegionLoads { region: Some(1), ..one.clone() }],
            total: RegionLoads { region: None, ..one },
        };
        let mut out = Vec::new();
        write_loads_file(&cluster, &loads, &LoadsNotes::default(), None, &mut out).expect("in memory");
        (cluster.rails.iter().map(|r| r.link_count()).sum::<usize>(), out.len())
    });
    eprintln!(
        "in_situ: {RANKS} ranks on the TSUBAME rails ({links} links); peak heap of one rank: {:.1} MB; \
         loads file for 2 regions + total: {:.2} MB ({:.2} MB per region row set, whatever the ranks)",
        peak as f64 / 1e6,
        loads_file_bytes as f64 / 1e6,
        loads_file_bytes as f64 / 3e6
    );
    divan::main();
}

#[divan::bench(args = [0, 8], sample_count = 20)]
fn region_dump_of_100k_peers(bencher: divan::Bencher, top_k: usize) {
    let (cluster, _) = unpack_cluster(&packed_rails()).expect("rails build");
    let map = HostMap::default();
    let names = host_names(&cluster);
    let (section, peers) = rank_zero(&names);
    let mut t = tracer(&cluster, &map, &names, top_k);
    bencher.bench_local(|| dump(&mut t, &section, &peers));
}
