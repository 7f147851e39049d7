//! The time strip in the window (issue 13), driven headless with egui_kittest (wgpu on
//! lavapipe; `WGPU_BACKEND=vulkan`): its brush picks what the linked fat tree shows, and play
//! steps through the regions.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use shoal::gui::ShoalApp;
use shoal::modules::Command;
use shoal::view_model::view::ModuleSpec;
use shoal::view_model::{Dataset, RegionSelection};
use shoal::view_model::{OpenRequest, open};

fn app_with_strip() -> Harness<'static, ShoalApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 800.0))
        .build_eframe(|_| ShoalApp::with_dataset(Dataset::synthetic(6, 4, 3, 2)));
    h.run();
    h.state_mut().ws.add_view(ModuleSpec::of("time_strip"));
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
    assert_eq!(ws.views[1].spec.module, ModuleSpec::of("time_strip"));
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

#[test]
fn a_time_strip_view_exports_from_the_window_as_render_draws_it() {
    let d = open(&OpenRequest::sample(), &|_| {}).expect("the sample loads");
    let region = d.regions().first().map(|r| r.number).expect("the sample has regions");
    let mut h =
        Harness::builder().with_size(egui::vec2(1400.0, 800.0)).build_eframe(|_| ShoalApp::with_dataset(d));
    h.run();
    h.state_mut().ws.add_view(ModuleSpec::of("time_strip"));
    h.run();
    let strip = h.state().ws.views[1].id;
    let group = h.state().ws.views[1].group;
    let selection = RegionSelection::Region(region);
    h.state_mut().ws.apply(vec![Command::SelectRegions { group, selection }, Command::Focus(strip)]);
    h.run();
    // A strip of 1280 × 720 points exports at two pixels per point, as `render` lays out a
    // 2560 × 1440 canvas.
    let app = h.state_mut();
    app.ws.view_mut(strip).and_then(|v| v.strip_mut()).expect("a strip").size = egui::vec2(1280.0, 720.0);
    let dir = std::env::temp_dir().join(format!("shoal-strip-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ext in ["png", "svg"] {
        let window = dir.join(format!("window.{ext}"));
        app.export_focused(&window).expect("the window exports its strip");
        let cli = dir.join(format!("cli.{ext}"));
        let base = "sample-data/tworail";
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_shoal"))
            .args(["render", &format!("{base}/rail0"), &format!("{base}/rail1")])
            .args(["--profile", &format!("{base}/samplesort.ibprof.gz"), "--module", "time-strip"])
            .args(["--region", &region.to_string()])
            .args(["--width", "2560", "--height", "1440", "--out", cli.to_str().unwrap()])
            .output()
            .expect("shoal runs");
        assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
        let (w, c) = (std::fs::read(&window).unwrap(), std::fs::read(&cli).unwrap());
        assert!(w.len() > 1000, "{ext}: the export holds a picture");
        assert!(w == c, "{ext}: the window's export is render's");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn time_strip_view_snapshot() {
    let mut h = app_with_strip();
    brush(&mut h, 0.6, 0.9);
    h.snapshot("time_strip_view");
}
