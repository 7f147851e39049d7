//! The linking panel: which link group each view is in, and what each group shares (always the
//! highlight set and the colour range; optionally the camera; a group filter ANDed with each
//! member's own).

use egui::{ComboBox, Ui};

use crate::scene::camera::Camera;
use crate::scene::linking::GroupId;

use super::{Workspace, filter};

pub fn panel(ui: &mut Ui, ws: &mut Workspace) {
    let groups: Vec<(GroupId, String)> = ws.groups.iter().map(|g| (g.id, g.name.clone())).collect();
    for (i, view) in ws.views.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("view {} ({})", i + 1, view.spec.selection.label()));
            let current = groups.iter().find(|g| g.0 == view.group).map_or("?".to_string(), |g| g.1.clone());
            ComboBox::from_id_salt(("view group", i)).selected_text(current).show_ui(ui, |ui| {
                for (id, name) in &groups {
                    ui.selectable_value(&mut view.group, *id, name);
                }
            });
        });
    }
    if ui.button("+ new group").clicked() {
        ws.new_group();
    }
    ui.separator();
    let members: Vec<(GroupId, usize)> =
        ws.groups.iter().map(|g| (g.id, ws.views.iter().filter(|v| v.group == g.id).count())).collect();
    for group in &mut ws.groups {
        let count = members.iter().find(|m| m.0 == group.id).map_or(0, |m| m.1);
        ui.collapsing(format!("{} — {count} view(s)", group.name), |ui| {
            let mut shared = group.shared_camera.is_some();
            if ui.checkbox(&mut shared, "share zoom and pan").changed() {
                group.shared_camera = shared.then(Camera::default);
            }
            ui.small("members share the highlight and one colour range (the union of theirs)");
            ui.label("group filter (ANDed with each view's own):");
            filter::clauses_ui(ui, &format!("group {}", group.id.0), &mut group.filter);
        });
    }
}
