//! `network_frame`: the CPU cost of one frame of the generic-2D view of a 159×159 mesh run
//! (100,488 directed links, 25,281 nodes) whose links are drawn by the GPU paint callback. A
//! frame is the egui pass as the app runs it (the group's highlight projected, input, marks and
//! legends through the painter, the callback's uniform, and on `rebuild` the scene and the style
//! array) plus tessellation; no device, so the GPU upload itself is not counted. Target ≤ 16 ms.
//!
//! - `mesh_100k_frame_gpu_camera`: the camera moves each frame (the scene is cached).
//! - `mesh_100k_frame_gpu_rebuild`: the highlight changes each frame, so the scene and the
//!   styles are rebuilt (the geometry is not).
//! - `mesh_100k_frame_painter_camera`: for comparison, the camera move with every half
//!   tessellated through the egui painter (the path below the threshold).
//!
//! Run: `cargo bench --bench network_frame`.

use std::sync::OnceLock;

use egui::{CentralPanel, Pos2, RawInput, Rect, vec2};
use shoal::model::{Domain, Run};
use shoal::modules::generic2d::Generic2d;
use shoal::modules::run_views::{RunGroup, RunViewContext, RunViewState};
use shoal::modules::{ViewModule, gpu_links};
use shoal::scene::camera::Camera;
use shoal::scene::run_synthetic::synthetic_mesh_run;
use shoal::scene::run_view::{RunHighlight, RunModule, RunViewSpec};

fn main() {
    divan::main();
}

fn mesh() -> &'static (Run, RunViewSpec) {
    static M: OnceLock<(Run, RunViewSpec)> = OnceLock::new();
    M.get_or_init(|| {
        let run = synthetic_mesh_run(159, 159);
        assert_eq!(run.network().links.len(), 100_488);
        let spec = RunViewSpec::for_run(&run);
        assert_eq!(spec.module, RunModule::Generic2d);
        (run, spec)
    })
}

/// One egui frame of a generic-2D view (plus tessellation), as the app runs it.
struct Frame {
    ctx: egui::Context,
    state: RunViewState,
    camera: Camera,
    group: RunGroup,
    tick: u64,
}

impl Frame {
    fn new(gpu: bool) -> Frame {
        let ctx = egui::Context::default();
        gpu_links::assume_available(&ctx);
        let (mut state, camera, group) = (RunViewState::default(), Camera::default(), RunGroup::default());
        state.gpu_threshold = (!gpu).then_some(usize::MAX);
        Frame { ctx, state, camera, group, tick: 0 }
    }

    fn run(&mut self, rebuild: bool) -> usize {
        let (run, spec) = mesh();
        self.tick += 1;
        self.camera.zoom = if self.tick.is_multiple_of(2) { 1.0 } else { 1.01 };
        if rebuild {
            let node = (self.tick as usize * 37) % run.network().nodes.len();
            self.group.highlight = RunHighlight { domain: Some(Domain::Nodes), ids: vec![node as i64] };
        }
        // The app projects each group's highlight every frame.
        let lit = self.group.highlight.lit(run);
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(1600.0, 1000.0))),
            ..Default::default()
        };
        let view = RunViewContext {
            run,
            generation: 1,
            view: 0,
            spec,
            group: &self.group,
            lit: &lit,
            link_range: None,
            node_range: None,
        };
        let (state, camera) = (&mut self.state, &mut self.camera);
        let mut out = self.ctx.run_ui(input, |ui| {
            CentralPanel::default().show(ui, |ui| Generic2d.ui(&view, state, camera, ui, &mut Vec::new()));
        });
        // No renderer here: the font atlas upload is dropped on purpose.
        out.textures_delta.clear();
        self.ctx.tessellate(out.shapes, out.pixels_per_point).len()
    }
}

#[divan::bench]
fn mesh_100k_frame_gpu_camera(b: divan::Bencher) {
    let mut f = Frame::new(true);
    f.run(false);
    b.bench_local(|| f.run(false));
    let stats = f.state.gpu.stats();
    assert_eq!((stats.geometry_builds, stats.style_builds), (1, 1), "a camera move uploads no data");
}

#[divan::bench]
fn mesh_100k_frame_gpu_rebuild(b: divan::Bencher) {
    let mut f = Frame::new(true);
    f.run(true);
    b.bench_local(|| f.run(true));
    assert_eq!(f.state.gpu.stats().geometry_builds, 1, "a highlight change keeps the geometry");
}

#[divan::bench]
fn mesh_100k_frame_painter_camera(b: divan::Bencher) {
    let mut f = Frame::new(false);
    f.run(false);
    b.bench_local(|| f.run(false));
    assert_eq!(f.state.gpu.stats().frames, 0, "every half went through the painter");
}
