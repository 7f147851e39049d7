//! The time strip (issue 13): traffic over time as a heat map. Rows are link-end groups (each
//! rail's level and direction) or the N busiest link ends; columns are time steps in dump-time
//! order. A profile's regions are such steps, and so are the intervals of a series of counter
//! snapshots (three or more for the same rails, [`TimeStrip::of_intervals`]): both arrive as a
//! [`TimeColumn`] list. With more columns than
//! pixels the columns are binned ([`TimeStrip::binned`]), each bin showing its busiest column,
//! so a 20,000-step run still shows its one-step spikes. A brush over columns selects the
//! window the linked views show ([`TimeStrip::selection`]).

use std::collections::BTreeMap;
use std::ops::Range;

use crate::model::counters::TimeSource;
use crate::model::{EpochMicros, LinkEnd};
use crate::routing::{Loads, Observed};
use crate::units::{format_seconds, format_time_of_day};

use super::dataset::FabricData;
pub use super::strip_measure::StripMeasure;
pub use super::time_strip_cells::TimeColumn;
use super::time_strip_cells::{Cells, interval_times, with_interval_cells};
use super::time_strip_jobs::{JobBands, job_bands};
use super::values::RegionSelection;

/// A profile's regions as columns, in dump-time order (region number among equal times).
pub fn region_columns(loads: &Loads) -> Vec<TimeColumn<'_>> {
    let mut columns: Vec<TimeColumn<'_>> = loads
        .regions
        .iter()
        .filter_map(|r| {
            Some(TimeColumn {
                region: r.region?,
                time: r.dumptime,
                rails: r.rails.iter().map(|l| &l.bytes).collect(),
            })
        })
        .collect();
    columns.sort_by_key(|c| (c.time, c.region));
    columns
}

/// What the rows are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StripRows {
    /// One row per rail, level and direction (`rail 0 · level 2 · up`).
    #[default]
    Groups,
    /// The N link ends with the most bytes over all columns.
    TopEnds(usize),
}

/// The strip's numbers: bytes per row and column.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeStrip {
    pub rows: Vec<String>,
    /// (region, dump time) per column, in time order.
    pub columns: Vec<(u32, Option<EpochMicros>)>,
    /// Row-major: `cells[row * columns.len() + column]`.
    pub cells: Vec<f64>,
    /// For a series of counter snapshots: each column's interval (empty for regions).
    pub intervals: Vec<IntervalColumn>,
    /// Where the intervals' times come from, if they have any.
    pub time_source: Option<TimeSource>,
    /// What a cell is: bytes (summed over the row's ends), or the row's worst utilisation or
    /// stall % ([`super::time_strip_measure`]).
    pub measure: StripMeasure,
    /// The scheduler's jobs that ran within the strip's span, as bands under it (issue 26).
    pub jobs: JobBands,
}

/// A column that is the interval between two counter snapshots: their files and the start time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntervalColumn {
    pub from: String,
    pub to: String,
    pub start: Option<EpochMicros>,
}

/// Columns gathered into bins: each bin's column range and, per row, its busiest column's bytes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Binned {
    pub bins: Vec<Range<usize>>,
    /// Row-major: `cells[row * bins.len() + bin]`.
    pub cells: Vec<f64>,
}

impl TimeStrip {
    /// Sums each column's link ends into the rows.
    pub fn build(fabric: &FabricData, columns: &[TimeColumn<'_>], rows: StripRows) -> TimeStrip {
        let times = columns.iter().map(|c| (c.region, c.time)).collect();
        TimeStrip::of_cells(fabric, &Cells::Columns(columns), times, rows)
    }

    /// Sums `cells` into the rows, one strip column per entry of `columns` (region, time).
    fn of_cells(
        fabric: &FabricData,
        cells: &Cells<'_>,
        columns: Vec<(u32, Option<EpochMicros>)>,
        rows: StripRows,
    ) -> TimeStrip {
        let (labels, row_of) = match rows {
            StripRows::Groups => level_groups(fabric),
            StripRows::TopEnds(n) => top_ends(fabric, cells, n),
        };
        let width = columns.len();
        let mut values = vec![0.0; labels.len() * width];
        // Cells come end by end: each end's row is looked up once, not once a cell.
        let (mut last, mut row) = ((usize::MAX, usize::MAX), NO_ROW);
        cells.for_each(|c, rail, end, b| {
            if (rail, end) != last {
                (last, row) =
                    ((rail, end), row_of.get(rail).and_then(|rows| rows.get(end)).copied().unwrap_or(NO_ROW));
            }
            if row != NO_ROW && c < width {
                values[row as usize * width + c] += b as f64;
            }
        });
        let jobs = job_bands(&columns, None, &fabric.scheduled);
        TimeStrip { rows: labels, columns, cells: values, jobs, ..Default::default() }
    }

    /// The intervals of a series of counter snapshots as the columns (empty without a series).
    pub fn of_intervals(fabric: &FabricData, observed: &Observed, rows: StripRows) -> TimeStrip {
        let times = interval_times(observed);
        let mut strip =
            with_interval_cells(observed, |cells| TimeStrip::of_cells(fabric, cells, times, rows));
        strip.intervals = observed
            .series
            .iter()
            .map(|i| IntervalColumn {
                from: i.from.clone(),
                to: i.to.clone(),
                start: i.start.map(|t| t.time),
            })
            .collect();
        strip.time_source = observed.series.iter().find_map(|i| i.end.or(i.start)).map(|t| t.from);
        // The first interval starts at its own earlier snapshot, not where it ends.
        let first_start = strip.intervals.first().and_then(|i| i.start);
        strip.jobs = job_bands(&strip.columns, first_start, &fabric.scheduled);
        strip
    }

    /// What one column is: `region` or `interval`.
    pub fn column_noun(&self) -> &'static str {
        if self.intervals.is_empty() { "region" } else { "interval" }
    }

    pub fn value(&self, row: usize, column: usize) -> f64 {
        self.cells.get(row * self.columns.len() + column).copied().unwrap_or(0.0)
    }

    /// The largest cell (0 when empty).
    pub fn max(&self) -> f64 {
        self.cells.iter().copied().fold(0.0, f64::max)
    }

    /// At most `bins` bins of consecutive columns (one column per bin when they fit).
    pub fn binned(&self, bins: usize) -> Binned {
        let n = self.columns.len();
        let bins = bins.clamp(1, n.max(1));
        let ranges: Vec<Range<usize>> = (0..bins).map(|b| b * n / bins..(b + 1) * n / bins).collect();
        let mut cells = Vec::with_capacity(self.rows.len() * bins);
        for row in 0..self.rows.len() {
            let line = &self.cells[row * n..(row + 1) * n];
            cells.extend(ranges.iter().map(|r| line[r.clone()].iter().copied().fold(0.0, f64::max)));
        }
        Binned { bins: ranges, cells }
    }

    /// The window from column `a` to column `b` (either order): one region alone, or the regions
    /// between them summed. `None` for counter intervals, which are no regions of the loads.
    pub fn selection(&self, a: usize, b: usize) -> Option<RegionSelection> {
        if !self.intervals.is_empty() {
            return None;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        let first = self.columns.get(lo)?.0;
        let last = self.columns.get(hi.min(self.columns.len() - 1))?.0;
        Some(if first == last {
            RegionSelection::Region(first)
        } else {
            RegionSelection::Window(first.min(last), first.max(last))
        })
    }

    /// The column showing `region`, if any.
    pub fn column_of(&self, region: u32) -> Option<usize> {
        self.columns.iter().position(|c| c.0 == region)
    }

    /// `region 17 · 22:13:20.680 (+0.040 s)`: the column's region, when it ended as a time of
    /// day, and how long it ran since the column before (never an epoch number).
    /// An interval reads `interval 2 (b.txt → c.txt) · 22:13:20.680 (+60.000 s)`, timed by its
    /// own two snapshots.
    pub fn column_label(&self, column: usize) -> String {
        let Some(&(region, time)) = self.columns.get(column) else { return String::new() };
        if let Some(interval) = self.intervals.get(column) {
            let head = format!("interval {region} ({} → {})", interval.from, interval.to);
            return match (interval.start, time) {
                (Some(a), Some(b)) => {
                    format!("{head} · {} ({})", format_time_of_day(b.0), format_seconds(b.0 - a.0, true))
                }
                (_, Some(b)) => format!("{head} · {}", format_time_of_day(b.0)),
                _ => head,
            };
        }
        let before = column.checked_sub(1).and_then(|c| self.columns[c].1);
        match time {
            Some(t) => {
                let took = before.map(|b| format!(" ({})", format_seconds(t.0 - b.0, true)));
                format!("region {region} · {}{}", format_time_of_day(t.0), took.unwrap_or_default())
            }
            None => format!("region {region}"),
        }
    }

    /// How long the columns from `a` to `b` span, from the end of the one before `a` (or `a`'s
    /// own end) to `b`'s: `+1.250 s`.
    pub fn span_label(&self, a: usize, b: usize) -> Option<String> {
        let (lo, hi) = (a.min(b), a.max(b));
        let end = self.columns.get(hi)?.1?;
        let own_start = self.intervals.get(lo).and_then(|i| i.start);
        let start = own_start
            .or_else(|| lo.checked_sub(1).and_then(|c| self.columns[c].1))
            .or(self.columns.get(lo)?.1)?;
        Some(format_seconds(end.0 - start.0, true))
    }
}

pub(super) const NO_ROW: u32 = u32::MAX;

/// A level group: rail, top level (higher first), direction.
type GroupKey = (usize, std::cmp::Reverse<i64>, &'static str);

/// Row per (rail, level, direction), labelled; and each rail's end → row.
pub(super) fn level_groups(fabric: &FabricData) -> (Vec<String>, Vec<Vec<u32>>) {
    let mut keys: BTreeMap<GroupKey, Vec<(usize, usize)>> = BTreeMap::new();
    for (rail, f) in fabric.cluster.rails.iter().enumerate() {
        let level = |n: petgraph::graph::NodeIndex| {
            fabric.layout.rails.get(rail).and_then(|l| l.levels.get(n.index()).copied().flatten())
        };
        for i in 0..f.link_end_count() {
            let Some(((s, _), (d, _))) = f.link_end_nodes(LinkEnd::from_index(i)) else { continue };
            let (ls, ld) = (level(s), level(d));
            let direction = if ls < ld { "up" } else { "down" };
            let top = ls.max(ld).map_or(-1, i64::from);
            keys.entry((rail, std::cmp::Reverse(top), direction)).or_default().push((rail, i));
        }
    }
    let mut row_of: Vec<Vec<u32>> =
        fabric.cluster.rails.iter().map(|f| vec![NO_ROW; f.link_end_count()]).collect();
    let mut labels = Vec::with_capacity(keys.len());
    for (row, ((rail, top, direction), ends)) in keys.into_iter().enumerate() {
        labels.push(format!("rail {rail} · level {} · {direction}", top.0));
        for (r, i) in ends {
            row_of[r][i] = row as u32;
        }
    }
    (labels, row_of)
}

/// The `n` ends with the most bytes over all columns, busiest first.
pub(super) fn top_ends(fabric: &FabricData, cells: &Cells<'_>, n: usize) -> (Vec<String>, Vec<Vec<u32>>) {
    let mut totals: Vec<Vec<f64>> =
        fabric.cluster.rails.iter().map(|f| vec![0.0; f.link_end_count()]).collect();
    cells.for_each(|_, rail, end, b| {
        if let Some(total) = totals.get_mut(rail).and_then(|t| t.get_mut(end)) {
            *total += b as f64;
        }
    });
    let mut ranked: Vec<(f64, usize, usize)> = totals
        .iter()
        .enumerate()
        .flat_map(|(r, t)| t.iter().enumerate().filter(|(_, b)| **b > 0.0).map(move |(i, &b)| (b, r, i)))
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    ranked.truncate(n);
    let mut row_of: Vec<Vec<u32>> = totals.iter().map(|t| vec![NO_ROW; t.len()]).collect();
    let labels = ranked
        .iter()
        .enumerate()
        .map(|(row, &(_, rail, i))| {
            row_of[rail][i] = row as u32;
            let f = &fabric.cluster.rails[rail];
            match f.link_end_nodes(LinkEnd::from_index(i)) {
                Some(((a, ap), (b, bp))) => {
                    format!(
                        "rail {rail}: {} ({ap}) -> {} ({bp})",
                        f.node(a).description,
                        f.node(b).description
                    )
                }
                None => format!("rail {rail}: end {i}"),
            }
        })
        .collect();
    (labels, row_of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::dataset::Dataset;

    fn strip(rows: StripRows) -> (Dataset, TimeStrip) {
        let d = Dataset::synthetic(4, 3, 2, 2);
        let f = d.fabric.as_ref().unwrap();
        let s = TimeStrip::build(f, &region_columns(&f.loads), rows);
        (d, s)
    }

    #[test]
    fn level_groups_hold_every_byte_of_each_region() {
        let (d, s) = strip(StripRows::Groups);
        let f = d.fabric.as_ref().unwrap();
        assert_eq!(s.columns.len(), 2);
        assert!(s.rows.iter().any(|r| r == "rail 1 · level 2 · up"), "{:?}", s.rows);
        for (c, region) in f.loads.regions.iter().enumerate() {
            let sum: f64 = (0..s.rows.len()).map(|r| s.value(r, c)).sum();
            let bytes: u64 = region.rails.iter().flat_map(|l| l.bytes.nonzero().map(|e| e.1)).sum();
            assert_eq!(sum, bytes as f64, "column {c}");
        }
    }

    #[test]
    fn top_ends_are_the_busiest_first() {
        let (_, s) = strip(StripRows::TopEnds(3));
        assert_eq!(s.rows.len(), 3);
        let total = |r: usize| (0..s.columns.len()).map(|c| s.value(r, c)).sum::<f64>();
        assert!(total(0) >= total(1) && total(1) >= total(2));
    }

    #[test]
    fn bins_keep_each_bins_busiest_column() {
        let s = TimeStrip {
            rows: vec!["a".into()],
            columns: (1..=5).map(|r| (r, None)).collect(),
            cells: vec![1.0, 9.0, 2.0, 3.0, 4.0],
            ..Default::default()
        };
        let b = s.binned(2);
        assert_eq!(b.bins, vec![0..2, 2..5]);
        assert_eq!(b.cells, vec![9.0, 4.0]);
        assert_eq!(s.binned(100).bins.len(), 5, "never more bins than columns");
    }

    #[test]
    fn a_brush_selects_one_region_or_the_window_between() {
        let (_, s) = strip(StripRows::Groups);
        assert_eq!(s.selection(1, 1), Some(RegionSelection::Region(2)));
        assert_eq!(s.selection(1, 0), Some(RegionSelection::Window(1, 2)));
    }

    #[test]
    fn a_series_of_snapshots_becomes_one_column_per_interval_timed_by_its_own_snapshots() {
        use crate::model::counters::TakenAt;
        use crate::routing::Interval;
        let d = Dataset::synthetic(4, 3, 2, 2);
        let f = d.fabric.as_ref().unwrap();
        let at = |s: i64| {
            Some(TakenAt { time: EpochMicros(1_700_000_000_000_000 + s), from: TimeSource::Modified })
        };
        let interval = |bytes: u64, start: i64, end: i64, from: &str, to: &str| Interval {
            from: from.into(),
            to: to.into(),
            start: at(start),
            end: at(end),
            rails: f
                .cluster
                .rails
                .iter()
                .map(|r| {
                    let mut v = vec![None; r.link_end_count()];
                    v[0] = Some(bytes);
                    v
                })
                .collect::<Vec<_>>()
                .into(),
            xmit_wait: Default::default(),
        };
        let observed = Observed {
            rails: Vec::new(),
            series: vec![
                interval(100, 0, 1_000_000, "a", "b"),
                interval(300, 1_000_000, 61_500_000, "b", "c"),
            ],
            ..Default::default()
        };
        let s = TimeStrip::of_intervals(f, &observed, StripRows::Groups);
        assert_eq!(s.columns.len(), 2);
        let column = |c: usize| (0..s.rows.len()).map(|r| s.value(r, c)).sum::<f64>();
        assert_eq!((column(0), column(1)), (200.0, 600.0), "one end on each of the two rails");
        assert_eq!(s.column_label(1), "interval 2 (b → c) · 22:14:21.500 (+60.500 s)");
        assert_eq!(s.span_label(0, 1).as_deref(), Some("+61.500 s"));
        assert_eq!(s.time_source, Some(TimeSource::Modified));
        assert_eq!(s.column_noun(), "interval");
        assert_eq!(s.selection(0, 1), None, "intervals are no regions of the loads");
    }

    #[test]
    fn columns_read_as_times_of_day_and_durations() {
        let (_, s) = strip(StripRows::Groups);
        assert_eq!(s.column_label(1), "region 2 · 22:13:22.000 (+1.000 s)");
        assert_eq!(s.span_label(1, 1).as_deref(), Some("+1.000 s"));
    }
}
