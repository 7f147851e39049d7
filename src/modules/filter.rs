//! The filter panel, the same for every module: clauses `ATTR REL VALUE` on any attribute the
//! data set offers (combined with and/or; a node clause reaches links through the projection),
//! the hot-link threshold (absolute or percent of the maximum), a histogram of the view's link
//! values whose brush sets the range, and "hide unused links". The threshold and the brush both
//! write `Filter::value_range`, a range on the coloured value. Then the view's options.

use egui::{ComboBox, Ui};
use egui_plot::{Bar, BarChart, Plot, Span};

use crate::model::Domain;
use crate::scene::network::{format_number, is_bytes};
use crate::units::format_bytes_f64;
use crate::view_model::dataset::Dataset;
use crate::view_model::filter::{Clause, Combine, Filter, Relation};
use crate::view_model::query;

use super::command::Command;
use super::workspace::View;

/// Panel state that survives frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilterPanelState {
    pub percent: bool,
    brush_start: Option<f64>,
    /// A clause being typed, and why the last one did not parse.
    pub typed: String,
    pub error: Option<String>,
}

/// How a link value reads: bytes with units for a fabric's `bytes`, plain numbers otherwise.
pub fn value_text(attribute: Option<&str>, v: f64) -> String {
    if is_bytes(attribute) { format_bytes_f64(v) } else { format_number(v) }
}

/// Every attribute a clause can name: the links' own, then the nodes' and ranks' (qualified
/// where a link attribute has the same name).
fn clause_attributes(d: &Dataset) -> Vec<String> {
    let mut out: Vec<String> = query::attributes(&d.run, Domain::Links).into_iter().map(|a| a.name).collect();
    for domain in [Domain::Nodes, Domain::Ranks] {
        for a in query::attributes(&d.run, domain) {
            let name = if out.contains(&a.name) { format!("{domain}.{}", a.name) } else { a.name };
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// A clause the "+ clause" button adds: hot links of a fabric, a value above 0 otherwise.
fn new_clause(d: &Dataset, attribute: Option<&str>) -> Clause {
    let (attribute, value) = match (d.fabric.is_some(), attribute) {
        (true, _) => ("bytes".to_string(), "1 MiB".to_string()),
        (false, Some(a)) => (a.to_string(), "0".to_string()),
        (false, None) => (clause_attributes(d).first().cloned().unwrap_or_default(), "0".to_string()),
    };
    Clause { attribute, relation: Relation::Ge, value }
}

/// The clause editor: and/or, one row per clause, a line to type one, and add / remove.
pub fn clauses_ui(
    ui: &mut Ui,
    id: &str,
    filter: &mut Filter,
    d: &Dataset,
    link_attribute: Option<&str>,
    state: &mut FilterPanelState,
) {
    ui.horizontal(|ui| {
        ui.label("match");
        ui.radio_value(&mut filter.combine, Combine::All, "all (and)");
        ui.radio_value(&mut filter.combine, Combine::Any, "any (or)");
    });
    let attributes = clause_attributes(d);
    let mut remove = None;
    for (i, clause) in filter.clauses.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ComboBox::from_id_salt((id, "attr", i))
                .width(110.0)
                .selected_text(clause.attribute.clone())
                .show_ui(ui, |ui| {
                    for a in &attributes {
                        ui.selectable_value(&mut clause.attribute, a.clone(), a);
                    }
                })
                .response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, "clause attribute"));
            ComboBox::from_id_salt((id, "rel", i))
                .width(36.0)
                .selected_text(clause.relation.symbol())
                .show_ui(ui, |ui| {
                    for r in Relation::ALL {
                        ui.selectable_value(&mut clause.relation, r, r.symbol());
                    }
                })
                .response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, "clause relation"));
            ui.add(egui::TextEdit::singleline(&mut clause.value).hint_text("value").desired_width(80.0));
            if ui.small_button("x").on_hover_text("remove this clause").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        filter.clauses.remove(i);
    }
    ui.horizontal(|ui| {
        let edit = ui.add(
            egui::TextEdit::singleline(&mut state.typed)
                .id_salt((id, "typed"))
                .hint_text("level = 2, name = L1-*")
                .desired_width(150.0),
        );
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("+ clause").clicked() || enter {
            if state.typed.trim().is_empty() {
                filter.clauses.push(new_clause(d, link_attribute));
            } else {
                match Clause::parse(&state.typed) {
                    Ok(c) => {
                        filter.clauses.push(c);
                        state.typed.clear();
                        state.error = None;
                    }
                    Err(e) => state.error = Some(e.to_string()),
                }
            }
        }
    });
    if let Some(e) = &state.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
}

/// The threshold slider: writes `value_range = (threshold, ∞)`; 0 clears it.
pub fn threshold_ui(
    ui: &mut Ui,
    state: &mut FilterPanelState,
    filter: &mut Filter,
    max: f64,
    unit: Option<&str>,
) {
    ui.horizontal(|ui| {
        ui.label("hot-link threshold");
        let absolute = if is_bytes(unit) { "bytes" } else { "value" };
        ui.radio_value(&mut state.percent, false, absolute);
        ui.radio_value(&mut state.percent, true, "% of max");
    });
    let current = filter.value_range.map_or(0.0, |(lo, _)| lo);
    let changed = if state.percent {
        let mut pct = if max > 0.0 { 100.0 * current / max } else { 0.0 };
        let r = ui.add(egui::Slider::new(&mut pct, 0.0..=100.0).suffix(" %").text("threshold"));
        (r.changed()).then_some(pct / 100.0 * max)
    } else {
        let mut bytes = current;
        let r = ui.add(
            egui::Slider::new(&mut bytes, 0.0..=max.max(1.0))
                .logarithmic(true)
                .custom_formatter(|v, _| value_text(unit, v))
                .text("threshold"),
        );
        r.changed().then_some(bytes)
    };
    if let Some(v) = changed {
        filter.value_range = if v > 0.0 { Some((v, f64::INFINITY)) } else { None };
    }
}

/// The largest magnitude of some values.
fn max_abs(values: &[Option<f64>]) -> f64 {
    values.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// The histogram of the view's link values (40 bins); dragging across it sets the range.
pub fn histogram_ui(
    ui: &mut Ui,
    state: &mut FilterPanelState,
    filter: &mut Filter,
    values: &[Option<f64>],
    unit: Option<&str>,
) {
    let max = max_abs(values);
    if max <= 0.0 {
        ui.label("no traffic in this selection");
        return;
    }
    const BINS: usize = 40;
    let width = max / BINS as f64;
    let mut counts = [0u32; BINS];
    for &v in values.iter().flatten() {
        let b = ((v.abs() / width) as usize).min(BINS - 1);
        counts[b] += 1;
    }
    let bars: Vec<Bar> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| Bar::new((i as f64 + 0.5) * width, f64::from(c).ln_1p()).width(width * 0.95))
        .collect();
    let range = filter.value_range;
    let response = Plot::new("load histogram")
        .height(110.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show_grid(false)
        .x_axis_formatter(|m, _| value_text(unit, m.value))
        .y_axis_formatter(|m, _| format!("{:.0}", m.value.exp_m1()))
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("link ends", bars).color(egui::Color32::from_rgb(200, 120, 60)));
            if let Some((lo, hi)) = range {
                plot.span(Span::new("brush", lo..=hi.min(max)));
            }
        });
    let x_at = |pos| response.transform.value_from_position(pos).x.clamp(0.0, max);
    let r = &response.response;
    if r.drag_started()
        && let Some(p) = r.interact_pointer_pos()
    {
        state.brush_start = Some(x_at(p));
    }
    if r.dragged()
        && let (Some(start), Some(p)) = (state.brush_start, r.interact_pointer_pos())
    {
        let x = x_at(p);
        filter.value_range = Some((start.min(x), start.max(x)));
    }
    if r.drag_stopped() {
        state.brush_start = None;
    }
    if r.double_clicked() {
        filter.value_range = None;
    }
    ui.small("drag across the histogram to keep a range of loads (y: log count); double-click clears");
}

/// The whole panel for one view: its filter, then its options. Edits a copy of the view's
/// spec and queues it if anything changed.
pub fn panel(
    ui: &mut Ui,
    state: &mut FilterPanelState,
    view: &View,
    d: &Dataset,
    commands: &mut Vec<Command>,
) {
    let mut spec = view.spec.clone();
    filter_ui(ui, state, view, &mut spec.filter, d);
    ui.separator();
    super::options::view_options(ui, &mut spec, d);
    commands.extend(Command::set_spec_if_changed(view.id, &view.spec, spec));
}

/// The threshold, the histogram, "hide unused", the clauses, and what passes.
fn filter_ui(ui: &mut Ui, state: &mut FilterPanelState, view: &View, filter: &mut Filter, d: &Dataset) {
    let unit = view.spec.link_attribute.as_deref();
    let network = view.network();
    let prepared = network.and_then(|n| n.prepared.as_ref()).and_then(|p| p.as_ref().ok());
    let values: &[Option<f64>] = prepared.map_or(&[], |p| p.link_values.as_slice());
    threshold_ui(ui, state, filter, prepared.map_or(0.0, |p| p.link_max()), unit);
    if !values.is_empty() {
        histogram_ui(ui, state, filter, values, unit);
    }
    if let Some((lo, hi)) = filter.value_range {
        let hi = if hi.is_finite() { value_text(unit, hi) } else { "∞".into() };
        ui.label(format!("showing links with {} … {hi}", value_text(unit, lo)));
    }
    ui.checkbox(&mut filter.hide_unused, "hide unused links");
    ui.separator();
    clauses_ui(ui, "view", filter, d, unit, state);
    if ui.button("clear filter").clicked() {
        *filter = Filter::default();
    }
    match network.and_then(|n| n.prepared.as_ref()) {
        Some(Err(e)) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        Some(Ok(p)) => {
            for problem in &p.problems {
                ui.colored_label(ui.visuals().warn_fg_color, problem);
            }
            let shown = p.link_pass.iter().filter(|&&x| x).count();
            let all = d.run.ids(Domain::Links).len();
            let shown = if p.link_pass.is_empty() { all } else { shown };
            ui.small(format!("{shown} of {all} links pass"));
        }
        None => {}
    }
}
