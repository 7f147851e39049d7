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

use egui::{CentralPanel, Pos2, RawInput, Rect, vec2};
use shoal::modules::generic2d::Generic2d;
use shoal::modules::{ViewContext, ViewModule, ViewState, gpu_links};
use shoal::scene::camera::Camera;
use shoal::scene::highlight::{Lit, Seed, project};
use shoal::scene::linking::LinkGroup;
use shoal::scene::run_synthetic::synthetic_mesh_run;
use shoal::scene::{Dataset, Highlight, ModuleKind, ViewSpec};

fn main() {
    divan::main();
}

fn mesh() -> &'static (Dataset, ViewSpec) {
    static M: OnceLock<(Dataset, ViewSpec)> = OnceLock::new();
    M.get_or_init(|| {
        let d = Dataset::from_run(synthetic_mesh_run(159, 159), Vec::new());
        assert_eq!(d.run.network().links.len(), 100_488);
        let spec = ViewSpec::for_dataset(&d);
        assert_eq!(spec.module, ModuleKind::Generic2d);
        (d, spec)
    })
}

/// One egui frame of a generic-2D view (plus tessellation), as the app runs it.
struct Frame {
    ctx: egui::Context,
    state: ViewState,
    camera: Camera,
    group: LinkGroup,
    lit: Lit,
    tick: u64,
}

impl Frame {
    fn new(gpu: bool) -> Frame {
        let ctx = egui::Context::default();
        gpu_links::assume_available(&ctx);
        let (mut state, camera, group) = (ViewState::default(), Camera::default(), LinkGroup::default());
        state.gpu_threshold = (!gpu).then_some(usize::MAX);
        Frame { ctx, state, camera, group, lit: Lit::default(), tick: 0 }
    }

    fn run(&mut self, rebuild: bool) -> usize {
        let (d, spec) = mesh();
        self.tick += 1;
        self.camera.zoom = if self.tick.is_multiple_of(2) { 1.0 } else { 1.01 };
        if rebuild {
            // The app projects a group's highlight when it changes (the workspace caches it).
            let node = (self.tick as usize * 37) % d.run.network().nodes.len();
            self.group.highlight = Highlight { seeds: [Seed::node(node)].into() };
            self.lit = project(d, &self.group.highlight);
        }
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(1600.0, 1000.0))),
            ..Default::default()
        };
        let view = ViewContext {
            dataset: d,
            generation: 1,
            view: 0,
            spec,
            group: &self.group,
            lit: &self.lit,
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
