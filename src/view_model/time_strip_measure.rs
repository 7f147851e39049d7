//! The time strip of counter intervals by utilisation or stall (issue 22, item 5): each cell is
//! the worst (largest) % among the row's link ends in that interval, so a group row turns red
//! when any of its ends stalls, as the congestion regions would find it. Ends whose % is unknown
//! (no XmitWait, no capacity, an interval without times) do not count; a row none of whose ends
//! is known reads 0.

use super::dataset::FabricData;
use super::link_series::LinkSeries;
use super::strip_measure::StripMeasure;
use super::time_strip::{NO_ROW, StripRows, TimeStrip, level_groups, top_ends};
use super::time_strip_cells::with_interval_cells;
use crate::routing::Observed;

impl TimeStrip {
    /// A series' intervals as columns, coloured by `measure` (bytes: [`TimeStrip::of_intervals`]).
    pub fn of_interval_measure(
        fabric: &FabricData,
        observed: &Observed,
        measure: StripMeasure,
        rows: StripRows,
    ) -> TimeStrip {
        let mut strip = TimeStrip::of_intervals(fabric, observed, rows);
        if measure == StripMeasure::Bytes {
            return strip;
        }
        strip.measure = measure;
        strip.cells.iter_mut().for_each(|c| *c = 0.0);
        let Some(series) = LinkSeries::of(&fabric.cluster, observed) else { return strip };
        let by = if measure == StripMeasure::Stall { &series.stall } else { &series.utilisation };
        let (_, row_of) = match rows {
            StripRows::Groups => level_groups(fabric),
            StripRows::TopEnds(n) => with_interval_cells(observed, |cells| top_ends(fabric, cells, n)),
        };
        let width = strip.columns.len();
        for (c, values) in by.iter().enumerate().take(width) {
            let mut position = 0;
            for rail_rows in &row_of {
                for (i, &row) in rail_rows.iter().enumerate() {
                    let v = values.get(position + i).copied().unwrap_or(f32::NAN);
                    if row != NO_ROW && v.is_finite() {
                        let cell = &mut strip.cells[row as usize * width + c];
                        *cell = cell.max(f64::from(v));
                    }
                }
                position += rail_rows.len();
            }
        }
        strip
    }
}
