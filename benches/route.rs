//! `route`: `shoal route` on the k = 36 three-level fat tree (11,664 hosts, 1,620 switches,
//! 34,992 links, 13,284 LIDs; `shoal gen`'s shape). Target (issue 12): `route --engine dmodk`
//! in ≤ 2 s on 2 cores.
//!
//! - `route_dmodk` (the target), `route_minhop`, `route_updn`: topology (no tables) → every
//!   switch's table (21.5 million rows) on a copy of the fabric: the whole routing step.
//! - `route_greedy` (issue 23, target ≤ 5 s): PFSim's application-aware router for 10,000
//!   ranks × 100 peers (`shoal gen`'s peer pattern, rank r on the r-th CA): 1,000,000 pairs
//!   taken heaviest first, then minhop for the remaining rows.
//! - `check_dmodk`: walking every (switch, CA LID) row of the result, as the command reports it.
//! - `load_topology`: reading the k = 36 `opensm-subnet.lst` alone (written once under
//!   `target/bench-data/route/`), and `write_dumps`: writing the routed rail (`.lst` + a 580 MB
//!   `.fdbs`): the rest of what the command does end to end.
//!
//! `cargo bench --bench route`
//!
//! Figures: `docs/routing-engines.md` (release `shoal route` on the same tree: dmodk routed in
//! 0.51–1.14 s on the shared 2-core machine, load average 7–12). `route_greedy`, section
//! "Tails": medians of 3 samples 4.4–8.1 s interleaved with main's 6.1–11.7 s at load 0.8–2.7
//! on that machine (process CPU 17–21 s against 23–27 s); ≤ 5 s only when it is quiet. Section
//! "Branch-free choice" (2026-11-28): medians 3.8–5.5 s interleaved with main's 4.8–23.9 s at
//! load 1.2–3.5, 4 of 6 within 5 s against 1 of 6 (process CPU 15.6–20.4 s against
//! 19.2–23.2 s); nearly quiet (load 0.5–1.5), 4.36–4.74 s against 5.01–5.57 s.

use std::path::PathBuf;
use std::sync::OnceLock;

use divan::Bencher;
use rayon::prelude::*;
use shoal::model::Lid;
use shoal::model::synthetic::PeerProfile;
use shoal::model::synthetic::ThreeLevel;
use shoal::model::{Fabric, RailId};
use shoal::profile_io::load_rail;
use shoal::profile_io::opensm_write::{write_lst, write_rail_dir};
use shoal::routing::engines::{Engine, Greedy, Objective, Topology, check_routes, route, route_by};

fn main() {
    divan::main();
}

/// The k = 36 tree without tables: what `route` sees from a topology.
fn topology_only() -> &'static Fabric {
    static FABRIC: OnceLock<Fabric> = OnceLock::new();
    FABRIC.get_or_init(|| ThreeLevel::k_ary(36).build_untabled())
}

fn routed_dmodk() -> &'static Fabric {
    static FABRIC: OnceLock<Fabric> = OnceLock::new();
    FABRIC.get_or_init(|| route(topology_only(), Engine::Dmodk, "k36").expect("k = 36 is a fat tree").0)
}

fn bench_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/route")
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn route_dmodk(bencher: Bencher) {
    let fabric = topology_only();
    bencher.bench(|| route(fabric, Engine::Dmodk, "k36").expect("routes"));
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn route_minhop(bencher: Bencher) {
    let fabric = topology_only();
    bencher.bench(|| route(fabric, Engine::MinHop, "k36").expect("routes"));
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn route_updn(bencher: Bencher) {
    let fabric = topology_only();
    bencher.bench(|| route(fabric, Engine::UpDown, "k36").expect("routes"));
}

/// 10,000 ranks × 100 peers as (source LID, destination LID, bytes), rank r on the r-th CA.
fn greedy_pairs() -> Vec<(Lid, Lid, u64)> {
    let fabric = topology_only();
    let lids: Vec<Lid> = fabric.cas().filter_map(|ca| fabric.node(ca).base_lid()).collect();
    let profile = PeerProfile::new(10_000, 100);
    (0..10_000u32)
        .into_par_iter()
        .flat_map_iter(|r| {
            let section = profile.section(r, &[]);
            let src = lids[r as usize];
            section.dumps[0].peers.iter().map(|p| (src, lids[p.peer as usize], p.sent)).collect::<Vec<_>>()
        })
        .collect()
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn route_greedy(bencher: Bencher) {
    let fabric = topology_only();
    let engine = Greedy { objective: Objective::Busiest, pairs: greedy_pairs() };
    bencher.bench(|| route_by(fabric, &engine, "k36").expect("routes"));
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn check_dmodk(bencher: Bencher) {
    let fabric = routed_dmodk();
    bencher.bench(|| check_routes(fabric, &Topology::new(fabric, "k36")));
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn load_topology(bencher: Bencher) {
    let dir = bench_dir().join("k36-topology");
    let lst = dir.join("opensm-subnet.lst");
    if !lst.exists() {
        std::fs::create_dir_all(&dir).expect("bench dir");
        let mut out = std::io::BufWriter::new(std::fs::File::create(&lst).expect("lst"));
        write_lst(topology_only(), &mut out).expect("writes");
    }
    bencher.bench(|| load_rail(std::slice::from_ref(&lst), RailId(0)).expect("loads"));
}

#[divan::bench(sample_count = 2, sample_size = 1)]
fn write_dumps(bencher: Bencher) {
    let fabric = routed_dmodk();
    let dir = bench_dir().join("k36-dmodk");
    bencher.bench(|| write_rail_dir(fabric, &dir).expect("writes"));
}
