//! Utilisation and stall per link end and counter interval (issue 22, items 5 and 6): what the
//! time strip, the CCDFs and the congestion regions read. Indexed like the view model's link
//! positions ([`super::dataset::FabricIndex`]); `NaN` where unknown (no counter, no capacity,
//! or an interval without times).
//!
//! The intervals are a series' (three or more snapshots); two snapshots make one interval (the
//! window); one snapshot has no interval and no series.

use crate::model::capacity::Capacity;
use crate::model::{Cluster, LinkEnd};
use crate::routing::link_rates::{stall_percent, utilisation_percent};
use crate::routing::{Interval, Observed};

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
            out.push(&whole, &capacity, &observed.ticks);
        } else {
            for interval in &observed.series {
                out.push(interval, &capacity, &observed.ticks);
            }
        }
        Some(out)
    }

    /// `ticks`: the recorded `PortSamplesControl.Tick` by (rail, end index), as
    /// [`Observed::ticks`].
    fn push(
        &mut self,
        interval: &Interval,
        capacity: &[Option<Capacity>],
        ticks: &std::collections::HashMap<(usize, usize), u8>,
    ) {
        let seconds = interval.seconds();
        let (mut utilisation, mut stall) =
            (Vec::with_capacity(capacity.len()), Vec::with_capacity(capacity.len()));
        let rails = &interval.rails;
        let ends = (0..rails.rail_count()).flat_map(|r| (0..rails.rail_len(r)).map(move |i| (r, i)));
        for ((rail, i), capacity) in ends.zip(capacity) {
            let known = |v: Option<f64>| v.map_or(f32::NAN, |v| v as f32);
            let bytes = interval.rails.value_at(rail, i);
            let rate = capacity.zip(seconds);
            utilisation.push(known(rate.zip(bytes).and_then(|((c, s), b)| utilisation_percent(b, c, s))));
            let tick = ticks.get(&(rail, i)).copied();
            let waits = interval.xmit_wait.value_at(rail, i);
            stall.push(known(rate.zip(waits).and_then(|((c, s), t)| stall_percent(t, c, s, tick))));
        }
        self.labels.push(format!("{} → {}", interval.from, interval.to));
        self.utilisation.push(utilisation);
        self.stall.push(stall);
    }
}
