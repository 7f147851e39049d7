//! What every network class shares on screen: input (drag, zoom, fit, reset), painting
//! (through the GPU paint callback above [`GPU_THRESHOLD`] halves), picking, tooltips and clicks
//! turned into commands. The classes differ only in their [`NetworkStyle`].

use egui::{Pos2, Response, Sense, Ui};

use crate::model::Domain;
use crate::scene::camera::Transform;
use crate::scene::draw::{Picked, pick, plot_rect};
use crate::view_model::highlight::Seed;

use super::class::{Eye, ViewContext};
use super::command::Command;
use super::gpu_links;
use super::network::{DragMode, GPU_THRESHOLD, NetworkState, NetworkStyle};

/// Draws one network view and handles its input.
pub fn view_ui(
    ctx: &ViewContext<'_>,
    state: &mut NetworkState,
    eye: &mut Eye,
    ui: &mut Ui,
    commands: &mut Vec<Command>,
    style: NetworkStyle,
) {
    let rect = ui.available_rect_before_wrap();
    let response = ui.allocate_rect(rect, Sense::click_and_drag());
    state.size = rect.size();
    state.rect = Some(rect);
    let plot = plot_rect(rect.width(), rect.height());
    let rotating = turn_and_reset(ui, &response, eye, style.drag);
    if let Err(why) = state.refresh(ctx, &style, &eye.orbit, plot.w / plot.h.max(1.0)) {
        let font = egui::FontId::proportional(16.0);
        ui.painter().text(rect.center(), egui::Align2::CENTER_CENTER, why, font, ui.visuals().warn_fg_color);
        return;
    }
    let Some(scene) = state.scene.as_ref() else { return };
    if response.dragged() && !rotating {
        let d = response.drag_delta();
        eye.camera.pan(&scene.bounds, plot, [d.x, d.y]);
    }
    let local = |p: Pos2| [p.x - rect.min.x, p.y - rect.min.y];
    if let Some(hover) = response.hover_pos() {
        let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = zoom * (scroll / 200.0).exp();
        if (factor - 1.0).abs() > 1e-4 {
            eye.camera.zoom_at(&scene.bounds, plot, local(hover), factor);
        }
    }
    paint_scene(ctx, state, eye, ui, rect, style);
    let Some(scene) = state.scene.as_ref() else { return };
    let t = Transform::new(&eye.camera, &scene.bounds, plot);
    let picked = response.hover_pos().and_then(|p| pick(scene, &t, local(p)));
    tooltip_and_click(ctx, state, ui, &response, picked, commands);
}

/// Rotation first, so this frame's scene shows it; a double-click or R resets the orbit and
/// fits, F fits. Returns whether the drag turned the view (so it does not pan too).
fn turn_and_reset(ui: &Ui, response: &Response, eye: &mut Eye, mode: DragMode) -> bool {
    let (shift, secondary) =
        ui.input(|i| (i.modifiers.shift, i.pointer.secondary_down() || i.pointer.middle_down()));
    let rotating = mode == DragMode::Rotate && response.dragged() && !shift && !secondary;
    if rotating {
        let d = response.drag_delta();
        eye.orbit.drag([d.x, d.y]);
    }
    let keys = response.hovered() && !ui.ctx().egui_wants_keyboard_input();
    if response.double_clicked() || (keys && ui.input(|i| i.key_pressed(egui::Key::R))) {
        eye.orbit.reset();
        eye.camera.fit();
    }
    if ui.input(|i| i.key_pressed(egui::Key::F)) && !ui.ctx().egui_wants_keyboard_input() {
        eye.camera.fit();
    }
    rotating
}

/// The hovered element's description; a click focuses the view, picks a link end for the
/// linked tables and highlights what it hit (shift adds).
fn tooltip_and_click(
    ctx: &ViewContext<'_>,
    state: &NetworkState,
    ui: &Ui,
    response: &Response,
    picked: Option<Picked>,
    commands: &mut Vec<Command>,
) {
    let (Some(Ok(prepared)), Some(scene)) = (state.prepared.as_ref(), state.scene.as_ref()) else { return };
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
    if !response.clicked() {
        return;
    }
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

/// Paints the scene: links on the GPU when there are many (marks and chrome through the
/// painter), else everything through the painter. Every network class takes this path.
fn paint_scene(
    ctx: &ViewContext<'_>,
    state: &mut NetworkState,
    eye: &Eye,
    ui: &Ui,
    rect: egui::Rect,
    style: NetworkStyle,
) {
    let Some(scene) = state.scene.as_ref() else { return };
    let threshold = state.gpu_threshold.unwrap_or(GPU_THRESHOLD);
    let keys = gpu_links::Keys { geometry: geometry_key(ctx, &eye.orbit, style), scene: state.builds };
    gpu_links::paint_scene(&ui.painter_at(rect), &mut state.gpu, scene, keys, &eye.camera, rect, threshold);
}

/// Changes when the halves' world positions may move: new data, another module or projection,
/// or (in a view that turns) another orbit.
fn geometry_key(ctx: &ViewContext<'_>, orbit: &crate::view_model::orbit::Orbit, style: NetworkStyle) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (ctx.generation, &ctx.spec.module).hash(&mut h);
    if style.drag == DragMode::Rotate {
        orbit.rotation.map(f32::to_bits).hash(&mut h);
    }
    h.finish()
}
