//! Observed bytes per link end, from port counters: one snapshot gives the counters as they
//! stand, two of the same rail(s) the second minus the first, and three or more a series: each
//! consecutive pair is one interval (a column of the time strip), and the observed bytes are
//! the intervals summed.
//!
//! A link end's observed bytes are what its sending port transmitted (`PortXmitData × 4`); where
//! only the receiving port was read, what that port received. A value is left empty, with a
//! warning, when the counter saturated (32-bit at `0xffffffff`) or went down between the
//! snapshots (a reset): nothing is silently turned into a number.

use std::collections::BTreeMap;

use crate::model::counters::{DataCounter, Snapshot, TakenAt};
use crate::model::{Cluster, LinkEnd, Warning};

use super::counter_join::{PlacedPort, PlacedSnapshot, PortGuids, PortPlace, place};

/// Observed bytes per link end, per rail (`None`: no counter covers that end).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// `rails[r][LinkEnd::index()]`.
    pub rails: Vec<Vec<Option<u64>>>,
    /// With three or more snapshots of the same rails: each interval between consecutive
    /// snapshots, in the order given. Empty otherwise.
    pub series: Vec<Interval>,
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
    /// `rails[r][LinkEnd::index()]`, as [`Observed::rails`].
    pub rails: Vec<Vec<Option<u64>>>,
}

impl Observed {
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

/// Joins snapshots to the fabric's link ends. Snapshots covering the same rails are differenced
/// in the order given (second minus first, third minus second, …).
pub fn observe(cluster: &Cluster, inputs: &[CounterInput]) -> Result<(Observed, Vec<Warning>), ObserveError> {
    let guids = PortGuids::new(cluster);
    let mut warnings = Vec::new();
    let mut groups: BTreeMap<Vec<usize>, Vec<PlacedSnapshot>> = BTreeMap::new();
    for input in inputs {
        if let Some(rail) = input.rail.filter(|&r| r >= cluster.rails.len()) {
            let file = input.snapshot.source.clone();
            return Err(ObserveError::NoSuchRail { file, rail, rails: cluster.rails.len() });
        }
        let placed = place(cluster, &guids, &input.snapshot, input.rail);
        report_unmatched(&placed, &mut warnings);
        if placed.ports.is_empty() {
            warnings.push(Warning::in_file(
                &placed.source,
                "no port of this snapshot is on the fabric; not used",
            ));
            continue;
        }
        groups.entry(placed.rails()).or_default().push(placed);
    }
    let empty: Vec<Vec<Option<u64>>> = cluster.rails.iter().map(|f| vec![None; f.link_end_count()]).collect();
    let mut observed = Observed { rails: empty.clone(), series: Vec::new() };
    let mut problems = Problems::default();
    let series = groups.values().any(|g| g.len() >= 3);
    for snapshots in groups.values() {
        if let [one] = snapshots.as_slice() {
            fill(&mut observed.rails, one.ports.iter().map(|(k, p)| (*k, *p, None)), &mut problems);
            continue;
        }
        let mut sum = empty.clone();
        for (at, pair) in snapshots.windows(2).enumerate() {
            let (before, after) = (&pair[0], &pair[1]);
            report_one_sided(before, after, &mut warnings);
            let mut rails = empty.clone();
            let pairs = after.ports.iter().filter_map(|(k, a)| Some((*k, *a, Some(*before.ports.get(k)?))));
            fill(&mut rails, pairs, &mut problems);
            add_interval(&mut sum, &rails, at == 0);
            if series {
                if observed.series.len() <= at {
                    observed.series.push(Interval {
                        from: before.source.clone(),
                        to: after.source.clone(),
                        start: before.taken,
                        end: after.taken,
                        rails: empty.clone(),
                    });
                }
                overlay(&mut observed.series[at].rails, &rails);
            }
        }
        overlay(&mut observed.rails, &sum);
    }
    problems.report(cluster, &mut warnings);
    Ok((observed, warnings))
}

/// Adds an interval's values into a running sum: an end missing from any interval (no counter,
/// a reset, saturation) has no value over the whole series, since part of its bytes is unknown.
fn add_interval(sum: &mut [Vec<Option<u64>>], interval: &[Vec<Option<u64>>], first: bool) {
    for (total, values) in sum.iter_mut().zip(interval) {
        for (t, v) in total.iter_mut().zip(values) {
            *t = match (first, *t, *v) {
                (true, _, v) => v,
                (false, Some(a), Some(b)) => Some(a.saturating_add(b)),
                _ => None,
            };
        }
    }
}

/// Writes `values`' known ends over `into`.
fn overlay(into: &mut [Vec<Option<u64>>], values: &[Vec<Option<u64>>]) {
    for (rail, values) in into.iter_mut().zip(values) {
        for (slot, v) in rail.iter_mut().zip(values) {
            if v.is_some() {
                *slot = *v;
            }
        }
    }
}

/// Counters that could not become a number, kept to name them in a few warnings.
#[derive(Default)]
struct Problems {
    saturated: Vec<PortPlace>,
    reset: Vec<PortPlace>,
}

/// Sets each placed port's link ends: transmit on the end it sends into; receive on the end it
/// receives from, where that end's sender gave nothing.
fn fill(
    observed: &mut [Vec<Option<u64>>],
    ports: impl Iterator<Item = (PortPlace, PlacedPort, Option<PlacedPort>)>,
    problems: &mut Problems,
) {
    let mut received = Vec::new();
    for (place, now, before) in ports {
        let rail = &mut observed[place.0];
        if let Some(bytes) = delta(now.xmit, before.map(|b| b.xmit), place, problems) {
            rail[now.sends.index()] = Some(bytes);
        }
        if let Some(bytes) = delta(now.rcv, before.map(|b| b.rcv), place, problems) {
            received.push((place.0, now.receives.index(), bytes));
        }
    }
    for (rail, index, bytes) in received {
        observed[rail][index].get_or_insert(bytes);
    }
}

/// One counter's bytes: as it stands, or after − before.
fn delta(
    now: Option<DataCounter>,
    before: Option<Option<DataCounter>>,
    place: PortPlace,
    problems: &mut Problems,
) -> Option<u64> {
    let now = now?;
    let before = match before {
        None => None,
        Some(b) => Some(b?),
    };
    if now.saturated || before.is_some_and(|b| b.saturated) {
        problems.saturated.push(place);
        return None;
    }
    match before {
        None => Some(now.bytes),
        Some(b) if now.bytes < b.bytes => {
            problems.reset.push(place);
            None
        }
        Some(b) => Some(now.bytes - b.bytes),
    }
}

impl Problems {
    fn report(mut self, cluster: &Cluster, warnings: &mut Vec<Warning>) {
        for places in [&mut self.saturated, &mut self.reset] {
            places.sort_unstable();
            places.dedup();
        }
        let name = |&(r, node, port): &PortPlace| {
            format!("rail {r} \"{}\" port {port}", cluster.rails[r].node(node).description)
        };
        for (places, what) in [
            (
                &self.saturated,
                "saturated 32-bit data counters (stuck at 0xffffffff words; read the 64-bit ones, perfquery -x)",
            ),
            (&self.reset, "data counters that went down between the snapshots (reset)"),
        ] {
            if places.is_empty() {
                continue;
            }
            let shown: Vec<String> = places.iter().take(5).map(name).collect();
            let more = places.len().saturating_sub(shown.len());
            let tail = if more > 0 { format!(" and {more} more") } else { String::new() };
            let message = format!(
                "{} port(s) with {what}: {}{tail}; their link ends have no observed value",
                places.len(),
                shown.join(", ")
            );
            warnings.push(Warning::in_file("counters", message));
        }
    }
}

fn report_unmatched(placed: &PlacedSnapshot, warnings: &mut Vec<Warning>) {
    if placed.unmatched.is_empty() {
        return;
    }
    let shown: Vec<&str> = placed.unmatched.iter().take(5).map(String::as_str).collect();
    let more = placed.unmatched.len() - shown.len();
    let tail = if more > 0 { format!("; and {more} more") } else { String::new() };
    let message = format!("{} port(s) match no link end: {}{tail}", placed.unmatched.len(), shown.join("; "));
    warnings.push(Warning::in_file(&placed.source, message));
}

fn report_one_sided(before: &PlacedSnapshot, after: &PlacedSnapshot, warnings: &mut Vec<Warning>) {
    let only_before = before.ports.keys().filter(|k| !after.ports.contains_key(k)).count();
    let only_after = after.ports.keys().filter(|k| !before.ports.contains_key(k)).count();
    if only_before + only_after > 0 {
        let message = format!(
            "{only_after} port(s) only in this snapshot and {only_before} only in {}: no difference for them",
            before.source
        );
        warnings.push(Warning::in_file(&after.source, message));
    }
}

#[cfg(test)]
#[path = "observed_tests.rs"]
mod tests;
