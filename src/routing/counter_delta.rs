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

/// One counter of one port over its snapshots, folded: the sum of its deltas (`None` when any
/// was refused: part of what moved is unknown; saturating, so it never wraps), each known delta
/// with its series position, and the first refusal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folded {
    pub total: Option<u64>,
    pub by_position: Vec<(usize, u64)>,
    pub refused: Option<Refusal>,
}

/// Folds a port's readings of one counter (`None`: not read in that snapshot); `positions[k]`
/// is the series position of its k-th interval, if any. `None` when no snapshot read it.
/// Allocates only for a series.
pub fn fold_deltas(
    mut readings: impl Iterator<Item = Option<Reading>>,
    positions: &[Option<usize>],
) -> Option<Folded> {
    let mut before = readings.next()?;
    let mut any = before.is_some();
    let mut folded = Folded { total: Some(0), ..Folded::default() };
    for (k, now) in readings.enumerate() {
        any |= now.is_some();
        let d = match (before, now) {
            (Some(b), Some(n)) => delta(n, Some(b)),
            _ => Err(Refusal::OneSided),
        };
        match d {
            Ok(v) => {
                folded.total = folded.total.map(|t| t.saturating_add(v));
                if let Some(Some(p)) = positions.get(k) {
                    folded.by_position.push((*p, v));
                }
            }
            Err(refusal) => {
                folded.total = None;
                folded.refused.get_or_insert(refusal);
            }
        }
        before = now;
    }
    any.then_some(folded)
}

/// How the snapshots pair up.
#[derive(Clone, Debug, Default)]
pub struct Pairing {
    /// Every placed port with the snapshots (indices into the placed list) that hold it, in
    /// the order given; sorted by place. One flat list: a k = 36 pair has 280,000 entries.
    entries: Vec<(PortPlace, u32)>,
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
        let mut entries = Vec::with_capacity(placed.iter().map(|p| p.ports.len()).sum());
        let mut rail_snapshots = vec![Vec::new(); rails];
        for (i, snapshot) in (0u32..).zip(placed) {
            for rail in snapshot.rails() {
                if let Some(list) = rail_snapshots.get_mut(rail) {
                    list.push(i);
                }
            }
            entries.extend(snapshot.ports.keys().map(|place| (*place, i)));
        }
        entries.sort_unstable();
        let differences = entries.windows(2).any(|w| w[0].0 == w[1].0);
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
        Pairing { entries, differences, rail_snapshots, series }
    }

    /// Every placed port with the snapshots that hold it, in order.
    pub fn ports(&self) -> impl Iterator<Item = (PortPlace, Vec<u32>)> + '_ {
        self.entries.chunk_by(|a, b| a.0 == b.0).map(|run| (run[0].0, run.iter().map(|e| e.1).collect()))
    }

    /// The series position of each of a port's intervals (`None`: the port missed a snapshot
    /// of its rail in between, so the interval spans more than one column). Empty without a
    /// series.
    pub fn positions(&self, rail: usize, at: &[u32]) -> Vec<Option<usize>> {
        let list = match self.rail_snapshots.get(rail) {
            Some(list) if !self.series.is_empty() => list,
            _ => return Vec::new(),
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
        let wide = |v| Some(r(v, CounterWidth::Bits64));
        let big = fold_deltas([wide(0), wide(u64::MAX - 1), wide(u64::MAX)].into_iter(), &[]).unwrap();
        assert_eq!(big.total, Some(u64::MAX));
        let reset = fold_deltas([wide(1), wide(9), wide(2)].into_iter(), &[Some(0), Some(1)]).unwrap();
        assert_eq!((reset.total, reset.refused), (None, Some(Refusal::Reset)));
        assert_eq!(reset.by_position, [(0, 8)], "the known interval stays");
        let gap = fold_deltas([wide(1), None, wide(4)].into_iter(), &[]).unwrap();
        assert_eq!((gap.total, gap.refused), (None, Some(Refusal::OneSided)));
        assert_eq!(fold_deltas([None, None].into_iter(), &[]), None, "never read: no value at all");
    }
}
