use super::*;
use crate::routing::RegionKey;
use crate::scene::dataset::Dataset;
use crate::scene::filter::Filter;
use crate::scene::highlight::{Highlight, Seed};
use crate::scene::values::RegionSelection;
use crate::scene::view::{ViewSpec, scene_for};

fn scene(d: &Dataset, spec: &ViewSpec) -> Scene {
    scene_for(d, spec, None, &Highlight::default()).unwrap()
}

#[test]
fn every_link_is_drawn_as_two_halves_meeting_at_its_midpoint() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let s = scene(&d, &ViewSpec::default());
    let links: usize = d.cluster.rails.iter().map(|f| f.link_count()).sum();
    assert_eq!(s.halves.len(), 2 * links);
    assert_eq!(s.visible_link_count(), links);
    for pair in s.halves.chunks(2) {
        assert_eq!(pair[0].end.edge, pair[1].end.edge);
        assert_eq!(pair[0].to, pair[1].to);
        assert_ne!(pair[0].from, pair[1].from);
    }
}

#[test]
fn the_two_halves_of_a_link_are_coloured_by_their_own_ends_bytes() {
    let d = Dataset::synthetic(4, 3, 2, 1);
    let spec = ViewSpec { selection: RegionSelection::Region(2), ..Default::default() };
    let s = scene(&d, &spec);
    let load = &d.loads.get(RegionKey::Region(2)).unwrap().rails[0];
    let scale = &s.legends[1].scale;
    let mut differing = 0;
    for pair in s.halves.chunks(2) {
        for h in pair {
            assert_eq!(h.colour, scale.colour(load.at(h.end) as f64));
        }
        if load.at(pair[0].end) != load.at(pair[1].end) {
            assert_ne!(pair[0].colour, pair[1].colour);
            differing += 1;
        }
    }
    assert!(differing > 0, "the shift pattern loads links in one direction");
}

#[test]
fn second_rail_is_mirrored_below_the_hosts_with_lettered_level_labels() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let s = scene(&d, &ViewSpec::default());
    let labels: Vec<(&str, f32)> = s.labels.iter().map(|l| (l.text.as_str(), l.y)).collect();
    assert_eq!(labels, [("hosts", 0.0), ("1a", 1.0), ("2a", 2.0), ("1b", -1.0), ("2b", -2.0)]);
    assert!(s.halves.iter().filter(|h| h.rail == 1).all(|h| h.from.y <= 0.0 && h.to.y <= 0.0));
    assert!(s.halves.iter().filter(|h| h.rail == 0).all(|h| h.from.y >= 0.0 && h.to.y >= 0.0));
}

#[test]
fn a_threshold_hides_the_halves_below_it() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let all = scene(&d, &ViewSpec::default());
    let (_, max) = value_range(&crate::scene::view::values_for(&d, RegionSelection::Total).unwrap());
    let mut spec = ViewSpec::default();
    spec.filter.bytes_range = Some((max, f64::INFINITY));
    let hot = scene(&d, &spec);
    assert!(hot.visible_link_count() < all.visible_link_count());
    assert!(!hot.halves.is_empty());
    let values = crate::scene::view::values_for(&d, RegionSelection::Total).unwrap();
    assert!(hot.halves.iter().all(|h| values.at(usize::from(h.rail), h.end) >= max));
}

#[test]
fn linked_views_given_the_union_range_colour_alike() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let r1 = crate::scene::view::own_range(&d, RegionSelection::Region(1)).unwrap();
    let r2 = crate::scene::view::own_range(&d, RegionSelection::Region(2)).unwrap();
    let union = crate::scene::linking::union_range([r1, r2]);
    let mut a = ViewSpec { selection: RegionSelection::Region(1), ..Default::default() };
    let mut b = ViewSpec { selection: RegionSelection::Region(2), ..Default::default() };
    a.options.link_range = union;
    b.options.link_range = union;
    let (sa, sb) = (scene(&d, &a), scene(&d, &b));
    assert_eq!(sa.legends[1].scale.min, sb.legends[1].scale.min);
    assert_eq!(sa.legends[1].scale.max, sb.legends[1].scale.max);
    assert_eq!(sa.legends[1].ticks, sb.legends[1].ticks);
}

#[test]
fn a_diff_uses_a_diverging_map_and_a_region_minus_itself_is_all_white() {
    let d = Dataset::synthetic(4, 3, 2, 1);
    let key = RegionKey::Region(1);
    let spec = ViewSpec { selection: RegionSelection::Diff(key, key), ..Default::default() };
    let s = scene(&d, &spec);
    assert!(s.legends[1].scale.map.is_diverging());
    let zero = s.legends[1].scale.colour(0.0);
    assert!(s.halves.iter().all(|h| h.colour == zero));
}

#[test]
fn a_highlight_dims_the_rest_and_draws_lit_halves_last() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let h = d.cluster.host_index("n0005").unwrap();
    let hl = Highlight { seeds: [Seed::Host(h)].into() };
    let s = scene_for(&d, &ViewSpec::default(), None, &hl).unwrap();
    let lit: Vec<_> = s.halves.iter().filter(|h| h.emphasis == Emphasis::Lit).collect();
    assert_eq!(lit.len(), 4);
    let first_lit = s.halves.iter().position(|h| h.emphasis == Emphasis::Lit).unwrap();
    assert!(s.halves[first_lit..].iter().all(|h| h.emphasis == Emphasis::Lit));
    assert!(s.halves[..first_lit].iter().all(|h| h.emphasis == Emphasis::Dim));
}

#[test]
fn a_group_filter_is_anded_with_the_views_own() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let mut spec = ViewSpec::default();
    spec.filter.clauses.push(crate::scene::Clause {
        attribute: crate::scene::Attribute::Rail,
        relation: crate::scene::Relation::Eq,
        value: "0".into(),
    });
    let group = Filter {
        clauses: vec![crate::scene::Clause {
            attribute: crate::scene::Attribute::Level,
            relation: crate::scene::Relation::Eq,
            value: "2".into(),
        }],
        ..Default::default()
    };
    let s = scene_for(&d, &spec, Some(&group), &Highlight::default()).unwrap();
    assert_eq!(s.visible_link_count(), 4 * 2, "rail 0's leaf–spine links only");
}
