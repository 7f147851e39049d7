//! The filter panel: clauses with and/or, the hot-link threshold (absolute or percent of the
//! maximum), a link-load histogram whose brush sets the byte range, and "hide unused links".
//! The threshold and the brush both write `Filter::bytes_range`.

use egui::{ComboBox, Ui};
use egui_plot::{Bar, BarChart, Plot, Span};

use crate::scene::filter::{Attribute, Clause, Combine, Filter, Relation};
use crate::scene::values::LinkValues;
use crate::units::format_bytes_f64;

/// Panel state that survives frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilterPanelState {
    pub percent: bool,
    brush_start: Option<f64>,
}

/// The clause editor: one row per clause, and add / remove buttons.
pub fn clauses_ui(ui: &mut Ui, id: &str, filter: &mut Filter) {
    ui.horizontal(|ui| {
        ui.label("match");
        ui.radio_value(&mut filter.combine, Combine::All, "all (and)");
        ui.radio_value(&mut filter.combine, Combine::Any, "any (or)");
    });
    let mut remove = None;
    for (i, clause) in filter.clauses.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ComboBox::from_id_salt((id, "attr", i))
                .width(90.0)
                .selected_text(clause.attribute.name())
                .show_ui(ui, |ui| {
                    for a in Attribute::ALL {
                        ui.selectable_value(&mut clause.attribute, a, a.name());
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
            ui.add(
                egui::TextEdit::singleline(&mut clause.value)
                    .desired_width(80.0)
                    .hint_text(hint(clause.attribute)),
            );
            if ui.small_button("x").on_hover_text("remove this clause").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        filter.clauses.remove(i);
    }
    if ui.button("+ clause").clicked() {
        filter.clauses.push(Clause {
            attribute: Attribute::Bytes,
            relation: Relation::Ge,
            value: "1 MiB".into(),
        });
    }
}

fn hint(a: Attribute) -> &'static str {
    match a {
        Attribute::Bytes => "2 MiB",
        Attribute::Rail | Attribute::NodeRail => "0",
        Attribute::Level | Attribute::NodeLevel => "2",
        Attribute::Direction => "up / down",
        Attribute::NodeName => "L1-*",
        Attribute::NodeKind => "switch / ca",
    }
}

/// The threshold slider: writes `bytes_range = (threshold, ∞)`; 0 clears it.
pub fn threshold_ui(ui: &mut Ui, state: &mut FilterPanelState, filter: &mut Filter, max: f64) {
    ui.horizontal(|ui| {
        ui.label("hot-link threshold");
        ui.radio_value(&mut state.percent, false, "bytes");
        ui.radio_value(&mut state.percent, true, "% of max");
    });
    let current = filter.bytes_range.map_or(0.0, |(lo, _)| lo);
    let changed = if state.percent {
        let mut pct = if max > 0.0 { 100.0 * current / max } else { 0.0 };
        let r = ui.add(egui::Slider::new(&mut pct, 0.0..=100.0).suffix(" %").text("threshold"));
        (r.changed()).then_some(pct / 100.0 * max)
    } else {
        let mut bytes = current;
        let r = ui.add(
            egui::Slider::new(&mut bytes, 0.0..=max.max(1.0))
                .logarithmic(true)
                .custom_formatter(|v, _| format_bytes_f64(v))
                .text("threshold"),
        );
        r.changed().then_some(bytes)
    };
    if let Some(v) = changed {
        filter.bytes_range = if v > 0.0 { Some((v, f64::INFINITY)) } else { None };
    }
}

/// The histogram of link-end loads (40 bins); dragging across it sets the byte range.
pub fn histogram_ui(ui: &mut Ui, state: &mut FilterPanelState, filter: &mut Filter, values: &LinkValues) {
    let max = values.max_abs();
    if max <= 0.0 {
        ui.label("no traffic in this selection");
        return;
    }
    const BINS: usize = 40;
    let width = max / BINS as f64;
    let mut counts = [0u32; BINS];
    for &v in values.rails.iter().flatten() {
        let b = ((v.abs() / width) as usize).min(BINS - 1);
        counts[b] += 1;
    }
    let bars: Vec<Bar> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| Bar::new((i as f64 + 0.5) * width, f64::from(c).ln_1p()).width(width * 0.95))
        .collect();
    let range = filter.bytes_range;
    let response = Plot::new("load histogram")
        .height(110.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show_grid(false)
        .x_axis_formatter(|m, _| format_bytes_f64(m.value))
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
        filter.bytes_range = Some((start.min(x), start.max(x)));
    }
    if r.drag_stopped() {
        state.brush_start = None;
    }
    if r.double_clicked() {
        filter.bytes_range = None;
    }
    ui.small("drag across the histogram to keep a range of loads (y: log count); double-click clears");
}

/// The whole panel for one view's filter.
pub fn panel(ui: &mut Ui, state: &mut FilterPanelState, filter: &mut Filter, values: Option<&LinkValues>) {
    let max = values.map_or(0.0, LinkValues::max_abs);
    threshold_ui(ui, state, filter, max);
    if let Some(values) = values {
        histogram_ui(ui, state, filter, values);
    }
    if let Some((lo, hi)) = filter.bytes_range {
        let hi = if hi.is_finite() { format_bytes_f64(hi) } else { "∞".into() };
        ui.label(format!("showing link ends with {} … {hi}", format_bytes_f64(lo)));
    }
    ui.checkbox(&mut filter.hide_unused, "hide unused links");
    ui.separator();
    clauses_ui(ui, "view", filter);
    if ui.button("clear filter").clicked() {
        *filter = Filter::default();
    }
}

/// Colour map, scale and node colouring of one view.
pub fn view_options(ui: &mut Ui, spec: &mut crate::scene::view::ViewSpec) {
    use crate::scene::colour::{ColourMap, ScaleKind};
    use crate::scene::values::NodeAttribute;
    let o = &mut spec.options;
    egui::ComboBox::from_label("colour map").selected_text(o.link_map.name()).show_ui(ui, |ui| {
        for m in ColourMap::ALL.into_iter().filter(|m| !m.is_diverging()) {
            if ui.selectable_value(&mut o.link_map, m, m.name()).changed() {
                o.node_map = m;
            }
        }
    });
    egui::ComboBox::from_label("diff map").selected_text(o.diverging_map.name()).show_ui(ui, |ui| {
        for m in ColourMap::ALL.into_iter().filter(|m| m.is_diverging()) {
            ui.selectable_value(&mut o.diverging_map, m, m.name());
        }
    });
    ui.horizontal(|ui| {
        ui.label("scale");
        ui.radio_value(&mut o.scale, ScaleKind::Linear, "linear");
        ui.radio_value(&mut o.scale, ScaleKind::Log, "log");
    });
    egui::ComboBox::from_label("nodes coloured by").selected_text(o.node_attribute.name()).show_ui(
        ui,
        |ui| {
            for a in NodeAttribute::ALL {
                ui.selectable_value(&mut o.node_attribute, a, a.name());
            }
        },
    );
}
