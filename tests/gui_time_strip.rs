//! The time strip in the window (issue 13), driven headless with egui_kittest (wgpu on
//! lavapipe; `WGPU_BACKEND=vulkan`): its brush picks what the linked fat tree shows, and play
//! steps through the regions.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use shoal::gui::ShoalApp;
use shoal::scene::view::ModuleKind;
use shoal::scene::{Dataset, RegionSelection};

fn app_with_strip() -> Harness<'static, ShoalApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 800.0))
        .build_eframe(|_| ShoalApp::with_dataset(Dataset::synthetic(6, 4, 3, 2)));
    h.run();
    h.state_mut().ws.add_view(ModuleKind::TimeStrip);
    h.run();
    h
}

fn fat_tree_colours(h: &Harness<'static, ShoalApp>) -> Vec<[u8; 4]> {
    let scene = h.state().ws.views[0].network().unwrap().scene.as_ref().expect("the fat tree drew");
    scene.halves.iter().map(|x| x.colour.0).collect()
}

/// Drags over the strip's map from one fraction of its width to another.
fn brush(h: &mut Harness<'static, ShoalApp>, from: f32, to: f32) {
    let map = h.state().ws.views[1].strip().and_then(|s| s.map).expect("the strip drew");
    let at = |t: f32| egui::pos2(map.min.x + t * map.width(), map.min.y + 20.0);
    h.drag_at(at(from));
    h.run();
    h.hover_at(at((from + to) / 2.0));
    h.run();
    h.hover_at(at(to));
    h.run();
    h.drop_at(at(to));
    h.run();
}

#[test]
fn brushing_the_time_strip_changes_what_the_linked_fat_tree_shows() {
    let mut h = app_with_strip();
    let ws = &h.state().ws;
    assert_eq!(ws.views[1].spec.module, ModuleKind::TimeStrip);
    assert_eq!(ws.views[0].group, ws.views[1].group);
    assert_eq!(ws.views[0].spec.selection, RegionSelection::Total);
    let whole_run = fat_tree_colours(&h);

    brush(&mut h, 0.6, 0.9);
    assert_eq!(h.state().ws.views[0].spec.selection, RegionSelection::Region(2));
    let region2 = fat_tree_colours(&h);
    assert_ne!(region2, whole_run, "the fat tree shows region 2 alone");

    brush(&mut h, 0.1, 0.9);
    assert_eq!(h.state().ws.views[0].spec.selection, RegionSelection::Window(1, 2));
    assert_eq!(fat_tree_colours(&h), whole_run, "both regions summed are the whole run");
    h.render().expect("the window with a strip renders");
}

#[test]
fn play_steps_through_the_regions_to_the_last() {
    let mut h = app_with_strip();
    h.get_by_label("play").click();
    h.run();
    assert_eq!(h.state().ws.views[0].spec.selection, RegionSelection::Region(2));
    assert!(!h.state().ws.views[1].strip().unwrap().playing, "play stops at the last region");
}
