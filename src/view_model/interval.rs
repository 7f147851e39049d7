//! One counter interval as what a view shows (issue 26): the time cursor (a click on a
//! congestion region or a time-strip column) sets `ViewSpec::interval` on its group's views,
//! and their counter colours — observed bytes, XmitWait, utilisation, stall, wait ratio — then
//! come from that interval instead of the whole window.
//!
//! The interval's values are an [`Overlay`] of the `counters` table: its per-interval columns,
//! row for row, built from the series' interval (one column of the history, read in place with
//! [`EndValues::value_at`], never the whole history) by the same code that
//! builds the whole window's ([`health_columns`]). The query engine reads them in place of the
//! table's own, so a view's rows, clauses and aggregation are the engine's as ever, and a
//! clause such as `stall > 50` tests the interval too. The other counter columns have no
//! per-interval meaning here and stay the whole window's: `predicted` is the profile's trace,
//! `residual` its difference from the window, `errors` the ports' counts over the window.

use crate::model::Column;
use crate::routing::end_values::EndValues;
use crate::routing::{Interval, Observed};

use super::dataset::Dataset;
use super::dataset::counters::{COUNTERS_TABLE, OBSERVED, counter_rows};
use super::dataset::link_health::{STALL, UTILISATION, WAIT_RATIO, XMIT_WAIT, health_columns};
use super::query::Overlay;

/// The counter attributes an interval changes, in [`health_columns`]' order after `observed`.
pub const PER_INTERVAL: [&str; 5] = [OBSERVED, XMIT_WAIT, UTILISATION, STALL, WAIT_RATIO];

/// The data set's counter intervals (a series of three snapshots or more; else none).
pub fn intervals(dataset: &Dataset) -> &[Interval] {
    dataset.fabric.as_ref().and_then(|f| f.observed.as_ref()).map_or(&[], |o| o.series.as_slice())
}

/// Interval `n` (0-based) of the data set, if a view names one; an error when it has no such
/// interval.
pub fn named_interval(dataset: &Dataset, n: Option<u32>) -> Result<Option<&Interval>, String> {
    let Some(n) = n else { return Ok(None) };
    let all = intervals(dataset);
    all.get(n as usize).map(Some).ok_or_else(|| match all.len() {
        0 => format!(
            "interval {} is not in this data set: it has no counter series (three or more snapshots)",
            n + 1
        ),
        len => format!("interval {} is not in this data set (it has intervals 1–{len})", n + 1),
    })
}

/// The `counters` table's columns for interval `n`, when the data set has it.
pub fn overlay(dataset: &Dataset, n: Option<u32>) -> Option<Overlay> {
    let interval = named_interval(dataset, n).ok()??;
    let fabric = dataset.fabric.as_ref()?;
    let whole = fabric.observed.as_ref()?;
    let alone = interval_observed(whole, interval);
    let rows = counter_rows(fabric);
    let ends: Vec<_> = rows.iter().map(|&(_, rail, end)| (rail, end)).collect();
    let observed =
        ends.iter().map(|&(rail, end)| alone.at(rail, end).map_or(f64::NAN, |v| v as f64)).collect();
    let [wait, utilisation, stall, ratio, ..] = health_columns(&fabric.cluster, &alone, &ends);
    let columns = [observed, wait, utilisation, stall, ratio].into_iter().map(Column::Float).collect();
    Some(Overlay {
        table: COUNTERS_TABLE.to_string(),
        names: PER_INTERVAL.map(String::from).to_vec(),
        columns,
    })
}

/// One interval as counters of their own: its bytes and XmitWait, spanning its own two
/// snapshots (what utilisation and stall divide by), with the window's recorded ticks.
fn interval_observed(whole: &Observed, interval: &Interval) -> Observed {
    let dense = |v: &EndValues| -> Vec<Vec<Option<u64>>> {
        (0..v.rail_count()).map(|r| (0..v.rail_len(r)).map(|e| v.value_at(r, e)).collect()).collect()
    };
    let span = Interval { rails: EndValues::default(), xmit_wait: EndValues::default(), ..interval.clone() };
    Observed {
        rails: dense(&interval.rails),
        xmit_wait: dense(&interval.xmit_wait),
        window: Some(span),
        ticks: whole.ticks.clone(),
        ..Observed::default()
    }
}

/// `interval 4: 2027-01-15 08:00:03–08:00:04 UTC`, counted from 1 as the time strip numbers
/// them; an interval of snapshots without times names its two files instead.
pub fn label(number: u32, interval: &Interval) -> String {
    let head = format!("interval {}", number + 1);
    match (interval.start, interval.end) {
        (Some(a), Some(b)) => {
            let (a, b) = (date_time(a.time.0), date_time(b.time.0));
            // The end's date only when it is another day.
            let end = if a.0 == b.0 { b.1 } else { format!("{} {}", b.0, b.1) };
            format!("{head}: {} {}–{end} UTC", a.0, a.1)
        }
        _ => format!("{head} ({} to {})", interval.from, interval.to),
    }
}

/// (`2027-01-15`, `08:00:03`) of Unix epoch microseconds, UTC; milliseconds only when any.
fn date_time(micros: i64) -> (String, String) {
    let time = crate::units::format_time_of_day(micros);
    (crate::units::format_date(micros), time.trim_end_matches(".000").to_string())
}

#[cfg(test)]
#[path = "interval_tests.rs"]
mod tests;
