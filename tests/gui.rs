//! The desktop app, driven headless with egui_kittest (wgpu on lavapipe; `WGPU_BACKEND=vulkan`).
//! Assertions read the app's scenes, which are what the window paints.
#![cfg(feature = "gui")]

#[path = "support/gui_pixels.rs"]
mod gui_pixels;
use gui_pixels::differing;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use shoal::gui::ShoalApp;
use shoal::gui::loader::Reason;
use shoal::modules::registry::prepare_view;
use shoal::routing::RegionKey;
use shoal::scene::Emphasis;
use shoal::view_model::OpenRequest;
use shoal::view_model::filter::Filter;
use shoal::view_model::{Dataset, RegionSelection, ViewSpec};

#[path = "support/window.rs"]
mod window;
use window::finish_loading;

fn harness(app: impl FnOnce(&egui::Context) -> ShoalApp + 'static) -> Harness<'static, ShoalApp> {
    Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_eframe(move |cc| app(&cc.egui_ctx))
}

fn synthetic() -> Harness<'static, ShoalApp> {
    let mut h = harness(|_| ShoalApp::with_dataset(Dataset::synthetic(6, 4, 3, 2)));
    h.run();
    h
}

fn visible_links(h: &Harness<'static, ShoalApp>, view: usize) -> usize {
    h.state().ws.views[view].network().unwrap().scene.as_ref().map_or(0, |s| s.visible_link_count())
}

#[test]
fn the_sample_opens_and_the_threshold_slider_hides_cold_links() {
    let mut h = harness(|ctx| {
        let mut app = ShoalApp::empty();
        app.open(OpenRequest::sample(), ctx);
        app
    });
    finish_loading(&mut h);
    assert!(h.state().errors.is_empty(), "{:?}", h.state().errors);
    let all = visible_links(&h, 0);
    assert_eq!(all, 742 + 736, "every link of both tworail rails is drawn");
    h.get_by_label("% of max").click();
    h.run();
    h.get_by_role(Role::Slider).set_value_accesskit(50.0);
    h.run();
    let hot = visible_links(&h, 0);
    assert!(hot > 0 && hot < all, "{hot} of {all} links above half the maximum");
    let filter = &h.state().ws.views[0].spec.filter;
    assert!(filter.value_range.is_some_and(|(lo, _)| lo > 0.0));
}

#[test]
fn two_linked_views_of_two_regions_report_the_same_colour_range() {
    let mut h = synthetic();
    h.state_mut().ws.compare(1, 2);
    h.run();
    let ws = &h.state().ws;
    assert_eq!(ws.views.len(), 2);
    let range = |i: usize| {
        let s = ws.views[i].network().unwrap().scene.as_ref().unwrap().legends[1].scale.clone();
        (s.min(), s.max())
    };
    assert_eq!(range(0), range(1));
    let node_range = |i: usize| {
        let s = ws.views[i].network().unwrap().scene.as_ref().unwrap().legends[0].scale.clone();
        (s.min(), s.max())
    };
    assert_eq!(node_range(0), node_range(1), "nodes share one scale too");
    let d = ws.dataset.as_ref().unwrap();
    let own = |n: u32| {
        let spec = ViewSpec { selection: RegionSelection::Region(n), ..ViewSpec::for_dataset(d) };
        prepare_view(d, &spec, &Filter::default()).unwrap().link_range.unwrap()
    };
    let (own1, own2) = (own(1), own(2));
    assert_eq!(range(0).1, own1.1.max(own2.1), "the shared range is the union");
}

#[test]
fn a_highlighted_host_lights_its_links_in_every_linked_view() {
    let mut h = synthetic();
    h.state_mut().ws.compare(1, 2);
    h.state_mut().tab = shoal::gui::Tab::Highlight;
    h.state_mut().highlight_state.query = "n0005".into();
    h.run();
    h.get_by_label("highlight").click();
    h.run();
    for v in 0..2 {
        let scene = h.state().ws.views[v].network().unwrap().scene.as_ref().unwrap();
        let lit: Vec<_> = scene.halves.iter().filter(|x| x.emphasis == Emphasis::Lit).collect();
        assert_eq!(lit.len(), 4, "one host link per rail, two halves each");
        assert!(scene.marks.iter().any(|m| m.emphasis == Emphasis::Lit));
    }
    h.key_press(egui::Key::Escape);
    h.run();
    let scene = h.state().ws.views[0].network().unwrap().scene.as_ref().unwrap();
    assert!(scene.halves.iter().all(|x| x.emphasis == Emphasis::Normal), "Esc clears the highlight");
}

#[test]
fn the_diff_of_a_region_with_itself_is_all_zero() {
    let mut h = synthetic();
    h.state_mut().ws.diff(2, 2);
    h.run();
    let view = &h.state().ws.views[0];
    assert_eq!(view.spec.selection, RegionSelection::Diff(RegionKey::Region(2), RegionKey::Region(2)));
    let scene = view.network().unwrap().scene.as_ref().unwrap();
    let scale = &scene.legends[1].scale;
    assert!(scale.map.is_diverging());
    assert!(scene.halves.iter().all(|x| x.colour == scale.colour(0.0)));
    h.get_by_label("no link end changed");
}

#[test]
fn bad_files_opened_through_the_gui_show_an_error_and_the_app_keeps_running() {
    let dir = std::env::temp_dir().join(format!("shoal-gui-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A half-written gzip: the magic bytes and nothing else.
    std::fs::write(dir.join("opensm-subnet.lst.gz"), [0x1f, 0x8b, 0x08]).unwrap();
    let mut h = synthetic();
    let before = h.state().ws.generation;
    let ctx = h.ctx.clone();
    let bad = OpenRequest::of_rails(vec![vec![dir.clone()]]);
    h.state_mut().open(bad.clone(), &ctx);
    finish_loading(&mut h);
    assert_eq!(h.state().errors.len(), 1, "{:?}", h.state().errors);
    assert_eq!(h.state().ws.generation, before, "the data on screen stays");
    h.get_by_label_contains("could not open");
    // A watched file rewritten badly: the reload fails, the last good state stays.
    h.state_mut().loader.start(bad, Reason::Reload, &ctx);
    finish_loading(&mut h);
    assert!(h.state().errors[1].contains("still showing the last good data"));
    assert_eq!(h.state().ws.generation, before);
    assert!(visible_links(&h, 0) > 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn f_fits_the_view_after_zooming_and_panning_does_not_rebuild_the_scene() {
    let mut h = synthetic();
    let builds = h.state().ws.views[0].network().unwrap().builds;
    let centre = egui::pos2(800.0, 400.0);
    h.hover_at(centre);
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 240.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    h.run();
    assert!(h.state().ws.views[0].camera.zoom > 1.0);
    h.key_press(egui::Key::F);
    h.run();
    assert_eq!(h.state().ws.views[0].camera, shoal::scene::Camera::default());
    assert_eq!(h.state().ws.views[0].network().unwrap().builds, builds, "camera moves reuse the scene");
}

#[test]
fn default_view_snapshot() {
    let mut h = harness(|_| ShoalApp::with_dataset(Dataset::synthetic(6, 4, 3, 2)));
    h.run();
    h.snapshot("default_view");
}

/// Renders the synthetic view with links drawn by the mesh or by the GPU callback.
fn render_links(threshold: usize, hide_links: bool) -> image::RgbaImage {
    links_app(threshold, hide_links, false).render().unwrap()
}

/// The synthetic view with links drawn by the mesh or the GPU callback (by `threshold`), or as
/// an image painted on the CPU (`on_cpu`, as on a software renderer), run to a settled frame.
fn links_app(threshold: usize, hide_links: bool, on_cpu: bool) -> Harness<'static, ShoalApp> {
    let mut h = Harness::builder().with_size(egui::vec2(1000.0, 700.0)).wgpu().build_eframe(move |cc| {
        if let Some(rs) = cc.wgpu_render_state.as_ref() {
            shoal::modules::gpu_links::install(rs, &cc.egui_ctx);
        }
        if on_cpu {
            shoal::modules::gpu_links::paint_on_cpu(&cc.egui_ctx);
        }
        let mut app = ShoalApp::with_dataset(Dataset::synthetic(6, 4, 3, 2));
        app.ws.views[0].network_mut().unwrap().gpu_threshold = Some(threshold);
        if hide_links {
            app.ws.views[0].spec.filter.value_range = Some((f64::MAX, f64::MAX));
        }
        app
    });
    h.run();
    h
}

#[test]
fn the_gpu_callback_draws_the_same_links_as_the_mesh() {
    let mesh = render_links(usize::MAX, false);
    let gpu = render_links(0, false);
    let none = render_links(usize::MAX, true);
    let links_area = differing(&mesh, &none);
    assert!(links_area > 0.02, "links cover {:.3} of the image", links_area);
    let gap = differing(&mesh, &gpu);
    assert!(
        gap < links_area * 0.25,
        "GPU and mesh differ on {gap:.4} of the image; links cover {links_area:.4}"
    );
}

#[test]
fn links_painted_on_the_cpu_match_the_mesh_and_are_painted_again_only_when_the_picture_changes() {
    let mesh = render_links(usize::MAX, false);
    let none = render_links(usize::MAX, true);
    let mut h = links_app(usize::MAX, false, true);
    let stats = h.state().ws.views[0].network().unwrap().gpu.stats();
    assert!(stats.cpu_frames > 0 && stats.cpu_paints > 0, "{stats:?}");
    assert_eq!(stats.frames, 0, "nothing went through the GPU callback");
    let cpu = h.render().unwrap();
    let links_area = differing(&mesh, &none);
    let gap = differing(&mesh, &cpu);
    assert!(gap < links_area * 0.25, "CPU image and mesh differ on {gap:.4}; links cover {links_area:.4}");
    // Frames that change nothing about the links reuse the image.
    let painted = stats.cpu_paints;
    h.state_mut().status = "a frame that only changes the status line".into();
    h.run_steps(3);
    let again = h.state().ws.views[0].network().unwrap().gpu.stats();
    assert!(again.cpu_frames > stats.cpu_frames);
    assert_eq!(again.cpu_paints, painted, "{again:?}");
    // A new camera paints it anew.
    h.state_mut().ws.views[0].camera.zoom *= 2.0;
    h.run_steps(2);
    assert!(h.state().ws.views[0].network().unwrap().gpu.stats().cpu_paints > painted);
}

#[test]
fn a_clause_added_in_the_filter_panel_filters_the_view() {
    let mut h = synthetic();
    let all = visible_links(&h, 0);
    h.get_by_label("+ clause").click();
    h.run();
    let clause = &h.state().ws.views[0].spec.filter.clauses[0];
    assert_eq!(clause.to_string(), "bytes >= 1 MiB");
    let hot = visible_links(&h, 0);
    assert!(hot > 0 && hot < all, "{hot} of {all}");
    h.get_by_label("any (or)").click();
    h.get_by_label("hide unused links").click();
    h.run();
    assert!(h.state().ws.views[0].spec.filter.hide_unused);
}

#[test]
fn the_plots_tab_shows_rail_bytes_and_imbalance() {
    let mut h = synthetic();
    h.get_by_label("Plots").click();
    h.run();
    h.get_by_label_contains("imbalance max/mean = 1.000");
    h.get_by_label("link-end load CCDF per level");
}

#[test]
fn the_focused_view_exports_as_it_is_on_screen() {
    let mut h = synthetic();
    let dir = std::env::temp_dir().join(format!("shoal-gui-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let size = h.state().ws.views[0].network().unwrap().size;
    h.state_mut().export_focused(&dir.join("view.png")).unwrap();
    h.state_mut().export_focused(&dir.join("view.svg")).unwrap();
    let png = std::fs::read(dir.join("view.png")).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let info = decoder.read_info().unwrap();
    let (w, hgt) = (info.info().width, info.info().height);
    assert_eq!((w, hgt), ((size.x * 2.0) as u32, (size.y * 2.0) as u32));
    let svg = std::fs::read_to_string(dir.join("view.svg")).unwrap();
    let halves = h.state().ws.views[0].network().unwrap().scene.as_ref().unwrap().halves.len();
    assert_eq!(svg.matches("class=\"half\"").count(), halves);
    assert!(h.state_mut().export_focused(&dir.join("view.jpg")).is_err());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn side_by_side_views_zoom_and_pan_together() {
    let mut h = synthetic();
    h.state_mut().ws.compare(1, 2);
    h.run();
    h.hover_at(egui::pos2(500.0, 400.0));
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 200.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    h.run_steps(10); // a tooltip may fade in under the pointer
    let ws = &h.state().ws;
    let group = ws.group(ws.views[0].group).unwrap();
    assert_eq!(ws.views[0].group, ws.views[1].group);
    let camera = group.shared_camera.unwrap();
    assert!(camera.zoom > 1.0, "the wheel zoomed the shared camera");
}
