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
//! - `png_export_tsubame_3840x2160`: scene → PNG bytes. Target ≤ 1 s. On 2026-11-28, 2 cores:
//!   468 ms at 16:03 with the links stroked by tiny-skia; 379 ms at 20:20 with them painted by
//!   `export::line_raster` (medians of 10, not paired; in the second run the host stole about a
//!   third of the CPU time).
//!
//! Run: `cargo bench --bench gui_frame`.
//!
//! Figures (2026-11-27, evening, on an idle 2-core machine, load 0.8; the binary of main at
//! 9267a46 against the one after the batched quads, the culling setting and the colour scale's
//! kept range, three interleaved rounds of `--bench tsubame_frame --sample-count 300` and
//! `--bench synthetic_100k --sample-count 40`; medians per round):
//!
//! | bench                            | before                    | after                     | targets (#21 / #27) |
//! |----------------------------------|---------------------------|---------------------------|---------------------|
//! | tsubame_frame_camera             | 0.875, 0.800, 0.808 ms    | 0.488, 0.509, 0.510 ms    | ≤ 0.99 / ≤ 0.7 ms   |
//! | tsubame_frame_rebuild            | 1.301, 1.417, 1.283 ms    | 0.964, 1.004, 0.996 ms    | ≤ 1.95 / ≤ 1.1 ms   |
//! | synthetic_100k_frame_gpu_camera  | 157, 173, 162 µs          | 146, 105, 163 µs          |                     |
//! | synthetic_100k_frame_gpu_rebuild | 20.4, 23.2, 17.4 ms       | 13.1, 14.9, 15.6 ms       | ≤ 16 ms (#27)       |
//!
//! What changed then: link quads are made 64 at a time (a batch's lengths in one loop, so the
//! square roots overlap instead of each quad waiting on its own); the window turns off egui's
//! coarse culling, whose bounds of the link mesh were 18 % of a camera frame and culled nothing
//! (`paint::tune_tessellation`, set by `ShoalApp::new` and by this bench's frame); a colour scale
//! keeps its range through the scale's function. Earlier (the `frame` branch): colours by
//! 256-entry table index without libm rounding, dimmed halves from a pre-faded table, halves
//! written straight into one mesh with the plain marks, the GPU path's chrome built without
//! copying the scene.
//!
//! Read these figures against the machine, not against each other's dates: on 2026-11-28, on
//! another idle 2-core machine, 33c8640 itself (the "after" column) measured camera medians from
//! 0.56 to 1.03 ms in nine runs of the `tsubame_frame` benches (eight with `--sample-count
//! 300`), and main at 9c0a5dd 0.64 to 1.11 ms in seven (six); paired in turn, main was 5–20 % slower in each of three
//! pairs, with the same profile function by function. A quarter of a camera frame is epaint
//! copying the finished link mesh into its output (`Mesh::append_ref`, which it does for every
//! `Shape::Mesh`, even into an empty mesh).

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
