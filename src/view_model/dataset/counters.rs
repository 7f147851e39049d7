//! Port counters in the view model: a `counters` table on the links domain, one row per link end,
//! `linkid predicted observed residual` (bytes; `observed` and `residual` are missing where no
//! counter covers the end), then `xmit_wait utilisation stall wait_ratio errors capacity`
//! ([`super::link_health`]). `predicted` is the whole run's traced bytes, so the three compare on
//! the same ends; filter, highlight, compare and diff treat them like any other attribute.

use crate::model::{Column, Domain, LinkEnd, Table};
use crate::routing::{Observed, residual};

use super::link_health::{self, health_columns};
use super::{Dataset, FabricData};

/// The table's name and its columns.
pub const COUNTERS_TABLE: &str = "counters";
pub const PREDICTED: &str = "predicted";
pub const OBSERVED: &str = "observed";
pub const RESIDUAL: &str = "residual";

/// Attributes whose values are signed: coloured on the diverging map around 0 (the residual,
/// and the AR spread's difference from the static trace).
pub fn is_signed_attribute(name: &str) -> bool {
    name == RESIDUAL || name == super::AR_MINUS_STATIC
}

impl Dataset {
    /// The data set with what the counters observed joined to its link ends. A run (no fabric)
    /// is returned unchanged.
    pub fn with_counters(mut self, observed: Observed) -> Dataset {
        let Some(fabric) = self.fabric.as_mut() else { return self };
        let rows = counter_rows(fabric);
        let n = rows.len();
        let (mut ids, mut predicted, mut seen, mut residuals) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let mut ends = Vec::with_capacity(n);
        for &(position, rail, end) in &rows {
            let p = fabric.loads.total.rails.get(rail).map_or(0, |l| l.at(end));
            let o = observed.at(rail, end);
            ids.push(position);
            ends.push((rail, end));
            predicted.push(p as f64);
            seen.push(o.map_or(f64::NAN, |o| o as f64));
            residuals.push(o.map_or(f64::NAN, |o| residual(o, p) as f64));
        }
        let health = health_columns(&fabric.cluster, &observed, &ends);
        fabric.observed = Some(observed);
        let mut names = ["linkid", PREDICTED, OBSERVED, RESIDUAL].map(String::from).to_vec();
        names.extend(link_health::NAMES.map(String::from));
        let mut columns =
            vec![Column::Int(ids), Column::Float(predicted), Column::Float(seen), Column::Float(residuals)];
        columns.extend(health.into_iter().map(Column::Float));
        // Equal-length columns with an integer key: this cannot fail.
        if let Ok(table) = Table::new(COUNTERS_TABLE, Domain::Links, "linkid", names, columns) {
            self.run = self.run.with_table(table);
        }
        self
    }

    /// True when counters were joined to this data set.
    pub fn has_counters(&self) -> bool {
        self.fabric.as_ref().is_some_and(|f| f.observed.is_some())
    }
}

/// The table's rows: each link end's view-model id, rail and end, in row order (what an
/// interval's columns are built in, [`crate::view_model::interval`]).
pub fn counter_rows(fabric: &FabricData) -> Vec<(i64, usize, LinkEnd)> {
    let index = &fabric.index;
    let mut rows = Vec::with_capacity(index.link_count());
    for (rail, f) in fabric.cluster.rails.iter().enumerate() {
        for i in 0..f.link_end_count() {
            let end = LinkEnd::from_index(i);
            if let Some(position) = index.link_position(rail, end) {
                rows.push((position as i64, rail, end));
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::query::{Aggregate, values};

    #[test]
    fn counters_become_link_attributes_with_missing_values_where_uncovered() {
        let d = Dataset::synthetic(2, 2, 1, 1);
        let fabric = d.fabric.as_ref().unwrap();
        let ends = fabric.cluster.rails[0].link_end_count();
        let predicted0 = fabric.loads.total.rails[0].at(LinkEnd::from_index(0));
        let mut rail = vec![None; ends];
        rail[0] = Some(predicted0 + 40);
        let d = d.with_counters(Observed { rails: vec![rail], ..Default::default() });
        assert!(d.has_counters());
        let observed = values(&d.run, Domain::Links, &[], Aggregate::Sum, OBSERVED).unwrap();
        let residual = values(&d.run, Domain::Links, &[], Aggregate::Sum, RESIDUAL).unwrap();
        let predicted = values(&d.run, Domain::Links, &[], Aggregate::Sum, PREDICTED).unwrap();
        assert_eq!(observed[0], Some((predicted0 + 40) as f64));
        assert_eq!(residual[0], Some(40.0));
        assert_eq!(observed[1], None, "no counter, no value");
        assert_eq!(predicted[0], Some(predicted0 as f64));
        let bytes = values(&d.run, Domain::Links, &[], Aggregate::Sum, "bytes").unwrap();
        assert_eq!(bytes.len(), observed.len(), "the traffic table is still there");
    }

    #[test]
    fn the_residual_colours_links_on_a_range_symmetric_around_zero_and_nodes_as_before() {
        let d = Dataset::synthetic(2, 2, 1, 1);
        let ends = d.fabric.as_ref().unwrap().cluster.rails[0].link_end_count();
        let mut rail = vec![Some(0); ends];
        rail[0] = Some(u64::MAX / 4);
        let d = d.with_counters(Observed { rails: vec![rail], ..Default::default() });
        let spec = crate::view_model::ViewSpec {
            link_attribute: Some(RESIDUAL.into()),
            ..crate::view_model::ViewSpec::for_dataset(&d)
        };
        let prepared = crate::view_model::prepare(
            &d,
            &spec,
            &Default::default(),
            &crate::view_model::LayoutChoice::FatTree,
        )
        .unwrap();
        assert!(prepared.links_signed && !prepared.signed);
        let (lo, hi) = prepared.link_range.unwrap();
        assert_eq!(lo, -hi);
        assert!(prepared.node_range.unwrap().0 >= 0.0, "node bytes stay one-sided");
    }

    #[test]
    fn xmit_wait_utilisation_stall_and_errors_are_link_attributes_missing_where_unknown() {
        use crate::view_model::dataset::link_health::{ERRORS, STALL, UTILISATION, XMIT_WAIT};
        let d = Dataset::synthetic(2, 2, 1, 1);
        let ends = d.fabric.as_ref().unwrap().cluster.rails[0].link_end_count();
        let mut waits = vec![None; ends];
        waits[1] = Some(7);
        let observed =
            Observed { rails: vec![vec![Some(0); ends]], xmit_wait: vec![waits], ..Default::default() };
        let d = d.with_counters(observed);
        let column = |name| values(&d.run, Domain::Links, &[], Aggregate::Sum, name).unwrap();
        assert_eq!(column(XMIT_WAIT)[1], Some(7.0));
        assert_eq!(column(XMIT_WAIT)[0], None, "its sender read no XmitWait");
        assert!(column(UTILISATION).iter().all(Option::is_none), "no capacity, no interval: no utilisation");
        assert!(column(STALL).iter().all(Option::is_none));
        assert!(column(ERRORS).iter().all(Option::is_none), "no port read error counters");
    }
}
