//! The time strip of counter intervals by utilisation or stall (issue 22, item 5): each cell is
//! the worst (largest) % among the row's link ends in that interval, so a group row turns red
//! when any of its ends stalls, as the congestion regions would find it. Ends whose % is unknown
//! (no XmitWait, no capacity, an interval without times) do not count; a row none of whose ends
//! is known reads 0.

use super::dataset::FabricData;
use super::link_series::LinkSeries;
use super::time_strip::{
    NO_ROW, StripRows, TimeStrip, interval_bytes, interval_columns, level_groups, top_ends,
};
use crate::routing::Observed;

/// What a time strip's cells are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StripMeasure {
    /// Bytes, summed over the row's ends.
    #[default]
    Bytes,
    /// The row's worst utilisation % of capacity.
    Utilisation,
    /// The row's worst stall % of the interval.
    Stall,
}

impl StripMeasure {
    pub const ALL: [StripMeasure; 3] = [StripMeasure::Bytes, StripMeasure::Utilisation, StripMeasure::Stall];

    pub fn name(self) -> &'static str {
        match self {
            StripMeasure::Bytes => "bytes",
            StripMeasure::Utilisation => "utilisation",
            StripMeasure::Stall => "stall",
        }
    }

    pub fn parse(text: &str) -> Option<StripMeasure> {
        StripMeasure::ALL.into_iter().find(|m| m.name() == text)
    }

    /// Utilisation and stall are a % (0–100 with thresholds on the legend); bytes are not.
    pub fn is_percent(self) -> bool {
        self != StripMeasure::Bytes
    }
}

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
        let bytes = interval_bytes(observed);
        let (_, row_of) = match rows {
            StripRows::Groups => level_groups(fabric),
            StripRows::TopEnds(n) => top_ends(fabric, &interval_columns(observed, &bytes), n),
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
