//! The time strip module (issue 13): the run's regions as columns in dump-time order, link-end
//! groups (or the busiest ends) as rows, bytes as colour. A drag brushes a window of regions,
//! a click picks one; the linked views of its group then show that window summed (or that
//! region). The play button steps through the regions one per frame. With more regions than
//! pixels, columns are binned ([`crate::scene::time_strip`]). With a series of counter snapshots
//! (three or more `--counters` for the same rails) the columns can be its intervals instead:
//! what the ports observed, with nothing to brush (they are no regions of the loads).

use std::sync::Arc;

use egui::{Align2, Color32, FontId, Mesh, Rect, Sense, Stroke, StrokeKind, Ui, pos2, vec2};

use crate::scene::camera::Camera;
use crate::scene::colour::ColourScale;
use crate::scene::time_strip::{StripRows, TimeStrip, region_columns};
use crate::scene::values::RegionSelection;
use crate::scene::view::ModuleKind;
use crate::units::{format_bytes_f64, format_time_of_day};

use super::paint::colour;
use super::{Command, ViewContext, ViewModule, ViewState};

/// Width of the row labels, in points.
const LABELS: f32 = 190.0;
/// Height of the time axis under the map.
const AXIS: f32 = 18.0;

/// The time strip module (stateless).
pub struct TimeStripModule;

/// What a strip's columns are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StripSource {
    /// The profile's regions, in dump-time order.
    Regions,
    /// The intervals of a series of counter snapshots, in the order given.
    Snapshots,
}

/// What a strip view keeps between frames: its numbers (rebuilt when the data or the rows
/// change), the rows shown, where a brush started, and whether it plays.
#[derive(Default)]
pub struct StripState {
    built_for: Option<(u64, StripRows, StripSource)>,
    pub strip: Arc<TimeStrip>,
    pub rows: StripRows,
    /// What the columns are; `None` until the data set is seen (then regions if it has any).
    pub source: Option<StripSource>,
    brush_from: Option<usize>,
    pub playing: bool,
}

impl ViewModule for TimeStripModule {
    fn name(&self) -> &'static str {
        "time strip"
    }

    fn draws(&self, kind: &ModuleKind) -> bool {
        *kind == ModuleKind::TimeStrip
    }

    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut ViewState,
        _camera: &mut Camera,
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        let Some(fabric) = ctx.dataset.fabric.as_ref() else {
            ui.label("the time strip needs a fabric with a profile");
            return;
        };
        let strip = &mut state.strip;
        let series = fabric.observed.as_ref().filter(|o| !o.series.is_empty());
        let has_regions = fabric.loads.regions.iter().any(|r| r.region.is_some());
        let source = *strip.source.get_or_insert(match (has_regions, series) {
            (false, Some(_)) => StripSource::Snapshots,
            _ => StripSource::Regions,
        });
        if strip.built_for != Some((ctx.generation, strip.rows, source)) {
            strip.strip = Arc::new(match (source, series) {
                (StripSource::Snapshots, Some(observed)) => {
                    TimeStrip::of_intervals(fabric, observed, strip.rows)
                }
                _ => TimeStrip::build(fabric, &region_columns(&fabric.loads), strip.rows),
            });
            strip.built_for = Some((ctx.generation, strip.rows, source));
        }
        let data = strip.strip.clone();
        let window = window_columns(&data, ctx.spec.selection);
        controls(ui, strip, &data, window, series.is_some() && has_regions);
        if strip.playing {
            let next = window.map_or(0, |(_, b)| b + 1);
            match data.selection(next, next) {
                Some(selection) => {
                    commands.push(Command::SelectRegions { group: ctx.group.id, selection });
                    ui.ctx().request_repaint();
                }
                None => strip.playing = false,
            }
        }
        let rect = ui.available_rect_before_wrap();
        state.rect = Some(rect);
        let response = ui.allocate_rect(rect, Sense::click_and_drag());
        let map =
            Rect::from_min_max(pos2(rect.min.x + LABELS, rect.min.y), pos2(rect.max.x, rect.max.y - AXIS));
        if data.columns.is_empty() || data.rows.is_empty() || map.width() < 2.0 {
            ui.painter().text(
                rect.center(),
                Align2::CENTER_CENTER,
                if source == StripSource::Snapshots { "no intervals" } else { "no regions" },
                FontId::proportional(13.0),
                ui.visuals().text_color(),
            );
            return;
        }
        let column_at = |x: f32| {
            let t = ((x - map.min.x) / map.width()).clamp(0.0, 0.999_999);
            (t * data.columns.len() as f32) as usize
        };
        let pointer = response.interact_pointer_pos().filter(|p| p.x >= map.min.x);
        if response.drag_started() || response.clicked() {
            // Where the button went down, not where the drag was first recognised.
            let origin = ui.input(|i| i.pointer.press_origin()).or(pointer);
            strip.brush_from = origin.filter(|p| p.x >= map.min.x).map(|p| column_at(p.x));
        }
        if let (Some(from), Some(p)) = (strip.brush_from, pointer)
            && (response.dragged() || response.clicked() || response.drag_stopped())
            && let Some(selection) = data.selection(from, column_at(p.x))
            && selection != ctx.spec.selection
        {
            strip.playing = false;
            commands.push(Command::SelectRegions { group: ctx.group.id, selection });
        }
        paint(ui, ctx, &data, map, window);
        if let Some(p) = response.hover_pos().filter(|p| map.contains(*p)) {
            let row = (((p.y - map.min.y) / map.height()) * data.rows.len() as f32) as usize;
            let column = column_at(p.x);
            let bytes = data.value(row.min(data.rows.len() - 1), column);
            response.on_hover_text(format!(
                "{}\n{}\n{}",
                data.column_label(column),
                data.rows.get(row).cloned().unwrap_or_default(),
                format_bytes_f64(bytes)
            ));
        }
    }
}

/// The columns a selection covers, if it is a region or a window the strip shows.
fn window_columns(data: &TimeStrip, selection: RegionSelection) -> Option<(usize, usize)> {
    let (a, b) = match selection {
        RegionSelection::Region(n) => (n, n),
        RegionSelection::Window(a, b) => (a, b),
        RegionSelection::Cumulative(n) => (data.columns.first()?.0, n),
        _ => return None,
    };
    let (x, y) = (data.column_of(a)?, data.column_of(b)?);
    Some((x.min(y), x.max(y)))
}

/// Columns and rows menus, play button, and what the window is.
fn controls(
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
            let times =
                data.time_source.map_or("no times".to_string(), |t| format!("times: {}", t.describe()));
            ui.label(format!("{} intervals between counter snapshots ({times})", data.columns.len()));
            ui.weak(format!("colour: 0 – {} per interval", format_bytes_f64(data.max())));
            return;
        }
        let play = if strip.playing { "pause" } else { "play" };
        if ui.button(play).clicked() {
            strip.playing = !strip.playing;
        }
        let text = match window {
            Some((a, b)) if a == b => data.column_label(a),
            Some((a, b)) => format!(
                "{} – {}, {} regions, {}",
                data.column_label(a),
                data.columns[b].1.map_or(String::new(), |t| format_time_of_day(t.0)),
                b - a + 1,
                data.span_label(a, b).unwrap_or_default()
            ),
            None => "whole run: drag over the strip to pick a window".into(),
        };
        ui.label(text);
        // Binned pixels show their busiest region, so the scale is per region.
        ui.weak(format!("colour: 0 – {} per region", format_bytes_f64(data.max())));
    });
}

/// The binned heat map, row labels, the time axis and the window's outline.
fn paint(ui: &Ui, ctx: &ViewContext<'_>, data: &TimeStrip, map: Rect, window: Option<(usize, usize)>) {
    let painter = ui.painter_at(map.expand2(vec2(LABELS, AXIS)));
    let binned = data.binned(map.width() as usize);
    let scale = ColourScale::new(ctx.spec.link_map, ctx.spec.scale, 0.0, data.max().max(1.0));
    let (bins, rows) = (binned.bins.len(), data.rows.len());
    let (w, h) = (map.width() / bins as f32, map.height() / rows as f32);
    let mut mesh = Mesh::default();
    for row in 0..rows {
        for bin in 0..bins {
            let fill = colour(scale.colour(binned.cells[row * bins + bin]));
            let at = pos2(map.min.x + bin as f32 * w, map.min.y + row as f32 * h);
            mesh.add_colored_rect(Rect::from_min_size(at, vec2(w.max(1.0), h)), fill);
        }
    }
    painter.add(mesh);
    let text = ui.visuals().text_color();
    let font = FontId::proportional(11.0);
    for (row, label) in data.rows.iter().enumerate() {
        let y = map.min.y + (row as f32 + 0.5) * h;
        painter.text(pos2(map.min.x - 6.0, y), Align2::RIGHT_CENTER, label, font.clone(), text);
    }
    let time = |c: usize| {
        let noun = data.column_noun();
        data.columns[c].1.map_or(format!("{noun} {}", data.columns[c].0), |t| format_time_of_day(t.0))
    };
    let axis_y = map.max.y + 2.0;
    painter.text(pos2(map.min.x, axis_y), Align2::LEFT_TOP, time(0), font.clone(), text);
    painter.text(
        pos2(map.max.x, axis_y),
        Align2::RIGHT_TOP,
        time(data.columns.len() - 1),
        font.clone(),
        text,
    );
    if let Some((a, b)) = window {
        let n = data.columns.len() as f32;
        let x0 = map.min.x + a as f32 / n * map.width();
        let x1 = map.min.x + (b + 1) as f32 / n * map.width();
        let brush = Rect::from_min_max(pos2(x0, map.min.y), pos2(x1.max(x0 + 2.0), map.max.y));
        painter.rect_filled(brush, 0.0, Color32::from_white_alpha(40));
        painter.rect_stroke(brush, 0.0, Stroke::new(1.5, Color32::WHITE), StrokeKind::Outside);
    }
}
