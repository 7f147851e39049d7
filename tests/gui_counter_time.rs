//! Counter intervals in the window (issue 22, items 5 and 6), driven headless with egui_kittest
//! (`WGPU_BACKEND=vulkan`) on the real stall series of `tests/fixtures/stall-series` (ibsim's
//! health fabric, five perfquery captures dated one second apart):
//! - the time strip's "measure" menu picks what an interval's cell is (bytes, utilisation or
//!   stall %), as `render --module time-strip --strip-measure` does;
//! - a click on a congestion region (Congestion tab) or on an interval of the strip moves the
//!   group's time cursor to that interval;
//! - the cursor chooses the linked fat tree's colours (issue 26): that interval's counters,
//!   titled with its times, and the whole window again once a second click clears it.
#![cfg(feature = "gui")]

#[path = "support/health_captures.rs"]
mod health_captures;
#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use shoal::gui::{ShoalApp, Tab};
use shoal::modules::Command;
use shoal::modules::congestion_view::RegionsState;
use shoal::view_model::open;
use shoal::view_model::time_strip::StripMeasure;
use shoal::view_model::view::ModuleSpec;

use scratch_dir::ScratchDir;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The window with a strip view of the series, copied (dated) into a folder of the test's own
/// (tests run in parallel), which lives as long as the test keeps it.
fn app_with_series_strip(tag: &str) -> (Harness<'static, ShoalApp>, ScratchDir) {
    let dir = ScratchDir::new(&format!("gui-counter-time-{tag}"));
    let request = health_captures::stall_series_request(&dir);
    let d = open(&request, &|_| {}).expect("the health fabric opens with its series");
    let mut h =
        Harness::builder().with_size(egui::vec2(1400.0, 800.0)).build_eframe(|_| ShoalApp::with_dataset(d));
    h.run();
    h.state_mut().ws.add_view(ModuleSpec::of("time_strip"));
    h.run();
    (h, dir)
}

fn strip_index(h: &Harness<'static, ShoalApp>) -> usize {
    h.state()
        .ws
        .views
        .iter()
        .position(|v| v.spec.module == ModuleSpec::of("time_strip"))
        .expect("a strip view")
}

/// The strip's measure and its largest cell.
fn strip_now(h: &Harness<'static, ShoalApp>) -> (StripMeasure, StripMeasure, f64) {
    let state = h.state().ws.views[strip_index(h)].strip().expect("the strip's state");
    (state.measure, state.strip.measure, state.strip.max())
}

fn pick(h: &mut Harness<'static, ShoalApp>, item: &str) {
    h.get_by_label("measure").click();
    h.run();
    h.get_by_label(item).click();
    h.run();
}

#[test]
fn the_strip_s_measure_menu_shows_each_interval_s_worst_stall_and_utilisation() {
    let (mut h, _series) = app_with_series_strip("measure");
    let (measure, drawn, _) = strip_now(&h);
    assert_eq!((measure, drawn), (StripMeasure::Bytes, StripMeasure::Bytes), "bytes by default");

    pick(&mut h, "stall %");
    let (measure, drawn, worst) = strip_now(&h);
    assert_eq!((measure, drawn), (StripMeasure::Stall, StripMeasure::Stall));
    // S1[3] waited 60 % of interval 4 (the fixture's README), the largest stall of the series.
    assert!((worst - 60.0).abs() < 1e-3, "{worst}");

    pick(&mut h, "utilisation %");
    let (measure, drawn, worst) = strip_now(&h);
    assert_eq!((measure, drawn), (StripMeasure::Utilisation, StripMeasure::Utilisation));
    // S1[3] carried 900,000,000 words (3.6 GB) in interval 4's second: 90 % of 4x QDR.
    assert!((worst - 90.0).abs() < 1e-3, "{worst}");
    h.render().expect("the window with a strip by utilisation renders");
}

/// A press and a release on one spot.
fn click_at(h: &mut Harness<'static, ShoalApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    h.run();
    h.drop_at(pos);
    h.run();
}

fn time_cursor(h: &Harness<'static, ShoalApp>) -> Option<u32> {
    let ws = &h.state().ws;
    let group = ws.views[strip_index(h)].group;
    ws.groups.iter().find(|g| g.id == group).and_then(|g| g.time_cursor)
}

#[test]
fn clicking_a_congestion_region_lights_its_ends_and_moves_the_time_cursor_to_its_interval() {
    let (mut h, _series) = app_with_series_strip("tab-click");
    h.state_mut().tab = Tab::Congestion;
    h.run();
    assert_eq!(time_cursor(&h), None);
    // The last region is in the last interval that stalled: interval 4 (index 3), where S1[3]
    // waited 60 % and S1[4] 20 % (the fixture's README).
    let &(number, rect) = h.state().congestion.boxes.last().expect("the tab drew its regions");
    click_at(&mut h, rect.center());
    assert_eq!(h.state().congestion.picked, Some(number));
    assert_eq!(time_cursor(&h), Some(3));
    let ws = &h.state().ws;
    let group = ws.views[strip_index(&h)].group;
    let lit = &ws.groups.iter().find(|g| g.id == group).unwrap().highlight;
    assert!(!lit.seeds.is_empty(), "the region's link ends are lit");
    h.render().expect("the window with the cursor renders");
}

/// The fat tree's drawn link values and its scene's title.
fn fat_tree_now(h: &Harness<'static, ShoalApp>) -> (Vec<Option<f64>>, String) {
    let view = h.state().ws.views.iter().find(|v| v.spec.module.is("fat_tree")).expect("a fat tree");
    let state = view.network().expect("its network state");
    let prepared = state.prepared.as_ref().and_then(|p| p.as_ref().ok()).expect("prepared");
    (prepared.link_values.clone(), state.scene.as_ref().expect("drawn").title.clone())
}

/// What the view model holds for each link's observed bytes in interval `n`, or over the
/// whole window.
fn observed_in(h: &Harness<'static, ShoalApp>, n: Option<usize>) -> Vec<Option<f64>> {
    let d = h.state().ws.dataset.clone().expect("a data set");
    let fabric = d.fabric.as_ref().unwrap();
    let observed = fabric.observed.as_ref().expect("counters");
    let mut out = vec![None; fabric.index.link_count()];
    for (position, rail, end) in shoal::view_model::dataset::counters::counter_rows(fabric) {
        let value = match n {
            Some(n) => observed.series[n].rails.value_at(rail, end.index()),
            None => observed.at(rail, end),
        };
        out[position as usize] = value.map(|v| v as f64);
    }
    out
}

#[test]
fn the_time_cursor_colours_the_fat_tree_by_its_interval_and_a_second_click_by_the_window() {
    let (mut h, _series) = app_with_series_strip("fat-tree");
    let (whole, title) = fat_tree_now(&h);
    assert_eq!(whole, observed_in(&h, None), "no cursor: the whole window");
    assert!(!title.contains("interval"), "{title}");
    let map = h.state().ws.views[strip_index(&h)].strip().and_then(|s| s.map).expect("the strip drew");
    // Interval 4 (the last quarter of the map), where S1[3] carried 900,000,000 words.
    let last = egui::pos2(map.min.x + 0.875 * map.width(), map.center().y);
    click_at(&mut h, last);
    assert_eq!(time_cursor(&h), Some(3));
    let (values, title) = fat_tree_now(&h);
    assert_eq!(values, observed_in(&h, Some(3)), "the fat tree draws interval 4's bytes");
    assert_ne!(values, whole);
    // The captures are dated 1,800,000,000 s and one second apart (`health_captures`).
    assert!(title.contains("interval 4: 2027-01-15 08:00:03–08:00:04 UTC"), "{title}");
    h.render().expect("the window with the fat tree at the cursor renders");
    click_at(&mut h, last);
    assert_eq!(time_cursor(&h), None, "a second click clears the cursor");
    let (values, title) = fat_tree_now(&h);
    assert_eq!(values, whole, "back to the whole window");
    assert!(!title.contains("interval"), "{title}");
}

#[test]
fn clicking_an_interval_of_the_strip_moves_the_time_cursor_there() {
    let (mut h, _series) = app_with_series_strip("strip-click");
    let map = h.state().ws.views[strip_index(&h)].strip().and_then(|s| s.map).expect("the strip drew");
    // Four intervals: the second's column spans a quarter to a half of the map.
    click_at(&mut h, egui::pos2(map.min.x + 0.375 * map.width(), map.center().y));
    assert_eq!(time_cursor(&h), Some(1));
}

fn add_congestion_view(h: &mut Harness<'static, ShoalApp>) -> usize {
    h.state_mut().ws.add_view(ModuleSpec::of("congestion"));
    h.run();
    h.state()
        .ws
        .views
        .iter()
        .position(|v| v.spec.module == ModuleSpec::of("congestion"))
        .expect("a congestion view")
}

#[test]
fn a_click_on_a_region_of_the_congestion_view_moves_the_time_cursor_to_its_interval() {
    let (mut h, _series) = app_with_series_strip("view-click");
    let view = add_congestion_view(&mut h);
    let canvas = {
        let v = &h.state().ws.views[view];
        v.class_state::<RegionsState>().and_then(|s| s.canvas).expect("drawn")
    };
    // Interval 4's one region (S1[3] 60 %, S1[4] 20 %) fills the last of four rows.
    click_at(&mut h, egui::pos2(canvas.center().x, canvas.min.y + 0.8 * canvas.height()));
    assert_eq!(time_cursor(&h), Some(3));
}

#[test]
fn the_congestion_view_exports_from_the_window_as_render_draws_it() {
    let (mut h, series) = app_with_series_strip("congestion-export");
    let view = add_congestion_view(&mut h);
    let id = h.state().ws.views[view].id;
    h.state_mut().ws.apply(vec![shoal::modules::Command::Focus(id)]);
    h.run();
    // A view of 1280 × 720 points exports at two pixels per point, as `render` lays out a
    // 2560 × 1440 canvas.
    let app = h.state_mut();
    app.ws.views[view].class_state_mut::<RegionsState>().expect("a congestion view").size = [1280.0, 720.0];
    assert_focused_export_is_render(app, &series, &["--module", "congestion"]);
}

/// The focused view's PNG and SVG exports equal, byte for byte, `shoal render` of the health
/// fabric with the five stall captures of `dir` and `args` at 2560 × 1440 (both written to `dir`).
fn assert_focused_export_is_render(app: &mut ShoalApp, dir: &Path, args: &[&str]) {
    for ext in ["png", "svg"] {
        let window = dir.join(format!("window.{ext}"));
        app.export_focused(&window).expect("the window exports its focused view");
        let cli = dir.join(format!("cli.{ext}"));
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_shoal"));
        command.arg("render").arg(root().join("tests/fixtures/health"));
        for i in 0..5 {
            command.arg("--counters").arg(dir.join(format!("snapshot-{i}.txt")));
        }
        command.args(args).args(["--width", "2560", "--height", "1440"]);
        let done = command.arg("--out").arg(&cli).output().expect("shoal runs");
        assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
        let (a, b) = (std::fs::read(&window).unwrap(), std::fs::read(&cli).unwrap());
        assert!(a.len() > 1000, "{ext}: the export holds a picture");
        assert!(a == b, "{ext}: the window's export is render's with {args:?}");
    }
}

#[test]
fn the_strip_at_the_time_cursor_exports_from_the_window_as_render_at_that_interval_draws_it() {
    let (mut h, series) = app_with_series_strip("cursor-export");
    let strip = strip_index(&h);
    let (id, group) = (h.state().ws.views[strip].id, h.state().ws.views[strip].group);
    let cursor = Command::SetTimeCursor { group, interval: Some(3) };
    h.state_mut().ws.apply(vec![cursor, Command::Focus(id)]);
    h.run();
    // 1280 × 720 points export at two pixels per point, as `render` lays out 2560 × 1440.
    let app = h.state_mut();
    app.ws.views[strip].strip_mut().expect("a strip").size = egui::vec2(1280.0, 720.0);
    assert_focused_export_is_render(app, &series, &["--module", "time-strip", "--interval", "4"]);
}
