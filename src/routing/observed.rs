//! Observed bytes per link end, from port counters: one snapshot gives the counters as they
//! stand, two of the same rail(s) the second minus the first.
//!
//! A link end's observed bytes are what its sending port transmitted (`PortXmitData × 4`); where
//! only the receiving port was read, what that port received. A value is left empty, with a
//! warning, when the counter saturated (32-bit at `0xffffffff`) or went down between the
//! snapshots (a reset): nothing is silently turned into a number.

use std::collections::BTreeMap;

use crate::model::counters::{DataCounter, Snapshot};
use crate::model::{Cluster, LinkEnd, Warning};

use super::counter_join::{PlacedPort, PlacedSnapshot, PortGuids, PortPlace, place};

/// Observed bytes per link end, per rail (`None`: no counter covers that end).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// `rails[r][LinkEnd::index()]`.
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
    #[error(
        "{count} counter snapshots cover rail(s) {rails:?}; give one (counters as they stand) or two (before, after)"
    )]
    TooManySnapshots { rails: Vec<usize>, count: usize },
}

/// Joins snapshots to the fabric's link ends. Snapshots covering the same rails are paired in
/// the order given (second minus first).
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
    let mut observed =
        Observed { rails: cluster.rails.iter().map(|f| vec![None; f.link_end_count()]).collect() };
    let mut problems = Problems::default();
    for (rails, snapshots) in groups {
        match snapshots.as_slice() {
            [one] => fill(&mut observed, one.ports.iter().map(|(k, p)| (*k, *p, None)), &mut problems),
            [before, after] => {
                report_one_sided(before, after, &mut warnings);
                let pairs =
                    after.ports.iter().filter_map(|(k, a)| Some((*k, *a, Some(*before.ports.get(k)?))));
                fill(&mut observed, pairs, &mut problems);
            }
            many => return Err(ObserveError::TooManySnapshots { rails, count: many.len() }),
        }
    }
    problems.report(cluster, &mut warnings);
    Ok((observed, warnings))
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
    observed: &mut Observed,
    ports: impl Iterator<Item = (PortPlace, PlacedPort, Option<PlacedPort>)>,
    problems: &mut Problems,
) {
    let mut received = Vec::new();
    for (place, now, before) in ports {
        let rail = &mut observed.rails[place.0];
        if let Some(bytes) = delta(now.xmit, before.map(|b| b.xmit), place, problems) {
            rail[now.sends.index()] = Some(bytes);
        }
        if let Some(bytes) = delta(now.rcv, before.map(|b| b.rcv), place, problems) {
            received.push((place.0, now.receives.index(), bytes));
        }
    }
    for (rail, index, bytes) in received {
        observed.rails[rail][index].get_or_insert(bytes);
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
