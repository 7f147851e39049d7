//! The linking panel: which link group each view is in and which module draws it, adding and
//! removing views (any module the data set allows, mixed freely in a group), and what each group
//! shares: always the highlight and the colour range; optionally the camera and the orbit; a
//! group filter ANDed with each member's own.

use egui::{ComboBox, Ui};

use crate::scene::camera::Camera;
use crate::scene::linking::GroupId;
use crate::scene::orbit::Orbit;
use crate::scene::view::ModuleKind;

use super::Workspace;
use super::filter::{FilterPanelState, clauses_ui};

pub fn panel(ui: &mut Ui, ws: &mut Workspace, state: &mut FilterPanelState) {
    let Some(d) = ws.dataset.clone() else { return };
    let groups: Vec<(GroupId, String)> = ws.groups.iter().map(|g| (g.id, g.name.clone())).collect();
    for (i, view) in ws.views.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!(
                "view {} ({}, {})",
                i + 1,
                view.spec.module.name(),
                view.spec.selection.label()
            ));
            let current = groups.iter().find(|g| g.0 == view.group).map_or("?".to_string(), |g| g.1.clone());
            ComboBox::from_id_salt(("view group", i)).selected_text(current).show_ui(ui, |ui| {
                for (id, name) in &groups {
                    ui.selectable_value(&mut view.group, *id, name);
                }
            });
        });
    }
    ui.horizontal(|ui| {
        if ui.button("+ new group").clicked() {
            ws.new_group();
        }
        ComboBox::from_id_salt("add view").selected_text("+ view").show_ui(ui, |ui| {
            for m in ModuleKind::choices(&d) {
                if ui.selectable_label(false, m.name()).clicked() {
                    ws.add_view(m);
                }
            }
        });
        if ws.views.len() > 1 && ui.button("- view").clicked() {
            ws.views.remove(ws.focus);
            ws.focus = ws.focus.min(ws.views.len() - 1);
        }
    });
    ui.separator();
    let members: Vec<(GroupId, usize)> =
        ws.groups.iter().map(|g| (g.id, ws.views.iter().filter(|v| v.group == g.id).count())).collect();
    let link_attribute = ws.focused().and_then(|v| v.spec.link_attribute.clone());
    for group in &mut ws.groups {
        let count = members.iter().find(|m| m.0 == group.id).map_or(0, |m| m.1);
        ui.collapsing(format!("{} — {count} view(s)", group.name), |ui| {
            let mut shared = group.shared_camera.is_some();
            if ui.checkbox(&mut shared, "share zoom and pan").changed() {
                group.shared_camera = shared.then(Camera::default);
            }
            let mut orbit = group.shared_orbit.is_some();
            if ui.checkbox(&mut orbit, "turn together").changed() {
                group.shared_orbit = orbit.then(Orbit::default);
            }
            ui.small("members share the highlight and one colour range (the union of theirs)");
            ui.label("group filter (ANDed with each view's own):");
            let id = format!("group {}", group.id.0);
            clauses_ui(ui, &id, &mut group.filter, &d, link_attribute.as_deref(), state);
        });
    }
}
