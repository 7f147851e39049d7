//! Link halves drawn by the GPU through an `egui_wgpu` paint callback, for scenes too big to
//! re-tessellate every frame. Module-independent: it reads only the [`Scene`] (each half's
//! world `from`/`to`, colour, emphasis and `(rail, end)` identity), so the fat tree, the torus
//! and the generic-2D views all draw through it.
//!
//! # API
//! - [`install`]`(render_state, ctx)`: once, when the app starts on wgpu.
//! - [`paint_scene`]`(painter, state, scene, keys, camera, rect, threshold) -> bool`: paints a
//!   whole view; above `threshold` visible halves (and with [`install`] done) the marks and
//!   chrome go through the painter and the links through the callback, otherwise everything
//!   through the painter. Returns whether the GPU drew the links. [`paint_links`] adds only
//!   the callback, for a caller that paints the rest itself.
//! - [`paint_on_cpu`]`(ctx)`: from then on the links are an image painted on the CPU
//!   ([`raster`]), for a software renderer ([`links_on_cpu`] decides, in the app).
//! - [`GpuLinkState`]: one per view, in the view's state; [`GpuLinkState::stats`] tells tests
//!   what was built. [`Keys`]: what the caller says changed.
//! - [`assume_available`]: benchmarks only (the CPU side without a device).
//!
//! # What is uploaded when
//! - **Geometry** (16 bytes per half, world units) is rebuilt when `keys.geometry` changes: the
//!   caller bumps it when world positions move (a data reload; a 3D torus's orbit or projection).
//! - **Styles** (8 bytes per geometry slot, plus the lit halves again) are rebuilt when
//!   `keys.scene` changes (filter, highlight, colours, region).
//! - A **camera** move (zoom, pan) only rewrites a 48-byte uniform.
//!
//! # Trade-off: geometry slots from the scene
//! The geometry holds the halves the scene has shown since the geometry key last changed, each
//! in a slot found by its `(rail, end.index())`; a half the current scene hides gets alpha 0.
//! So a filter or highlight change is styles only, as long as it shows no half that was never
//! shown under this key. Such a half (the view opened filtered, then the filter widens) rebuilds
//! the geometry once, keeping the hidden ones, so flipping back and forth costs no further
//! builds. The alternative, geometry of every half of the data set, would never rebuild but
//! would need the module's model (the fat-tree `Dataset`), which is what this module avoids.
//!
//! Draw order: the GPU draws slots in order, and the slots follow the scene's order (busier
//! ends on top; a 3D torus far to near). A scene whose visible halves come in another order
//! than the slots (a new region reorders them by value) rebuilds the geometry in its order, so
//! the window draws what PNG and SVG draw. Lit halves are drawn again, after the rest, in
//! scene order, so they stay on top as the painter draws them.

mod raster;
mod render;
mod slots;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::scene::Scene;
use crate::scene::camera::{Camera, ScreenRect, Transform};
use crate::scene::draw::{draw_list_without_links, glyph_sizes, plot_rect};

use super::paint;
use raster::RasterLinks;
use render::{LinksCallback, Uniform};
use slots::{Slots, Styles};

/// Above this many visible halves a view draws its links on the GPU (callers may override).
pub const THRESHOLD: usize = 40_000;

/// What the caller says about the scene it passes; equal keys promise equal data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    /// Changes whenever the halves' world positions may have moved.
    pub geometry: u64,
    /// Changes whenever the scene was rebuilt (filter, highlight, colours).
    pub scene: u64,
}

/// What the GPU path built on the CPU so far (tests check what a change cost).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Frames whose links went through the callback.
    pub frames: u64,
    pub geometry_builds: u64,
    pub style_builds: u64,
    /// Halves in the geometry, and lit halves drawn on top, as last built.
    pub slots: usize,
    pub lit: usize,
    /// Frames whose links were an image painted on the CPU ([`paint_on_cpu`]), and how many
    /// of them painted it anew.
    pub cpu_frames: u64,
    pub cpu_paints: u64,
}

/// One view's CPU side: what was last built, so unchanged frames send only the uniform.
#[derive(Default)]
pub struct GpuLinkState {
    /// Names this view's buffers on the GPU; assigned on first use.
    id: u64,
    keys: Option<Keys>,
    slots: Slots,
    geometry_version: u64,
    styles: Arc<Styles>,
    styles_version: u64,
    stats: Stats,
    /// The links as an image, on a software renderer.
    raster: RasterLinks,
}

/// Versions (and view ids) unique across views, so the GPU side compares them exactly.
fn next_version() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl GpuLinkState {
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Brings the geometry and styles up to date with `scene`.
    fn update(&mut self, scene: &Scene, keys: Keys) {
        if self.keys == Some(keys) {
            return;
        }
        if self.keys.is_none_or(|k| k.geometry != keys.geometry) {
            self.rebuild_geometry(scene, false);
        }
        let styles = match slots::styles(&self.slots, scene) {
            Some(s) => s,
            None => {
                self.rebuild_geometry(scene, true);
                // After a build every half of the scene has a slot.
                slots::styles(&self.slots, scene).unwrap_or_default()
            }
        };
        self.stats.lit = styles.lit.len();
        self.styles = Arc::new(styles);
        self.styles_version = next_version();
        self.stats.style_builds += 1;
        self.keys = Some(keys);
    }

    fn rebuild_geometry(&mut self, scene: &Scene, keep: bool) {
        self.slots = Slots::build(scene, keep.then_some(&self.slots));
        self.geometry_version = next_version();
        self.stats.geometry_builds += 1;
        self.stats.slots = self.slots.len();
    }

    /// The frame's callback: the uniform, plus whatever the GPU may not hold yet.
    fn frame(
        &mut self,
        scene: &Scene,
        keys: Keys,
        camera: &Camera,
        plot: [f32; 2],
        pass: u64,
    ) -> LinksCallback {
        if self.id == 0 {
            self.id = next_version();
        }
        self.update(scene, keys);
        self.stats.frames += 1;
        let t = Transform::new(camera, &scene.bounds, ScreenRect::new(0.0, 0.0, plot[0], plot[1]));
        let (width, _) = glyph_sizes(scene, &t);
        LinksCallback {
            view: self.id,
            pass,
            geometry: (self.geometry_version, self.slots.geometry.clone()),
            styles: (self.styles_version, self.styles.clone()),
            uniform: Uniform {
                scale: t.scale,
                centre: [t.centre.x, t.centre.y],
                size: plot,
                width,
                feather: 0.6,
                _pad: [0.0; 4],
            },
        }
    }
}

const FLAG: &str = "shoal-gpu-links";
const CPU_FLAG: &str = "shoal-cpu-links";

/// Whether the window's links are painted on the CPU ([`paint_on_cpu`]): when the adapter wgpu
/// chose is a CPU (llvmpipe, lavapipe, WARP), unless `SHOAL_LINK_PAINTER` (`choice`) says `gpu`;
/// `cpu` asks for it on any adapter.
pub fn links_on_cpu(render_state: &egui_wgpu::RenderState, choice: Option<String>) -> bool {
    match choice.as_deref() {
        Some("cpu") => true,
        Some("gpu") => false,
        _ => render_state.adapter.get_info().device_type == egui_wgpu::wgpu::DeviceType::Cpu,
    }
}

/// From now on every view paints its links on the CPU into an image ([`raster`]), whatever
/// their number: for a software renderer, where rasterising thin triangles is the frame.
pub fn paint_on_cpu(ctx: &egui::Context) {
    ctx.data_mut(|d| d.insert_temp(egui::Id::unique(CPU_FLAG), true));
}

fn on_cpu(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp::<bool>(egui::Id::unique(CPU_FLAG))).unwrap_or(false)
}

/// Creates the pipeline; call once with the app's wgpu render state.
pub fn install(render_state: &egui_wgpu::RenderState, ctx: &egui::Context) {
    render::install(render_state);
    ctx.data_mut(|d| d.insert_temp(egui::Id::unique(FLAG), true));
}

/// Marks the GPU path as usable without a renderer, so a benchmark measures its CPU side
/// (egui frame, uniform, styles) with no device. Never call it in the app.
pub fn assume_available(ctx: &egui::Context) {
    ctx.data_mut(|d| d.insert_temp(egui::Id::unique(FLAG), true));
}

/// Whether [`install`] ran (on a wgpu renderer).
pub fn available(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp::<bool>(egui::Id::unique(FLAG))).unwrap_or(false)
}

/// Adds the links of `scene`, drawn in `rect` (the whole view; the plot inside it is where
/// they go), to `painter` as a paint callback.
pub fn paint_links(
    painter: &egui::Painter,
    state: &mut GpuLinkState,
    scene: &Scene,
    keys: Keys,
    camera: &Camera,
    rect: egui::Rect,
) {
    let plot = plot_rect(rect.width(), rect.height());
    let plot_rect = paint::rect_of(plot, rect.min);
    let pass = painter.ctx().cumulative_pass_nr();
    let cb = state.frame(scene, keys, camera, [plot.w, plot.h], pass);
    painter.add(egui_wgpu::Callback::new_paint_callback(plot_rect, cb));
}

/// Paints a view's scene into `rect`: the links as an image painted on the CPU after
/// [`paint_on_cpu`], else on the GPU above `threshold` visible halves (when [`install`] ran),
/// everything else through the painter. Returns whether the GPU drew the links.
pub fn paint_scene(
    painter: &egui::Painter,
    state: &mut GpuLinkState,
    scene: &Scene,
    keys: Keys,
    camera: &Camera,
    rect: egui::Rect,
    threshold: usize,
) -> bool {
    let (w, h) = (rect.width(), rect.height());
    let cpu = on_cpu(painter.ctx());
    if !cpu && (scene.halves.len() <= threshold || !available(painter.ctx())) {
        paint::paint_scene(painter, scene, camera, rect);
        return false;
    }
    // The halves are drawn apart; the list is built without them (no scene copy).
    let list = draw_list_without_links(scene, camera, w, h);
    if cpu {
        // The picture is opaque, the plot's background in it.
        paint::paint_with_opaque_plot(painter, &list, rect.min, |clipped| {
            let fresh = state.raster.paint(clipped, scene, [keys.geometry, keys.scene], camera, rect);
            state.stats.cpu_frames += 1;
            state.stats.cpu_paints += u64::from(fresh);
        });
        return false;
    }
    paint::paint_with(painter, &list, rect.min, |clipped| {
        paint_links(clipped, state, scene, keys, camera, rect);
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Position;
    use crate::model::LinkEnd;
    use crate::scene::{Emphasis, Half, Rgba};

    fn scene(n: usize, x: f32) -> Scene {
        let half = |i: usize| Half {
            from: Position { x, y: i as f32 },
            to: Position { x: x + 1.0, y: i as f32 },
            colour: Rgba::rgb(1, 2, 3),
            rail: 0,
            end: LinkEnd::from_index(i),
            emphasis: Emphasis::Normal,
        };
        Scene { halves: (0..n).map(half).collect(), ..Default::default() }
    }

    fn builds(state: &GpuLinkState) -> (u64, u64) {
        (state.stats.geometry_builds, state.stats.style_builds)
    }

    #[test]
    fn unchanged_keys_build_nothing_and_a_new_scene_builds_only_styles() {
        let mut state = GpuLinkState::default();
        state.update(&scene(4, 0.0), Keys { geometry: 1, scene: 1 });
        state.update(&scene(4, 0.0), Keys { geometry: 1, scene: 1 });
        assert_eq!(builds(&state), (1, 1));
        state.update(&scene(2, 0.0), Keys { geometry: 1, scene: 2 });
        assert_eq!(builds(&state), (1, 2), "fewer halves: styles only");
        assert_eq!(state.stats.slots, 4);
    }

    #[test]
    fn a_new_geometry_key_uploads_the_moved_positions() {
        let mut state = GpuLinkState::default();
        state.update(&scene(3, 0.0), Keys { geometry: 1, scene: 1 });
        state.update(&scene(3, 5.0), Keys { geometry: 2, scene: 2 });
        assert_eq!(builds(&state), (2, 2));
        assert_eq!(state.slots.geometry[0], [5.0, 0.0, 6.0, 0.0]);
    }

    #[test]
    fn a_half_never_shown_under_the_key_grows_the_geometry_once() {
        let mut state = GpuLinkState::default();
        state.update(&scene(2, 0.0), Keys { geometry: 1, scene: 1 });
        state.update(&scene(5, 0.0), Keys { geometry: 1, scene: 2 });
        assert_eq!(builds(&state), (2, 2));
        state.update(&scene(2, 0.0), Keys { geometry: 1, scene: 3 });
        state.update(&scene(5, 0.0), Keys { geometry: 1, scene: 4 });
        assert_eq!(builds(&state), (2, 4), "flipping back and forth rebuilds no geometry");
    }
}
