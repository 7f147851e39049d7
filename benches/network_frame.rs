//! `network_frame`: the CPU cost of one frame of the generic-2D view of a 159×159 mesh run
//! (100,488 directed links, 25,281 nodes) whose links are drawn by the GPU paint callback. A
//! frame is the egui pass as the app runs it (input, marks and legends through the painter, the callback's uniform, and on `rebuild` the scene and the style
//! array) plus tessellation; no device, so the GPU upload itself is not counted. Target ≤ 16 ms.
//!
//! - `mesh_100k_frame_gpu_camera`: the camera moves each frame (the scene is cached).
//! - `mesh_100k_frame_gpu_rebuild`: the highlight changes each frame, so it is projected onto
//!   the data set and the scene and the styles are rebuilt (the geometry is not).
//! - `mesh_100k_frame_painter_camera`: for comparison, the camera move with every half
//!   tessellated through the egui painter (the path below the threshold).
//!
//! Run: `cargo bench --bench network_frame`.

use std::sync::OnceLock;

use shoal::view_model::run_synthetic::synthetic_mesh_run;
use shoal::view_model::{Dataset, ModuleSpec, ViewSpec};

#[path = "support/frame.rs"]
mod frame;
use frame::Frame;

fn main() {
    divan::main();
}

fn mesh() -> &'static (Dataset, ViewSpec) {
    static M: OnceLock<(Dataset, ViewSpec)> = OnceLock::new();
    M.get_or_init(|| {
        let d = Dataset::from_run(synthetic_mesh_run(159, 159), Vec::new());
        assert_eq!(d.run.network().links.len(), 100_488);
        let spec = ViewSpec::for_dataset(&d);
        assert_eq!(spec.module, ModuleSpec::of("generic_2d"));
        (d, spec)
    })
}

#[divan::bench]
fn mesh_100k_frame_gpu_camera(b: divan::Bencher) {
    let mut f = Frame::new(mesh().1.clone(), true);
    f.run(&mesh().0, false);
    b.bench_local(|| f.run(&mesh().0, false));
    let stats = f.network().gpu.stats();
    assert_eq!((stats.geometry_builds, stats.style_builds), (1, 1), "a camera move uploads no data");
}

#[divan::bench]
fn mesh_100k_frame_gpu_rebuild(b: divan::Bencher) {
    let mut f = Frame::new(mesh().1.clone(), true);
    f.run(&mesh().0, true);
    b.bench_local(|| f.run(&mesh().0, true));
    assert_eq!(f.network().gpu.stats().geometry_builds, 1, "a highlight change keeps the geometry");
}

#[divan::bench]
fn mesh_100k_frame_painter_camera(b: divan::Bencher) {
    let mut f = Frame::new(mesh().1.clone(), false);
    f.run(&mesh().0, false);
    b.bench_local(|| f.run(&mesh().0, false));
    assert_eq!(f.network().gpu.stats().frames, 0, "every half went through the painter");
}
