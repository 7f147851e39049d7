//! The time strip class (issue 13): the run's regions as columns in dump-time order, link-end
//! groups (or the busiest ends) as rows, bytes as colour. A drag brushes a window of regions,
//! a click picks one; the linked views of its group then show that window summed (or that
//! region). The play button steps through the regions one per frame. With more regions than
//! pixels, columns are binned ([`crate::view_model::time_strip`]). With a series of counter snapshots
//! (three or more `--counters` for the same rails) the columns can be its intervals instead:
//! what the ports observed, with nothing to brush (they are no regions of the loads): a click
//! there moves the group's time cursor to that interval, and the cursor's column is outlined.
//! The scheduler's jobs that ran in the strip's span are bands under it: a click on one
//! highlights its footprint.
//!
//! The strip is drawn as `shoal render --module time-strip` draws it ([`StripPicture`]), through
//! the shared painters, so the window exports it as the CLI does.

use egui::{Rect, Response, Sense, Ui};

use crate::scene::time_strip_draw::StripPicture;
use crate::scene::time_strip_jobs_draw::{LANE_H, LANES_GAP};
use crate::units::format_bytes_f64;
use crate::view_model::dataset::Dataset;
use crate::view_model::highlight::search;
use crate::view_model::time_strip::TimeStrip;
use crate::view_model::time_strip_jobs::JobBand;
use crate::view_model::view::{ModuleSpec, has_time};

use super::class::{Drawing, Eye, Placement, PrepareContext, ViewClass, ViewContext, if_available};
use super::command::Command;
use super::paint;
use super::time_strip_controls::controls;
use super::time_strip_state::{StripState, window_columns};

/// The time strip class (stateless).
pub struct TimeStripClass;

impl ViewClass for TimeStripClass {
    type State = StripState;

    fn id(&self) -> &'static str {
        "time_strip"
    }

    fn display_name(&self) -> &'static str {
        "time strip"
    }

    fn unavailable(&self, d: &Dataset, _: &ModuleSpec) -> Option<&'static str> {
        (!has_time(d)).then_some(
            "nothing over time here: the time strip shows a profile's regions or three or more counter snapshots",
        )
    }

    fn module_for(&self, d: &Dataset) -> Option<ModuleSpec> {
        if_available(self, ModuleSpec::of("time_strip"), d)
    }

    fn new_state(&self) -> StripState {
        StripState::default()
    }

    fn placement(&self) -> Placement {
        Placement::Band
    }

    fn is_network(&self) -> bool {
        false
    }

    fn prepare(&self, ctx: &PrepareContext<'_>, state: &mut StripState) -> Result<(), String> {
        state.build(ctx.dataset, ctx.generation)
    }

    fn last_size(&self, state: &StripState) -> Option<[f32; 2]> {
        Some([state.size.x, state.size.y])
    }

    fn draw_list<'s>(
        &self,
        ctx: &ViewContext<'_>,
        state: &'s mut StripState,
        _eye: &Eye,
        size: [f32; 2],
    ) -> Result<Drawing<'s>, String> {
        state.build(ctx.dataset, ctx.generation)?;
        let window = if state.strip.intervals.is_empty() {
            window_columns(&state.strip, ctx.spec.selection)
        } else {
            let column = ctx.group.time_cursor.map(|c| c as usize).filter(|&c| c < state.strip.columns.len());
            column.map(|c| (c, c))
        };
        let picture = StripPicture::new(&state.strip, ctx.spec.link_map, ctx.spec.scale, state.rows, window);
        Ok(Drawing { list: picture.draw_list(size[0], size[1]), scene: None })
    }

    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut StripState,
        _eye: &mut Eye,
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        if let Err(why) = state.build(ctx.dataset, ctx.generation) {
            ui.label(why);
            return;
        }
        let data = state.strip.clone();
        let window = window_columns(&data, ctx.spec.selection);
        controls(ui, state, &data, window, StripState::both_sources(ctx.dataset));
        if state.playing {
            let next = window.map_or(0, |(_, b)| b + 1);
            match data.selection(next, next) {
                Some(selection) => {
                    commands.push(Command::SelectRegions { group: ctx.group.id, selection });
                    ui.ctx().request_repaint();
                }
                None => state.playing = false,
            }
        }
        let rect = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(rect, Sense::click_and_drag());
        state.size = rect.size();
        let Ok(drawing) = self.draw_list(ctx, state, &Eye::default(), [rect.width(), rect.height()]) else {
            return;
        };
        let map = paint::rect_of(drawing.list.plot, rect.min);
        paint::paint(&ui.painter_at(rect), &drawing.list, rect.min);
        state.map = Some(map);
        if !data.columns.is_empty() && !data.rows.is_empty() && map.width() >= 2.0 {
            // A click on a job's band highlights its footprint; elsewhere it brushes.
            let band = response.interact_pointer_pos().and_then(|p| band_at(&data, map, p));
            match band.and_then(|b| ctx.dataset.fabric.as_ref()?.scheduled.get(b.job)) {
                Some(job) if response.clicked() => {
                    let seeds = search(ctx.dataset, &format!("job {}", job.id));
                    commands.push(Command::Highlight { group: ctx.group.id, seeds, add: false });
                }
                _ => brush(ctx, state, &data, ui, &response, map, commands),
            }
            hover(&data, &response, map);
            hover_job(ctx.dataset, &data, &response, map);
        }
    }
}

/// The column under a screen x.
fn column_at(data: &TimeStrip, map: Rect, x: f32) -> usize {
    let t = ((x - map.min.x) / map.width()).clamp(0.0, 0.999_999);
    (t * data.columns.len() as f32) as usize
}

/// A drag over the map brushes a window of regions, a click picks one: the group shows it.
fn brush(
    ctx: &ViewContext<'_>,
    state: &mut StripState,
    data: &TimeStrip,
    ui: &Ui,
    response: &Response,
    map: Rect,
    commands: &mut Vec<Command>,
) {
    let pointer = response.interact_pointer_pos().filter(|p| p.x >= map.min.x);
    if !data.intervals.is_empty() {
        if let Some(p) = pointer.filter(|_| response.clicked()) {
            // A click on the cursor's own column clears it: the views go back to the window.
            let interval =
                u32::try_from(column_at(data, map, p.x)).ok().filter(|&c| Some(c) != ctx.group.time_cursor);
            commands.push(Command::SetTimeCursor { group: ctx.group.id, interval });
        }
        return;
    }
    if response.drag_started() || response.clicked() {
        // Where the button went down, not where the drag was first recognised.
        let origin = ui.input(|i| i.pointer.press_origin()).or(pointer);
        state.brush_from = origin.filter(|p| p.x >= map.min.x).map(|p| column_at(data, map, p.x));
    }
    if let (Some(from), Some(p)) = (state.brush_from, pointer)
        && (response.dragged() || response.clicked() || response.drag_stopped())
        && let Some(selection) = data.selection(from, column_at(data, map, p.x))
        && selection != ctx.spec.selection
    {
        state.playing = false;
        commands.push(Command::SelectRegions { group: ctx.group.id, selection });
    }
}

/// Hovering a job's band under the map tells the job (a click highlights its footprint,
/// `job = NAME` filters to it, the Jobs tab lists it).
fn hover_job(d: &Dataset, data: &TimeStrip, response: &Response, map: Rect) {
    let Some(band) = response.hover_pos().and_then(|p| band_at(data, map, p)) else { return };
    let Some(job) = d.fabric.as_ref().and_then(|f| f.scheduled.get(band.job)) else { return };
    let time =
        |t: Option<f64>| t.map_or("…".into(), |t| crate::units::format_epoch_micros((t * 1e6) as i64));
    response.clone().on_hover_text(format!(
        "job {} {} ({}), {}\n{} – {}\n{} hosts, {} link ends in its footprint",
        job.id,
        job.name,
        job.user,
        job.state,
        time(job.start),
        time(job.end),
        job.host_names.len(),
        job.footprint.len()
    ));
}

/// The job band under a screen point, in the lanes under the map.
fn band_at(data: &TimeStrip, map: Rect, p: egui::Pos2) -> Option<&JobBand> {
    let top = map.max.y + LANES_GAP;
    if p.y < top || p.x < map.min.x || p.x > map.max.x {
        return None;
    }
    let lane = ((p.y - top) / LANE_H) as usize;
    let at = (p.x - map.min.x) / map.width();
    data.jobs.bands.iter().find(|b| b.lane == lane && b.from <= at && at <= b.to)
}

/// Hovering a cell tells its column, row and value (bytes, or the row's worst %).
fn hover(data: &TimeStrip, response: &Response, map: Rect) {
    let Some(p) = response.hover_pos().filter(|p| map.contains(*p)) else { return };
    let row = (((p.y - map.min.y) / map.height()) * data.rows.len() as f32) as usize;
    let column = column_at(data, map, p.x);
    let value = data.value(row.min(data.rows.len() - 1), column);
    let value = if data.measure.is_percent() {
        format!("worst {} {value:.2} %", data.measure.name())
    } else {
        format_bytes_f64(value)
    };
    // The window's font (Ubuntu Light) has no arrow: an interval's `a → b` would draw tofu.
    response.clone().on_hover_text(format!(
        "{}\n{}\n{value}",
        data.column_label(column).replace('→', "->"),
        data.rows.get(row).cloned().unwrap_or_default(),
    ));
}
