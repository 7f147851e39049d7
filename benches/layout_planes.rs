//! The plane layout of a 1,024-node, 8-plane rail-optimized fabric (8,192 CAs), as `shoal gen
//! --shape rail-optimized` writes it: 16 scalable units of 64 hosts, 128 leaves, 64 spines.
//! Issue 15's target: laid out in ≤ 0.2 s.
//!
//! Run: `cargo bench --bench layout_planes`. The dumps are written once under
//! `target/bench-data/railopt-1024` (about 3 MB) and read back through the ordinary loader, so
//! the fabric is exactly what a user gets from `shoal gen`.

use std::path::PathBuf;

use shoal::layout::crossings::layout_crossings;
use shoal::layout::{FatTreeOptions, HcaPlanes, layout_fat_tree};
use shoal::model::Cluster;
use shoal::model::synthetic::RailOptimized;
use shoal::profile_io::load_cluster;
use shoal::profile_io::opensm_write::write_rail_dir;

fn main() {
    divan::main();
}

fn cluster() -> Cluster {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/railopt-1024/rail0");
    if !dir.join("opensm.fdbs").exists() {
        let fabric = RailOptimized::new(16, 64, 8, 64).build();
        write_rail_dir(&fabric, &dir).expect("writing the bench fabric");
    }
    let (cluster, warnings) = load_cluster(&[vec![dir]]).expect("the bench fabric loads");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(cluster.rails[0].cas().count(), 8192);
    cluster
}

#[divan::bench(sample_count = 10)]
fn plane_layout_1024_nodes_8_planes(bencher: divan::Bencher) {
    let cluster = cluster();
    let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
    assert!(layout.planes.is_some());
    let off = FatTreeOptions { hca_planes: HcaPlanes::Off, ..FatTreeOptions::default() };
    let one_dot = layout_fat_tree(&cluster, &off);
    let sum = |l| layout_crossings(&cluster, l).iter().flatten().sum::<u64>();
    let leaf_ca = layout_crossings(&cluster, &layout)[0][1];
    eprintln!(
        "crossings: plane layout {} (leaf to CA {leaf_ca}), one dot per host {}",
        sum(&layout),
        sum(&one_dot)
    );
    bencher.bench_local(|| layout_fat_tree(&cluster, &FatTreeOptions::default()));
}

#[divan::bench(sample_count = 10)]
fn one_dot_per_host_1024_nodes_8_planes(bencher: divan::Bencher) {
    let cluster = cluster();
    let off = FatTreeOptions { hca_planes: HcaPlanes::Off, ..FatTreeOptions::default() };
    bencher.bench_local(|| layout_fat_tree(&cluster, &off));
}
