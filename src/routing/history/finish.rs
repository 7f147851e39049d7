//! The filled columns turned into what [`crate::routing::observe`] gives: totals per link end,
//! and with three steps or more a series whose intervals share the columns, differenced in
//! place (interval `j` overwrites step `j`, which no later interval reads).

use std::sync::Arc;

use crate::model::counters::{TakenAt, TimeSource};
use crate::model::port_counters::CounterKind;
use crate::model::{EpochMicros, Warning};
use crate::profile_io::prometheus_api::time::rfc3339_of;

use super::super::end_columns::EndColumns;
use super::super::end_values::EndValues;
use super::super::observed::{Interval, Observed};
use super::super::observed_report::Problems;
use super::HistoryFold;

/// Each end's value over the present `steps`: last − first with two steps or more, the count
/// as it stands with one; and the ends read at one step only while others are differenced.
fn totals(columns: &EndColumns, steps: &[usize]) -> (Vec<Option<u64>>, Vec<usize>) {
    let read = columns.par_map_rows(|row| row.first_last(steps));
    let (mut total, mut single) = (Vec::with_capacity(read.len()), Vec::new());
    for (end, (first, last, readings)) in read.into_iter().enumerate() {
        total.push(match (steps.len(), readings) {
            (0..=1, _) => first,
            (_, 2..) => last.zip(first).and_then(|(b, a)| b.checked_sub(a)),
            (_, 1) => {
                single.push(end);
                None
            }
            _ => None,
        });
    }
    (total, single)
}

/// Counts to intervals between consecutive present steps, in place: interval `j` is step
/// `steps[j + 1]` − step `steps[j]`, known where both are.
fn difference(columns: &mut EndColumns, steps: &[usize]) {
    columns.par_each_row_mut(None, |mut row, _| row.difference(steps));
    columns.truncate(steps.len().saturating_sub(1));
}

impl HistoryFold<'_> {
    /// The observed counters of the folded answer, and every warning.
    pub fn finish(mut self) -> (Observed, Vec<Warning>) {
        let mut warnings = self.warnings();
        let steps: Vec<usize> = (0..self.grid.steps).filter(|&s| self.present[s]).collect();
        let mut out = Observed {
            rails: self.rail_ends.iter().map(|&n| vec![None; n]).collect(),
            ..Observed::default()
        };
        if steps.is_empty() {
            warnings.push(Warning::in_file(
                &self.source,
                "no point of the answer is on a port of the fabric; not used",
            ));
            return (out, warnings);
        }
        let mut problems = Problems::default();
        self.set_totals(&mut out, &steps, &mut problems);
        if steps.len() >= 3 {
            self.set_series(&mut out, &steps);
        }
        if steps.len() >= 2 {
            let (first, last) = (steps[0], steps[steps.len() - 1]);
            out.window = Some(self.interval(first, last, EndValues::default(), EndValues::default()));
        }
        out.ports = std::mem::take(&mut self.others).finish(steps.len() >= 2, &mut problems);
        self.set_wait_totals(&mut out);
        problems.report(self.cluster, &mut warnings);
        (out, warnings)
    }

    /// Each end's total from its sender's counter, else from its receiver's.
    fn set_totals(&self, out: &mut Observed, steps: &[usize], problems: &mut Problems) {
        let (sent, rcvd) =
            (self.xmit.as_ref().map(|c| totals(c, steps)), self.rcv.as_ref().map(|c| totals(c, steps)));
        for (rail, values) in out.rails.iter_mut().enumerate() {
            let start = self.rail_starts[rail];
            for (i, value) in values.iter_mut().enumerate() {
                let of =
                    |t: &Option<(Vec<Option<u64>>, Vec<usize>)>| t.as_ref().and_then(|(v, _)| v[start + i]);
                *value = of(&sent).or_else(|| of(&rcvd));
            }
        }
        let single = |t: &Option<(Vec<Option<u64>>, Vec<usize>)>| {
            t.iter().flat_map(|(_, s)| s.clone()).collect::<Vec<_>>()
        };
        let (lone_sent, lone_rcvd) = (single(&sent), single(&rcvd));
        for placed in self.places.values().flatten() {
            if lone_sent.binary_search(&placed.sends).is_ok()
                || lone_rcvd.binary_search(&placed.receives).is_ok()
            {
                problems.single.push(placed.place);
            }
        }
        problems.single.sort_unstable();
        problems.single.dedup();
    }

    /// The intervals between consecutive present steps; an end's total becomes the sum of its
    /// intervals where it is known in every one.
    fn set_series(&mut self, out: &mut Observed, steps: &[usize]) {
        let mut sent = match (self.xmit.take(), self.rcv.take()) {
            (Some(mut x), Some(mut r)) => {
                difference(&mut x, steps);
                difference(&mut r, steps);
                x.par_each_row_mut(Some(&r), |mut row, r| row.fill_unknown_from(r.expect("as many ends")));
                x
            }
            (Some(mut one), None) | (None, Some(mut one)) => {
                difference(&mut one, steps);
                one
            }
            (None, None) => EndColumns::new(&self.rail_ends, steps.len() - 1),
        };
        let sums = sent.par_map_rows(|row| row.sum_if_complete());
        for (rail, values) in out.rails.iter_mut().enumerate() {
            let start = self.rail_starts[rail];
            for (i, value) in values.iter_mut().enumerate() {
                if let Some(sum) = sums[start + i] {
                    *value = Some(sum);
                }
            }
        }
        sent.truncate(steps.len() - 1);
        let sent = Arc::new(sent);
        let wait = self.wait.take().map(|mut w| {
            difference(&mut w, steps);
            Arc::new(w)
        });
        out.series = steps
            .windows(2)
            .enumerate()
            .map(|(j, pair)| {
                let waits =
                    wait.as_ref().map_or_else(EndValues::default, |w| EndValues::column(w.clone(), j));
                self.interval(pair[0], pair[1], EndValues::column(sent.clone(), j), waits)
            })
            .collect();
    }

    /// The interval between two steps, named and timed as the server's snapshots are.
    fn interval(&self, from: usize, to: usize, rails: EndValues, xmit_wait: EndValues) -> Interval {
        let (from_ms, to_ms) = (self.grid.ms_of(from), self.grid.ms_of(to));
        let name = |ms: i64| format!("{} at {}", self.source, rfc3339_of(ms as f64 / 1000.0));
        let taken = |ms: i64| Some(TakenAt { time: EpochMicros(ms * 1000), from: TimeSource::Server });
        Interval {
            from: name(from_ms),
            to: name(to_ms),
            start: taken(from_ms),
            end: taken(to_ms),
            rails,
            xmit_wait,
        }
    }

    /// XmitWait totals per link end, from the ports that read it.
    fn set_wait_totals(&self, out: &mut Observed) {
        if !out.ports.iter().any(|p| p.counts.get(CounterKind::PortXmitWait).is_some()) {
            return;
        }
        out.xmit_wait = self.rail_ends.iter().map(|&n| vec![None; n]).collect();
        for port in &out.ports {
            if let Some(wait) = port.counts.get(CounterKind::PortXmitWait) {
                out.xmit_wait[port.place.0][port.sends.index()] = Some(wait.value);
            }
        }
    }
}
