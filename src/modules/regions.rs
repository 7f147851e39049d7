//! The regions panel, the same for every module: the data set's regions (a fabric's profile
//! regions with names and dump times, a run's `code_region`s) shown one at a time or
//! cumulatively, and the comparison set-ups: two linked views side by side on one scale, or one
//! A − B view.

use egui::{ComboBox, Ui};

use crate::model::RegionInfo;
use crate::units::{format_epoch_micros, format_seconds};
use crate::view_model::dataset::Dataset;
use crate::view_model::values::RegionSelection;

use super::command::Command;
use super::workspace::Workspace;

/// Panel state: the regions picked for comparing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionsPanelState {
    pub a: Option<u32>,
    pub b: Option<u32>,
    pub cumulative: bool,
}

impl RegionsPanelState {
    /// Picks the first two regions of new data for A and B (unless already picked).
    pub fn seed(&mut self, d: &Dataset) {
        let regions = d.regions();
        if self.a.is_none() {
            self.a = regions.first().map(|r| r.number);
            self.b = regions.get(1).or(regions.first()).map(|r| r.number);
        }
    }
}

fn region_combo(ui: &mut Ui, id: &str, value: &mut Option<u32>, regions: &[RegionInfo]) {
    let text = value.map_or("—".to_string(), |n| format!("region {n}"));
    ComboBox::from_id_salt(id).selected_text(text).show_ui(ui, |ui| {
        for r in regions {
            let label = format!("{} {}", r.number, r.name.clone().unwrap_or_default());
            ui.selectable_value(value, Some(r.number), label);
        }
    });
}

/// The region list for the focused view, and the comparison set-ups; queues what is picked.
pub fn panel(ui: &mut Ui, state: &mut RegionsPanelState, ws: &Workspace, commands: &mut Vec<Command>) {
    let Some(d) = ws.dataset.clone() else { return };
    let regions = d.regions();
    if regions.is_empty() {
        ui.small("no regions: open a profile (or a run with a code_region) to see them");
        return;
    }
    ui.horizontal(|ui| {
        ui.radio_value(&mut state.cumulative, false, "per-region delta");
        ui.radio_value(&mut state.cumulative, true, "cumulative");
    });
    let Some(view) = ws.focused() else { return };
    let mut spec = view.spec.clone();
    region_list(ui, state, &mut spec.selection, regions);
    commands.extend(Command::set_spec_if_changed(view.id, &view.spec, spec));
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("A");
        region_combo(ui, "region a", &mut state.a, regions);
        ui.label("B");
        region_combo(ui, "region b", &mut state.b, regions);
    });
    ui.horizontal(|ui| {
        let pair = state.a.zip(state.b);
        if ui.add_enabled(pair.is_some(), egui::Button::new("compare side by side")).clicked()
            && let Some((a, b)) = pair
        {
            commands.push(Command::Compare(a, b));
        }
        if ui.add_enabled(pair.is_some(), egui::Button::new("diff A − B")).clicked()
            && let Some((a, b)) = pair
        {
            commands.push(Command::Diff(a, b));
        }
        if ui.button("single view").clicked() {
            commands.push(Command::Single);
        }
    });
    ui.small("compare: two views in one group, one colour range, one highlight, one camera");
}

/// Total, then every region (its number, name, dump time and how long it ran): one picks.
fn region_list(ui: &mut Ui, state: &RegionsPanelState, sel: &mut RegionSelection, regions: &[RegionInfo]) {
    egui::ScrollArea::vertical().id_salt("regions").max_height(180.0).show(ui, |ui| {
        egui::Grid::new("region list").striped(true).num_columns(3).show(ui, |ui| {
            if ui.selectable_label(*sel == RegionSelection::Total, "total").clicked() {
                *sel = RegionSelection::Total;
            }
            ui.label("everything");
            ui.label("");
            ui.end_row();
            let mut previous: Option<i64> = None;
            for r in regions {
                let this = if state.cumulative {
                    RegionSelection::Cumulative(r.number)
                } else {
                    RegionSelection::Region(r.number)
                };
                if ui.selectable_label(*sel == this, format!("{}", r.number)).clicked() {
                    *sel = this;
                }
                ui.label(r.name.clone().unwrap_or_default());
                // When the dump was taken, and how long the region ran since the one before.
                let when = r.dumptime.map_or(String::new(), |t| {
                    let since = previous.map(|p| format!(" ({})", format_seconds(t.0 - p, true)));
                    format!("{}{}", format_epoch_micros(t.0), since.unwrap_or_default())
                });
                previous = r.dumptime.map(|t| t.0).or(previous);
                ui.label(when);
                ui.end_row();
            }
        });
    });
}
