//! The one counter-delta routine (issue 24, severe 1 and 2): how snapshots pair up, decided port
//! by port, and how one counter becomes a number.
//!
//! - One snapshot: each counter as it stands.
//! - Two or more: every port is differenced between the snapshots that hold it, in the order
//!   given, whatever other rails or ports those snapshots cover. A port that only one of them
//!   holds has no value (its counter as it stands is a total, not what moved).
//! - Three or more of a rail: a series, one interval per consecutive pair of that rail's
//!   snapshots; a port missing from one of them has no value in the intervals it missed, while
//!   its sum (last − first) stays right.
//!
//! A counter is never subtracted across widths (a 32-bit `PortCounters` value from a 64-bit
//! `PortCountersExtended` one), nor read when saturated, nor when it went down (a reset): each is
//! a [`Refusal`], named by the caller, never a number.

use std::collections::HashMap;

use crate::model::counters::{CounterWidth, DataCounter};
use crate::model::port_counters::Count;

use super::counter_join::{PlacedSnapshot, PortPlace};

/// One counter reading, whatever it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub value: u64,
    pub width: CounterWidth,
    pub saturated: bool,
}

impl From<DataCounter> for Reading {
    fn from(c: DataCounter) -> Reading {
        Reading { value: c.bytes, width: c.width, saturated: c.saturated }
    }
}

impl From<Count> for Reading {
    fn from(c: Count) -> Reading {
        Reading { value: c.value, width: c.width, saturated: c.saturated() }
    }
}

/// Why a counter gave no number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Refusal {
    /// The two readings have different widths (32-bit and 64-bit).
    MixedWidths,
    /// A reading stood at its width's maximum.
    Saturated,
    /// The counter went down between the readings.
    Reset,
    /// The counter was read in one snapshot of the pair only.
    OneSided,
}

/// A counter as it stands (`before` is `None`), or `now − before`.
pub fn delta(now: Reading, before: Option<Reading>) -> Result<u64, Refusal> {
    if before.is_some_and(|b| b.width != now.width) {
        return Err(Refusal::MixedWidths);
    }
    if now.saturated || before.is_some_and(|b| b.saturated) {
        return Err(Refusal::Saturated);
    }
    match before {
        None => Ok(now.value),
        Some(b) => now.value.checked_sub(b.value).ok_or(Refusal::Reset),
    }
}

/// The values of one counter of one port over its snapshots: `readings[i]` is its reading in
/// the port's i-th snapshot (`None`: not read there).
pub fn port_deltas(readings: &[Option<Reading>]) -> Vec<Result<u64, Refusal>> {
    readings
        .windows(2)
        .map(|pair| match (pair[0], pair[1]) {
            (Some(before), Some(now)) => delta(now, Some(before)),
            _ => Err(Refusal::OneSided),
        })
        .collect()
}

/// The sum of a port's deltas: `None` when any of them was refused (part of what moved is
/// unknown). Saturating, so a sum never wraps.
pub fn summed(deltas: &[Result<u64, Refusal>]) -> Option<u64> {
    deltas.iter().try_fold(0u64, |sum, d| d.ok().map(|v| sum.saturating_add(v)))
}

/// How the snapshots pair up.
#[derive(Clone, Debug, Default)]
pub struct Pairing {
    /// Every placed port with the snapshots (indices into the placed list) that hold it, in
    /// the order given; sorted by place.
    pub ports: Vec<(PortPlace, Vec<u32>)>,
    /// True when some port is in two or more snapshots: values are differences.
    pub differences: bool,
    /// Per rail, the snapshots that cover it, in order.
    pub rail_snapshots: Vec<Vec<u32>>,
    /// Per series interval: the pair of snapshots that bounds it (the first rail's that has it).
    /// Empty unless some rail has three snapshots or more.
    pub series: Vec<(u32, u32)>,
}

impl Pairing {
    /// Pairs `placed` port by port, on a fabric of `rails` rails.
    pub fn of(placed: &[PlacedSnapshot], rails: usize) -> Pairing {
        let mut by_port: HashMap<PortPlace, Vec<u32>> = HashMap::new();
        let mut rail_snapshots = vec![Vec::new(); rails];
        for (i, snapshot) in (0u32..).zip(placed) {
            for rail in snapshot.rails() {
                if let Some(list) = rail_snapshots.get_mut(rail) {
                    list.push(i);
                }
            }
            for place in snapshot.ports.keys() {
                by_port.entry(*place).or_default().push(i);
            }
        }
        let mut ports: Vec<(PortPlace, Vec<u32>)> = by_port.into_iter().collect();
        ports.sort_unstable_by_key(|(place, _)| *place);
        let differences = ports.iter().any(|(_, at)| at.len() >= 2);
        let longest = rail_snapshots.iter().map(Vec::len).max().unwrap_or(0);
        let series = if longest >= 3 {
            (0..longest - 1)
                .filter_map(|k| {
                    rail_snapshots.iter().find_map(|list| Some((*list.get(k)?, *list.get(k + 1)?)))
                })
                .collect()
        } else {
            Vec::new()
        };
        Pairing { ports, differences, rail_snapshots, series }
    }

    /// The series position of each of a port's intervals (`None`: the port missed a snapshot
    /// of its rail in between, so the interval spans more than one column).
    pub fn positions(&self, rail: usize, at: &[u32]) -> Vec<Option<usize>> {
        let list = match self.rail_snapshots.get(rail) {
            Some(list) if !self.series.is_empty() => list,
            _ => return vec![None; at.len().saturating_sub(1)],
        };
        at.windows(2)
            .map(|pair| {
                let k = list.iter().position(|&s| s == pair[0])?;
                (list.get(k + 1) == Some(&pair[1])).then_some(k)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(value: u64, width: CounterWidth) -> Reading {
        Reading { value, width, saturated: width != CounterWidth::Bits64 && value >= width.max() }
    }

    #[test]
    fn a_32_bit_value_is_never_subtracted_from_a_64_bit_one() {
        let before = r(10_000, CounterWidth::Bits32);
        let after = r(9_000_000_000, CounterWidth::Bits64);
        assert_eq!(delta(after, Some(before)), Err(Refusal::MixedWidths));
        assert_eq!(delta(before, Some(after)), Err(Refusal::MixedWidths));
    }

    #[test]
    fn a_counter_that_went_down_is_a_reset_with_no_value() {
        assert_eq!(delta(r(5, CounterWidth::Bits64), Some(r(9, CounterWidth::Bits64))), Err(Refusal::Reset));
        assert_eq!(delta(r(9, CounterWidth::Bits64), Some(r(5, CounterWidth::Bits64))), Ok(4));
    }

    #[test]
    fn a_saturated_reading_gives_no_value_alone_or_paired() {
        let stuck = r(0xffff_ffff, CounterWidth::Bits32);
        assert_eq!(delta(stuck, None), Err(Refusal::Saturated));
        assert_eq!(delta(stuck, Some(r(1, CounterWidth::Bits32))), Err(Refusal::Saturated));
        assert_eq!(delta(r(65534, CounterWidth::Bits16), None), Ok(65534));
    }

    #[test]
    fn a_sum_with_any_refused_interval_is_unknown_and_never_wraps() {
        assert_eq!(summed(&[Ok(u64::MAX), Ok(5)]), Some(u64::MAX));
        assert_eq!(summed(&[Ok(1), Err(Refusal::Reset)]), None);
        let readings = [Some(r(1, CounterWidth::Bits64)), None, Some(r(4, CounterWidth::Bits64))];
        assert_eq!(port_deltas(&readings), vec![Err(Refusal::OneSided), Err(Refusal::OneSided)]);
    }
}
