//! The regions panel: the profile's regions (number, name, dumptime) shown cumulatively or as
//! per-region deltas, and the comparison set-ups: two linked views side by side, or one A − B view.

use egui::{ComboBox, Ui};

use crate::routing::RegionKey;
use crate::scene::dataset::Dataset;
use crate::scene::values::RegionSelection;
use crate::scene::view::ViewSpec;

use super::{View, Workspace};

/// Panel state: the regions picked for comparing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionsPanelState {
    pub a: Option<u32>,
    pub b: Option<u32>,
    pub cumulative: bool,
}

fn region_combo(ui: &mut Ui, id: &str, value: &mut Option<u32>, d: &Dataset) {
    let text = value.map_or("—".to_string(), |n| format!("region {n}"));
    ComboBox::from_id_salt(id).selected_text(text).show_ui(ui, |ui| {
        for r in d.regions() {
            ui.selectable_value(
                value,
                Some(r.number),
                format!("{} {}", r.number, r.name.unwrap_or_default()),
            );
        }
    });
}

/// Two views of regions A and B in one new group with a shared camera.
pub fn compare(ws: &mut Workspace, a: u32, b: u32) {
    let group = ws.new_group();
    if let Some(g) = ws.group_mut(group) {
        g.shared_camera = Some(Default::default());
    }
    let mut base = ws.focused().map(|v| v.spec.clone()).unwrap_or_default();
    base.options.link_range = None;
    let spec = |n| ViewSpec { selection: RegionSelection::Region(n), ..base.clone() };
    ws.views = vec![View::new(spec(a), group), View::new(spec(b), group)];
    ws.focus = 0;
}

/// One view of A − B on a diverging map.
pub fn diff(ws: &mut Workspace, a: u32, b: u32) {
    let group = ws.new_group();
    let mut spec = ws.focused().map(|v| v.spec.clone()).unwrap_or_default();
    spec.selection = RegionSelection::Diff(RegionKey::Region(a), RegionKey::Region(b));
    spec.options.link_range = None;
    ws.views = vec![View::new(spec, group)];
    ws.focus = 0;
}

/// Back to one view of the total.
pub fn single(ws: &mut Workspace) {
    let spec = ws
        .focused()
        .map(|v| ViewSpec { selection: RegionSelection::Total, ..v.spec.clone() })
        .unwrap_or_default();
    let group = ws.groups.first().map(|g| g.id).unwrap_or_default();
    ws.views = vec![View::new(spec, group)];
    ws.focus = 0;
}

pub fn panel(ui: &mut Ui, state: &mut RegionsPanelState, ws: &mut Workspace) {
    let Some(d) = ws.dataset.clone() else { return };
    let regions = d.regions();
    if regions.is_empty() {
        ui.small("no profile loaded: open one to see its regions");
        return;
    }
    ui.horizontal(|ui| {
        ui.radio_value(&mut state.cumulative, false, "per-region delta");
        ui.radio_value(&mut state.cumulative, true, "cumulative");
    });
    let Some(view) = ws.focused_mut() else { return };
    let sel = &mut view.spec.selection;
    egui::ScrollArea::vertical().id_salt("regions").max_height(180.0).show(ui, |ui| {
        egui::Grid::new("region list").striped(true).num_columns(3).show(ui, |ui| {
            if ui.selectable_label(*sel == RegionSelection::Total, "total").clicked() {
                *sel = RegionSelection::Total;
            }
            ui.label("everything");
            ui.label("");
            ui.end_row();
            for r in &regions {
                let this = if state.cumulative {
                    RegionSelection::Cumulative(r.number)
                } else {
                    RegionSelection::Region(r.number)
                };
                if ui.selectable_label(*sel == this, format!("{}", r.number)).clicked() {
                    *sel = this;
                }
                ui.label(r.name.clone().unwrap_or_default());
                ui.label(r.dumptime.map_or(String::new(), |t| format!("{t}")));
                ui.end_row();
            }
        });
    });
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("A");
        region_combo(ui, "region a", &mut state.a, &d);
        ui.label("B");
        region_combo(ui, "region b", &mut state.b, &d);
    });
    ui.horizontal(|ui| {
        let pair = state.a.zip(state.b);
        if ui.add_enabled(pair.is_some(), egui::Button::new("compare side by side")).clicked()
            && let Some((a, b)) = pair
        {
            compare(ws, a, b);
        }
        if ui.add_enabled(pair.is_some(), egui::Button::new("diff A − B")).clicked()
            && let Some((a, b)) = pair
        {
            diff(ws, a, b);
        }
        if ui.button("single view").clicked() {
            single(ws);
        }
    });
}
