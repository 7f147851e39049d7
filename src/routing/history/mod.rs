//! A Prometheus `query_range` answer folded straight into link-end columns (issue 26): each
//! series, as the streamed answer hands it over, is placed on the fabric once and its points
//! written into one [`EndColumns`] per data counter (transmit, receive) and XmitWait, at their
//! step of the range's grid. Nothing per snapshot or per point is kept besides the cell, so
//! memory is the fabric's link ends × the range's steps × 8 B (+ 1 bit), whatever the JSON's
//! size. [`HistoryFold::finish`] then turns the counts into intervals in place.
//!
//! The values are the ones [`super::observe`] gives for the same points as snapshots, one per
//! step: resets corrected and named as `increase()` does ([`corrected_points`]), transmit
//! counters on the end a port sends into, receive counters filling the far end where its
//! sender gave nothing, XmitWait, packets and errors totalled per port. Steps where no point
//! of a placed port lies are no snapshot: the intervals join the steps that have one.

mod finish;
mod ports;

use std::collections::HashMap;

use crate::model::counters::{PortOwner, PortSample};
use crate::model::port_counters::CounterKind;
use crate::model::{Cluster, Guid, LinkEnd, PortNum, Warning};
use crate::profile_io::counters::prometheus::{Counted, SeriesKind};
use crate::profile_io::counters::sink::Direction;
use crate::profile_io::prometheus_api::snapshots::{Notes, Series, corrected_points, millis, series_port};

use super::counter_join::{PortGuids, PortPlace, locate};
use super::end_columns::EndColumns;
use ports::PortRuns;

/// Prometheus refuses a range of more points than this per series ("exceeded maximum
/// resolution of 11,000 points per timeseries"): the grid is never larger.
pub const MAX_STEPS: usize = 11_001;

/// The range's step times: `from + k × step` for `k < steps`, in milliseconds, as
/// `query_range` answers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepGrid {
    pub from_ms: i64,
    pub step_ms: i64,
    pub steps: usize,
}

impl StepGrid {
    /// The grid of a range in seconds; `None` when it is empty or has more steps than
    /// Prometheus answers.
    pub fn new(from: f64, to: f64, step: f64) -> Option<StepGrid> {
        let (from_ms, to_ms, step_ms) = (millis(from), millis(to), millis(step));
        if step_ms <= 0 || to_ms < from_ms {
            return None;
        }
        let steps = usize::try_from((to_ms - from_ms) / step_ms).ok()?.checked_add(1)?;
        (steps <= MAX_STEPS).then_some(StepGrid { from_ms, step_ms, steps })
    }

    /// The step a time falls on, if it is one of the grid's.
    pub fn step_of(&self, ms: i64) -> Option<usize> {
        let offset = ms.checked_sub(self.from_ms)?;
        let step = usize::try_from(offset / self.step_ms).ok()?;
        (offset % self.step_ms == 0 && step < self.steps).then_some(step)
    }

    pub fn ms_of(&self, step: usize) -> i64 {
        self.from_ms + self.step_ms * step as i64
    }
}

/// Where a port's counters go: its place and the ends (positions in a column) it sends into
/// and receives from.
#[derive(Clone, Copy, Debug)]
struct Placed {
    place: PortPlace,
    /// The end it sends into, on its rail.
    end: LinkEnd,
    sends: usize,
    receives: usize,
}

/// The columns being filled, and what was noticed on the way.
pub struct HistoryFold<'c> {
    cluster: &'c Cluster,
    guids: PortGuids,
    grid: StepGrid,
    source: String,
    rail_ends: Vec<usize>,
    rail_starts: Vec<usize>,
    xmit: Option<EndColumns>,
    rcv: Option<EndColumns>,
    wait: Option<EndColumns>,
    /// Steps where a placed port has a point: the snapshots of [`super::observe`].
    present: Vec<bool>,
    places: HashMap<(Guid, u8), Option<Placed>>,
    others: PortRuns,
    notes: Notes,
    counts: FoldCounts,
    series: usize,
}

/// Points and ports set aside, each counted for a warning.
#[derive(Default)]
struct FoldCounts {
    /// Ports on no node or link of the fabric: (GUID, port) of the first, and how many.
    unmatched: Option<(Guid, u8)>,
    unmatched_ports: usize,
    off_grid: usize,
    repeated: usize,
    too_large: usize,
}

impl<'c> HistoryFold<'c> {
    /// An empty fold for a range's `grid` on `cluster`; `source` names the query in warnings.
    pub fn new(cluster: &'c Cluster, grid: StepGrid, source: &str) -> HistoryFold<'c> {
        let rail_ends: Vec<usize> = cluster.rails.iter().map(|f| f.link_end_count()).collect();
        let mut rail_starts = vec![0];
        for n in &rail_ends {
            rail_starts.push(rail_starts[rail_starts.len() - 1] + n);
        }
        HistoryFold {
            cluster,
            guids: PortGuids::new(cluster),
            grid,
            source: source.to_string(),
            rail_ends,
            rail_starts,
            xmit: None,
            rcv: None,
            wait: None,
            present: vec![false; grid.steps],
            places: HashMap::new(),
            others: PortRuns::default(),
            notes: Notes::default(),
            counts: FoldCounts::default(),
            series: 0,
        }
    }

    /// Folds one series of the answer in.
    pub fn add(&mut self, series: &Series) {
        self.add_prepared(prepare(series, self.grid));
    }

    /// Folds in one series made ready by [`prepare`] (on any thread).
    pub fn add_prepared(&mut self, prepared: Prepared) {
        self.series += 1;
        let number = self.series;
        self.notes.absorb(prepared.label_notes, number);
        let Some((kind, guid, port)) = prepared.port else { return };
        let Some(placed) = self.placed(guid, port) else { return };
        // What the points told counts only for a port on the fabric.
        self.notes.absorb(prepared.point_notes, number);
        self.counts.off_grid += prepared.off_grid;
        let (grid, rail_ends) = (self.grid, &self.rail_ends);
        let (present, counts, others) = (&mut self.present, &mut self.counts, &mut self.others);
        let (xmit, rcv, wait) = (&mut self.xmit, &mut self.rcv, &mut self.wait);
        let new = || EndColumns::new(rail_ends, grid.steps);
        if let Some(direction) = kind.direction() {
            // A data counter: every point goes to one end's row.
            let (column, end) = match direction {
                Direction::Xmit => (xmit.get_or_insert_with(new), placed.sends),
                Direction::Rcv => (rcv.get_or_insert_with(new), placed.receives),
            };
            // A placed end is always in the columns.
            let Some(mut row) = column.row_mut(end) else { return };
            for (step, count) in prepared.points {
                let Some(Counted::Data(_, bytes)) = kind.counted(count) else {
                    counts.too_large += 1;
                    continue;
                };
                let fresh = row.set_new(step, bytes);
                present[step] = true;
                counts.repeated += usize::from(!fresh);
            }
            return;
        }
        for (step, count) in prepared.points {
            let fresh = match kind.counted(count) {
                None => {
                    counts.too_large += 1;
                    continue;
                }
                Some(Counted::Data(Direction::Xmit, bytes)) => {
                    xmit.get_or_insert_with(new).set_new(step, placed.sends, bytes)
                }
                Some(Counted::Data(Direction::Rcv, bytes)) => {
                    rcv.get_or_insert_with(new).set_new(step, placed.receives, bytes)
                }
                Some(Counted::Other(which, value)) => {
                    if which == CounterKind::PortXmitWait {
                        wait.get_or_insert_with(new).set_new(step, placed.sends, value.value);
                    }
                    others.record(placed.place, placed.end, which, step, value)
                }
            };
            present[step] = true;
            counts.repeated += usize::from(!fresh);
        }
    }

    /// A port's place on the fabric, looked up once per port.
    fn placed(&mut self, guid: Guid, port: u8) -> Option<Placed> {
        if let Some(known) = self.places.get(&(guid, port)) {
            return *known;
        }
        let sample = PortSample {
            owner: PortOwner::Guid(guid),
            port: PortNum(port),
            xmit: None,
            rcv: None,
            line: 0,
            other: None,
        };
        let placed = locate(self.cluster, &self.guids, &sample, None).and_then(|place| {
            let (sends, _, _) = self.cluster.rails[place.0].out_through(place.1, place.2)?;
            let start = self.rail_starts[place.0];
            let receives = sends.index() ^ 1;
            Some(Placed { place, end: sends, sends: start + sends.index(), receives: start + receives })
        });
        if placed.is_none() {
            self.counts.unmatched.get_or_insert((guid, port));
            self.counts.unmatched_ports += 1;
        }
        self.places.insert((guid, port), placed);
        placed
    }

    /// How many series were folded in.
    pub fn series(&self) -> usize {
        self.series
    }

    /// The warnings of what was set aside.
    fn warnings(&self) -> Vec<Warning> {
        let source = &self.source;
        let mut out = self.notes.warnings(source);
        let counts = &self.counts;
        if let Some((guid, port)) = counts.unmatched {
            out.push(Warning::in_file(
                source,
                format!(
                    "{} on no link of the fabric; not used (the first: GUID {guid} port {port})",
                    counted(counts.unmatched_ports, "exporter port is", "exporter ports are")
                ),
            ));
        }
        let skipped = [
            (counts.off_grid, ("point", "points"), "off the range's step times skipped"),
            (
                counts.repeated,
                ("point", "points"),
                "given again for the same port, counter and step; kept the first",
            ),
            (counts.too_large, ("value", "values"), "more than its counter holds skipped"),
        ];
        for (n, (one, many), what) in skipped.into_iter().filter(|(n, ..)| *n > 0) {
            out.push(Warning::in_file(source, format!("{} {what}", counted(n, one, many))));
        }
        out
    }
}

/// One series made ready for [`HistoryFold::add_prepared`] without the fold: its port and its
/// points' counts at the grid's steps, resets corrected. Any thread can make it, so a streamed
/// answer's per-point work runs on the decoding's cores and the fold only places and copies.
pub struct Prepared {
    port: Option<(SeriesKind, Guid, u8)>,
    /// (step, count) of each point on the grid, in time order.
    points: Vec<(usize, u64)>,
    /// Points off the grid's step times.
    off_grid: usize,
    /// What reading the labels told (a host device, no port labels).
    label_notes: Notes,
    /// What the points told (resets, values that are no count).
    point_notes: Notes,
}

/// A series made ready for the fold on a `grid`.
pub fn prepare(series: &Series, grid: StepGrid) -> Prepared {
    let mut label_notes = Notes::default();
    let mut prepared = Prepared {
        port: None,
        points: Vec::new(),
        off_grid: 0,
        label_notes: Notes::default(),
        point_notes: Notes::default(),
    };
    let Some((metric, kind, guid, port)) = series_port(0, series, &mut label_notes) else {
        prepared.label_notes = label_notes;
        return prepared;
    };
    let (points, off_grid) = (&mut prepared.points, &mut prepared.off_grid);
    points.reserve_exact(series.values.len());
    // Points come in time order: the next step is checked first, without a division.
    let mut next = 0;
    corrected_points(0, series, (&metric, guid, port), &mut prepared.point_notes, |ms, count| {
        let step = if next < grid.steps && ms == grid.ms_of(next) { Some(next) } else { grid.step_of(ms) };
        match step {
            Some(step) => {
                next = step + 1;
                points.push((step, count));
            }
            None => *off_grid += 1,
        }
    });
    prepared.port = Some((kind, guid, port));
    prepared.label_notes = label_notes;
    prepared
}

/// "1 point", "2 points": a count with its noun agreeing.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
