//! Utilisation and stall per link end and counter interval (issue 22, items 5 and 6): what the
//! time strip, the CCDFs and the congestion regions read. Indexed like the view model's link
//! positions ([`super::dataset::FabricIndex`]); `NaN` where unknown (no counter, no capacity,
//! or an interval without times).
//!
//! The intervals are a series' (three or more snapshots); two snapshots make one interval (the
//! window); one snapshot has no interval and no series.

use crate::model::capacity::Capacity;
use crate::model::{Cluster, LinkEnd};
use crate::routing::end_columns::{EndColumns, Row};
use crate::routing::end_values::{EndValues, shared_columns};
use crate::routing::link_rates::{stall_percent, utilisation_percent};
use crate::routing::{Interval, Observed};

/// True when every interval holds the same rails with the same ends (a history always does).
fn same_shape(series: &[Interval]) -> bool {
    let shape = |i: &Interval| {
        let rails = &i.rails;
        (0..rails.rail_count()).map(|r| rails.rail_len(r)).collect::<Vec<_>>()
    };
    let first = series.first().map(shape);
    series.iter().skip(1).all(|i| Some(shape(i)) == first)
}

/// Per interval, per link position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkSeries {
    /// `from → to` of each interval's snapshots.
    pub labels: Vec<String>,
    pub utilisation: Vec<Vec<f32>>,
    pub stall: Vec<Vec<f32>>,
}

impl LinkSeries {
    pub fn intervals(&self) -> usize {
        self.labels.len()
    }

    /// Every link end's capacity, rail by rail.
    fn capacities(cluster: &Cluster) -> Vec<Option<Capacity>> {
        let mut out = Vec::new();
        for fabric in &cluster.rails {
            for i in 0..fabric.link_end_count() {
                let link = fabric.graph.edge_weight(LinkEnd::from_index(i).edge);
                out.push(link.and_then(|l| Capacity::of(l).ok()));
            }
        }
        out
    }

    /// The series of the counters joined to a cluster; `None` without an interval.
    pub fn of(cluster: &Cluster, observed: &Observed) -> Option<LinkSeries> {
        let capacity = Self::capacities(cluster);
        let mut out = LinkSeries::default();
        if observed.series.is_empty() {
            let window = observed.window.as_ref()?;
            let whole = Interval {
                rails: observed.rails.clone().into(),
                xmit_wait: observed.xmit_wait.clone().into(),
                ..window.clone()
            };
            out.push(std::slice::from_ref(&whole), &capacity, &observed.ticks);
        } else if same_shape(&observed.series) {
            out.push(&observed.series, &capacity, &observed.ticks);
        } else {
            for interval in &observed.series {
                out.push(std::slice::from_ref(interval), &capacity, &observed.ticks);
            }
        }
        Some(out)
    }

    /// Intervals of one shape (`same_shape`), all at once and end by end: a history from
    /// Prometheus holds each end's steps side by side, so this reads it in order (interval by
    /// interval, each value was a cache miss), and looks each end's tick up once, not once per
    /// interval. `ticks`: the recorded `PortSamplesControl.Tick` by (rail, end index), as
    /// [`Observed::ticks`].
    fn push(
        &mut self,
        series: &[Interval],
        capacity: &[Option<Capacity>],
        ticks: &std::collections::HashMap<(usize, usize), u8>,
    ) {
        let Some(first) = series.first() else { return };
        let rails = &first.rails;
        let ends = (0..rails.rail_count()).flat_map(|r| (0..rails.rail_len(r)).map(move |i| (r, i)));
        let length = ends.clone().count().min(capacity.len());
        let seconds: Vec<Option<f64>> = series.iter().map(Interval::seconds).collect();
        // Not `vec![…; n]`: its clones would not keep the capacity.
        let mut utilisation: Vec<Vec<f32>> = series.iter().map(|_| Vec::with_capacity(length)).collect();
        let mut stall: Vec<Vec<f32>> = series.iter().map(|_| Vec::with_capacity(length)).collect();
        let known = |v: Option<f64>| v.map_or(f32::NAN, |v| v as f32);
        // A history's intervals are read row by row (one end's steps side by side), each
        // value in place; others through each interval's own values.
        let sent = Values::of(series.iter().map(|i| &i.rails));
        let waits = Values::of(series.iter().map(|i| &i.xmit_wait));
        let ends: Vec<(usize, usize)> = ends.take(length).collect();
        // The output is interval-major: ends go in blocks, each block's ends written side by
        // side into every interval's list (end by end, each end's value went to a page of its
        // own in every interval: a miss a value, most of a day's time).
        for (b, block) in ends.chunks(ENDS_A_BLOCK).enumerate() {
            let block: Vec<EndAt> = (block.iter().enumerate())
                .map(|(j, &(rail, i))| {
                    let end = b * ENDS_A_BLOCK + j;
                    let tick = ticks.get(&(rail, i)).copied();
                    EndAt {
                        rail,
                        i,
                        capacity: capacity[end],
                        tick,
                        sent: sent.row(end),
                        waits: waits.row(end),
                    }
                })
                .collect();
            for (k, interval) in series.iter().enumerate() {
                for at in &block {
                    let (rail, i) = (at.rail, at.i);
                    let rate = at.capacity.zip(seconds[k]);
                    let bytes = sent.value(&at.sent, k, || interval.rails.value_at(rail, i));
                    utilisation[k]
                        .push(known(rate.zip(bytes).and_then(|((c, s), b)| utilisation_percent(b, c, s))));
                    let waited = waits.value(&at.waits, k, || interval.xmit_wait.value_at(rail, i));
                    stall[k].push(known(
                        rate.zip(waited).and_then(|((c, s), t)| stall_percent(t, c, s, at.tick)),
                    ));
                }
            }
        }
        self.labels.extend(series.iter().map(|i| format!("{} → {}", i.from, i.to)));
        self.utilisation.extend(utilisation);
        self.stall.extend(stall);
    }
}

/// Link ends written together into every interval's lists.
const ENDS_A_BLOCK: usize = 256;

/// One end of a block: where it is, its capacity and tick, and its history rows.
struct EndAt<'a> {
    rail: usize,
    i: usize,
    capacity: Option<Capacity>,
    tick: Option<u8>,
    sent: Option<Row<'a>>,
    waits: Option<Row<'a>>,
}

/// Where a series' values for one counter come from: a shared history, read row by row, or
/// each interval's own.
enum Values<'a> {
    History(&'a EndColumns, Vec<usize>),
    Own,
}

impl<'a> Values<'a> {
    fn of(values: impl Iterator<Item = &'a EndValues>) -> Values<'a> {
        shared_columns(values).map_or(Values::Own, |(columns, steps)| Values::History(columns, steps))
    }

    /// The history's row of an end (ends in the columns' order), if read from one.
    fn row(&self, end: usize) -> Option<Row<'a>> {
        match self {
            Values::History(columns, _) => columns.row(end),
            Values::Own => None,
        }
    }

    /// Interval `k`'s value of the end whose row is `row`, else `own()`.
    fn value(&self, row: &Option<Row<'_>>, k: usize, own: impl FnOnce() -> Option<u64>) -> Option<u64> {
        match (self, row) {
            (Values::History(_, steps), Some(row)) => row.get(steps[k]),
            _ => own(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::EpochMicros;
    use crate::model::counters::{TakenAt, TimeSource};
    use crate::routing::end_columns::EndColumns;
    use crate::routing::end_values::EndValues;
    use crate::view_model::Dataset;

    /// Three one-minute intervals of a history (the second without an end time), bytes and
    /// XmitWait with unknown cells, over both rails of a synthetic fabric.
    fn history(ends: &[usize]) -> Vec<Interval> {
        let total: usize = ends.iter().sum();
        let (mut sent, mut waits) = (EndColumns::new(ends, 3), EndColumns::new(ends, 3));
        for j in 0..3 {
            for e in 0..total {
                let bytes = 1_000_000 * (e as u64 % 9) * (j as u64 + 1);
                sent.put(j, e, (e % 4 != 0).then_some(bytes));
                waits.put(j, e, (e % 5 != 1).then_some(1000 * (e as u64 % 7)));
            }
        }
        let (sent, waits) = (Arc::new(sent), Arc::new(waits));
        let at = |minute: i64| {
            Some(TakenAt {
                time: EpochMicros(1_800_000_000_000_000 + minute * 60_000_000),
                from: TimeSource::Server,
            })
        };
        (0..3)
            .map(|j| Interval {
                from: format!("t{j}"),
                to: format!("t{}", j + 1),
                start: at(j as i64),
                end: if j == 1 { None } else { at(j as i64 + 1) },
                rails: EndValues::column(sent.clone(), j),
                xmit_wait: EndValues::column(waits.clone(), j),
            })
            .collect()
    }

    #[test]
    fn all_intervals_read_end_by_end_equal_each_interval_read_in_turn() {
        let d = Dataset::synthetic(4, 3, 2, 2);
        let cluster = &d.fabric.as_ref().unwrap().cluster;
        let ends: Vec<usize> = cluster.rails.iter().map(|r| r.link_end_count()).collect();
        let series = history(&ends);
        assert!(same_shape(&series));
        let ticks = [((0, 3), 2u8), ((1, 0), 5)].into_iter().collect();
        // The synthetic fabric gives no speeds: 4x EDR on every other end, unknown on the rest.
        let total: usize = ends.iter().sum();
        let edr = Capacity { lanes: 4, speed: crate::model::capacity::LaneSpeed::Edr };
        let capacity: Vec<Option<Capacity>> = (0..total).map(|e| (e % 2 == 0).then_some(edr)).collect();
        let (mut all, mut each) = (LinkSeries::default(), LinkSeries::default());
        all.push(&series, &capacity, &ticks);
        series.iter().for_each(|i| each.push(std::slice::from_ref(i), &capacity, &ticks));
        let bits = |v: &[Vec<f32>]| {
            v.iter().map(|x| x.iter().map(|f| f.to_bits()).collect()).collect::<Vec<Vec<_>>>()
        };
        assert_eq!(all.labels, each.labels);
        assert_eq!(bits(&all.utilisation), bits(&each.utilisation));
        assert_eq!(bits(&all.stall), bits(&each.stall));
        assert!(all.utilisation[0].iter().any(|u| u.is_finite() && *u > 0.0), "capacities and times known");
        assert!(all.stall[2].iter().any(|u| u.is_finite() && *u > 0.0), "XmitWait read");
        assert!(all.utilisation[1].iter().all(|u| u.is_nan()), "an interval without an end time");
    }
}
