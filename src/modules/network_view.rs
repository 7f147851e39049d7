//! What the torus and generic-2D modules share: input handling, painting, picking, tooltips and
//! clicks turned into highlights. The modules differ only in what a plain drag does (the torus
//! turns, the plane pans).

use egui::{Pos2, Sense, Ui};

use crate::model::Domain;
use crate::scene::camera::{Camera, Transform};
use crate::scene::draw::{Picked, pick, plot_rect};
use crate::scene::{MarkOf, Scene};

use super::gpu_links;
use super::run_views::{RunCommand, RunViewContext, RunViewState};

/// How a plain (primary, unmodified) drag acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DragMode {
    /// Arcball rotation; shift-drag, or a secondary or middle drag, pans.
    Rotate,
    Pan,
}

/// Draws one run view and handles its input.
pub fn view_ui(
    ctx: &RunViewContext<'_>,
    state: &mut RunViewState,
    camera: &mut Camera,
    ui: &mut Ui,
    commands: &mut Vec<RunCommand>,
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
    let reset = response.double_clicked()
        || (response.hovered()
            && ui.input(|i| i.key_pressed(egui::Key::R))
            && !ui.ctx().egui_wants_keyboard_input());
    if reset {
        state.orbit.reset();
        camera.fit();
    }
    let orbit = state.orbit;
    if let Err(why) = state.refresh(ctx, &orbit, aspect) {
        {
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                why,
                egui::FontId::proportional(16.0),
                ui.visuals().warn_fg_color,
            );
            return;
        }
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
    let threshold = state.gpu_threshold.unwrap_or(gpu_links::THRESHOLD);
    let keys = gpu_links::Keys { geometry: geometry_key(ctx, &orbit), scene: state.builds };
    gpu_links::paint_scene(&ui.painter_at(rect), &mut state.gpu, scene, keys, camera, rect, threshold);

    let t = Transform::new(camera, &scene.bounds, plot);
    let picked = response.hover_pos().and_then(|p| pick(scene, &t, local(p)));
    let Some(Ok(prepared)) = state.prepared.as_ref() else { return };
    if let Some(p) = picked {
        let lines = match p {
            Picked::Mark(i) => mark_index(scene, i).map(|m| prepared.describe_mark(ctx.run, ctx.spec, m)),
            Picked::Half(i) => {
                scene.halves.get(i).map(|h| prepared.describe_half(ctx.run, ctx.spec, h.end.index()))
            }
        };
        if let Some(lines) = lines {
            response.clone().on_hover_ui_at_pointer(|ui| {
                for (k, line) in lines.iter().enumerate() {
                    if k == 0 {
                        ui.strong(line)
                    } else {
                        ui.label(line)
                    };
                }
            });
        }
    }
    if response.clicked() {
        commands.push(RunCommand::Focus(ctx.view));
        let net = ctx.run.network();
        let add = ui.input(|i| i.modifiers.shift);
        let (domain, ids): (Domain, Vec<i64>) = match picked {
            Some(Picked::Mark(i)) => {
                let members = mark_index(scene, i).map(|m| prepared.mark_members(m)).unwrap_or_default();
                (Domain::Nodes, members.iter().filter_map(|&n| net.nodes.get(n)).map(|n| n.id).collect())
            }
            Some(Picked::Half(i)) => {
                let members =
                    scene.halves.get(i).map(|h| prepared.half_members(h.end.index())).unwrap_or_default();
                (Domain::Links, members.iter().filter_map(|&l| net.links.get(l)).map(|l| l.id).collect())
            }
            None => return,
        };
        commands.push(RunCommand::Highlight { group: ctx.group.id, domain, ids, add });
    }
}

/// Changes when the halves' world positions may move: new data, another module or projection,
/// or (in 3D) another orbit.
fn geometry_key(ctx: &RunViewContext<'_>, orbit: &crate::scene::orbit::Orbit) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (ctx.generation, &ctx.spec.module).hash(&mut h);
    if ctx.spec.module.is_3d() {
        orbit.rotation.map(f32::to_bits).hash(&mut h);
    }
    h.finish()
}

/// The node index a mark stands for.
fn mark_index(scene: &Scene, i: usize) -> Option<usize> {
    match scene.marks.get(i)?.of {
        MarkOf::Node(n) => Some(n),
        _ => None,
    }
}
