//! The torus module in the app, driven headless with egui_kittest (wgpu on lavapipe;
//! `WGPU_BACKEND=vulkan`): a drag turns the view, a click picks a link and lights it in the
//! linked view, two regions side by side share one colour range.
#![cfg(feature = "gui")]

#[path = "support/gui_pixels.rs"]
mod gui_pixels;
use gui_pixels::pickable_half;

use egui_kittest::Harness;

use shoal::gui::ShoalApp;
use shoal::modules::Workspace;
use shoal::scene::camera::Transform;
use shoal::scene::draw::plot_rect;
use shoal::scene::{Emphasis, Scene};
use shoal::view_model::Dataset;
use shoal::view_model::highlight::Seed;
use shoal::view_model::orbit::{Orbit, rotate};
use shoal::view_model::run_synthetic::synthetic_run;

fn torus_app() -> Harness<'static, ShoalApp> {
    let mut h = Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_eframe(|_| {
        ShoalApp::with_dataset(Dataset::from_run(synthetic_run(&["x", "y", "z"], &[4, 4, 4]), Vec::new()))
    });
    h.run();
    h
}

fn ws<'h>(h: &'h Harness<'static, ShoalApp>) -> &'h Workspace {
    &h.state().ws
}

fn scene<'h>(h: &'h Harness<'static, ShoalApp>, view: usize) -> &'h Scene {
    ws(h).views[view].network().unwrap().scene.as_ref().expect("the view drew a scene")
}

#[test]
fn dragging_right_turns_the_torus_front_to_the_right() {
    let mut h = torus_app();
    let before = ws(&h).views[0].orbit;
    assert_eq!(before, Orbit::default());
    let builds = ws(&h).views[0].network().unwrap().builds;
    let rect = ws(&h).views[0].network().unwrap().rect.unwrap();
    let start = rect.center();
    h.drag_at(start);
    h.run();
    for k in 1..=10 {
        h.hover_at(start + egui::vec2(12.0 * k as f32, 0.0));
        h.run();
    }
    h.drop_at(start + egui::vec2(120.0, 0.0));
    h.run();
    let after = ws(&h).views[0].orbit;
    let front = |o: Orbit| rotate(&o.matrix(), [0.0, 0.0, 1.0]);
    assert!(front(after)[0] > front(before)[0] + 0.3, "{:?} -> {:?}", front(before), front(after));
    assert!((front(after)[1] - front(before)[1]).abs() < 0.05, "a horizontal drag does not tip");
    assert!(ws(&h).views[0].network().unwrap().builds > builds, "turning rebuilds the projected scene");
    assert_eq!(
        ws(&h).views[0].camera,
        shoal::scene::Camera::default(),
        "a plain drag turns, it does not pan"
    );
}

#[test]
fn clicking_a_link_highlights_it_in_every_linked_view() {
    let mut h = torus_app();
    h.state_mut().ws.compare(1, 2);
    h.run();
    assert_eq!(ws(&h).views.len(), 2);
    let (rect, s) = (ws(&h).views[0].network().unwrap().rect.unwrap(), scene(&h, 0).clone());
    let plot = plot_rect(rect.width(), rect.height());
    let t = Transform::new(&ws(&h).views[0].camera, &s.bounds, plot);
    // The first point, nearest first, where picking finds a link half rather than a node.
    let (target, half) = pickable_half(&s, &t, true).expect("some link half is pickable");
    let pos = rect.min + egui::vec2(target[0], target[1]);
    h.hover_at(pos);
    h.run();
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run();
    let w = ws(&h);
    let group = w.group(w.views[0].group).unwrap();
    let link_id = w.dataset.as_ref().unwrap().run.network().links[half.end.index()].id;
    assert_eq!(group.highlight.seeds, [Seed::link(link_id as usize)].into());
    for view in 0..2 {
        let lit: Vec<usize> = scene(&h, view)
            .halves
            .iter()
            .filter(|x| x.emphasis == Emphasis::Lit)
            .map(|x| x.end.index())
            .collect();
        assert_eq!(lit, vec![half.end.index()], "view {view} lights the picked link");
    }
    // Both regions on one scale, the union of their own ranges.
    let range = |v: usize| (scene(&h, v).legends[1].scale.min(), scene(&h, v).legends[1].scale.max());
    assert_eq!(range(0), range(1));
    let own =
        |v: usize| ws(&h).views[v].network().unwrap().prepared.as_ref().unwrap().as_ref().unwrap().link_range;
    assert_eq!(own(0), Some((0.0, 1300.0)), "region 1 alone tops at its x+ links, 1000 + 100·3");
    assert_eq!(own(1), Some((0.0, 2000.0)), "region 2 at its z− links");
    assert_eq!(range(0), (0.0, 2000.0));
}

#[test]
fn torus_view_snapshot() {
    let mut h = torus_app();
    h.snapshot("torus_view");
}

#[test]
fn a_rank_highlight_lists_its_node_and_links_in_the_linked_table() {
    let mut h = torus_app();
    h.state_mut().tab = shoal::gui::Tab::Highlight;
    h.state_mut().highlight_state.query = "rank 21".into();
    h.run();
    use egui_kittest::kittest::Queryable;
    h.get_by_label("highlight").click();
    h.run();
    let w = ws(&h);
    let group = w.group(w.views[0].group).unwrap();
    assert_eq!(group.highlight.seeds, [Seed::rank(21)].into());
    // Two ranks per node: rank 21 runs on node 10, which sends on its six links.
    h.get_by_label("1 nodes");
    h.get_by_label("6 links");
    let lit_marks = scene(&h, 0).marks.iter().filter(|m| m.emphasis == Emphasis::Lit).count();
    assert_eq!(lit_marks, 1);
    assert_eq!(scene(&h, 0).halves.iter().filter(|x| x.emphasis == Emphasis::Lit).count(), 6);
}
