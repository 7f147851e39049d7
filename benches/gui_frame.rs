//! `gui_frame`: the CPU cost of one frame of the fat-tree view, and of a 4K PNG export.
//!
//! - `tsubame_*`: the TSUBAME-sized two-rail fabric (benches/data/tsubame: 7,776 links, all
//!   visible) with two regions of shift traffic, drawn by the egui mesh path. A frame is the egui
//!   pass (draw list, mesh, marks, legends) plus tessellation. `camera` moves the camera each
//!   frame (the scene is cached); `rebuild` also changes the highlight, so the scene (filter,
//!   projection, colours) is rebuilt every frame. Target ≤ 5 ms.
//! - `synthetic_100k_*`: a two-rail two-level fat tree with 100,000 links drawn by the GPU paint
//!   callback; the CPU side per frame is the egui pass for marks and legends, the uniform, and on
//!   `rebuild` the scene plus the style array. Target ≤ 16 ms.
//! - `png_export_tsubame_3840x2160`: scene → PNG bytes. Target ≤ 1 s.
//!
//! Run: `cargo bench --bench gui_frame`.
//!
//! Figures (2026-11-27, branch `frame` against main 53e7711, both binaries run alternately on the
//! shared 2-core build machine at load 6–8 under `nice -n 10`, CPU only; medians
//! there are dominated by waiting for a core, so the fastest sample is the comparable figure):
//!
//! | bench                              | main fastest   | frame fastest  | medians main → frame       |
//! |------------------------------------|----------------|----------------|----------------------------|
//! | tsubame_frame_camera               | 0.85–1.16 ms   | 0.84–0.92 ms   | 1.2–10 ms → 1.4–2.2 ms     |
//! | tsubame_frame_rebuild              | 2.35–2.74 ms   | 1.44–1.75 ms   | (noise: 9–23 ms both)      |
//! | synthetic_100k_frame_gpu_camera    | 184–192 µs     | 107–109 µs     | 205–245 µs → 115–118 µs    |
//! | synthetic_100k_frame_gpu_rebuild   | 32–86 ms       | 22–31 ms       | 62–122 ms → 31–46 ms       |
//! | png_export_tsubame_3840x2160       | 7.3 s          | 6.5 s          | 8.1 s → 7.0 s (loaded)     |
//!
//! On an idle machine (load 0.1, same binaries, interleaved), medians per round: camera
//! 0.84–1.47 ms (main, median 0.87) against 0.84–1.39 ms (median 1.19): both bimodal, no gain;
//! rebuild 2.02–3.36 ms (2.96) against 1.48–2.44 ms (1.57); 100k GPU rebuild 31.1 / 33.6 ms against
//! 16.5 / 23.4 ms.
//!
//! What changed: colours by 256-entry table index without libm rounding, dimmed halves from a
//! pre-faded table; halves written straight into one mesh with the plain marks (no line list, no
//! second mesh for egui to regrow); the GPU path's chrome built without copying the scene.

use std::path::PathBuf;
use std::sync::OnceLock;

use shoal::export::{Format, encode};
use shoal::model::Cluster;
use shoal::profile_io::load_cluster;
use shoal::scene::camera::Camera;
use shoal::scene::scene_for;
use shoal::view_model::filter::Filter;
use shoal::view_model::{Dataset, Highlight, LayoutChoice, ViewSpec};

#[path = "support/frame.rs"]
mod frame;
use frame::Frame;

fn main() {
    divan::main();
}

fn tsubame() -> &'static Dataset {
    static D: OnceLock<Dataset> = OnceLock::new();
    D.get_or_init(|| {
        let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data/tsubame");
        let (cluster, _) =
            load_cluster(&[vec![data.join("rail0")], vec![data.join("rail1")]]).expect("TSUBAME rails parse");
        shift_traffic("TSUBAME two-rail".into(), cluster)
    })
}

fn synthetic_100k() -> &'static Dataset {
    static D: OnceLock<Dataset> = OnceLock::new();
    // Per rail: 200 leaves × (125 hosts + 125 spine links) = 50,000 links.
    D.get_or_init(|| Dataset::synthetic(200, 125, 125, 2))
}

fn shift_traffic(name: String, cluster: Cluster) -> Dataset {
    let n = cluster.hosts.len();
    let half: Vec<_> = (0..n).map(|s| (s, (s + n / 2 + 1) % n, 1 << 20)).collect();
    let spread: Vec<_> = (0..n)
        .flat_map(|s| (1..=8).map(move |k| (s, (s * 7 + k * n / 9) % n, 64 << 10)))
        .filter(|(s, d, _)| s != d)
        .collect();
    Dataset::from_host_traffic(name, cluster, vec![("spread".into(), spread), ("shift".into(), half)])
}

#[divan::bench]
fn tsubame_frame_camera(b: divan::Bencher) {
    let d = tsubame();
    let mut f = Frame::new(ViewSpec::default(), false);
    f.run(d, false);
    b.bench_local(|| f.run(d, false));
}

#[divan::bench]
fn tsubame_frame_rebuild(b: divan::Bencher) {
    let d = tsubame();
    let mut f = Frame::new(ViewSpec::default(), false);
    b.bench_local(|| f.run(d, true));
}

#[divan::bench]
fn synthetic_100k_frame_gpu_camera(b: divan::Bencher) {
    let d = synthetic_100k();
    let mut f = Frame::new(ViewSpec::default(), true);
    f.run(d, false);
    b.bench_local(|| f.run(d, false));
}

#[divan::bench]
fn synthetic_100k_frame_gpu_rebuild(b: divan::Bencher) {
    let d = synthetic_100k();
    let mut f = Frame::new(ViewSpec::default(), true);
    b.bench_local(|| f.run(d, true));
}

#[divan::bench(sample_count = 10)]
fn png_export_tsubame_3840x2160(b: divan::Bencher) {
    let d = tsubame();
    let scene = scene_for(
        d,
        &ViewSpec::default(),
        &Filter::default(),
        &Highlight::default(),
        (&LayoutChoice::FatTree, 1.6),
    )
    .expect("total exists");
    b.bench_local(|| encode(&scene, &Camera::default(), 3840, 2160, Format::Png).map(|v| v.len()));
}
