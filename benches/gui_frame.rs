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

use std::path::PathBuf;
use std::sync::OnceLock;

use egui::{CentralPanel, Pos2, RawInput, Rect, vec2};
use shoal::export::{Format, encode};
use shoal::model::Cluster;
use shoal::modules::fat_tree::FatTree;
use shoal::modules::{ViewContext, ViewModule, ViewState, gpu_links};
use shoal::pipeline::load_cluster;
use shoal::scene::camera::Camera;
use shoal::scene::filter::Filter;
use shoal::scene::highlight::{Lit, Seed, project};
use shoal::scene::linking::LinkGroup;
use shoal::scene::{Dataset, Highlight, ViewSpec, scene_for};

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

/// One egui frame of a fat-tree view (plus tessellation), as the app runs it.
struct Frame {
    ctx: egui::Context,
    state: ViewState,
    camera: Camera,
    group: LinkGroup,
    lit: Lit,
    spec: ViewSpec,
    tick: u64,
}

impl Frame {
    fn new(gpu: bool) -> Frame {
        let ctx = egui::Context::default();
        if gpu {
            gpu_links::assume_available(&ctx);
        }
        Frame {
            ctx,
            state: ViewState::default(),
            camera: Camera::default(),
            group: LinkGroup::default(),
            lit: Lit::default(),
            spec: ViewSpec::default(),
            tick: 0,
        }
    }

    fn run(&mut self, d: &Dataset, rebuild: bool) -> usize {
        self.tick += 1;
        self.camera.zoom = if self.tick.is_multiple_of(2) { 1.0 } else { 1.01 };
        if rebuild {
            let hosts = d.fabric.as_ref().map_or(1, |f| f.cluster.hosts.len());
            self.group.highlight =
                Highlight { seeds: [Seed::node((self.tick as usize * 37) % hosts)].into() };
            self.lit = project(d, &self.group.highlight);
        }
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(1600.0, 1000.0))),
            ..Default::default()
        };
        let (state, camera) = (&mut self.state, &mut self.camera);
        let ctx = ViewContext {
            dataset: d,
            generation: 1,
            view: 0,
            spec: &self.spec,
            group: &self.group,
            lit: &self.lit,
            link_range: None,
            node_range: None,
        };
        let mut out = self.ctx.run_ui(input, |ui| {
            CentralPanel::default().show(ui, |ui| FatTree.ui(&ctx, state, camera, ui, &mut Vec::new()));
        });
        // No renderer here: the font atlas upload is dropped on purpose.
        out.textures_delta.clear();
        self.ctx.tessellate(out.shapes, out.pixels_per_point).len()
    }
}

#[divan::bench]
fn tsubame_frame_camera(b: divan::Bencher) {
    let d = tsubame();
    let mut f = Frame::new(false);
    f.run(d, false);
    b.bench_local(|| f.run(d, false));
}

#[divan::bench]
fn tsubame_frame_rebuild(b: divan::Bencher) {
    let d = tsubame();
    let mut f = Frame::new(false);
    b.bench_local(|| f.run(d, true));
}

#[divan::bench]
fn synthetic_100k_frame_gpu_camera(b: divan::Bencher) {
    let d = synthetic_100k();
    let mut f = Frame::new(true);
    f.run(d, false);
    b.bench_local(|| f.run(d, false));
}

#[divan::bench]
fn synthetic_100k_frame_gpu_rebuild(b: divan::Bencher) {
    let d = synthetic_100k();
    let mut f = Frame::new(true);
    b.bench_local(|| f.run(d, true));
}

#[divan::bench(sample_count = 10)]
fn png_export_tsubame_3840x2160(b: divan::Bencher) {
    let d = tsubame();
    let scene = scene_for(d, &ViewSpec::default(), &Filter::default(), &Highlight::default(), 1.6)
        .expect("total exists");
    b.bench_local(|| encode(&scene, &Camera::default(), 3840, 2160, Format::Png).map(|v| v.len()));
}
