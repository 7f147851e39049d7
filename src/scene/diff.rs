//! The ranked table beside a diff view: the link ends whose load changed most between A and B.

use crate::model::LinkEnd;
use crate::routing::Loads;

use super::values::{LinkValues, RegionSelection};

/// One row: a link end, its bytes in A and in B, and the signed change A − B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub rail: usize,
    pub end: LinkEnd,
    pub a: f64,
    pub b: f64,
    pub delta: f64,
}

/// The `limit` biggest changes by magnitude (ties: rail, then link end), zero changes left out.
pub fn ranked_changes(loads: &Loads, selection: RegionSelection, limit: usize) -> Vec<Change> {
    let RegionSelection::Diff(ka, kb) = selection else { return Vec::new() };
    let of = |k| LinkValues::select(loads, RegionSelection::from_key(k));
    let (Some(a), Some(b)) = (of(ka), of(kb)) else { return Vec::new() };
    let mut rows: Vec<Change> = a
        .rails
        .iter()
        .zip(&b.rails)
        .enumerate()
        .flat_map(|(rail, (ra, rb))| {
            ra.iter().zip(rb).enumerate().filter(|(_, (x, y))| x != y).map(move |(i, (&x, &y))| Change {
                rail,
                end: LinkEnd::from_index(i),
                a: x,
                b: y,
                delta: x - y,
            })
        })
        .collect();
    rows.sort_by(|p, q| {
        q.delta.abs().total_cmp(&p.delta.abs()).then(p.rail.cmp(&q.rail)).then(p.end.cmp(&q.end))
    });
    rows.truncate(limit);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::RegionKey;
    use crate::scene::dataset::Dataset;

    #[test]
    fn changes_are_signed_ranked_by_magnitude_and_a_region_against_itself_has_none() {
        let d = Dataset::synthetic(4, 3, 2, 2);
        let (r1, r2) = (RegionKey::Region(1), RegionKey::Region(2));
        let rows = ranked_changes(&d.fabric.as_ref().unwrap().loads, RegionSelection::Diff(r2, r1), 20);
        assert!(!rows.is_empty());
        assert!(rows.windows(2).all(|w| w[0].delta.abs() >= w[1].delta.abs()));
        assert!(rows.iter().all(|c| c.delta == c.a - c.b));
        assert!(rows.iter().any(|c| c.delta > 0.0));
        let back = ranked_changes(&d.fabric.as_ref().unwrap().loads, RegionSelection::Diff(r1, r2), 20);
        assert_eq!(back[0].delta, -rows[0].delta);
        assert!(
            ranked_changes(&d.fabric.as_ref().unwrap().loads, RegionSelection::Diff(r1, r1), 20).is_empty()
        );
    }
}
