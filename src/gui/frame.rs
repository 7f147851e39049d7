//! The frame's two halves below the menu: the side panel (the focused view's tab) and the
//! views side by side, each drawn by its module with its group's ranges, highlight, camera and
//! orbit.

use egui::Ui;

use crate::modules::{Command, ViewContext, module_for};
use crate::scene::dataset::Dataset;
use crate::scene::routing_shown::RoutingShown;

use super::{ShoalApp, Tab};

/// The trace the view shows: AR where its link colour is an AR column (see
/// [`RoutingShown`]), else static.
fn routing_model(spec: &crate::scene::view::ViewSpec) -> crate::routing::RoutingModel {
    RoutingShown::of(spec).map_or(crate::routing::RoutingModel::Static, RoutingShown::model)
}

impl ShoalApp {
    pub(super) fn side_panel(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        self.ws.group_ranges();
        let Some(d) = self.ws.dataset.clone() else {
            ui.label("open rail directories (File -> Open, Ctrl+O, or drop them here)");
            return;
        };
        let generation = self.ws.generation;
        let focus = self.ws.focus;
        if self.ws.views.len() > 1 {
            ui.horizontal(|ui| {
                ui.label("panels act on");
                for i in 0..self.ws.views.len() {
                    ui.selectable_value(&mut self.ws.focus, i, format!("view {}", i + 1));
                }
            });
        }
        egui::ScrollArea::vertical().show(ui, |ui| match self.tab {
            Tab::Regions => crate::modules::regions::panel(ui, &mut self.regions_state, &mut self.ws),
            Tab::Filter => {
                let Some(view) = self.ws.views.get_mut(focus) else { return };
                crate::modules::filter::panel(ui, &mut self.filter_state, view, &d);
            }
            Tab::Highlight => {
                let Some(group_id) = self.ws.views.get(focus).map(|v| v.group) else { return };
                let lit = self.ws.lit(group_id);
                let (Some(view), Some(group)) = (self.ws.views.get(focus), self.ws.group(group_id)) else {
                    return;
                };
                crate::modules::highlight::panel(ui, &mut self.highlight_state, &d, group, commands);
                ui.separator();
                crate::modules::highlight::linked_tables(ui, &d, view, &lit);
                ui.separator();
                match view.selected_link {
                    Some(link) => crate::modules::tables::crossings_ui(
                        ui,
                        &mut self.crossings,
                        &d,
                        generation,
                        (view.spec.selection, view.spec.job_shown(&d), routing_model(&view.spec)),
                        link,
                    ),
                    None => {
                        ui.small("click a link end to list the pairs whose bytes cross it");
                    }
                }
            }
            Tab::Linking => crate::modules::linking::panel(ui, &mut self.ws, &mut self.filter_state),
            Tab::Plots => {
                let Some(view) = self.ws.views.get_mut(focus) else { return };
                if d.has_counters() {
                    ui.heading("predicted vs observed");
                    crate::modules::counters::panel(ui, &mut self.counters, view, &d, generation);
                    ui.separator();
                }
                let job = view.spec.job_shown(&d);
                crate::modules::plots::panel(ui, &mut self.plots, &d, generation, view.spec.selection, job);
            }
        });
    }

    pub(super) fn views(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        let Some(d) = self.ws.dataset.clone() else {
            ui.centered_and_justified(|ui| {
                ui.label(self.loader.progress().map_or("nothing open".into(), |p| p.stage))
            });
            return;
        };
        let ranges = self.ws.group_ranges();
        let n = self.ws.views.len();
        if let Some(view) = self.ws.views.iter().find(|v| v.spec.selection.is_diff()) {
            egui::Panel::right("diff table").default_size(360.0).show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    crate::modules::tables::diff_ui(ui, &mut self.diff_table, &d, self.ws.generation, view)
                });
            });
        }
        let mut rect = ui.available_rect_before_wrap();
        // Time strips run across the bottom, one band each; the other views share the rest.
        let is_strip = |v: &crate::modules::View| v.spec.module == crate::scene::view::ModuleKind::TimeStrip;
        let strips: Vec<usize> = (0..n).filter(|&i| is_strip(&self.ws.views[i])).collect();
        let band = (rect.height() * 0.3).clamp(120.0, 260.0).min(rect.height() / (strips.len() + 1) as f32);
        for (k, &i) in strips.iter().enumerate() {
            let top = rect.max.y - band * (strips.len() - k) as f32;
            let r = egui::Rect::from_min_max(egui::pos2(rect.min.x, top), egui::pos2(rect.max.x, top + band));
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(r.shrink(2.0)).id_salt(("view", i)));
            self.view_ui(i, &d, &ranges, &mut child, commands);
        }
        rect.max.y -= band * strips.len() as f32;
        let others: Vec<usize> = (0..n).filter(|i| !strips.contains(i)).collect();
        let width = rect.width() / others.len().max(1) as f32;
        for (k, &i) in others.iter().enumerate() {
            let r = egui::Rect::from_min_size(
                rect.min + egui::vec2(k as f32 * width, 0.0),
                egui::vec2(width, rect.height()),
            );
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(r.shrink(2.0)).id_salt(("view", i)));
            self.view_ui(i, &d, &ranges, &mut child, commands);
        }
    }

    /// One view, drawn by its module with its group's ranges, highlight, camera and orbit.
    fn view_ui(
        &mut self,
        i: usize,
        d: &Dataset,
        ranges: &[(crate::scene::linking::GroupId, crate::scene::prepare::Ranges)],
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        let ws = &mut self.ws;
        let group_id = ws.views[i].group;
        let lit = ws.lit(group_id);
        let Some(group) = ws.group(group_id).cloned() else { return };
        let agreed = ranges.iter().find(|g| g.0 == group_id).map(|g| g.1).unwrap_or_default();
        let view = &mut ws.views[i];
        if let Some(orbit) = group.shared_orbit {
            view.state.orbit = orbit;
        }
        let mut camera = group.shared_camera.unwrap_or(view.camera);
        let ctx = ViewContext {
            dataset: d,
            generation: ws.generation,
            view: i,
            spec: &view.spec,
            group: &group,
            lit: &lit,
            link_range: agreed.0,
            node_range: agreed.1,
        };
        module_for(&view.spec.module).ui(&ctx, &mut view.state, &mut camera, ui, commands);
        if ui.response().contains_pointer() || ui.ui_contains_pointer() {
            ws.focus = i;
        }
        let orbit = view.state.orbit;
        if group.shared_camera.is_none() {
            view.camera = camera;
        }
        if let Some(g) = ws.group_mut(group_id) {
            if g.shared_camera.is_some() {
                g.shared_camera = Some(camera);
            }
            if g.shared_orbit.is_some() {
                g.shared_orbit = Some(orbit);
            }
        }
    }
}
