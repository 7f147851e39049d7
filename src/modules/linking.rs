//! The linking panel: which link group each view is in and which module draws it, adding and
//! removing views (any module the data set allows, mixed freely in a group; Ctrl+Z brings a
//! removed view back), and what each group shares: always the highlight and the colour range;
//! optionally the camera and the orbit; a group filter ANDed with each member's own. It reads
//! the workspace and queues commands.

use egui::{ComboBox, Ui};

use crate::modules::link_group::{GroupId, LinkGroup};
use crate::view_model::dataset::Dataset;

use super::command::Command;
use super::filter::{FilterPanelState, clauses_ui};
use super::registry::{choices, module_name};
use super::workspace::Workspace;

pub fn panel(ui: &mut Ui, ws: &Workspace, state: &mut FilterPanelState, commands: &mut Vec<Command>) {
    let Some(d) = ws.dataset.clone() else { return };
    views_ui(ui, ws, commands);
    ui.horizontal(|ui| {
        if ui.button("+ new group").clicked() {
            commands.push(Command::NewGroup);
        }
        ComboBox::from_id_salt("add view")
            .selected_text("+ view")
            .show_ui(ui, |ui| {
                for m in choices(&d) {
                    if ui.selectable_label(false, module_name(&m)).clicked() {
                        commands.push(Command::AddView(m));
                    }
                }
            })
            .response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, "add view"));
        if ws.views.len() > 1
            && let Some(focused) = ws.focused()
            && ui.button("- view").on_hover_text("Ctrl+Z brings it back").clicked()
        {
            commands.push(Command::RemoveView(focused.id));
        }
    });
    ui.separator();
    let link_attribute = ws.focused().and_then(|v| v.spec.link_attribute.as_deref());
    for group in &ws.groups {
        let count = ws.views.iter().filter(|v| v.group == group.id).count();
        ui.collapsing(format!("{} — {count} view(s)", group.name), |ui| {
            group_ui(ui, group, &d, link_attribute, state, commands);
        });
    }
}

/// One line per view: its number, module and region, and its group.
fn views_ui(ui: &mut Ui, ws: &Workspace, commands: &mut Vec<Command>) {
    let groups: Vec<(GroupId, &str)> = ws.groups.iter().map(|g| (g.id, g.name.as_str())).collect();
    for (i, view) in ws.views.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!(
                "view {} ({}, {})",
                i + 1,
                module_name(&view.spec.module),
                view.spec.selection.label()
            ));
            let current = groups.iter().find(|g| g.0 == view.group).map_or("?", |g| g.1);
            let mut group = view.group;
            ComboBox::from_id_salt(("view group", view.id))
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (id, name) in &groups {
                        ui.selectable_value(&mut group, *id, *name);
                    }
                })
                .response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, "view group"));
            if group != view.group {
                commands.push(Command::SetGroup { view: view.id, group });
            }
        });
    }
}

/// What one group shares, and its filter.
fn group_ui(
    ui: &mut Ui,
    group: &LinkGroup,
    d: &Dataset,
    link_attribute: Option<&str>,
    state: &mut FilterPanelState,
    commands: &mut Vec<Command>,
) {
    let mut shared = group.shared_camera.is_some();
    if ui.checkbox(&mut shared, "share zoom and pan").changed() {
        commands.push(Command::ShareCamera { group: group.id, on: shared });
    }
    let mut orbit = group.shared_orbit.is_some();
    if ui.checkbox(&mut orbit, "turn together").changed() {
        commands.push(Command::ShareOrbit { group: group.id, on: orbit });
    }
    ui.small("members share the highlight and one colour range (the union of theirs)");
    ui.label("group filter (ANDed with each view's own):");
    let id = format!("group {}", group.id.0);
    let mut filter = group.filter.clone();
    clauses_ui(ui, &id, &mut filter, d, link_attribute, state);
    if filter != group.filter {
        commands.push(Command::SetGroupFilter { group: group.id, filter });
    }
}
