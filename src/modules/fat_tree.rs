//! The fat-tree view: paints the scene, zooms at the cursor, pans by dragging, shows tooltips on
//! nodes and link ends, and turns clicks into highlights and selections.

use egui::{Pos2, Sense, Ui};

use crate::layout::Position;
use crate::model::{Cluster, LinkEnd, NodeKind};
use crate::scene::camera::{Camera, Transform};
use crate::scene::draw::{Picked, pick, plot_rect};
use crate::scene::highlight::{Highlight, Seed};
use crate::scene::values::LinkValues;
use crate::scene::view::{ViewSpec, scene_from_values, values_for};
use crate::scene::{MarkOf, Scene};
use crate::units::format_bytes_f64;

use super::{Command, ViewContext, ViewModule, gpu_links};

/// The fat-tree module (stateless).
pub struct FatTree;

/// What decides a scene: rebuilt only when this changes.
#[derive(Clone, Debug, PartialEq)]
struct SceneKey {
    generation: u64,
    spec: ViewSpec,
    group_filter: crate::scene::filter::Filter,
    highlight: Highlight,
    link_range: Option<(f64, f64)>,
    node_range: Option<(f64, f64)>,
}

/// Per-view state that survives frames.
#[derive(Default)]
pub struct FatTreeState {
    key: Option<SceneKey>,
    pub scene: Option<Scene>,
    /// The values of the view's selection (tooltips, the filter histogram).
    pub values: Option<LinkValues>,
    values_key: Option<(u64, crate::scene::values::RegionSelection)>,
    /// The view's last size in points (for exports of "the current view").
    pub size: egui::Vec2,
    /// How many scenes were built (tests check that panning does not rebuild).
    pub builds: u64,
    pub gpu: gpu_links::GpuLinkState,
    /// Overrides [`GPU_THRESHOLD`] (tests draw small fabrics both ways).
    pub gpu_threshold: Option<usize>,
}

impl FatTreeState {
    /// Rebuilds the scene if its inputs changed; returns it.
    pub fn refresh(&mut self, ctx: &ViewContext<'_>) -> Option<&Scene> {
        let mut spec = ctx.spec.clone();
        spec.options.link_range = ctx.link_range.or(spec.options.link_range);
        spec.options.node_range = ctx.node_range.or(spec.options.node_range);
        if spec.options.title.is_empty() {
            spec.options.title = format!("view {}: {}", ctx.view + 1, spec.selection.label());
        }
        let key = SceneKey {
            generation: ctx.generation,
            group_filter: ctx.group.filter.clone(),
            highlight: ctx.group.highlight.clone(),
            link_range: spec.options.link_range,
            node_range: spec.options.node_range,
            spec,
        };
        if self.key.as_ref() != Some(&key) {
            let values_key = (key.generation, key.spec.selection);
            if self.values_key != Some(values_key) {
                self.values = values_for(ctx.dataset, key.spec.selection);
                self.values_key = Some(values_key);
            }
            self.scene = self.values.as_ref().map(|values| {
                scene_from_values(ctx.dataset, &key.spec, Some(&key.group_filter), &key.highlight, values)
            });
            self.builds += 1;
            self.key = Some(key);
        }
        self.scene.as_ref()
    }
}

/// Above this many visible halves the links are drawn by the GPU paint callback.
pub const GPU_THRESHOLD: usize = gpu_links::THRESHOLD;

impl ViewModule for FatTree {
    type State = FatTreeState;
    type Context<'a> = ViewContext<'a>;
    type Command = Command;

    fn name(&self) -> &'static str {
        "fat tree"
    }

    fn new_state(&self) -> FatTreeState {
        FatTreeState::default()
    }

    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut FatTreeState,
        camera: &mut Camera,
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        let rect = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(rect, Sense::click_and_drag());
        state.size = rect.size();
        if state.refresh(ctx).is_none() {
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                format!("{} is not in this profile", ctx.spec.selection.label()),
                egui::FontId::proportional(16.0),
                ui.visuals().warn_fg_color,
            );
            return;
        }
        let Some(scene) = state.scene.as_ref() else { return };
        let plot = plot_rect(rect.width(), rect.height());
        let local = |p: Pos2| [p.x - rect.min.x, p.y - rect.min.y];

        // Input: drag pans, wheel (or pinch) zooms at the cursor.
        if response.dragged() {
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

        let threshold = state.gpu_threshold.unwrap_or(GPU_THRESHOLD);
        let keys = gpu_links::Keys { geometry: ctx.generation, scene: state.builds };
        gpu_links::paint_scene(&ui.painter_at(rect), &mut state.gpu, scene, keys, camera, rect, threshold);

        let t = Transform::new(camera, &scene.bounds, plot);
        let picked = response.hover_pos().and_then(|p| pick(scene, &t, local(p)));
        if let (Some(picked), Some(values)) = (picked, state.values.as_ref()) {
            let cluster = &ctx.dataset.cluster;
            response.clone().on_hover_ui_at_pointer(|ui| tooltip(ui, cluster, scene, values, picked));
        }
        if response.clicked() {
            match picked {
                Some(Picked::Mark(i)) => {
                    let seed = match scene.marks[i].of {
                        MarkOf::Host(h) => Seed::Host(h),
                        MarkOf::Switch { rail, node } => Seed::Node { rail: usize::from(rail), node },
                        MarkOf::Node(_) => return,
                    };
                    let add = ui.input(|i| i.modifiers.shift);
                    commands.push(Command::Highlight { group: ctx.group.id, seeds: vec![seed], add });
                }
                Some(Picked::Half(i)) => {
                    let h = scene.halves[i];
                    let rail = usize::from(h.rail);
                    commands.push(Command::SelectEnd { view: ctx.view, rail, end: h.end });
                    let seeds = vec![Seed::LinkEnd { rail, end: h.end }];
                    commands.push(Command::Highlight { group: ctx.group.id, seeds, add: false });
                }
                None => {}
            }
        }
        if ui.input(|i| i.key_pressed(egui::Key::F)) && !ui.ctx().egui_wants_keyboard_input() {
            camera.fit();
        }
    }
}

fn node_line(cluster: &Cluster, rail: usize, node: petgraph::graph::NodeIndex) -> String {
    let Some(fabric) = cluster.rails.get(rail) else { return String::new() };
    let n = fabric.node(node);
    let lids: Vec<String> = n.ports.values().filter(|p| p.lid.0 != 0).map(|p| p.lid.to_string()).collect();
    format!("rail {rail}: {} GUID {} LID {}", n.kind.as_str(), n.guid, lids.join(", "))
}

fn tooltip(ui: &mut Ui, cluster: &Cluster, scene: &Scene, values: &LinkValues, picked: Picked) {
    match picked {
        Picked::Mark(i) => match scene.marks[i].of {
            MarkOf::Host(h) => {
                let Some(host) = cluster.hosts.get(h) else { return };
                ui.strong(&host.name);
                ui.label("level 0 (host)");
                for rail in 0..cluster.rails.len() {
                    for &ca in host.on_rail(rail) {
                        ui.label(node_line(cluster, rail, ca));
                    }
                }
            }
            MarkOf::Switch { rail, node } => {
                let rail = usize::from(rail);
                let Some(fabric) = cluster.rails.get(rail) else { return };
                ui.strong(&fabric.node(node).description);
                ui.label(node_line(cluster, rail, node));
                let level = scene.marks[i].at.y.abs().round();
                ui.label(format!("level {level}, rail {rail}"));
            }
            MarkOf::Node(_) => {}
        },
        Picked::Half(i) => {
            let h = scene.halves[i];
            let rail = usize::from(h.rail);
            let Some(fabric) = cluster.rails.get(rail) else { return };
            let Some(((s, sp), (d, dp))) = fabric.link_end_nodes(h.end) else { return };
            let name = |n| {
                let node = fabric.node(n);
                if node.kind == NodeKind::Ca {
                    node.host_name().to_string()
                } else {
                    node.description.clone()
                }
            };
            ui.strong(format!("{} port {sp} -> {} port {dp}", name(s), name(d)));
            let reverse = LinkEnd { edge: h.end.edge, side: other(h.end.side) };
            let (here, back) = (values.at(rail, h.end), values.at(rail, reverse));
            let max = values.max_abs();
            let share = if max > 0.0 { 100.0 * here.abs() / max } else { 0.0 };
            ui.label(format!("this way: {} ({share:.1}% of the maximum)", format_bytes_f64(here)));
            ui.label(format!("back: {}", format_bytes_f64(back)));
            ui.label(format!("rail {rail}, link end {}", h.end.index()));
        }
    }
}

fn other(side: crate::model::Side) -> crate::model::Side {
    match side {
        crate::model::Side::A => crate::model::Side::B,
        crate::model::Side::B => crate::model::Side::A,
    }
}

/// The world position at the centre of a view (for syncing cameras between views).
pub fn centre_of(camera: &Camera, scene: &Scene) -> Position {
    camera.centre.unwrap_or_else(|| scene.bounds.centre())
}
