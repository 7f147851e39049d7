//! The time strip class (issue 13): the run's regions as columns in dump-time order, link-end
//! groups (or the busiest ends) as rows, bytes as colour. A drag brushes a window of regions,
//! a click picks one; the linked views of its group then show that window summed (or that
//! region). The play button steps through the regions one per frame. With more regions than
//! pixels, columns are binned ([`crate::scene::time_strip`]). With a series of counter snapshots
//! (three or more `--counters` for the same rails) the columns can be its intervals instead:
//! what the ports observed, with nothing to brush (they are no regions of the loads).
//!
//! The strip is drawn as `shoal render --module time-strip` draws it
//! ([`StripPicture`]), through the shared painters, so the window exports it as the CLI does.

use std::sync::Arc;

use egui::{Rect, Response, Sense, Ui};

use crate::scene::dataset::Dataset;
use crate::scene::time_strip::{StripRows, TimeStrip, region_columns};
use crate::scene::time_strip_draw::StripPicture;
use crate::scene::values::RegionSelection;
use crate::units::format_bytes_f64;

use super::class::{Drawing, Eye, Placement, PrepareContext, ViewClass, ViewContext};
use super::command::Command;
use super::paint;
use super::time_strip_controls::controls;

/// The time strip class (stateless).
pub struct TimeStripClass;

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
    /// The canvas's last size in points (for exports of "the current view").
    pub size: egui::Vec2,
    /// Where the heat map was last drawn, in screen points (tests aim drags with it).
    pub map: Option<Rect>,
}

impl StripState {
    /// Whether the data set has counter intervals to show as well as regions.
    pub fn both_sources(d: &Dataset) -> bool {
        d.fabric.as_ref().is_some_and(|f| {
            f.observed.as_ref().is_some_and(|o| !o.series.is_empty())
                && f.loads.regions.iter().any(|r| r.region.is_some())
        })
    }

    /// Builds the strip's numbers if the data, the rows or the source changed.
    fn build(&mut self, dataset: &Dataset, generation: u64) -> Result<(), String> {
        let fabric = dataset.fabric.as_ref().ok_or("the time strip needs a fabric with a profile")?;
        let series = fabric.observed.as_ref().filter(|o| !o.series.is_empty());
        let has_regions = fabric.loads.regions.iter().any(|r| r.region.is_some());
        let source = *self.source.get_or_insert(match (has_regions, series) {
            (false, Some(_)) => StripSource::Snapshots,
            _ => StripSource::Regions,
        });
        if self.built_for != Some((generation, self.rows, source)) {
            self.strip = Arc::new(match (source, series) {
                (StripSource::Snapshots, Some(observed)) => {
                    TimeStrip::of_intervals(fabric, observed, self.rows)
                }
                _ => TimeStrip::build(fabric, &region_columns(&fabric.loads), self.rows),
            });
            self.built_for = Some((generation, self.rows, source));
        }
        Ok(())
    }
}

/// The columns a selection covers, if it is a region or a window the strip shows.
pub fn window_columns(data: &TimeStrip, selection: RegionSelection) -> Option<(usize, usize)> {
    let (a, b) = match selection {
        RegionSelection::Region(n) => (n, n),
        RegionSelection::Window(a, b) => (a, b),
        RegionSelection::Cumulative(n) => (data.columns.first()?.0, n),
        _ => return None,
    };
    let (x, y) = (data.column_of(a)?, data.column_of(b)?);
    Some((x.min(y), x.max(y)))
}

impl ViewClass for TimeStripClass {
    type State = StripState;

    fn id(&self) -> &'static str {
        "time_strip"
    }

    fn display_name(&self) -> &'static str {
        "time strip"
    }

    fn new_state(&self) -> StripState {
        StripState::default()
    }

    fn placement(&self) -> Placement {
        Placement::Band
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
        let window = window_columns(&state.strip, ctx.spec.selection);
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
            brush(ctx, state, &data, ui, &response, map, commands);
            hover(&data, &response, map);
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

/// Hovering a cell tells its column, row and bytes.
fn hover(data: &TimeStrip, response: &Response, map: Rect) {
    let Some(p) = response.hover_pos().filter(|p| map.contains(*p)) else { return };
    let row = (((p.y - map.min.y) / map.height()) * data.rows.len() as f32) as usize;
    let column = column_at(data, map, p.x);
    let bytes = data.value(row.min(data.rows.len() - 1), column);
    response.clone().on_hover_text(format!(
        "{}\n{}\n{}",
        data.column_label(column),
        data.rows.get(row).cloned().unwrap_or_default(),
        format_bytes_f64(bytes)
    ));
}
