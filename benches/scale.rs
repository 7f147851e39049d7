//! `scale`: synthetic k = 36 three-level fat trees written as OpenSM dumps by the `shoal gen`
//! code (two rails of 11,664 hosts, 1,620 switches and 34,992 links each; their `.fdbs` are
//! ~580 MB apiece), plus a profile of 10,000 ranks × 100 peers. Target (issue 6): files → loads
//! → layout in ≤ 3 s on 2 cores, peak heap ≤ 2 GB.
//!
//! Run: `cargo bench --bench scale`. The data is generated once under `target/bench-data/scale`
//! (about 2.5 GB, not committed). First a table over four sizes (4, 9, 18 and 36 pods of the
//! same switches) shows the cost per pair × hop; then the whole pipeline's peak heap; then divan
//! measures each stage of the full size.
//!
//! Figures (2026-11-21, shared 2-core machine, load average ~3.5 from other agents; each stage
//! the best of three; loads traced by main's routing at the time):
//!
//! ```text
//!  pods   hosts     pairs  hops pairs×hops  rails s  prof s  loads s layout s  total s  cpu s ns/pair-hop peak MB
//!     4    1296    129600  5.45     706505    0.072   0.006    0.028    0.002    0.108   0.11        39.7      40
//!     9    2916    291600  5.70    1663437    0.188   0.011    0.083    0.005    0.286   0.30        49.7      80
//!    18    5832    583200  5.82    3395371    0.565   0.021    0.357    0.009    0.953   0.90       105.2     169
//!    36   11664   1000000  5.88    5881346    1.510   0.039    0.876    0.023    2.448   2.86       149.0     391
//! whole pipeline (k=36, 2 rails, 10,000 ranks × 100 peers): 2.42 s wall, 2.34 CPU s, peak heap 276 MB
//! divan, fastest of 3: rails 1.57 s, profile 32 ms, loads 654 ms, layout 27 ms, whole 2.28 s
//! ```
//!
//! Tracing cost per pair × hop grows with the fabric (40 → 149 ns): the tables and link-end
//! arrays outgrow the caches, so loads are not yet linear in pairs × hops.

use std::path::PathBuf;
use std::time::Instant;

use shoal::layout::{FatTreeOptions, layout_fat_tree};
use shoal::model::synthetic::{PeerProfile, ThreeLevel};
use shoal::model::{Cluster, Profile, RailId};
use shoal::profile_io::ibprof::write_profile;
use shoal::profile_io::load_cluster;
use shoal::profile_io::opensm_write::write_rail_dir;
use shoal::profile_io::profiles::read_profile;
use shoal::routing::{LoadOptions, trace};
use shoal::view_model::Dataset;
use shoal::view_model::trace::analyse_profile;
use shoal::view_model::{OpenRequest, open};

#[path = "../tests/support/peak_alloc.rs"]
mod peak_alloc;
use peak_alloc::{PeakAlloc, peak_of};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

const K: usize = 36;
const PEERS: u32 = 100;
const FULL_RANKS: u32 = 10_000;

/// One size of the scaling table: `pods` of the k = 36 tree, `ranks` ranks (one per host).
#[derive(Clone, Copy)]
struct Size {
    pods: usize,
    ranks: u32,
}

const SIZES: [Size; 4] = [
    Size { pods: 4, ranks: 1_296 },
    Size { pods: 9, ranks: 2_916 },
    Size { pods: 18, ranks: 5_832 },
    Size { pods: 36, ranks: FULL_RANKS },
];
/// Under `cargo bench` (which passes `--bench`) the full sizes; under `cargo test --all-targets`
/// (divan then runs each bench once, in a debug build) only the smallest, so that a test run does
/// not write 2.5 GB of dumps.
fn bench_mode() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn sizes() -> &'static [Size] {
    if bench_mode() { &SIZES } else { &SIZES[..1] }
}

fn full() -> Size {
    *sizes().last().expect("at least one size")
}

fn data_dir(size: Size) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("target/bench-data/scale/k{K}-p{}", size.pods))
}

fn rails(size: Size) -> Vec<Vec<PathBuf>> {
    (0..2).map(|r| vec![data_dir(size).join(format!("rail{r}"))]).collect()
}

fn profile_path(size: Size) -> PathBuf {
    data_dir(size).join(format!("ranks{}-peers{PEERS}.ibprof", size.ranks))
}

/// Writes the rails and the profile of a size unless they are there already.
fn generate(size: Size) {
    let dir = data_dir(size);
    // Remade when the generators change: bump the marker's number.
    let done = dir.join("complete-2");
    if done.exists() {
        return;
    }
    let started = Instant::now();
    for rail in 0..2u8 {
        let shape = ThreeLevel::k_ary_pods(K, size.pods)
            .rail(RailId(rail), 0x0002_c900_0000_0000 + (u64::from(rail) << 32));
        write_rail_dir(&shape.build(), &dir.join(format!("rail{rail}"))).expect("bench data is writable");
    }
    let hosts = ThreeLevel::k_ary_pods(K, size.pods).host_names();
    let profile = PeerProfile::new(size.ranks, PEERS).build(&hosts);
    let mut out = std::io::BufWriter::new(std::fs::File::create(profile_path(size)).expect("writable"));
    write_profile(&profile, &mut out).expect("profile written");
    drop(out);
    std::fs::write(done, "").expect("writable");
    eprintln!("scale: generated {} in {:.1} s", dir.display(), started.elapsed().as_secs_f64());
}

/// Mean links per path over a sample of the profile's pairs (rail 0).
fn mean_hops(cluster: &Cluster, profile: &Profile) -> f64 {
    let fabric = &cluster.rails[0];
    let lid_of = |rank: u32| {
        let host = cluster.host_index(&profile.ranks[rank as usize].host)?;
        fabric.node(*cluster.hosts[host].on_rail(0).first()?).base_lid()
    };
    let (mut links, mut paths) = (0usize, 0usize);
    for section in profile.ranks.iter().step_by(97) {
        for peer in &section.dumps[0].peers {
            if let (Some(s), Some(d)) = (lid_of(section.rank), lid_of(peer.peer)) {
                links += trace(fabric, s, d).link_ends.len();
                paths += 1;
            }
        }
    }
    links as f64 / paths.max(1) as f64
}

fn secs(from: Instant) -> f64 {
    from.elapsed().as_secs_f64()
}

/// CPU seconds this process has used (user + system), from /proc on Linux (0 elsewhere): on a
/// shared machine the wall time says how busy the neighbours were, this says what we cost.
fn cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Runs `stage` three times; returns the last result and the fastest time, so that a busy
/// neighbour on the shared machine does not make one size look slow.
fn best_of_3<T>(mut stage: impl FnMut() -> T) -> (T, f64) {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..3 {
        let t = Instant::now();
        last = Some(stage());
        best = best.min(secs(t));
    }
    (last.expect("ran three times"), best)
}

/// The scaling table: each stage the best of three runs; CPU seconds and peak heap of the
/// three.
fn scaling_table() {
    eprintln!(
        "\n{:>5} {:>7} {:>9} {:>5} {:>10} {:>8} {:>7} {:>8} {:>8} {:>8} {:>6} {:>11} {:>7}",
        "pods",
        "hosts",
        "pairs",
        "hops",
        "pairs×hops",
        "rails s",
        "prof s",
        "loads s",
        "layout s",
        "total s",
        "cpu s",
        "ns/pair-hop",
        "peak MB"
    );
    for &size in sizes() {
        let _ = load_cluster(&rails(size)); // page cache warm-up
        let cpu = cpu_secs();
        let ((cluster, profile, analysis, layout, times), peak) = peak_of(|| {
            let ((cluster, _), rails_s) = best_of_3(|| load_cluster(&rails(size)).expect("rails parse"));
            let ((profile, _), profile_s) =
                best_of_3(|| read_profile(&profile_path(size)).expect("profile parses"));
            let (analysis, loads_s) = best_of_3(|| {
                analyse_profile(&cluster, profile_path(size), profile.clone(), &LoadOptions::default()).0
            });
            let (layout, layout_s) = best_of_3(|| layout_fat_tree(&cluster, &FatTreeOptions::default()));
            (cluster, profile, analysis, layout, [rails_s, profile_s, loads_s, layout_s])
        });
        let [rails_s, profile_s, loads_s, layout_s] = times;
        let hops = mean_hops(&cluster, &profile);
        let pairs: usize = profile.ranks.iter().map(|r| r.dumps[0].peers.len()).sum();
        let total = rails_s + profile_s + loads_s + layout_s;
        let cpu = (cpu_secs() - cpu) / 3.0;
        let peak_mb = peak as f64 / 1e6;
        let pair_hops = pairs as f64 * hops;
        eprintln!(
            "{:>5} {:>7} {:>9} {:>5.2} {:>10.0} {:>8.3} {:>7.3} {:>8.3} {:>8.3} {:>8.3} {:>6.2} {:>11.1} {:>7.0}",
            size.pods,
            cluster.hosts.len(),
            pairs,
            hops,
            pair_hops,
            rails_s,
            profile_s,
            loads_s,
            layout_s,
            total,
            cpu,
            loads_s * 1e9 / pair_hops,
            peak_mb
        );
        drop((analysis, layout));
    }
}

/// The same fabric (the full size) with ever larger profiles: tracing cost against pairs × hops
/// with the forwarding tables held fixed, so cache effects of a larger fabric do not mix in.
fn fixed_fabric_table() {
    let size = full();
    let (cluster, _) = load_cluster(&rails(size)).expect("rails parse");
    let hosts = ThreeLevel::k_ary_pods(K, size.pods).host_names();
    eprintln!(
        "\nfixed fabric ({} hosts): {:>6} {:>9} {:>10} {:>8} {:>11}",
        cluster.hosts.len(),
        "peers",
        "pairs",
        "pairs×hops",
        "loads s",
        "ns/pair-hop"
    );
    for peers in [PEERS / 8, PEERS / 4, PEERS / 2, PEERS] {
        let profile = PeerProfile::new(size.ranks, peers).build(&hosts);
        let hops = mean_hops(&cluster, &profile);
        let pairs: usize = profile.ranks.iter().map(|r| r.dumps[0].peers.len()).sum();
        let (_, loads_s) = best_of_3(|| {
            analyse_profile(&cluster, profile_path(size), profile.clone(), &LoadOptions::default()).0
        });
        let pair_hops = pairs as f64 * hops;
        eprintln!(
            "{:>33} {peers:>6} {pairs:>9} {pair_hops:>10.0} {loads_s:>8.3} {:>11.1}",
            "",
            loads_s * 1e9 / pair_hops
        );
    }
}

fn main() {
    for &size in sizes() {
        generate(size);
    }
    scaling_table();
    fixed_fabric_table();
    let _ = whole_pipeline(); // warm-up
    let (t, cpu) = (Instant::now(), cpu_secs());
    let (dataset, peak) = peak_of(whole_pipeline);
    let analysis = dataset.fabric.as_ref().expect("a fabric");
    let (wall, cpu) = (secs(t), cpu_secs() - cpu);
    eprintln!(
        "\nscale: k={K}, 2 rails, {} hosts, {} links, {} ranks × {PEERS} peers: whole pipeline {:.2} s \
         ({:.2} CPU s), peak heap {:.0} MB\n",
        analysis.cluster.hosts.len(),
        analysis.cluster.rails.iter().map(|r| r.link_count()).sum::<usize>(),
        full().ranks,
        wall,
        cpu,
        peak as f64 / 1e6
    );
    drop(dataset);
    divan::main();
}

fn full_cluster() -> Cluster {
    load_cluster(&rails(full())).expect("rails parse").0
}

#[divan::bench(sample_count = 3)]
fn stage_1_parse_rails() -> Cluster {
    full_cluster()
}

#[divan::bench(sample_count = 3)]
fn stage_2_parse_profile() -> Profile {
    read_profile(&profile_path(full())).expect("profile parses").0
}

#[divan::bench(sample_count = 3)]
fn stage_3_loads(bencher: divan::Bencher) {
    let cluster = full_cluster();
    let (profile, _) = read_profile(&profile_path(full())).expect("profile parses");
    bencher.with_inputs(|| profile.clone()).bench_local_values(|profile| {
        analyse_profile(&cluster, profile_path(full()), profile, &LoadOptions::default())
    });
}

#[divan::bench(sample_count = 3)]
fn stage_4_layout(bencher: divan::Bencher) {
    let cluster = full_cluster();
    bencher.bench_local(|| layout_fat_tree(&cluster, &FatTreeOptions::default()));
}

#[divan::bench(sample_count = 3)]
fn whole_pipeline() -> Dataset {
    let request = OpenRequest { profile: Some(profile_path(full())), ..OpenRequest::of_rails(rails(full())) };
    open(&request, &|_| {}).expect("the rails and profile open")
}
