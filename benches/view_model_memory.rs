//! `view_model_memory`: the heap the k = 36 fat tree's view model holds with its profile once
//! opened (issue 21: at most 300 MB; the window held 979 MB), the heap's peak while opening it,
//! and how long `open` takes.
//!
//! The fabric is `shoal gen --k 36 --rails 2 --ranks 10000 --peers 100` (two rails of 11,664
//! hosts, 1,620 switches and 34,992 links; 10,000 ranks × 100 peers in one region). Set
//! `SHOAL_K36=DIR` to a folder `shoal gen` wrote; without it the bench writes one under
//! `target/bench-data/k36` first (about a minute).
//!
//! Run: `cargo bench --bench view_model_memory`.

use shoal::view_model::open;

#[path = "../tests/support/peak_alloc.rs"]
mod peak_alloc;
use peak_alloc::{PeakAlloc, live_bytes, peak_of};

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

#[path = "support/k36.rs"]
mod k36;
use k36::{fabric_dir, request};

fn main() {
    // `cargo test --all-targets` runs benches once, in a debug build: writing and opening the
    // k = 36 fabric there would take many minutes. Only `cargo bench` (which passes `--bench`).
    if !std::env::args().any(|a| a == "--bench") {
        println!("view_model_memory: measured under `cargo bench` only");
        return;
    }
    let dir = fabric_dir();
    let mb = |bytes: usize| bytes as f64 / 1e6;
    let before = live_bytes();
    let started = std::time::Instant::now();
    let (dataset, peak) = peak_of(|| open(&request(&dir), &|_| {}).expect("the k = 36 fabric opens"));
    let took = started.elapsed();
    let held = live_bytes() - before;
    println!(
        "k = 36, 10,000 ranks × 100 peers: the view model holds {:.1} MB (target ≤ 300 MB); \
         the heap peaked at {:.0} MB while opening; open took {:.1} s",
        mb(held),
        mb(peak),
        took.as_secs_f64()
    );
    let f = dataset.fabric.as_ref().expect("a fabric");
    println!("  {} link ends; flows built while opening: {}", f.index.link_count(), f.flows.is_built());
    // The flows with their origins are built when first asked for (`hot`, the matrix, pairs).
    let (unbuilt, asked) = (live_bytes(), std::time::Instant::now());
    let keys = f.flows.all().len();
    println!(
        "  the flows, once asked for: {keys} region keys, {:.0} MB more, built in {:.2} s",
        mb(live_bytes() - unbuilt),
        asked.elapsed().as_secs_f64()
    );
    let lfts: usize = f
        .cluster
        .rails
        .iter()
        .flat_map(|r| r.graph.node_indices().filter_map(move |n| r.lft(n)))
        .map(|l| l.heap_bytes())
        .sum();
    println!("  forwarding tables {:.0} MB", mb(lfts));
    let profile = live_bytes();
    let keep_profile = f.profile.as_deref().cloned();
    println!("  a copy of the profile: {:.0} MB", mb(live_bytes() - profile));
    drop(keep_profile);
}
