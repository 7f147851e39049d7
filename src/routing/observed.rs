//! Observed bytes per link end, from port counters, and the ports' other counters (XmitWait,
//! packets, errors). How snapshots pair up and how a counter becomes a number is
//! [`super::counter_delta`]'s job: one snapshot gives the counters as they stand, two or more
//! give each port's after − before between the snapshots that hold it, and three or more of a
//! rail a series: each consecutive pair is one interval (a column of the time strip), and the
//! observed bytes are the intervals summed.
//!
//! A link end's observed bytes are what its sending port transmitted (`PortXmitData × 4`); where
//! only the receiving port was read, what that port received. A value is left empty, with a
//! warning, when the counter saturated, went down between the snapshots (a reset), was read at
//! two widths, or is in only one snapshot of several: nothing is silently turned into a number.

use std::collections::HashMap;

use crate::model::counters::{Snapshot, TakenAt};
use crate::model::port_counters::{Count, CounterKind, OtherCounters};
use crate::model::{Cluster, LinkEnd, Warning};

use super::counter_delta::{Pairing, Reading, delta, fold_deltas};
use super::counter_join::{PlacedPort, PlacedSnapshot, PortGuids, PortPlace, place};
use super::end_values::EndValues;
use super::observed_report::{Problems, report_pairing, report_repeat, report_unmatched};

/// Observed bytes per link end, per rail (`None`: no counter covers that end).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// `rails[r][LinkEnd::index()]`.
    pub rails: Vec<Vec<Option<u64>>>,
    /// With three or more snapshots of a rail: each interval between consecutive snapshots,
    /// in the order given. Empty otherwise.
    pub series: Vec<Interval>,
    /// PortXmitWait ticks per link end (counted at its sending port), per rail, as
    /// [`Observed::rails`]; empty when no snapshot read XmitWait.
    pub xmit_wait: Vec<Vec<Option<u64>>>,
    /// The other counters (XmitWait, packets, errors) of every port that read any, as they
    /// stand or after − before; a counter refused (reset, saturated, mixed widths) is absent.
    pub ports: Vec<ObservedPort>,
    /// With two snapshots or more: the first and the last, the time the totals span.
    pub window: Option<Interval>,
    /// `PortSamplesControl.Tick` of the ports that recorded it, by (rail, the index of the link
    /// end each sends into); the others' XmitWait tick is assumed.
    pub ticks: HashMap<(usize, usize), u8>,
}

/// One port's other counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObservedPort {
    pub place: PortPlace,
    /// The link end the port sends into.
    pub sends: LinkEnd,
    /// Values with the width they were read at.
    pub counts: OtherCounters,
}

/// The bytes each link end carried between two consecutive snapshots of a series. Rails whose
/// snapshots are fewer contribute their own intervals at the same positions (a before/after pair
/// is interval 0 only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interval {
    /// The snapshots' files, as given.
    pub from: String,
    pub to: String,
    /// When each was taken, if known.
    pub start: Option<TakenAt>,
    pub end: Option<TakenAt>,
    /// `rails[r][LinkEnd::index()]`, as [`Observed::rails`] (read [`EndValues::value_at`] in
    /// loops over a long history: it never copies the columns).
    pub rails: EndValues,
    /// PortXmitWait ticks per link end in this interval, as [`Observed::xmit_wait`]; empty when
    /// no snapshot read XmitWait.
    pub xmit_wait: EndValues,
}

impl Interval {
    /// How long the interval lasted, in seconds: `None` when a time is unknown or the end is
    /// not after the start (never a negative or wrapped span).
    pub fn seconds(&self) -> Option<f64> {
        let micros = self.end?.time.0.checked_sub(self.start?.time.0)?;
        (micros > 0).then(|| micros as f64 / 1e6)
    }
}

impl Observed {
    /// The `PortSamplesControl.Tick` of a link end's sending port, where a capture recorded it.
    pub fn tick_at(&self, rail: usize, end: LinkEnd) -> Option<u8> {
        self.ticks.get(&(rail, end.index())).copied()
    }

    /// The XmitWait ticks of a link end, if its sending port read them.
    pub fn xmit_wait_at(&self, rail: usize, end: LinkEnd) -> Option<u64> {
        self.xmit_wait.get(rail)?.get(end.index()).copied().flatten()
    }

    pub fn at(&self, rail: usize, end: LinkEnd) -> Option<u64> {
        self.rails.get(rail)?.get(end.index()).copied().flatten()
    }

    /// How many link ends have a value.
    pub fn covered(&self) -> usize {
        self.rails.iter().flatten().filter(|v| v.is_some()).count()
    }
}

/// `observed − predicted`, in bytes (saturating at the ends of `i64`).
pub fn residual(observed: u64, predicted: u64) -> i64 {
    let difference = i128::from(observed) - i128::from(predicted);
    i64::try_from(difference).unwrap_or(if difference < 0 { i64::MIN } else { i64::MAX })
}

/// A snapshot and the rail the user assigned it to (`--counters railN=FILE`), if any.
#[derive(Clone, Debug)]
pub struct CounterInput {
    pub rail: Option<usize>,
    pub snapshot: Snapshot,
}

/// Why counters could not be joined at all.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ObserveError {
    #[error("{file}: rail {rail} was given, but the fabric has {rails} rail(s)")]
    NoSuchRail { file: String, rail: usize, rails: usize },
}

/// Joins snapshots to the fabric's link ends, pairing them port by port in the order given.
pub fn observe(cluster: &Cluster, inputs: &[CounterInput]) -> Result<(Observed, Vec<Warning>), ObserveError> {
    let guids = PortGuids::new(cluster);
    let mut warnings = Vec::new();
    let (placed, ticks) = place_inputs(cluster, &guids, inputs, &mut warnings)?;
    let pairing = Pairing::of(&placed, cluster.rails.len());
    report_pairing(&pairing, &placed, &mut warnings);
    let mut out = Observed { ticks, ..Observed::empty(cluster, &pairing, &placed) };
    let mut problems = Problems::default();
    let mut received = Vec::new();
    for (place, at) in pairing.ports() {
        let samples: Vec<(&PlacedSnapshot, &PlacedPort)> = at
            .iter()
            .filter_map(|&i| placed.get(i as usize).and_then(|s| Some((s, s.ports.get(&place)?))))
            .collect();
        if pairing.differences && samples.len() < 2 {
            problems.single.push(place);
            continue;
        }
        let positions = pairing.positions(place.0, &at);
        let port =
            PortRun { place, samples: &samples, differences: pairing.differences, positions: &positions };
        port.data(&mut out, &mut problems, &mut received);
        port.others(&mut out, &mut problems);
    }
    // A receive counter fills the far end only where that end's sender gave nothing.
    for (rail, index, value) in received {
        if let Some(total) = value.total {
            out.rails[rail][index].get_or_insert(total);
        }
        for (p, v) in value.by_position {
            if let Some(slot) = out.series.get_mut(p).and_then(|i| i.rails.get_mut(rail)?.get_mut(index)) {
                slot.get_or_insert(v);
            }
        }
    }
    out.totals_from_series();
    out.fill_xmit_wait(cluster);
    problems.report(cluster, &mut warnings);
    Ok((out, warnings))
}

/// A file's ticks by (rail, end index).
type Ticks = HashMap<(usize, usize), u8>;

/// Places every input on the fabric, naming what could not be placed; a file of ticks alone
/// (`perfquery -c`) gives its ticks and takes no part in the pairing.
fn place_inputs(
    cluster: &Cluster,
    guids: &PortGuids,
    inputs: &[CounterInput],
    warnings: &mut Vec<Warning>,
) -> Result<(Vec<PlacedSnapshot>, Ticks), ObserveError> {
    let mut placed = Vec::with_capacity(inputs.len());
    let mut ticks = Ticks::new();
    let given: Vec<(Option<usize>, &Snapshot)> = inputs.iter().map(|i| (i.rail, &i.snapshot)).collect();
    for (i, input) in inputs.iter().enumerate() {
        if let Some(rail) = input.rail.filter(|&r| r >= cluster.rails.len()) {
            let file = input.snapshot.source.clone();
            return Err(ObserveError::NoSuchRail { file, rail, rails: cluster.rails.len() });
        }
        report_repeat(&given, i, warnings);
        let one = place(cluster, guids, &input.snapshot, input.rail);
        report_unmatched(&one, warnings);
        ticks.extend(one.ticks.iter().map(|&(rail, end, tick)| ((rail, end.index()), tick)));
        if one.ports.is_empty() {
            if one.ticks.is_empty() {
                let text = "no port of this snapshot is on the fabric; not used";
                warnings.push(Warning::in_file(&one.source, text));
            }
            continue;
        }
        placed.push(one);
    }
    Ok((placed, ticks))
}

/// One value of one counter of one port: over the whole observation, and per series interval.
struct PortValue {
    /// `None` when an interval was refused: part of what moved is unknown.
    total: Option<u64>,
    by_position: Vec<(usize, u64)>,
}

/// One port's samples, in its snapshots' order, and how they pair.
struct PortRun<'a> {
    place: PortPlace,
    samples: &'a [(&'a PlacedSnapshot, &'a PlacedPort)],
    differences: bool,
    positions: &'a [Option<usize>],
}

impl PortRun<'_> {
    /// One counter's value from its readings; a refusal is recorded under `name`.
    fn value(
        &self,
        reading: impl Fn(&PlacedSnapshot, &PlacedPort) -> Option<Reading>,
        name: &'static str,
        problems: &mut Problems,
    ) -> Option<PortValue> {
        let readings = self.samples.iter().map(|(s, p)| reading(s, p));
        if !self.differences {
            let first = readings.take(1).next().flatten()?;
            return match delta(first, None) {
                Ok(total) => Some(PortValue { total: Some(total), by_position: Vec::new() }),
                Err(refusal) => {
                    problems.push(refusal, self.place, name);
                    None
                }
            };
        }
        let folded = fold_deltas(readings, self.positions)?;
        if let Some(refusal) = folded.refused {
            problems.push(refusal, self.place, name);
        }
        Some(PortValue { total: folded.total, by_position: folded.by_position })
    }

    /// The data counters: transmit onto the end the port sends into, receive kept for later.
    fn data(
        &self,
        out: &mut Observed,
        problems: &mut Problems,
        received: &mut Vec<(usize, usize, PortValue)>,
    ) {
        let (rail, first) = (self.place.0, self.samples[0].1);
        if let Some(v) = self.value(|_, p| p.xmit.map(Reading::from), "PortXmitData", problems) {
            out.set(rail, first.sends.index(), &v);
        }
        if let Some(v) = self.value(|_, p| p.rcv.map(Reading::from), "PortRcvData", problems) {
            received.push((rail, first.receives.index(), v));
        }
    }

    /// XmitWait, packets and errors: totals per port.
    fn others(&self, out: &mut Observed, problems: &mut Problems) {
        if self.samples.iter().all(|(_, p)| p.other.is_none()) {
            return;
        }
        let mut counts = OtherCounters::default();
        for kind in CounterKind::ALL {
            let count = |s: &PlacedSnapshot, p: &PlacedPort| s.other_of(p).and_then(|o| o.get(kind));
            let Some(width) = self.samples.iter().find_map(|(s, p)| count(s, p)).map(|c| c.width) else {
                continue;
            };
            let total = self.value(|s, p| count(s, p).map(Reading::from), kind.name(), problems);
            if kind == CounterKind::PortXmitWait
                && let Some(v) = &total
            {
                out.set_interval_wait(self.place.0, self.samples[0].1.sends.index(), &v.by_position);
            }
            if let Some(value) = total.and_then(|v| v.total) {
                counts.set(kind, Count { value, width });
            }
        }
        let sends = self.samples[0].1.sends;
        out.ports.push(ObservedPort { place: self.place, sends, counts });
    }
}

impl Observed {
    /// No value anywhere, with one empty interval per series position of `pairing`.
    fn empty(cluster: &Cluster, pairing: &Pairing, placed: &[PlacedSnapshot]) -> Observed {
        let empty: Vec<Vec<Option<u64>>> =
            cluster.rails.iter().map(|f| vec![None; f.link_end_count()]).collect();
        let interval = |(from, to): (u32, u32), rails: EndValues| {
            let (from, to) = (&placed[from as usize], &placed[to as usize]);
            Interval {
                from: from.source.clone(),
                to: to.source.clone(),
                start: from.taken,
                end: to.taken,
                rails,
                xmit_wait: EndValues::default(),
            }
        };
        let series = pairing.series.iter().map(|&pair| interval(pair, empty.clone().into())).collect();
        let window = (pairing.differences && placed.len() >= 2)
            .then(|| interval((0, (placed.len() - 1) as u32), EndValues::default()));
        let (xmit_wait, ports, ticks) = (Vec::new(), Vec::new(), HashMap::new());
        Observed { rails: empty, series, xmit_wait, ports, window, ticks }
    }

    /// Sets a transmit value on a link end, and its known intervals.
    fn set(&mut self, rail: usize, index: usize, value: &PortValue) {
        if let Some(total) = value.total {
            self.rails[rail][index] = Some(total);
        }
        for &(p, v) in &value.by_position {
            if let Some(slot) = self.series.get_mut(p).and_then(|i| i.rails.get_mut(rail)?.get_mut(index)) {
                *slot = Some(v);
            }
        }
    }

    /// Sets an end's XmitWait ticks in the series intervals they are known for.
    fn set_interval_wait(&mut self, rail: usize, index: usize, by_position: &[(usize, u64)]) {
        let shape: Vec<usize> = self.rails.iter().map(Vec::len).collect();
        for &(p, v) in by_position {
            let Some(interval) = self.series.get_mut(p) else { continue };
            if interval.xmit_wait.is_empty() {
                interval.xmit_wait = shape.iter().map(|&n| vec![None; n]).collect::<Vec<_>>().into();
            }
            if let Some(slot) = interval.xmit_wait.get_mut(rail).and_then(|r| r.get_mut(index)) {
                *slot = Some(v);
            }
        }
    }

    /// In a series, an end known in every interval totals its intervals, so that the total and
    /// the columns agree where an end took its sender's counter in one interval and its
    /// receiver's in another.
    fn totals_from_series(&mut self) {
        if self.series.is_empty() {
            return;
        }
        for (rail, totals) in self.rails.iter_mut().enumerate() {
            for (index, total) in totals.iter_mut().enumerate() {
                let mut sum = Some(0u64);
                for interval in &self.series {
                    let value = interval.rails.value_at(rail, index);
                    sum = sum.zip(value).map(|(s, v)| s.saturating_add(v));
                }
                if sum.is_some() {
                    *total = sum;
                }
            }
        }
    }

    /// The XmitWait ticks per link end, from the ports that read them.
    fn fill_xmit_wait(&mut self, cluster: &Cluster) {
        if !self.ports.iter().any(|p| p.counts.get(CounterKind::PortXmitWait).is_some()) {
            return;
        }
        self.xmit_wait = cluster.rails.iter().map(|f| vec![None; f.link_end_count()]).collect();
        for port in &self.ports {
            if let Some(wait) = port.counts.get(CounterKind::PortXmitWait) {
                self.xmit_wait[port.place.0][port.sends.index()] = Some(wait.value);
            }
        }
    }
}
#[cfg(test)]
#[path = "observed_tests.rs"]
mod tests;
