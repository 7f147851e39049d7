//! Predicted against observed, for a fabric with port counters: what colours the link ends
//! (predicted, observed, residual), a scatter plot of predicted vs observed bytes per link end
//! whose brush keeps the link ends inside it (clauses on `predicted` and `observed` in the
//! view's filter, so every panel and linked view sees the same selection), and the link ends
//! ranked by residual.

use egui::{Color32, Ui};
use egui_plot::{Line, Plot, PlotPoints, Points, Polygon};

use crate::routing::{RankBy, RankedEnd, rank_ends};
use crate::units::{format_bytes, format_bytes_f64};
use crate::view_model::dataset::Dataset;
use crate::view_model::dataset::counters::{OBSERVED, PREDICTED, RESIDUAL};
use crate::view_model::dataset::link_health::{ERRORS, STALL, UTILISATION};
use crate::view_model::filter::{Clause, Filter, Relation};

use crate::view_model::view::ViewSpec;

use super::command::Command;
use super::workspace::View;

/// Link ends listed in the residual table.
const RANKED: usize = 25;

/// The scatter's points and the ranked ends, rebuilt when the data set changes; the brush
/// being dragged.
#[derive(Clone, Debug, Default)]
pub struct CountersState {
    generation: Option<u64>,
    /// (predicted, observed) per covered link end, in view-model link order.
    points: Vec<[f64; 2]>,
    ranked: Vec<RankedEnd>,
    brush_start: Option<[f64; 2]>,
}

/// The panel: nothing unless the data set has counters. Edits a copy of the view's spec and
/// queues it if anything changed.
pub fn panel(
    ui: &mut Ui,
    state: &mut CountersState,
    view: &View,
    d: &Dataset,
    generation: u64,
    commands: &mut Vec<Command>,
) {
    let Some(fabric) = d.fabric.as_ref().filter(|_| d.has_counters()) else {
        ui.small("no port counters: open a fabric with --counters FILE (perfquery, ibqueryerrors, ibdiagnet2, PerfMgr, Prometheus)");
        return;
    };
    if state.generation != Some(generation) {
        state.points = scatter_points(d);
        let ends: Vec<usize> = fabric.cluster.rails.iter().map(|f| f.link_end_count()).collect();
        state.ranked =
            rank_ends(&ends, Some(&fabric.loads.total), fabric.observed.as_ref(), RankBy::Residual, RANKED);
        state.generation = Some(generation);
    }
    let mut spec = view.spec.clone();
    colour_by_ui(ui, &mut spec);
    ui.separator();
    scatter_ui(ui, state, &mut spec.filter);
    commands.extend(Command::set_spec_if_changed(view.id, &view.spec, spec));
    ui.separator();
    ranked_ui(ui, state, view, d, commands);
}

/// Three buttons: colour by the trace's bytes, the counters' bytes, or their difference.
fn colour_by_ui(ui: &mut Ui, spec: &mut ViewSpec) {
    // Wrapped: a narrow side panel must not hide the last button past its edge.
    ui.horizontal_wrapped(|ui| {
        ui.label("colour link ends by");
        for (label, attribute) in [("predicted", "bytes"), ("observed", OBSERVED), ("residual", RESIDUAL)] {
            let on = spec.link_attribute.as_deref() == Some(attribute);
            if ui.selectable_label(on, label).clicked() {
                spec.link_attribute = Some(attribute.to_string());
            }
        }
    });
    // What the counters say beside bytes (issue 22): a % on 0–100 with thresholds, or a count.
    ui.horizontal(|ui| {
        ui.label("or by");
        for attribute in [UTILISATION, STALL, ERRORS] {
            let on = spec.link_attribute.as_deref() == Some(attribute);
            if ui.selectable_label(on, attribute).clicked() {
                spec.link_attribute = Some(attribute.to_string());
            }
        }
    });
    if spec.link_attribute.as_deref() == Some(RESIDUAL) {
        ui.small(
            "residual = observed − predicted: red where the counters saw more than the trace, blue less",
        );
    }
}

fn scatter_points(d: &Dataset) -> Vec<[f64; 2]> {
    use crate::model::Domain;
    use crate::view_model::query::{Aggregate, values};
    let predicted = values(&d.run, Domain::Links, &[], Aggregate::Sum, PREDICTED).unwrap_or_default();
    let observed = values(&d.run, Domain::Links, &[], Aggregate::Sum, OBSERVED).unwrap_or_default();
    predicted.iter().zip(&observed).filter_map(|(p, o)| Some([(*p)?, (*o)?])).collect()
}

/// The brushed rectangle, read back from the filter's clauses.
fn brushed(filter: &Filter) -> Option<[[f64; 2]; 2]> {
    let bound = |attribute: &str, relation: Relation| {
        filter
            .clauses
            .iter()
            .find(|c| c.attribute == attribute && c.relation == relation)?
            .value
            .parse::<f64>()
            .ok()
    };
    Some([
        [bound(PREDICTED, Relation::Ge)?, bound(OBSERVED, Relation::Ge)?],
        [bound(PREDICTED, Relation::Le)?, bound(OBSERVED, Relation::Le)?],
    ])
}

/// Replaces the brush clauses with the rectangle `[lo, hi]` (or removes them).
pub fn set_brush(filter: &mut Filter, rect: Option<[[f64; 2]; 2]>) {
    filter.clauses.retain(|c| !(c.attribute == PREDICTED || c.attribute == OBSERVED));
    let Some([lo, hi]) = rect else { return };
    for (attribute, axis) in [(PREDICTED, 0), (OBSERVED, 1)] {
        for (relation, value) in
            [(Relation::Ge, lo[axis].min(hi[axis])), (Relation::Le, lo[axis].max(hi[axis]))]
        {
            filter.clauses.push(Clause {
                attribute: attribute.into(),
                relation,
                value: format!("{value:.0}"),
            });
        }
    }
}

fn scatter_ui(ui: &mut Ui, state: &mut CountersState, filter: &mut Filter) {
    ui.label(format!("predicted vs observed bytes, {} link ends with counters", state.points.len()));
    let max = state.points.iter().fold(1.0f64, |m, p| m.max(p[0]).max(p[1]));
    let brush = brushed(filter);
    // As wide as the visible panel, not as the widest table below it (the panel scrolls).
    let visible = (ui.clip_rect().right() - ui.cursor().left() - 8.0).max(160.0);
    let response = Plot::new("predicted vs observed")
        .width(visible.min(ui.available_width()))
        .height(240.0)
        .include_x(0.0)
        .include_y(0.0)
        .include_x(max)
        .include_y(max)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .x_axis_label("predicted")
        .y_axis_label("observed")
        .x_axis_formatter(|m, _| format_bytes_f64(m.value))
        .y_axis_formatter(|m, _| format_bytes_f64(m.value))
        .show(ui, |plot| {
            plot.line(
                Line::new("observed = predicted", PlotPoints::from(vec![[0.0, 0.0], [max, max]]))
                    .color(Color32::GRAY),
            );
            plot.points(
                Points::new("link ends", state.points.clone())
                    .radius(2.5)
                    .color(Color32::from_rgb(200, 120, 60)),
            );
            if let Some([lo, hi]) = brush {
                let corners = vec![[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]];
                plot.polygon(
                    Polygon::new("brush", PlotPoints::from(corners))
                        .fill_color(Color32::from_rgba_unmultiplied(80, 140, 220, 40)),
                );
            }
        });
    let at = |pos| {
        let v = response.transform.value_from_position(pos);
        [v.x.clamp(0.0, max), v.y.clamp(0.0, max)]
    };
    let r = &response.response;
    if r.drag_started()
        && let Some(p) = r.interact_pointer_pos()
    {
        state.brush_start = Some(at(p));
    }
    if r.dragged()
        && let (Some(start), Some(p)) = (state.brush_start, r.interact_pointer_pos())
    {
        set_brush(filter, Some([start, at(p)]));
    }
    if r.drag_stopped() {
        state.brush_start = None;
    }
    if r.double_clicked() {
        set_brush(filter, None);
    }
    ui.small("drag a box to keep those link ends (clauses on predicted and observed); double-click clears");
}

fn ranked_ui(ui: &mut Ui, state: &CountersState, view: &View, d: &Dataset, commands: &mut Vec<Command>) {
    let Some(fabric) = &d.fabric else { return };
    ui.label("largest residuals (observed − predicted); click a row to select the link end");
    // The figures first, the long link-end name last: a narrow panel still shows the numbers.
    egui::Grid::new("residuals").striped(true).num_columns(4).show(ui, |ui| {
        for heading in ["residual", "observed", "predicted", "link end"] {
            ui.strong(heading);
        }
        ui.end_row();
        for end in &state.ranked {
            let f = &fabric.cluster.rails[end.rail];
            let Some(((a, ap), (b, bp))) = f.link_end_nodes(end.end) else { continue };
            ui.label(match end.residual {
                Some(r) if r < 0 => format!("−{}", format_bytes(r.unsigned_abs())),
                Some(r) => format!("+{}", format_bytes(r.unsigned_abs())),
                None => "-".into(),
            });
            ui.label(end.observed.map_or("-".into(), format_bytes));
            ui.label(end.predicted.map_or("-".into(), format_bytes));
            let name =
                format!("r{} {} ({ap}) → {} ({bp})", end.rail, f.node(a).description, f.node(b).description);
            let position = fabric.index.link_position(end.rail, end.end);
            let selected = position.is_some() && view.selected_link == position;
            if ui.selectable_label(selected, name).clicked()
                && let Some(link) = position
            {
                commands.push(Command::SelectLink { view: view.id, link });
            }
            ui.end_row();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_brush_is_four_clauses_that_read_back_as_its_rectangle() {
        let mut filter = Filter::default();
        filter.clauses.push(Clause { attribute: "bytes".into(), relation: Relation::Ge, value: "1".into() });
        set_brush(&mut filter, Some([[500.0, 90.0], [100.0, 300.0]]));
        assert_eq!(filter.clauses.len(), 5, "the other clause stays");
        assert_eq!(brushed(&filter), Some([[100.0, 90.0], [500.0, 300.0]]));
        set_brush(&mut filter, None);
        assert_eq!(filter.clauses.len(), 1);
    }
}
