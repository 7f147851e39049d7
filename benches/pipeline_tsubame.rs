//! `pipeline_tsubame`: two rails, each a 3-level fat tree of 36-port switches with 4 pods
//! (1,296 hosts, 180 switches, 3,888 links per rail, routed by OpenSM ftree), plus a full
//! all-to-all profile over all hosts with two regions. Target: files → parsed → traced → laid
//! out in ≤ 0.3 s on 2 cores, peak memory ≤ 500 MB.
//!
//! Run: `cargo bench --bench pipeline_tsubame`. Each stage is measured on its own, then the whole
//! pipeline; the peak heap of one whole run is printed first.

use std::path::PathBuf;
use std::sync::OnceLock;

use shoal::layout::{FatTreeOptions, layout_fat_tree};
use shoal::model::{Cluster, EpochMicros, PeerBytes, Profile, ProfileSource, RankSection};
use shoal::profile_io::ibprof::{read_profile, write_profile};
use shoal::profile_io::load_cluster;
use shoal::routing::LoadOptions;
use shoal::view_model::Dataset;
use shoal::view_model::trace::analyse_profile;
use shoal::view_model::{OpenRequest, open};

#[path = "../tests/support/peak_alloc.rs"]
mod peak_alloc;
use peak_alloc::{PeakAlloc, peak_of};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rails() -> Vec<Vec<PathBuf>> {
    let data = root().join("benches/data/tsubame");
    vec![vec![data.join("rail0")], vec![data.join("rail1")]]
}

/// The all-to-all profile, written once under target/ (it is ~130 MB of text).
fn profile_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = root().join("target/bench-data/tsubame-alltoall.ibprof");
        if !path.exists() {
            let (cluster, _) = load_cluster(&rails()).expect("benchmark rails parse");
            let profile = all_to_all(&cluster);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
            write_profile(&profile, &mut out).unwrap();
        }
        path
    })
}

/// One rank per host; region 1 sends 1 KiB to every peer, region 2 adds 64 KiB scaled by distance.
fn all_to_all(cluster: &Cluster) -> Profile {
    let n = cluster.hosts.len() as u32;
    let start = EpochMicros(1_700_000_000_000_000);
    let bytes = |r: u32, p: u32, region: u32| {
        let first = 1024;
        if region == 1 { first } else { first + 65536 * (1 + u64::from((r + p) % 4)) }
    };
    let ranks = (0..n)
        .map(|r| {
            let dumps = (1..=2)
                .map(|region| shoal::model::Dump {
                    region,
                    name: Some(if region == 1 { "sample" } else { "exchange" }.into()),
                    dumptime: EpochMicros(start.0 + i64::from(region) * 1_000_000),
                    peers: (0..n)
                        .filter(|&p| p != r)
                        .map(|p| PeerBytes { peer: p, sent: bytes(r, p, region), recv: bytes(p, r, region) })
                        .collect(),
                    lids: Vec::new(),
                    ..Default::default()
                })
                .collect();
            RankSection {
                rank: r,
                host: cluster.hosts[r as usize].name.clone(),
                starttime: start,
                dumps,
                ..Default::default()
            }
        })
        .collect();
    Profile { job_ranks: n, mpi: Some("synthetic".into()), source: Some(ProfileSource::Pmpi), ranks }
}

fn main() {
    let path = profile_path();
    let (dataset, peak) = peak_of(|| opened(path));
    let analysis = dataset.fabric.as_ref().expect("a fabric");
    eprintln!(
        "pipeline_tsubame: {} hosts, {} links, {} regions; peak heap of one open: {:.1} MB",
        analysis.cluster.hosts.len(),
        analysis.cluster.rails.iter().map(|r| r.link_count()).sum::<usize>(),
        analysis.loads.regions.len(),
        peak as f64 / 1e6
    );
    drop(dataset);
    divan::main();
}

#[divan::bench(sample_count = 10)]
fn stage_1_parse_rails() -> Cluster {
    load_cluster(&rails()).unwrap().0
}

#[divan::bench(sample_count = 10)]
fn stage_2_parse_profile() -> Profile {
    read_profile(profile_path()).unwrap().0
}

#[divan::bench(sample_count = 10)]
fn stage_3_trace(bencher: divan::Bencher) {
    let (cluster, _) = load_cluster(&rails()).unwrap();
    let (profile, _) = read_profile(profile_path()).unwrap();
    bencher.with_inputs(|| profile.clone()).bench_local_values(|profile| {
        analyse_profile(&cluster, profile_path().clone(), profile, &LoadOptions::default())
    });
}

#[divan::bench(sample_count = 10)]
fn stage_4_layout(bencher: divan::Bencher) {
    let (cluster, _) = load_cluster(&rails()).unwrap();
    bencher.bench_local(|| layout_fat_tree(&cluster, &FatTreeOptions::default()));
}

#[divan::bench(sample_count = 10)]
fn whole_pipeline() -> Dataset {
    opened(profile_path())
}

/// The rails and the profile opened as every face opens them (the data set included).
fn opened(profile: &std::path::Path) -> Dataset {
    let request = OpenRequest { profile: Some(profile.to_path_buf()), ..OpenRequest::of_rails(rails()) };
    open(&request, &|_| {}).expect("the rails and profile open")
}

/// The parts of stage 3, to see where tracing time goes.
mod stage_3_parts {
    use super::*;
    use shoal::model::region_table;
    use shoal::routing::{FlowBuilder, HostMap, RailPolicy, accumulate};
    use shoal::view_model::trace::region_inputs;

    fn inputs() -> &'static (Cluster, Profile) {
        static DATA: OnceLock<(Cluster, Profile)> = OnceLock::new();
        DATA.get_or_init(|| (load_cluster(&rails()).unwrap().0, read_profile(profile_path()).unwrap().0))
    }

    #[divan::bench(sample_count = 10)]
    fn region_deltas() -> shoal::model::RegionTable {
        region_table(&inputs().1, "p").0
    }

    /// What stage 3 does after the deltas: every region traced together, one pass per rail.
    #[divan::bench(sample_count = 10)]
    fn trace_regions_together(bencher: divan::Bencher) {
        let (cluster, profile) = inputs();
        let (table, _) = region_table(profile, "p");
        let (regions, _) = region_inputs(profile, &table);
        let options = LoadOptions::default();
        bencher.bench_local(|| shoal::routing::compute_loads(cluster, &regions, None, &options, "p"));
    }

    /// The region-by-region path (used when the matrices would be too large), for comparison:
    /// place one region's flows as a list, then sort and accumulate one rail of it.
    #[divan::bench(sample_count = 10)]
    fn place_flows_of_the_total(bencher: divan::Bencher) {
        let (cluster, profile) = inputs();
        let (table, _) = region_table(profile, "p");
        let (_, total) = region_inputs(profile, &table);
        let map = HostMap::default();
        bencher.bench_local(|| FlowBuilder::new(cluster, RailPolicy::Split, &map).flows(&total.ranks));
    }

    #[divan::bench(sample_count = 10)]
    fn accumulate_one_rail_of_the_total(bencher: divan::Bencher) {
        let (cluster, profile) = inputs();
        let (table, _) = region_table(profile, "p");
        let (_, total) = region_inputs(profile, &table);
        let map = HostMap::default();
        let flows = FlowBuilder::new(cluster, RailPolicy::Split, &map).flows(&total.ranks);
        bencher.bench_local(|| accumulate(&cluster.rails[0], &flows.flows[0]));
    }
}
