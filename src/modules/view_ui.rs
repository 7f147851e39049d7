//! What every module shares: the per-view state (the prepared data and scene, rebuilt only when
//! what they depend on changes), input handling, painting (through the GPU paint callback above
//! [`GPU_THRESHOLD`] halves), picking, tooltips and clicks turned into highlights. The modules
//! differ only in what a plain drag does (the 3D torus turns, the others pan).

use egui::{Pos2, Sense, Ui};

use crate::model::Domain;
use crate::scene::Scene;
use crate::scene::camera::{Camera, Transform};
use crate::scene::draw::{pick, plot_rect};
use crate::scene::filter::Filter;
use crate::scene::highlight::{Highlight, Seed};
use crate::scene::orbit::Orbit;
use crate::scene::prepare::{Prepared, Ranges, prepare};
use crate::scene::view::{ModuleKind, ViewSpec};

use super::{Command, ViewContext, gpu_links};

/// Above this many visible halves the links are drawn by the GPU paint callback.
pub const GPU_THRESHOLD: usize = gpu_links::THRESHOLD;

/// How a plain (primary, unmodified) drag acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DragMode {
    /// Arcball rotation; shift-drag, or a secondary or middle drag, pans.
    Rotate,
    Pan,
}

/// What decides a view's queried values and clause masks: the spec without what only filters
/// by value (the threshold, the brush, "hide unused") or only colours and titles.
#[derive(Clone, Debug, PartialEq)]
struct PrepareKey {
    generation: u64,
    spec: ViewSpec,
    group_filter: Filter,
}

impl PrepareKey {
    fn of(generation: u64, spec: &ViewSpec, group_filter: &Filter) -> PrepareKey {
        let query = |f: &Filter| Filter { value_range: None, hide_unused: false, ..f.clone() };
        let defaults = ViewSpec::default();
        let spec = ViewSpec {
            filter: query(&spec.filter),
            link_map: defaults.link_map,
            node_map: defaults.node_map,
            diverging_map: defaults.diverging_map,
            scale: defaults.scale,
            title: String::new(),
            ..spec.clone()
        };
        PrepareKey { generation, spec, group_filter: query(group_filter) }
    }
}

/// What only filters by value: changing it re-masks the prepared values, it does not query.
type ValueKey = [(Option<(f64, f64)>, bool); 2];

fn value_key(spec: &ViewSpec, group: &Filter) -> ValueKey {
    [(spec.filter.value_range, spec.filter.hide_unused), (group.value_range, group.hide_unused)]
}

/// What decides a view's scene.
#[derive(Clone, Debug, PartialEq)]
struct SceneKey {
    generation: u64,
    spec: ViewSpec,
    group_filter: Filter,
    highlight: Highlight,
    ranges: Ranges,
    orbit: Orbit,
    aspect: f32,
}

/// Per-view state that survives frames.
#[derive(Default)]
pub struct ViewState {
    prepare_key: Option<PrepareKey>,
    value_key: Option<ValueKey>,
    pub prepared: Option<Result<Prepared, String>>,
    scene_key: Option<SceneKey>,
    pub scene: Option<Scene>,
    /// The view's own orbit (unless its group shares one).
    pub orbit: Orbit,
    /// The view's last size in points (for exports of "the current view").
    pub size: egui::Vec2,
    /// Where the view was last drawn, in screen points (tests aim clicks with it).
    pub rect: Option<egui::Rect>,
    /// How many scenes were built (tests check that panning does not rebuild).
    pub builds: u64,
    pub gpu: gpu_links::GpuLinkState,
    /// Overrides [`GPU_THRESHOLD`] (tests draw small fabrics both ways).
    pub gpu_threshold: Option<usize>,
    /// A time strip's numbers, rows and brush.
    pub strip: super::time_strip::StripState,
}

impl ViewState {
    /// Recomputes values and masks if the data, the spec or the group filter changed.
    pub fn prepare(
        &mut self,
        dataset: &crate::scene::Dataset,
        generation: u64,
        spec: &ViewSpec,
        group_filter: &Filter,
    ) -> Option<&Prepared> {
        let key = PrepareKey::of(generation, spec, group_filter);
        let values = value_key(spec, group_filter);
        if self.prepare_key.as_ref() != Some(&key) {
            self.prepared = Some(prepare(dataset, spec, group_filter));
            self.prepare_key = Some(key);
            self.value_key = Some(values);
        } else if self.value_key != Some(values) {
            if let Some(Ok(p)) = &mut self.prepared {
                p.apply_value_filter(spec, group_filter);
            }
            self.value_key = Some(values);
        }
        self.prepared.as_ref().and_then(|p| p.as_ref().ok())
    }

    /// Rebuilds the scene if anything it depends on changed; returns it (or why there is none).
    pub fn refresh(&mut self, ctx: &ViewContext<'_>, aspect: f32) -> Result<&Scene, String> {
        self.prepare(ctx.dataset, ctx.generation, ctx.spec, &ctx.group.filter);
        let prepared = match &self.prepared {
            Some(Ok(p)) => p,
            Some(Err(e)) => return Err(e.clone()),
            None => return Err("not prepared".into()),
        };
        // The fat tree fills any plot: its scene does not depend on the aspect.
        let aspect = if ctx.spec.module == ModuleKind::FatTree { 1.0 } else { aspect };
        let key = SceneKey {
            generation: ctx.generation,
            spec: ctx.spec.clone(),
            group_filter: ctx.group.filter.clone(),
            highlight: ctx.group.highlight.clone(),
            ranges: (ctx.link_range, ctx.node_range),
            orbit: self.orbit,
            aspect,
        };
        if self.scene_key.as_ref() != Some(&key) || self.scene.is_none() {
            let mut spec = ctx.spec.clone();
            if spec.title.is_empty() {
                spec.title = format!("view {}: {}", ctx.view + 1, spec.default_title(ctx.dataset));
            }
            self.scene = Some(prepared.scene(ctx.dataset, &spec, key.ranges, ctx.lit, &self.orbit, aspect));
            self.builds += 1;
            self.scene_key = Some(key);
        }
        self.scene.as_ref().ok_or_else(|| "no scene".into())
    }
}

/// Draws one view and handles its input.
pub fn view_ui(
    ctx: &ViewContext<'_>,
    state: &mut ViewState,
    camera: &mut Camera,
    ui: &mut Ui,
    commands: &mut Vec<Command>,
    mode: DragMode,
) {
    let rect = ui.available_rect_before_wrap();
    let response = ui.allocate_rect(rect, Sense::click_and_drag());
    state.size = rect.size();
    state.rect = Some(rect);
    let plot = plot_rect(rect.width(), rect.height());
    let aspect = plot.w / plot.h.max(1.0);
    let local = |p: Pos2| [p.x - rect.min.x, p.y - rect.min.y];

    // Rotation first, so this frame's scene shows it; pan and zoom act on the projected world.
    let (shift, secondary) =
        ui.input(|i| (i.modifiers.shift, i.pointer.secondary_down() || i.pointer.middle_down()));
    let rotating = mode == DragMode::Rotate && response.dragged() && !shift && !secondary;
    if rotating {
        let d = response.drag_delta();
        state.orbit.drag([d.x, d.y]);
    }
    let keys = response.hovered() && !ui.ctx().egui_wants_keyboard_input();
    if response.double_clicked() || (keys && ui.input(|i| i.key_pressed(egui::Key::R))) {
        state.orbit.reset();
        camera.fit();
    }
    if ui.input(|i| i.key_pressed(egui::Key::F)) && !ui.ctx().egui_wants_keyboard_input() {
        camera.fit();
    }
    if let Err(why) = state.refresh(ctx, aspect) {
        let font = egui::FontId::proportional(16.0);
        ui.painter().text(rect.center(), egui::Align2::CENTER_CENTER, why, font, ui.visuals().warn_fg_color);
        return;
    }
    let Some(scene) = state.scene.as_ref() else { return };
    if response.dragged() && !rotating {
        let d = response.drag_delta();
        camera.pan(&scene.bounds, plot, [d.x, d.y]);
    }
    if let Some(hover) = response.hover_pos() {
        let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = zoom * (scroll / 200.0).exp();
        if (factor - 1.0).abs() > 1e-4 {
            camera.zoom_at(&scene.bounds, plot, local(hover), factor);
        }
    }
    paint_scene(ctx, state, camera, ui, rect);
    let Some(scene) = state.scene.as_ref() else { return };
    let t = Transform::new(camera, &scene.bounds, plot);
    let picked = response.hover_pos().and_then(|p| pick(scene, &t, local(p)));
    let Some(Ok(prepared)) = state.prepared.as_ref() else { return };
    if let Some(p) = picked {
        let lines = prepared.describe(ctx.dataset, ctx.spec, scene, p);
        response.clone().on_hover_ui_at_pointer(|ui| {
            for (k, line) in lines.iter().enumerate() {
                if k == 0 {
                    ui.strong(line);
                } else {
                    ui.label(line);
                }
            }
        });
    }
    if response.clicked() {
        commands.push(Command::Focus(ctx.view));
        let Some(p) = picked else { return };
        let add = ui.input(|i| i.modifiers.shift);
        let (domain, ids) = prepared.picked_ids(ctx.dataset, scene, p);
        if let (Domain::Links, [one]) = (domain, ids.as_slice())
            && let Some(link) = ctx.dataset.run.position(Domain::Links, *one)
        {
            commands.push(Command::SelectLink { view: ctx.view, link });
        }
        let seeds = ids.into_iter().map(|id| Seed::Id { domain, id }).collect();
        commands.push(Command::Highlight { group: ctx.group.id, seeds, add });
    }
}

/// Paints the scene: links on the GPU when there are many (marks and chrome through the
/// painter), else everything through the painter. Every module takes this path.
fn paint_scene(ctx: &ViewContext<'_>, state: &mut ViewState, camera: &Camera, ui: &Ui, rect: egui::Rect) {
    let Some(scene) = state.scene.as_ref() else { return };
    let threshold = state.gpu_threshold.unwrap_or(GPU_THRESHOLD);
    let keys = gpu_links::Keys { geometry: geometry_key(ctx, &state.orbit), scene: state.builds };
    gpu_links::paint_scene(&ui.painter_at(rect), &mut state.gpu, scene, keys, camera, rect, threshold);
}

/// Changes when the halves' world positions may move: new data, another module or projection,
/// or (in 3D) another orbit.
fn geometry_key(ctx: &ViewContext<'_>, orbit: &Orbit) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (ctx.generation, &ctx.spec.module).hash(&mut h);
    if ctx.spec.module.is_3d() {
        orbit.rotation.map(f32::to_bits).hash(&mut h);
    }
    h.finish()
}
