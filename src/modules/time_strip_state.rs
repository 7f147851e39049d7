//! What a time strip view keeps between frames ([`StripState`]): its numbers, built from the
//! fabric's regions or counter intervals and rebuilt only when the data, the rows or the
//! source change; and which columns a region selection covers.

use std::sync::Arc;

use egui::Rect;

use crate::view_model::dataset::Dataset;
use crate::view_model::time_strip::{StripMeasure, StripRows, TimeStrip, region_columns};
use crate::view_model::values::RegionSelection;

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
    built_for: Option<(u64, StripRows, StripSource, StripMeasure)>,
    pub strip: Arc<TimeStrip>,
    pub rows: StripRows,
    /// What a counter interval's cell is: bytes, or the row's worst utilisation or stall %
    /// (as `render --strip-measure`); regions always show bytes.
    pub measure: StripMeasure,
    /// What the columns are; `None` until the data set is seen (then regions if it has any).
    pub source: Option<StripSource>,
    /// The column a brush started on, while one is dragged.
    pub(super) brush_from: Option<usize>,
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
    pub(super) fn build(&mut self, dataset: &Dataset, generation: u64) -> Result<(), String> {
        let fabric = dataset.fabric.as_ref().ok_or("the time strip needs a fabric with a profile")?;
        let series = fabric.observed.as_ref().filter(|o| !o.series.is_empty());
        let has_regions = fabric.loads.regions.iter().any(|r| r.region.is_some());
        let source = *self.source.get_or_insert(match (has_regions, series) {
            (false, Some(_)) => StripSource::Snapshots,
            _ => StripSource::Regions,
        });
        let key = (generation, self.rows, source, self.measure);
        if self.built_for != Some(key) {
            self.strip = Arc::new(match (source, series) {
                (StripSource::Snapshots, Some(observed)) => {
                    TimeStrip::of_interval_measure(fabric, observed, self.measure, self.rows)
                }
                _ => TimeStrip::build(fabric, &region_columns(&fabric.loads), self.rows),
            });
            self.built_for = Some(key);
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
