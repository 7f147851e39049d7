//! A filter as plain data: clauses (whose pieces are in [`super::relation`]), and/or, the value
//! range. The clauses are evaluated by the one query engine ([`super::query`]) on whatever
//! data set a view shows, fabric or run alike.

pub use super::query::Condition as Clause;
pub use super::relation::{Combine, Relation, glob_match, parse_number};

/// A view's (or a link group's) filter: clauses `ATTR REL VALUE` on any attribute the data set
/// offers (a node clause reaches links through the projection), combined with and/or, plus the
/// range that the threshold slider and the histogram brush write on the coloured value. The
/// default passes everything.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Filter {
    pub clauses: Vec<Clause>,
    pub combine: Combine,
    /// `[min, max]` (inclusive) of the view's link value, compared by magnitude (a diff's
    /// falls count as much as its rises).
    pub value_range: Option<(f64, f64)>,
    /// Drops links whose value is zero or missing.
    pub hide_unused: bool,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty() && self.value_range.is_none() && !self.hide_unused
    }

    /// Whether a link value passes the range and "hide unused" (the clauses are the query
    /// engine's).
    pub fn value_passes(&self, value: Option<f64>) -> bool {
        let v = value.unwrap_or(0.0).abs();
        if self.hide_unused && v == 0.0 {
            return false;
        }
        self.value_range.is_none_or(|(lo, hi)| v >= lo && v <= hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn the_value_range_compares_magnitudes_and_hide_unused_drops_zero_and_missing() {
        let filter = Filter { hide_unused: true, value_range: Some((10.0, 1e9)), ..Default::default() };
        assert!(!filter.value_passes(Some(0.0)));
        assert!(!filter.value_passes(None));
        assert!(filter.value_passes(Some(-50.0)));
        assert!(!filter.value_passes(Some(5.0)));
    }
}
