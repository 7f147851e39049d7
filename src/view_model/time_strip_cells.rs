//! The cells a time strip sums: bytes per (column, rail, link end). A profile's regions hold
//! them per column, sparse; a history from Prometheus holds them end-major (each end's steps
//! side by side, [`EndColumns`]), so it is read end by end. Read column by column, a day of
//! one-minute steps jumped a whole row of 1,440 values per cell: a cache miss each, seconds
//! for the k = 36 rails, and a copy of every interval's bytes besides.

use crate::model::EpochMicros;
use crate::routing::end_columns::EndColumns;
use crate::routing::end_values::shared_columns;
use crate::routing::{Interval, LinkBytes, Observed};

/// One column: a region (or the interval between two snapshots), when it ended, and its bytes
/// per link end on each rail.
#[derive(Clone, Debug)]
pub struct TimeColumn<'a> {
    pub region: u32,
    pub time: Option<EpochMicros>,
    /// Indexed by rail.
    pub rails: Vec<&'a LinkBytes>,
}

/// Where a strip's cells come from.
pub(super) enum Cells<'a> {
    /// Columns of bytes per link end (a profile's regions, or a few snapshots' intervals).
    Columns(&'a [TimeColumn<'a>]),
    /// Steps of one history's columns, one strip column per step.
    History { columns: &'a EndColumns, steps: Vec<usize> },
}

impl Cells<'_> {
    /// Calls `cell(column, rail, end, bytes)` for every cell that carried bytes.
    pub(super) fn for_each(&self, mut cell: impl FnMut(usize, usize, usize, u64)) {
        match self {
            Cells::Columns(columns) => {
                for (c, column) in columns.iter().enumerate() {
                    for (rail, bytes) in column.rails.iter().enumerate() {
                        bytes.nonzero().for_each(|(end, b)| cell(c, rail, end, b));
                    }
                }
            }
            Cells::History { columns, steps } => {
                let mut rows = columns.rows();
                for rail in 0..columns.rails() {
                    for (end, row) in (0..columns.rail_ends(rail)).zip(rows.by_ref()) {
                        if row.is_empty() {
                            continue;
                        }
                        for (c, &step) in steps.iter().enumerate() {
                            if let Some(b) = row.get(step).filter(|&b| b != 0) {
                                cell(c, rail, end, b);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The history every interval of `series` reads, with each interval's step; `None` when some
/// interval holds its own values (snapshot files) or they read different histories.
pub(super) fn shared_history(series: &[Interval]) -> Option<(&EndColumns, Vec<usize>)> {
    shared_columns(series.iter().map(|i| &i.rails))
}

/// Calls `f` with the cells of a series' intervals: a shared history's read in place, others'
/// gathered per interval.
pub(super) fn with_interval_cells<R>(observed: &Observed, f: impl FnOnce(&Cells<'_>) -> R) -> R {
    match shared_history(&observed.series) {
        Some((columns, steps)) => f(&Cells::History { columns, steps }),
        None => {
            let bytes = interval_bytes(observed);
            let columns = interval_columns(observed, &bytes);
            f(&Cells::Columns(&columns))
        }
    }
}

/// Each interval's observed bytes per rail (an end without a value counts as 0 here: the join
/// has named it in a warning), to be borrowed by [`interval_columns`]. For intervals that hold
/// their own values; a history is read in place through [`Cells::History`].
fn interval_bytes(observed: &Observed) -> Vec<Vec<LinkBytes>> {
    observed
        .series
        .iter()
        .map(|i| {
            let rails = &i.rails;
            (0..rails.rail_count())
                .map(|r| (0..rails.rail_len(r)).map(|e| rails.value_at(r, e).unwrap_or(0)).collect())
                .collect()
        })
        .collect()
}

/// A series' intervals as columns, at [`interval_times`].
fn interval_columns<'a>(observed: &Observed, bytes: &'a [Vec<LinkBytes>]) -> Vec<TimeColumn<'a>> {
    (interval_times(observed).into_iter().zip(bytes))
        .map(|((region, time), rails)| TimeColumn { region, time, rails: rails.iter().collect() })
        .collect()
}

/// Each interval of a series as a strip column: numbered from 1 in the order the snapshots were
/// given, each at the time its later snapshot was taken.
pub(super) fn interval_times(observed: &Observed) -> Vec<(u32, Option<EpochMicros>)> {
    (observed.series.iter().enumerate())
        .map(|(i, interval)| (i as u32 + 1, interval.end.map(|t| t.time)))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::Dataset;
    use super::super::time_strip::{StripRows, TimeStrip};
    use super::*;
    use crate::routing::end_values::EndValues;

    /// Three intervals over both rails of a synthetic fabric, held as a history's columns:
    /// end `i` of interval `j` carries `(j + 1) × (i % 5)` bytes (0 included), every seventh
    /// end unknown in interval 1.
    fn history(ends: &[usize]) -> Arc<EndColumns> {
        let mut columns = EndColumns::new(ends, 3);
        for j in 0..3 {
            for i in 0..ends.iter().sum::<usize>() {
                let known = j != 1 || i % 7 != 0;
                columns.put(j, i, known.then_some((j as u64 + 1) * (i as u64 % 5)));
            }
        }
        Arc::new(columns)
    }

    fn series(columns: &Arc<EndColumns>, dense: bool) -> Observed {
        let series = (0..3)
            .map(|j| Interval {
                from: format!("s{j}"),
                to: format!("s{}", j + 1),
                start: None,
                end: None,
                rails: if dense {
                    (0..columns.rails()).map(|r| columns.rail_column(j, r)).collect::<Vec<_>>().into()
                } else {
                    EndValues::column(columns.clone(), j)
                },
                xmit_wait: EndValues::default(),
            })
            .collect();
        Observed { series, ..Observed::default() }
    }

    #[test]
    fn a_strip_read_end_by_end_from_a_history_equals_one_read_interval_by_interval() {
        let d = Dataset::synthetic(4, 3, 2, 2);
        let fabric = d.fabric.as_ref().unwrap();
        let ends: Vec<usize> = fabric.cluster.rails.iter().map(|r| r.link_end_count()).collect();
        let columns = history(&ends);
        let (read_in_place, copied) = (series(&columns, false), series(&columns, true));
        assert!(shared_history(&read_in_place.series).is_some());
        assert!(shared_history(&copied.series).is_none(), "snapshots hold their own values");
        for rows in [StripRows::Groups, StripRows::TopEnds(5)] {
            let a = TimeStrip::of_intervals(fabric, &read_in_place, rows);
            let b = TimeStrip::of_intervals(fabric, &copied, rows);
            assert_eq!((&a.rows, &a.columns), (&b.rows, &b.columns), "{rows:?}");
            assert_eq!(a.cells, b.cells, "{rows:?}");
            assert!(a.cells.iter().any(|&c| c > 0.0), "{rows:?}: the strip is not empty");
        }
    }

    #[test]
    fn intervals_of_two_histories_are_not_read_as_one() {
        let columns = history(&[10]);
        let mut observed = series(&columns, false);
        observed.series[2].rails = EndValues::column(history(&[10]), 2);
        assert!(shared_history(&observed.series).is_none());
    }
}
