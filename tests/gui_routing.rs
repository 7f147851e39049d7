//! The static/AR switch in the window, driven headless with egui_kittest (wgpu on lavapipe;
//! `WGPU_BACKEND=vulkan`): on the rail-optimized sample with its (synthetic) `ibdiagnet2.far`,
//! the menu bar's "routing" buttons change what colours the link ends.
#![cfg(feature = "gui")]

use std::collections::BTreeMap;
use std::path::PathBuf;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use shoal::gui::ShoalApp;
use shoal::scene::Scene;
use shoal::view_model::Dataset;
use shoal::view_model::{OpenRequest, open};

fn railopt(with_far: bool) -> Dataset {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("sample-data/railopt");
    let mut rail = vec![dir.clone()];
    if with_far {
        rail.push(root.join("tests/fixtures/ar/railopt/ibdiagnet2.far"));
    }
    let request =
        OpenRequest { profile: Some(dir.join("nccl.ibprof.gz")), ..OpenRequest::of_rails(vec![rail]) };
    open(&request, &|_| {}).expect("the sample loads")
}

fn app(dataset: Dataset) -> Harness<'static, ShoalApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 800.0))
        .build_eframe(move |_| ShoalApp::with_dataset(dataset));
    h.run();
    h
}

fn scene<'a>(h: &'a Harness<'static, ShoalApp>) -> &'a Scene {
    h.state().ws.views[0].network().unwrap().scene.as_ref().expect("a scene")
}

/// Each drawn link half's colour, by (rail, link end).
fn colours(h: &Harness<'static, ShoalApp>) -> BTreeMap<(u8, usize), [u8; 4]> {
    scene(h).halves.iter().map(|half| ((half.rail, half.end.index()), half.colour.0)).collect()
}

fn link_caption(h: &Harness<'static, ShoalApp>) -> String {
    scene(h).legends.iter().find(|l| l.title == "L").map(|l| l.caption.clone()).unwrap_or_default()
}

#[test]
fn the_routing_switch_recolours_the_links_by_the_ar_spread_and_its_difference() {
    let mut h = app(railopt(true));
    let static_colours = colours(&h);
    assert!(!link_caption(&h).contains("AR"), "{}", link_caption(&h));
    h.get_by_label("AR modelled").click();
    h.run();
    assert_eq!(h.state().ws.views[0].spec.link_attribute.as_deref(), Some("bytes_ar"));
    assert!(link_caption(&h).contains("AR modelled"), "{}", link_caption(&h));
    assert!(scene(&h).title.contains("AR spread (modelled)"), "{}", scene(&h).title);
    let ar_colours = colours(&h);
    assert_eq!(ar_colours.len(), static_colours.len(), "the same link ends are drawn");
    let changed = ar_colours.iter().filter(|(end, c)| static_colours.get(end) != Some(c)).count();
    assert!(changed > 0, "the AR spread recolours the uplinks");
    h.get_by_label("AR − static (modelled)").click();
    h.run();
    let scale = &scene(&h).legends.iter().find(|l| l.title == "L").expect("link legend").scale;
    assert!(scale.min() < 0.0 && scale.max() > 0.0, "a signed scale: AR relieves some ends, loads others");
    assert!(link_caption(&h).contains("ar_minus_static, AR modelled"), "{}", link_caption(&h));
    h.get_by_label("static").click();
    h.run();
    assert_eq!(colours(&h), static_colours, "back to the static trace");
}

#[test]
fn without_ar_tables_there_is_no_routing_switch() {
    let h = app(railopt(false));
    assert!(h.query_by_label("AR modelled").is_none());
    assert!(h.query_by_label("routing").is_none());
}
