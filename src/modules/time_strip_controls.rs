//! The time strip's controls above its canvas: which columns (regions or counter intervals),
//! which rows, what a counter interval's cell measures (bytes, utilisation or stall %), play,
//! and what the window is.

use egui::Ui;

use crate::units::format_time_of_day;
use crate::view_model::time_strip::{StripMeasure, StripRows, TimeStrip};

use super::time_strip_state::{StripSource, StripState};

/// Columns and rows menus, play button, and what the window is.
pub fn controls(
    ui: &mut Ui,
    strip: &mut StripState,
    data: &TimeStrip,
    window: Option<(usize, usize)>,
    both_sources: bool,
) {
    ui.horizontal(|ui| {
        if both_sources {
            let source = strip.source.get_or_insert(StripSource::Regions);
            ui.selectable_value(source, StripSource::Regions, "regions");
            ui.selectable_value(source, StripSource::Snapshots, "counter intervals");
        }
        let label = |rows: StripRows| match rows {
            StripRows::Groups => "level groups".to_string(),
            StripRows::TopEnds(n) => format!("top {n} link ends"),
        };
        egui::ComboBox::from_label("rows").selected_text(label(strip.rows)).show_ui(ui, |ui| {
            for rows in [StripRows::Groups, StripRows::TopEnds(10), StripRows::TopEnds(30)] {
                ui.selectable_value(&mut strip.rows, rows, label(rows));
            }
        });
        if !data.intervals.is_empty() {
            strip.playing = false;
            let words = |m: StripMeasure| match m {
                StripMeasure::Bytes => "bytes",
                StripMeasure::Utilisation => "utilisation %",
                StripMeasure::Stall => "stall %",
            };
            egui::ComboBox::from_label("measure").selected_text(words(strip.measure)).show_ui(ui, |ui| {
                for measure in StripMeasure::ALL {
                    ui.selectable_value(&mut strip.measure, measure, words(measure));
                }
            });
            let times =
                data.time_source.map_or("no times".to_string(), |t| format!("times: {}", t.describe()));
            ui.label(format!("{} intervals between counter snapshots ({times})", data.columns.len()))
                .on_hover_text(
                    "click an interval: the linked views colour their counters by it; \
                     click it again: the whole window",
                );
            return;
        }
        let play = if strip.playing { "pause" } else { "play" };
        if ui.button(play).clicked() {
            strip.playing = !strip.playing;
        }
        ui.label(window_text(data, window));
    });
}

/// What the window is: a region, a span of regions with its times, or the whole run.
fn window_text(data: &TimeStrip, window: Option<(usize, usize)>) -> String {
    match window {
        Some((a, b)) if a == b => data.column_label(a),
        Some((a, b)) => format!(
            "{} – {}, {} regions, {}",
            data.column_label(a),
            data.columns[b].1.map_or(String::new(), |t| format_time_of_day(t.0)),
            b - a + 1,
            data.span_label(a, b).unwrap_or_default()
        ),
        None => "whole run: drag over the strip to pick a window".into(),
    }
}
