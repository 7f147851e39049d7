//! The ranked table beside a diff view: the links whose value changed most between A and B,
//! among those the view shows. The same for every data set and module: it reads the prepared
//! view's two sides.

use super::prepare::Prepared;

/// One row: a link (a view-model position), its value in A and in B, and the signed change
/// A − B (a side without a value counts 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub link: usize,
    pub a: f64,
    pub b: f64,
    pub delta: f64,
}

/// The `limit` biggest changes by magnitude among the passing links (ties: by position, which
/// for a fabric is rail, then link end), zero changes left out. Empty unless the view is a diff.
pub fn ranked_changes(prepared: &Prepared, limit: usize) -> Vec<Change> {
    let Some([a, b]) = &prepared.link_sides else { return Vec::new() };
    let passes = |i: usize| prepared.link_pass.get(i).copied().unwrap_or(true);
    let mut rows: Vec<Change> = a
        .iter()
        .zip(b)
        .enumerate()
        .filter(|&(i, (x, y))| passes(i) && (x.is_some() || y.is_some()))
        .map(|(link, (x, y))| {
            let (a, b) = (x.unwrap_or(0.0), y.unwrap_or(0.0));
            Change { link, a, b, delta: a - b }
        })
        .filter(|c| c.delta != 0.0)
        .collect();
    rows.sort_by(|p, q| q.delta.abs().total_cmp(&p.delta.abs()).then(p.link.cmp(&q.link)));
    rows.truncate(limit);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::RegionKey;
    use crate::view_model::dataset::Dataset;
    use crate::view_model::filter::Filter;
    use crate::view_model::values::RegionSelection;
    use crate::view_model::{LayoutChoice, ViewSpec, prepare};

    fn changes(d: &Dataset, a: RegionKey, b: RegionKey) -> Vec<Change> {
        let spec = ViewSpec { selection: RegionSelection::Diff(a, b), ..ViewSpec::for_dataset(d) };
        ranked_changes(&prepare(d, &spec, &Filter::default(), &LayoutChoice::natural(d)).unwrap(), 20)
    }

    #[test]
    fn changes_are_signed_ranked_by_magnitude_and_a_region_against_itself_has_none() {
        let d = Dataset::synthetic(4, 3, 2, 2);
        let (r1, r2) = (RegionKey::Region(1), RegionKey::Region(2));
        let rows = changes(&d, r2, r1);
        assert!(!rows.is_empty());
        assert!(rows.windows(2).all(|w| w[0].delta.abs() >= w[1].delta.abs()));
        assert!(rows.iter().all(|c| c.delta == c.a - c.b));
        assert!(rows.iter().any(|c| c.delta > 0.0));
        let back = changes(&d, r1, r2);
        assert_eq!(back[0].delta, -rows[0].delta);
        assert!(changes(&d, r1, r1).is_empty());
    }

    #[test]
    fn a_runs_regions_diff_alike_and_only_the_links_the_view_shows_are_ranked() {
        let run = crate::view_model::run_synthetic::synthetic_run(&["x", "y", "z"], &[4, 4, 4]);
        let d = Dataset::from_run(run, Vec::new());
        let (r1, r2) = (RegionKey::Region(1), RegionKey::Region(2));
        let mut spec = ViewSpec { selection: RegionSelection::Diff(r2, r1), ..ViewSpec::for_dataset(&d) };
        let all = ranked_changes(
            &prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap(),
            usize::MAX,
        );
        assert!(!all.is_empty());
        assert!(all.iter().all(|c| c.delta == c.a - c.b && c.delta != 0.0));
        spec.filter.clauses.push(crate::view_model::Clause::parse("linkid < 10").unwrap());
        let some = ranked_changes(
            &prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap(),
            usize::MAX,
        );
        assert!(!some.is_empty() && some.iter().all(|c| c.link < 10), "{some:?}");
    }
}
