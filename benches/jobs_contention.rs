//! `jobs_contention` (issue 12): two jobs of 648 ranks each on the TSUBAME-sized two rails of
//! `benches/data/tsubame` (1,296 hosts): an all-to-all (64 KiB per pair) and an I/O pattern of
//! 576 clients writing 16 MiB each to 72 servers (4 stripes), placed random-switch. Files →
//! per-job loads → the contention table, against one 1,296-rank all-to-all (64 KiB per pair,
//! hosts recorded) down today's one-profile pipeline. Target: ≤ 1.5× the one-job time.
//!
//! Run: `cargo bench --bench jobs_contention`. The profiles are written once under
//! `target/bench-data/jobs/`.

use std::path::PathBuf;
use std::sync::OnceLock;

use shoal::model::synthetic::Pattern;
use shoal::profile_io::ibprof::write_profile;
use shoal::profile_io::load_cluster;
use shoal::routing::{RegionKey, RegionLoads, contended_ends, pairs_through};
use shoal::view_model::dataset::{Dataset, FabricData};
use shoal::view_model::{JobRequest, OpenRequest, open};

#[path = "../tests/support/peak_alloc.rs"]
mod peak_alloc;
use peak_alloc::{PeakAlloc, peak_of};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

const BYTES: u64 = 64 << 10;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rails() -> Vec<Vec<PathBuf>> {
    let data = root().join("benches/data/tsubame");
    vec![vec![data.join("rail0")], vec![data.join("rail1")]]
}

/// (all-to-all 648, I/O 648, all-to-all 1,296 with hosts), written once.
fn profiles() -> &'static (PathBuf, PathBuf, PathBuf) {
    static PATHS: OnceLock<(PathBuf, PathBuf, PathBuf)> = OnceLock::new();
    PATHS.get_or_init(|| {
        let dir = root().join("target/bench-data/jobs");
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, profile: shoal::model::Profile| {
            let path = dir.join(name);
            if !path.exists() {
                let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
                write_profile(&profile, &mut out).unwrap();
            }
            path
        };
        let a2a = write("alltoall-648.ibprof", Pattern::AllToAll { ranks: 648, bytes: BYTES }.build());
        let io_pattern = Pattern::Io { ranks: 648, bytes: 16 << 20, servers: 72, stripes: 4 };
        let io = write("io-648-72.ibprof", io_pattern.build());
        let (cluster, _) = load_cluster(&rails()).unwrap();
        let mut one = Pattern::AllToAll { ranks: 1296, bytes: BYTES }.build();
        for (section, host) in one.ranks.iter_mut().zip(&cluster.hosts) {
            section.host = host.name.clone();
        }
        let one = write("alltoall-1296-hosts.ibprof", one);
        (a2a, io, one)
    })
}

fn specs() -> Vec<JobRequest> {
    let (a2a, io, _) = profiles();
    vec![
        JobRequest { name: "md".into(), profile: a2a.clone(), place: "random-switch:1".into() },
        JobRequest { name: "io".into(), profile: io.clone(), place: "random-switch:2".into() },
    ]
}

/// Both jobs placed on the rails, opened as every face opens them.
fn jobs() -> Dataset {
    open(&OpenRequest { jobs: specs(), ..OpenRequest::of_rails(rails()) }, &|_| {}).unwrap()
}

/// One profile on the rails.
fn one_job() -> Dataset {
    let request = OpenRequest { profile: Some(profiles().2.clone()), ..OpenRequest::of_rails(rails()) };
    open(&request, &|_| {}).unwrap()
}

/// Every end two or more jobs' totals cross, ranked.
fn contended(fabric: &FabricData) -> Vec<shoal::routing::ContendedEnd> {
    let totals: Vec<&RegionLoads> = fabric.jobs.iter().map(|j| &j.loads.total).collect();
    contended_ends(&totals)
}

fn main() {
    let (result, peak) = peak_of(|| {
        let jobs = jobs();
        let fabric = jobs.fabric.as_ref().unwrap();
        let contended = contended(fabric);
        (fabric.jobs.len(), contended.len(), contended.first().map_or(0, |c| c.second_bytes()))
    });
    eprintln!(
        "jobs_contention: {} jobs, {} contended ends (top: {} B from the second job); peak heap {:.1} MB",
        result.0,
        result.1,
        result.2,
        peak as f64 / 1e6
    );
    let (_, one_peak) = peak_of(|| one_job().warnings.len());
    eprintln!("one 1,296-rank job: peak heap {:.1} MB", one_peak as f64 / 1e6);
    divan::main();
}

/// Today's road: one 1,296-rank all-to-all, files → loads.
#[divan::bench(sample_count = 10)]
fn one_job_of_1296_ranks() -> usize {
    one_job().warnings.len()
}

/// Files → per-job loads (placed) → every contended end ranked, with each job's bytes.
#[divan::bench(sample_count = 10)]
fn two_jobs_of_648_ranks_to_contention_table() -> usize {
    contended(jobs().fabric.as_ref().unwrap()).len()
}

/// The same, plus what `hot --contended --top 20` adds: each job's top host pairs at the
/// 20 most contended ends.
#[divan::bench(sample_count = 10)]
fn two_jobs_with_top_20_pairs() -> usize {
    let jobs = jobs();
    let fabric = jobs.fabric.as_ref().unwrap();
    let mut ends = contended(fabric);
    ends.truncate(20);
    let wanted: Vec<_> = ends.iter().map(|e| (e.rail, e.end)).collect();
    fabric
        .job_flows
        .iter()
        .filter_map(|(_, flows)| flows.get(&RegionKey::Total))
        .map(|flows| pairs_through(&fabric.cluster, flows, &wanted, 3).len())
        .sum()
}
