//! The frame's two halves below the menu: the side panel (the focused view's tab) and the
//! views, each drawn by its class with its group's ranges, highlight, camera and orbit. Both
//! read the workspace and queue commands, applied once after the frame.

use egui::Ui;

use crate::modules::class::Placement;
use crate::modules::link_group::GroupId;
use crate::modules::{Command, ViewId};
use crate::view_model::dataset::Dataset;
use crate::view_model::prepare::Ranges;
use crate::view_model::routing_shown::RoutingShown;

use super::{ShoalApp, Tab};

/// The trace the view shows: AR where its link colour is an AR column (see
/// [`RoutingShown`]), else static.
fn routing_model(spec: &crate::view_model::view::ViewSpec) -> crate::routing::RoutingModel {
    spec.routing_shown().map_or(crate::routing::RoutingModel::Static, RoutingShown::model)
}

impl ShoalApp {
    pub(super) fn side_panel(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        self.ws.group_ranges();
        let Some(d) = self.ws.dataset.clone() else {
            ui.label("open rail directories (File -> Open, Ctrl+O, or drop them here)");
            return;
        };
        let focus = self.ws.focused().map(|v| v.id);
        // Shown with one view too: a row that appeared with the second view (after "compare")
        // would push every control below it down, under the pointer's next click.
        ui.horizontal(|ui| {
            ui.label("panels act on");
            for (i, v) in self.ws.views.iter().enumerate() {
                if ui.selectable_label(focus == Some(v.id), format!("view {}", i + 1)).clicked() {
                    commands.push(Command::Focus(v.id));
                }
            }
        });
        // Wide content scrolls instead of widening the panel, so the panel keeps the width the
        // user dragged it to (egui remembers it across runs).
        egui::ScrollArea::both().auto_shrink([false, true]).show(ui, |ui| match self.tab {
            Tab::Regions => crate::modules::regions::panel(ui, &mut self.regions_state, &self.ws, commands),
            Tab::Filter => {
                let Some(view) = self.ws.focused() else { return };
                crate::modules::filter::panel(ui, &mut self.filter_state, view, &d, commands);
            }
            Tab::Highlight => self.highlight_tab(ui, &d, commands),
            Tab::Linking => crate::modules::linking::panel(ui, &self.ws, &mut self.filter_state, commands),
            Tab::Plots => {
                let Some(view) = self.ws.focused() else { return };
                let generation = self.ws.generation;
                if d.has_counters() {
                    ui.heading("predicted vs observed");
                    crate::modules::counters::panel(ui, &mut self.counters, view, &d, generation, commands);
                    ui.separator();
                }
                let job = view.spec.job_shown(&d);
                crate::modules::plots::panel(ui, &mut self.plots, &d, generation, view.spec.selection, job);
            }
            Tab::Congestion => {
                let Some(view) = self.ws.focused() else { return };
                let cursor = self.ws.group(view.group).and_then(|g| g.time_cursor);
                let at = (view.id, view.group, &view.spec, cursor);
                crate::modules::congestion::panel(
                    ui,
                    &mut self.congestion,
                    &d,
                    at,
                    self.ws.generation,
                    commands,
                );
            }
            Tab::Jobs => {
                let Some(view) = self.ws.focused() else { return };
                let Some(group) = self.ws.group(view.group) else { return };
                let generation = self.ws.generation;
                crate::modules::jobs::panel(ui, &mut self.jobs, &d, generation, (view, group), commands);
            }
            Tab::WhatIf => {
                let Some(view) = self.ws.focused() else { return };
                let generation = self.ws.generation;
                crate::modules::what_if::panel(ui, &mut self.what_if, &d, generation, view, commands);
            }
        });
    }

    /// Search and route, the linked tables of what the highlight reaches, and who crossed the
    /// picked link end.
    fn highlight_tab(&mut self, ui: &mut Ui, d: &Dataset, commands: &mut Vec<Command>) {
        let Some(group_id) = self.ws.focused().map(|v| v.group) else { return };
        let lit = self.ws.lit(group_id);
        let (Some(view), Some(group)) = (self.ws.focused(), self.ws.group(group_id)) else { return };
        crate::modules::highlight::panel(ui, &mut self.highlight_state, d, group, commands);
        ui.separator();
        crate::modules::highlight::linked_tables(ui, d, view, &lit);
        ui.separator();
        match view.selected_link {
            Some(link) => crate::modules::tables::crossings_ui(
                ui,
                &mut self.crossings,
                d,
                self.ws.generation,
                (view.spec.selection, view.spec.job_shown(d), routing_model(&view.spec)),
                link,
            ),
            None => {
                ui.small("click a link end to list the pairs whose bytes cross it");
            }
        }
    }

    pub(super) fn views(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        let Some(d) = self.ws.dataset.clone() else {
            ui.centered_and_justified(|ui| {
                ui.label(self.loader.progress().map_or("nothing open".into(), |p| p.stage))
            });
            return;
        };
        let ranges = self.ws.group_ranges();
        if let Some(view) = self.ws.views.iter().find(|v| v.spec.selection.is_diff()) {
            // At most half the width: the diff view keeps the other half (issue 25).
            let half = (ui.available_width() / 2.0).max(200.0);
            egui::Panel::right("diff table").default_size(360.0f32.min(half)).size_range(200.0..=half).show(
                ui,
                |ui| {
                    egui::ScrollArea::both().show(ui, |ui| {
                        crate::modules::tables::diff_ui(
                            ui,
                            &mut self.diff_table,
                            &d,
                            self.ws.generation,
                            view,
                        )
                    });
                },
            );
        }
        let mut rect = ui.available_rect_before_wrap();
        // Bands (time strips) run across the bottom, one each; the other views share the rest.
        let placed = |p: Placement| -> Vec<ViewId> {
            self.ws.views.iter().filter(|v| v.class().placement() == p).map(|v| v.id).collect()
        };
        let (bands, main) = (placed(Placement::Band), placed(Placement::Main));
        let band = (rect.height() * 0.3).clamp(120.0, 260.0).min(rect.height() / (bands.len() + 1) as f32);
        for (k, &id) in bands.iter().enumerate() {
            let top = rect.max.y - band * (bands.len() - k) as f32;
            let r = egui::Rect::from_min_max(egui::pos2(rect.min.x, top), egui::pos2(rect.max.x, top + band));
            self.view_ui(id, r, &ranges, ui, commands);
        }
        rect.max.y -= band * bands.len() as f32;
        let width = rect.width() / main.len().max(1) as f32;
        for (k, &id) in main.iter().enumerate() {
            let r = egui::Rect::from_min_size(
                rect.min + egui::vec2(k as f32 * width, 0.0),
                egui::vec2(width, rect.height()),
            );
            self.view_ui(id, r, &ranges, ui, commands);
        }
    }

    /// One view in `rect`, drawn by its class; the pointer over it focuses it.
    fn view_ui(
        &mut self,
        id: ViewId,
        rect: egui::Rect,
        ranges: &[(GroupId, Ranges)],
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        let index = self.ws.views.iter().position(|v| v.id == id).unwrap_or_default();
        let mut child =
            ui.new_child(egui::UiBuilder::new().max_rect(rect.shrink(2.0)).id_salt(("view", index)));
        self.ws.with_view(id, ranges, |class, ctx, state, eye| {
            class.ui(ctx, state, eye, &mut child, commands);
        });
        if (child.response().contains_pointer() || child.ui_contains_pointer()) && self.ws.focus != id {
            commands.push(Command::Focus(id));
        }
        // The title strip: a narrow view's title is cut with `…`, so the whole one shows on hover.
        if let (Some(view), Some(d)) = (self.ws.views.get(index), self.ws.dataset.as_deref()) {
            let full = match view.spec.title.as_str() {
                "" => format!(
                    "view {}: {}",
                    index + 1,
                    view.spec.default_title(d, &crate::modules::registry::module_title(&view.spec, d))
                ),
                title => title.to_string(),
            };
            let strip =
                egui::Rect::from_min_size(rect.min, egui::vec2(rect.width(), crate::scene::draw::TITLE_H));
            ui.interact(strip, ui.scope_id().with(("view title", index)), egui::Sense::hover())
                .on_hover_text(full);
        }
    }
}
