//! A view's options, the same for every module: which module draws it (any the data set
//! allows) and that class's own options (a torus's axes and how merged cells combine), which
//! attributes colour links and nodes and how rows combine, the colour maps and the scale.

use egui::{ComboBox, Ui};

use crate::model::Domain;
use crate::scene::colour::{ColourMap, ScaleKind};
use crate::view_model::dataset::{ALL_JOBS, CONTENTION, Dataset};
use crate::view_model::query;
use crate::view_model::view::ViewSpec;

use super::registry::{choices, class_of, module_name};

fn attribute_combo(ui: &mut Ui, label: &str, d: &Dataset, domain: Domain, value: &mut Option<String>) {
    let numeric: Vec<String> =
        query::attributes(&d.run, domain).into_iter().filter(|a| a.numeric).map(|a| a.name).collect();
    ComboBox::from_label(label).selected_text(value.clone().unwrap_or_else(|| "none".into())).show_ui(
        ui,
        |ui| {
            ui.selectable_value(value, None, "none");
            for n in numeric {
                ui.selectable_value(value, Some(n.clone()), n);
            }
        },
    );
}

/// Which class draws the view (any the data set allows).
fn module_ui(ui: &mut Ui, spec: &mut ViewSpec, d: &Dataset) {
    // Wrapped: with five classes the row is wider than the default panel, and a button past
    // its edge could not be seen.
    ui.horizontal_wrapped(|ui| {
        ui.label("module");
        for m in choices(d) {
            let selected = m.class_id() == spec.module.class_id();
            if ui.add(egui::Button::selectable(selected, module_name(&m))).clicked() && !selected {
                spec.module = m;
            }
        }
    });
}

/// Which job's rows colour the view: one job, `all` (their sum) or `contention` (the
/// second-largest job's bytes per end, single-job ends neutral); and, for a diff, side B's job.
fn job_ui(ui: &mut Ui, spec: &mut ViewSpec, d: &Dataset) {
    if d.jobs().is_empty() {
        return;
    }
    let choices: Vec<String> =
        d.jobs().iter().cloned().chain([ALL_JOBS.to_string(), CONTENTION.to_string()]).collect();
    let shown = spec.job_shown(d).unwrap_or_default();
    ComboBox::from_label("colour by job").selected_text(&shown).show_ui(ui, |ui| {
        for c in &choices {
            if ui.selectable_label(*c == shown, c).clicked() {
                spec.job = Some(c.clone());
            }
        }
    });
    if spec.selection.is_diff() {
        let b = spec.job_shown_b(d).unwrap_or_default();
        ComboBox::from_label("diff: job B").selected_text(&b).show_ui(ui, |ui| {
            for c in &choices {
                if ui.selectable_label(*c == b, c).clicked() {
                    spec.job_b = Some(c.clone());
                }
            }
        });
    }
}

/// Module, axes, colouring attributes, aggregation, colour maps and scale of one view.
pub fn view_options(ui: &mut Ui, spec: &mut ViewSpec, d: &Dataset) {
    module_ui(ui, spec, d);
    job_ui(ui, spec, d);
    attribute_combo(ui, "link colour", d, Domain::Links, &mut spec.link_attribute);
    attribute_combo(ui, "node colour", d, Domain::Nodes, &mut spec.node_attribute);
    ui.horizontal(|ui| {
        ui.label("rows");
        for a in query::Aggregate::ALL {
            ui.selectable_value(&mut spec.rows, a, a.name());
        }
    });
    class_of(spec).options_ui(ui, spec, d);
    ComboBox::from_label("colour map").selected_text(spec.link_map.name()).show_ui(ui, |ui| {
        for m in ColourMap::ALL.into_iter().filter(|m| !m.is_diverging()) {
            if ui.selectable_value(&mut spec.link_map, m, m.name()).changed() && d.fabric.is_some() {
                spec.node_map = m;
            }
        }
    });
    ComboBox::from_label("diff map").selected_text(spec.diverging_map.name()).show_ui(ui, |ui| {
        for m in ColourMap::ALL.into_iter().filter(|m| m.is_diverging()) {
            ui.selectable_value(&mut spec.diverging_map, m, m.name());
        }
    });
    ui.horizontal(|ui| {
        ui.label("scale");
        ui.radio_value(&mut spec.scale, ScaleKind::Linear, "linear");
        ui.radio_value(&mut spec.scale, ScaleKind::Log, "log");
    });
}
