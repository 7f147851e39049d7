use super::*;
use crate::layout::torus::LookingDown;
use crate::routing::RegionKey;
use crate::scene::MarkOf;
use crate::scene::draw::Picked;
use crate::view_model::filter::Clause;
use crate::view_model::highlight::{Highlight, Seed, project};
use crate::view_model::prepare::{LayoutChoice, prepare};
use crate::view_model::run_synthetic::{packets, synthetic_run};
use crate::view_model::values::NetworkInput;
use crate::view_model::values::RegionSelection;
use crate::view_model::view::ModuleSpec;

fn run_dataset(axes: &[&str], dims: &[u32]) -> Dataset {
    Dataset::from_run(synthetic_run(axes, dims), Vec::new())
}

fn region_spec(d: &Dataset, region: u32) -> ViewSpec {
    ViewSpec { selection: RegionSelection::Region(region), ..ViewSpec::for_dataset(d) }
}

fn draw(d: &Dataset, spec: &ViewSpec, highlight: &Highlight) -> Scene {
    scene_for(d, spec, &Filter::default(), highlight, (&LayoutChoice::natural(d), 1.0)).unwrap()
}

#[test]
fn a_torus_view_colours_each_direction_by_its_own_region_value() {
    let d = run_dataset(&["x", "y", "z"], &[4, 4, 4]);
    let spec = region_spec(&d, 1);
    assert_eq!(spec.link_attribute.as_deref(), Some("packets"));
    assert_eq!(spec.node_attribute.as_deref(), Some("muls"));
    let prepared = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    assert!(prepared.problems.is_empty(), "{:?}", prepared.problems);
    let net = d.run.network();
    for (l, v) in prepared.link_values.iter().enumerate() {
        assert_eq!(*v, Some(packets(net, l, 1)));
    }
    let scene = draw(&d, &spec, &Highlight::default());
    assert_eq!(scene.halves.len(), net.links.len());
    let scale = &scene.legends[1].scale;
    assert_eq!(scale.max(), 1300.0);
    for h in &scene.halves {
        assert_eq!(h.colour, scale.colour(packets(net, h.end.index(), 1)));
    }
}

#[test]
fn a_node_filter_reaches_links_and_a_rank_highlight_lights_its_node_and_links() {
    let d = run_dataset(&["x", "y", "z"], &[4, 4, 4]);
    let mut spec = region_spec(&d, 2);
    spec.filter.clauses.push(Clause::parse("nodes.muls >= 30").unwrap());
    let prepared = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    let net = d.run.network();
    for (l, link) in net.links.iter().enumerate() {
        let muls = 2 * (10 + net.nodes[link.source].id % 7);
        assert_eq!(prepared.link_pass[l], muls >= 30, "link {l}");
    }
    let lit = project(&d, &Highlight { seeds: [Seed::rank(5)].into() });
    assert_eq!(lit.nodes.iter().filter(|&&l| l).count(), 1);
    assert!(lit.nodes[2]);
    assert_eq!(lit.links.iter().filter(|&&l| l).count(), 6);
    let scene = prepared.scene(&d, &spec, (None, None), &lit, &Orbit::default(), 1.0);
    assert_eq!(scene.marks.last().unwrap().of, MarkOf::Node(2), "the lit node is painted last, on top");
}

#[test]
fn the_flat_view_merges_columns_and_describes_what_it_merged() {
    let d = run_dataset(&["x", "y", "z"], &[4, 4, 4]);
    let mut spec = region_spec(&d, 1);
    spec.module = ModuleSpec::with("torus_flat", &LookingDown { down: 2 });
    let prepared = prepare(&d, &spec, &Filter::default(), &LayoutChoice::TorusDown(2)).unwrap();
    let ViewLayout::Torus(layout) = &prepared.layout else { panic!("a torus layout") };
    assert_eq!(layout.cells.len(), 16);
    let scene = prepared.scene(&d, &spec, (None, None), &Lit::default(), &Orbit::default(), 1.0);
    // x + links of a column all carry 1000 + 100·x: their mean is the same.
    let first_x_plus = scene
        .halves
        .iter()
        .position(|h| {
            layout.links[h.end.index()].id.as_ref().is_some_and(|id| {
                id.axis == 0 && id.direction == crate::layout::torus::Direction::Plus && id.lower[0] == 0
            })
        })
        .unwrap();
    let lines = prepared.describe(&d, &spec, &scene, Picked::Half(first_x_plus));
    assert!(lines[0].starts_with("link (0, 0) x+"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "4 directed links merged"), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("packets: 1000 (mean of 4)"), "{lines:?}");
}

#[test]
fn every_fabric_link_is_drawn_as_two_halves_coloured_by_their_own_ends_bytes() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let f = d.fabric.as_ref().unwrap();
    let spec = ViewSpec { selection: RegionSelection::Region(2), ..ViewSpec::for_dataset(&d) };
    let s = draw(&d, &spec, &Highlight::default());
    let links: usize = f.cluster.rails.iter().map(|r| r.link_count()).sum();
    assert_eq!(s.halves.len(), 2 * links);
    let load = f.loads.get(RegionKey::Region(2)).unwrap();
    let scale = &s.legends[1].scale;
    for h in &s.halves {
        assert_eq!(h.colour, scale.colour(load.rails[usize::from(h.rail)].at(h.end) as f64));
    }
}

#[test]
fn a_fat_tree_and_a_generic_2d_view_of_one_fabric_colour_each_link_alike() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let tree = ViewSpec::for_dataset(&d);
    let plane = ViewSpec { module: ModuleSpec::of("generic_2d"), ..tree.clone() };
    let a = prepare(&d, &tree, &Filter::default(), &LayoutChoice::FatTree).unwrap();
    let b = prepare(&d, &plane, &Filter::default(), &LayoutChoice::Plane).unwrap();
    assert_eq!(a.link_values, b.link_values);
    assert_eq!(a.link_range, b.link_range);
    let plane_scene = draw(&d, &plane, &Highlight::default());
    assert_eq!(plane_scene.halves.len(), d.run.network().links.len());
}

#[test]
fn the_diff_of_a_region_with_itself_is_zero_on_a_diverging_map() {
    let d = Dataset::synthetic(4, 3, 2, 1);
    let key = RegionKey::Region(2);
    let spec = ViewSpec { selection: RegionSelection::Diff(key, key), ..ViewSpec::for_dataset(&d) };
    let prepared = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    assert!(prepared.signed);
    assert!(prepared.link_values.iter().all(|v| *v == Some(0.0)));
    let s = draw(&d, &spec, &Highlight::default());
    assert!(s.legends[1].scale.map.is_diverging());
}

#[test]
fn a_cumulative_view_sums_the_regions_up_to_its_own() {
    let d = Dataset::synthetic(4, 3, 2, 1);
    let f = d.fabric.as_ref().unwrap();
    let spec = ViewSpec { selection: RegionSelection::Cumulative(2), ..ViewSpec::for_dataset(&d) };
    let prepared = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    let total = &f.loads.total.rails[0].bytes;
    for (i, b) in total.to_dense().into_iter().enumerate() {
        assert_eq!(prepared.link_values[i], Some(b as f64), "end {i}");
    }
}

#[test]
fn a_missing_region_is_an_error_the_view_shows() {
    let d = Dataset::synthetic(4, 3, 2, 1);
    let spec = ViewSpec { selection: RegionSelection::Region(9), ..ViewSpec::for_dataset(&d) };
    assert_eq!(
        prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap_err(),
        "region 9 is not in this data set"
    );
}

#[test]
fn a_threshold_hides_the_link_ends_below_it_and_any_keeps_either_clause() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let spec = ViewSpec::for_dataset(&d);
    let all = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    let max = all.link_range.unwrap().1;
    let mut hot = spec.clone();
    hot.filter.value_range = Some((max, f64::INFINITY));
    let p = prepare(&d, &hot, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    let passing: Vec<usize> = (0..p.link_pass.len()).filter(|&i| p.link_pass[i]).collect();
    assert!(!passing.is_empty());
    assert!(passing.iter().all(|&i| p.link_values[i] == Some(max)));
    let mut either = spec.clone();
    either.filter.clauses =
        vec![Clause::parse("rail = 1").unwrap(), Clause::parse("direction = up").unwrap()];
    either.filter.combine = crate::view_model::filter::Combine::Any;
    let p = prepare(&d, &either, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    let n = p.link_pass.len();
    assert_eq!(p.link_pass.iter().filter(|&&x| x).count(), n / 2 + n / 4, "rail 1, or up on rail 0");
}

#[test]
fn second_rail_is_mirrored_below_the_hosts_with_lettered_level_labels() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let s = draw(&d, &ViewSpec::for_dataset(&d), &Highlight::default());
    let labels: Vec<(&str, f32)> = s.labels.iter().map(|l| (l.text.as_str(), l.y)).collect();
    assert_eq!(labels, [("hosts", 0.0), ("1a", 1.0), ("2a", 2.0), ("1b", -1.0), ("2b", -2.0)]);
    assert!(s.halves.iter().filter(|h| h.rail == 1).all(|h| h.from.y <= 0.0 && h.to.y <= 0.0));
    assert!(s.halves.iter().filter(|h| h.rail == 0).all(|h| h.from.y >= 0.0 && h.to.y >= 0.0));
}

#[test]
fn a_highlight_dims_the_rest_and_draws_lit_halves_last() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let h = d.fabric.as_ref().unwrap().cluster.host_index("n0005").unwrap();
    let s = draw(&d, &ViewSpec::for_dataset(&d), &Highlight { seeds: [Seed::node(h)].into() });
    let lit: Vec<_> = s.halves.iter().filter(|h| h.emphasis == crate::scene::Emphasis::Lit).collect();
    assert_eq!(lit.len(), 4);
    let first_lit = s.halves.iter().position(|h| h.emphasis == crate::scene::Emphasis::Lit).unwrap();
    assert!(s.halves[first_lit..].iter().all(|h| h.emphasis == crate::scene::Emphasis::Lit));
    assert!(s.halves[..first_lit].iter().all(|h| h.emphasis == crate::scene::Emphasis::Dim));
}

/// A prepared view brings its link ends sorted once by value; a scene built from values alone
/// sorts them itself. Both orders are the same: busier ends on top, lit ones last.
#[test]
fn the_prepared_draw_order_is_the_order_a_scene_sorts_itself() {
    let d = Dataset::synthetic(6, 4, 3, 2);
    let fabric = d.fabric.as_ref().unwrap();
    let spec = ViewSpec::for_dataset(&d);
    let prepared = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    let h = fabric.cluster.host_index("n0003").unwrap();
    let lit = project(&d, &Highlight { seeds: [Seed::node(h)].into() });
    let options = SceneOptions::from_style(&NetworkStyle::default(), false);
    let with_order = prepared.input(&lit);
    let unsorted = NetworkInput { link_order: &[], ..with_order };
    assert_eq!(with_order.link_order.len(), fabric.index.link_count());
    let ordered = build_fat_tree_scene(&FatTreeInput::new(fabric, &with_order), &options).halves;
    let sorted = build_fat_tree_scene(&FatTreeInput::new(fabric, &unsorted), &options).halves;
    assert_eq!(ordered, sorted);
    let values = &prepared.link_values;
    let key = |h: &crate::scene::Half| {
        crate::scene::draw_key(values[fabric.index.link_position(h.rail as usize, h.end).unwrap()])
    };
    let plain: Vec<f64> =
        ordered.iter().filter(|h| h.emphasis != crate::scene::Emphasis::Lit).map(key).collect();
    assert!(plain.windows(2).all(|w| w[0] <= w[1]), "busier ends later");
    assert!(plain.iter().any(|&k| k > 0.0), "some ends carry bytes");
}

#[test]
fn a_group_filter_is_anded_with_the_views_own() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let mut spec = ViewSpec::for_dataset(&d);
    spec.filter.clauses.push(Clause::parse("rail = 0").unwrap());
    let group = Filter { clauses: vec![Clause::parse("level = 2").unwrap()], ..Default::default() };
    let s = scene_for(&d, &spec, &group, &Highlight::default(), (&LayoutChoice::FatTree, 1.0)).unwrap();
    assert_eq!(s.visible_link_count(), 4 * 2, "rail 0's leaf–spine links only");
}

#[test]
fn a_new_value_range_re_masks_the_prepared_values_as_a_full_prepare_would() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let mut spec = ViewSpec::for_dataset(&d);
    spec.filter.clauses.push(Clause::parse("rail = 0").unwrap());
    let mut p = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    spec.filter.value_range = Some((p.link_max() / 2.0, f64::INFINITY));
    spec.filter.hide_unused = true;
    p.apply_value_filter(&spec, &Filter::default());
    let fresh = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    assert_eq!(p.link_pass, fresh.link_pass);
    assert_eq!((p.link_range, p.node_range), (fresh.link_range, fresh.node_range));
    let index = &d.fabric.as_ref().unwrap().index;
    let (lo, _) = spec.filter.value_range.unwrap();
    let passing: Vec<usize> = (0..p.link_pass.len()).filter(|&i| p.link_pass[i]).collect();
    assert!(!passing.is_empty());
    for i in passing {
        assert_eq!(index.link(i).unwrap().0, 0, "link {i} is on rail 0");
        assert!(p.link_values[i].unwrap() >= lo, "link {i} is above the range's start");
    }
}

#[test]
fn a_fabrics_bytes_read_from_its_loads_equal_the_query_engines() {
    let d = Dataset::synthetic(4, 3, 2, 2);
    let everything = Filter { clauses: vec![Clause::parse("level >= -1").unwrap()], ..Filter::default() };
    let (r1, r2) = (RegionKey::Region(1), RegionKey::Region(2));
    for selection in [
        RegionSelection::Total,
        RegionSelection::Region(2),
        RegionSelection::Cumulative(2),
        RegionSelection::Window(1, 2),
        RegionSelection::Diff(r2, r1),
        RegionSelection::Diff(RegionKey::Total, r2),
    ] {
        for node_attribute in ["bytes_sent", "bytes_received"] {
            let spec = ViewSpec {
                selection,
                node_attribute: Some(node_attribute.into()),
                ..ViewSpec::for_dataset(&d)
            };
            let fast = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
            let queried = prepare(&d, &spec, &everything, &LayoutChoice::natural(&d)).unwrap();
            assert_eq!(fast.link_values, queried.link_values, "{selection:?}");
            assert_eq!(fast.node_values, queried.node_values, "{selection:?} {node_attribute}");
            assert_eq!(fast.link_sides, queried.link_sides, "{selection:?}");
            assert_eq!(fast.link_pass, queried.link_pass, "{selection:?}");
            assert_eq!(fast.node_pass, queried.node_pass, "{selection:?}");
        }
    }
}

#[test]
fn a_window_sums_its_regions_only() {
    let d = Dataset::synthetic(4, 3, 2, 1);
    let f = d.fabric.as_ref().unwrap();
    let spec = ViewSpec { selection: RegionSelection::Window(2, 2), ..ViewSpec::for_dataset(&d) };
    let prepared = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    let region2 = f.loads.get(RegionKey::Region(2)).unwrap().rails[0].bytes.to_dense();
    let values: Vec<Option<f64>> = region2.iter().map(|&b| Some(b as f64)).collect();
    assert_eq!(prepared.link_values, values);
}

#[test]
fn nodes_not_coloured_get_a_caption_and_no_empty_legend_bar() {
    let d = Dataset::synthetic(4, 3, 2, 1);
    let bars = |spec: &ViewSpec| {
        let s = draw(&d, spec, &Highlight::default());
        let list = crate::scene::draw::draw_list(&s, &Default::default(), 800.0, 500.0);
        let texts: Vec<String> = list.texts.iter().map(|t| t.text.clone()).collect();
        (texts.iter().filter(|t| *t == "N" || *t == "L").cloned().collect::<Vec<_>>(), texts)
    };
    let (coloured, _) = bars(&ViewSpec::for_dataset(&d));
    assert_eq!(coloured, ["N", "L"], "both bars are drawn when nodes are coloured");
    let plain = ViewSpec { node_attribute: None, ..ViewSpec::for_dataset(&d) };
    let (bars, texts) = bars(&plain);
    assert_eq!(bars, ["L"], "the node bar is left out");
    assert!(texts.iter().any(|t| t.contains("N: not coloured")), "{texts:?}");
}
