//! The Congestion tab (issue 22, items 5–7): where the bytes waited, from the port counters.
//! - Congestion regions over time, time first: one row per counter interval, each region a
//!   numbered box as wide as its extent (link ends), coloured by its worst stall on the 0–100 %
//!   scale of a stall view; lines join regions of consecutive intervals that share an end (split
//!   and merge). Clicking a region highlights its link ends in every view of the group and
//!   moves the group's time cursor to its interval (marked > here, outlined on the time strip).
//! - The CCDFs of utilisation and stall per tier and direction (log y), with Pearson's r.
//! - With a profile: why was the job slow ([`crate::view_model::why`]), its verdict and ranked ends.

use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, Ui, pos2, vec2};
use egui_plot::{Legend, Line, Plot};

use crate::model::thresholds::DEFAULT_REGION_STALL;
use crate::scene::colour::{ColourMap, ColourScale, ScaleKind};
use crate::view_model::ccdf::{ClassCcdf, ccdf_by_class};
use crate::view_model::congestion::{EndPlaces, Evolution, congestion_regions};
use crate::view_model::dataset::Dataset;
use crate::view_model::highlight::Seed;
use crate::view_model::link_series::LinkSeries;
use crate::view_model::view::ViewSpec;
use crate::view_model::why::{Why, why};

use super::link_group::GroupId;
use super::{Command, ViewId};

/// What the tab computed, rebuilt when the data or the threshold change.
#[derive(Default)]
pub struct CongestionState {
    key: Option<(u64, u64)>,
    pub threshold: Option<f64>,
    evolution: Evolution,
    ccdf: Vec<ClassCcdf>,
    why: Option<Result<Why, String>>,
    /// The region last clicked (its number).
    pub picked: Option<u32>,
    /// Where each region's box was last drawn (number, screen rect): tests aim clicks with it.
    pub boxes: Vec<(u32, Rect)>,
    has_series: bool,
}

const ROW_H: f32 = 22.0;

impl CongestionState {
    fn rebuild(&mut self, d: &Dataset, generation: u64) {
        let threshold = *self.threshold.get_or_insert(DEFAULT_REGION_STALL);
        let key = (generation, threshold.to_bits());
        if self.key == Some(key) {
            return;
        }
        self.key = Some(key);
        let Some(fabric) = &d.fabric else { return };
        let series = fabric.observed.as_ref().and_then(|o| LinkSeries::of(&fabric.cluster, o));
        self.has_series = series.is_some();
        let series = series.unwrap_or_default();
        let places = EndPlaces::new(&fabric.cluster);
        self.evolution =
            congestion_regions(&places, series.stall.iter().map(Vec::as_slice), threshold as f32);
        self.ccdf = ccdf_by_class(&places, &series);
        let traced = fabric.profile.is_some() || !fabric.jobs.is_empty();
        self.why = traced.then(|| why(d, None, Some(threshold), None));
    }
}

/// The tab for the focused view's group.
pub fn panel(
    ui: &mut Ui,
    state: &mut CongestionState,
    d: &Dataset,
    (view, group, view_spec, cursor): (ViewId, GroupId, &ViewSpec, Option<u32>),
    generation: u64,
    commands: &mut Vec<Command>,
) {
    health_layer_ui(ui, view_spec, view, commands);
    if !d.has_counters() {
        ui.small("congestion needs port counters: --counters BEFORE --counters AFTER (three or more make a series)");
        return;
    }
    state.rebuild(d, generation);
    if !state.has_series {
        ui.small(
            "the counters span no interval with times (one snapshot, or snapshots without times): no stall %",
        );
        return;
    }
    let mut threshold = state.threshold.unwrap_or(DEFAULT_REGION_STALL);
    ui.horizontal(|ui| {
        ui.label("regions: ends at stall ≥");
        // Named, so screen readers (and the kittest accessibility check) can tell what it sets.
        let slider =
            egui::Slider::new(&mut threshold, 1.0..=90.0).suffix(" %").text("region stall threshold");
        if ui.add(slider).changed() {
            state.threshold = Some(threshold);
        }
    });
    ui.label(format!(
        "congestion regions over time: {} in {} interval(s); width = link ends, colour = worst stall",
        state.evolution.regions.len(),
        state.evolution.by_interval.len()
    ));
    let (clicked, boxes) = regions_ui(ui, &state.evolution, state.picked, cursor);
    state.boxes = boxes;
    if let Some(number) = clicked {
        state.picked = Some(number);
        commands.extend(region_picked(&state.evolution, number, view, group));
    }
    ui.separator();
    ccdf_ui(ui, &state.ccdf);
    if let Some(answer) = &state.why {
        ui.separator();
        why_ui(ui, answer);
    }
}

/// What a click on region `number` does: light its link ends in the group, move the group's
/// time cursor to its interval, and keep the view focused.
pub fn region_picked(evolution: &Evolution, number: u32, view: ViewId, group: GroupId) -> Vec<Command> {
    let Some(region) = evolution.numbered(number) else { return Vec::new() };
    let seeds = region.ends.iter().map(|&e| Seed::link(e as usize)).collect();
    vec![
        Command::Highlight { group, seeds, add: false },
        Command::SetTimeCursor { group, interval: Some(region.interval) },
        Command::Focus(view),
    ]
}

/// The focused view's health layer on or off.
fn health_layer_ui(ui: &mut Ui, spec: &ViewSpec, view: ViewId, commands: &mut Vec<Command>) {
    let mut after = spec.clone();
    ui.checkbox(&mut after.health_layer, "health layer: degraded links dashed, error ports ringed");
    commands.extend(Command::set_spec_if_changed(view, spec, after));
}

/// The time-first drawing, the time cursor's interval marked >; returns the number of the region
/// clicked, and where each region was drawn.
fn regions_ui(
    ui: &mut Ui,
    evolution: &Evolution,
    picked: Option<u32>,
    cursor: Option<u32>,
) -> (Option<u32>, Vec<(u32, Rect)>) {
    let rows = evolution.by_interval.len();
    let width = ui.available_width().max(200.0);
    let (response, painter) = ui.allocate_painter(vec2(width, rows as f32 * ROW_H + 4.0), Sense::click());
    let origin = response.rect.min;
    let scale = ColourScale::new(ColourMap::YlOrRd, ScaleKind::Linear, 0.0, 100.0);
    let label_w = 34.0;
    let boxes = region_boxes(evolution, origin, width - label_w, label_w);
    for (t, _) in evolution.by_interval.iter().enumerate() {
        let y = origin.y + t as f32 * ROW_H + ROW_H / 2.0;
        let at_cursor = cursor == Some(t as u32);
        let text = if at_cursor { format!("> {}", t + 1) } else { format!("{}", t + 1) };
        let colour = if at_cursor { Color32::RED } else { Color32::GRAY };
        painter.text(pos2(origin.x + 2.0, y), Align2::LEFT_CENTER, text, FontId::proportional(11.0), colour);
    }
    for &(a, b) in &evolution.links {
        let (ra, rb) = (boxes[a as usize], boxes[b as usize]);
        painter.line_segment([ra.center_bottom(), rb.center_top()], Stroke::new(1.5, Color32::DARK_GRAY));
    }
    let mut clicked = None;
    for (region, rect) in evolution.regions.iter().zip(&boxes) {
        let [r, g, b, _] = scale.colour(f64::from(region.worst_stall)).0;
        painter.rect_filled(*rect, 2.0, Color32::from_rgb(r, g, b));
        let outline = if picked == Some(region.number) {
            Stroke::new(2.0, Color32::RED)
        } else {
            Stroke::new(1.0, Color32::DARK_GRAY)
        };
        painter.rect_stroke(*rect, 2.0, outline, egui::StrokeKind::Inside);
        let text = region.number.to_string();
        painter.text(rect.center(), Align2::CENTER_CENTER, text, FontId::proportional(11.0), Color32::BLACK);
        let hover = format!(
            "region {} · interval {} · tier {} {} · {} end(s) · worst stall {:.1} %",
            region.number,
            region.interval + 1,
            region.tier,
            if region.up { "up" } else { "down" },
            region.ends.len(),
            region.worst_stall
        );
        if response.hover_pos().is_some_and(|p| rect.contains(p)) {
            response.clone().on_hover_text(hover);
        }
        if response.clicked() && response.interact_pointer_pos().is_some_and(|p| rect.contains(p)) {
            clicked = Some(region.number);
        }
    }
    ui.small(
        "click a region to highlight its link ends and move the time cursor (>) to its interval; \
         red = stall 100 %, as the stall legend",
    );
    let drawn = evolution.regions.iter().map(|r| r.number).zip(boxes).collect();
    (clicked, drawn)
}

/// Each region's box: rows by interval, widths by extent over the widest interval's total.
fn region_boxes(evolution: &Evolution, origin: egui::Pos2, width: f32, left: f32) -> Vec<Rect> {
    let extent = |range: &std::ops::Range<usize>| -> usize {
        evolution.regions[range.clone()].iter().map(|r| r.ends.len()).sum()
    };
    let widest = evolution.by_interval.iter().map(extent).max().unwrap_or(1).max(1) as f32;
    let mut boxes = Vec::with_capacity(evolution.regions.len());
    for (t, range) in evolution.by_interval.iter().enumerate() {
        let mut x = origin.x + left;
        for region in &evolution.regions[range.clone()] {
            let w = (region.ends.len() as f32 / widest * (width - 4.0)).max(14.0);
            let y = origin.y + t as f32 * ROW_H + 3.0;
            boxes.push(Rect::from_min_size(pos2(x, y), vec2(w - 2.0, ROW_H - 6.0)));
            x += w;
        }
    }
    boxes
}

/// Utilisation and stall CCDFs, log y (ticks as powers of ten), r in each line's name.
fn ccdf_ui(ui: &mut Ui, classes: &[ClassCcdf]) {
    for (what, pick) in [("utilisation", true), ("stall", false)] {
        ui.label(format!("CCDF of {what} % per tier and direction (share of samples ≥ x, log scale)"));
        let log_y =
            |m: egui_plot::GridMark, _: &std::ops::RangeInclusive<f64>| format!("1e{}", m.value.round());
        Plot::new(format!("ccdf {what}"))
            .height(140.0)
            .legend(Legend::default())
            .include_y(0.0)
            .x_axis_formatter(|m, _| format!("{} %", m.value))
            .y_axis_formatter(log_y)
            .show(ui, |p| {
                for c in classes {
                    let ccdf = if pick { &c.utilisation } else { &c.stall };
                    let points: Vec<[f64; 2]> = ccdf.points.iter().map(|q| [q[0], q[1].log10()]).collect();
                    let r = c.r.map_or("r n/a".into(), |r| format!("r = {r:.2}"));
                    p.line(Line::new(format!("{} ({r})", c.label()), points));
                }
            });
    }
}

fn why_ui(ui: &mut Ui, answer: &Result<Why, String>) {
    ui.heading("why was my job slow");
    let w = match answer {
        Ok(w) => w,
        Err(e) => {
            ui.small(e);
            return;
        }
    };
    ui.label(&w.verdict);
    for r in w.regions.iter().take(8) {
        ui.small(&r.verdict);
        for e in r.job_ends.iter().take(3) {
            let share = e.job_share.map_or("-".into(), |s| format!("{:.0} %", 100.0 * s));
            ui.small(format!("  stall {:.1} % × share {share} = {:.1}", e.stall_percent, e.score));
        }
    }
    ui.small(format!(
        "{} degraded link(s), {} error count(s) on its routes",
        w.degraded.len(),
        w.errors.len()
    ));
}
