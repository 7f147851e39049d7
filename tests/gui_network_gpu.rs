//! The generic-2D and torus views drawing their links through the GPU paint callback, driven
//! headless with egui_kittest (wgpu on lavapipe; `WGPU_BACKEND=vulkan`): the threshold is
//! overridden to 0 so a small network takes the path a 100k-link one takes.
#![cfg(feature = "gui")]

#[path = "support/gui_pixels.rs"]
mod gui_pixels;
use gui_pixels::{differing, pickable_half};

use egui_kittest::Harness;

use shoal::gui::ShoalApp;
use shoal::modules::NetworkState;
use shoal::scene::camera::Transform;
use shoal::scene::draw::plot_rect;
use shoal::scene::{Emphasis, Scene};
use shoal::view_model::Dataset;
use shoal::view_model::filter::Clause;
use shoal::view_model::highlight::Seed;
use shoal::view_model::run_synthetic::synthetic_mesh_run;

/// A 12×9 mesh in the generic-2D view; links on the GPU when `threshold` is below its halves.
fn mesh_app(threshold: usize, hide_links: bool) -> Harness<'static, ShoalApp> {
    let mut h = Harness::builder().with_size(egui::vec2(1000.0, 700.0)).wgpu().build_eframe(move |cc| {
        if let Some(rs) = cc.wgpu_render_state.as_ref() {
            shoal::modules::gpu_links::install(rs, &cc.egui_ctx);
        }
        let mut app = ShoalApp::with_dataset(Dataset::from_run(synthetic_mesh_run(12, 9), Vec::new()));
        let view = &mut app.ws.views[0];
        view.network_mut().unwrap().gpu_threshold = Some(threshold);
        if hide_links {
            view.spec.filter.clauses.push(Clause::parse("packets > 1e12").unwrap());
        }
        app
    });
    h.run();
    h
}

fn view<'h>(h: &'h Harness<'static, ShoalApp>) -> &'h NetworkState {
    h.state().ws.views[0].network().expect("a network view")
}

fn scene<'h>(h: &'h Harness<'static, ShoalApp>) -> &'h Scene {
    view(h).scene.as_ref().expect("the view drew a scene")
}

#[test]
fn a_generic_2d_view_above_the_threshold_draws_its_links_on_the_gpu_as_the_mesh_does() {
    let mut gpu = mesh_app(0, false);
    let stats = view(&gpu).gpu.stats();
    assert!(stats.frames > 0, "the links went through the paint callback");
    assert_eq!(stats.slots, scene(&gpu).halves.len(), "every visible half is uploaded");
    assert_eq!(stats.slots, 2 * (11 * 9 + 12 * 8));
    let mut mesh = mesh_app(usize::MAX, false);
    assert_eq!(view(&mesh).gpu.stats().frames, 0, "below the threshold the painter draws");
    let mut none = mesh_app(usize::MAX, true);
    assert!(scene(&none).halves.is_empty());
    let (gpu, mesh, none) = (gpu.render().unwrap(), mesh.render().unwrap(), none.render().unwrap());
    let links_area = differing(&mesh, &none);
    assert!(links_area > 0.01, "links cover {links_area:.3} of the image");
    let gap = differing(&mesh, &gpu);
    assert!(gap < links_area * 0.25, "GPU and mesh differ on {gap:.4}; links cover {links_area:.4}");
}

#[test]
fn a_link_picked_on_the_gpu_path_lights_up_without_new_geometry_and_panning_uploads_nothing() {
    let mut h = mesh_app(0, false);
    let before = view(&h).gpu.stats();
    let (rect, s) = (view(&h).rect.unwrap(), scene(&h).clone());
    let camera = h.state().ws.views[0].camera;
    let t = Transform::new(&camera, &s.bounds, plot_rect(rect.width(), rect.height()));
    let (target, half) = pickable_half(&s, &t, false).expect("some link half is pickable");
    let pos = rect.min + egui::vec2(target[0], target[1]);
    h.hover_at(pos);
    h.run();
    for pressed in [true, false] {
        let button = egui::PointerButton::Primary;
        h.event(egui::Event::PointerButton { pos, button, pressed, modifiers: egui::Modifiers::NONE });
    }
    h.run();
    let ws = &h.state().ws;
    let group = ws.group(ws.views[0].group).unwrap();
    let link = ws.dataset.as_ref().unwrap().run.network().links[half.end.index()].id;
    assert_eq!(group.highlight.seeds, [Seed::link(link as usize)].into());
    let lit: Vec<usize> =
        scene(&h).halves.iter().filter(|x| x.emphasis == Emphasis::Lit).map(|x| x.end.index()).collect();
    assert_eq!(lit, vec![half.end.index()]);
    let after = view(&h).gpu.stats();
    assert_eq!(after.geometry_builds, before.geometry_builds, "a highlight restyles, it keeps the geometry");
    assert!(after.style_builds > before.style_builds);
    assert_eq!(after.lit, 1, "the lit half is drawn again on top");
    h.render().expect("the lit overlay renders");

    // A drag pans the plane: the camera moves, the scene and the uploads stay.
    let builds = view(&h).builds;
    h.drag_at(pos);
    h.run();
    for k in 1..=5 {
        h.hover_at(pos + egui::vec2(10.0 * k as f32, 5.0 * k as f32));
        h.run();
    }
    h.drop_at(pos + egui::vec2(50.0, 25.0));
    h.run();
    assert_ne!(h.state().ws.views[0].camera, camera, "the drag panned");
    assert_eq!(view(&h).builds, builds);
    let panned = view(&h).gpu.stats();
    assert_eq!((panned.geometry_builds, panned.style_builds), (after.geometry_builds, after.style_builds));
    assert!(panned.frames > after.frames);
}

#[test]
fn turning_a_3d_torus_on_the_gpu_path_uploads_the_moved_geometry() {
    let mut h = Harness::builder().with_size(egui::vec2(1000.0, 700.0)).wgpu().build_eframe(|cc| {
        if let Some(rs) = cc.wgpu_render_state.as_ref() {
            shoal::modules::gpu_links::install(rs, &cc.egui_ctx);
        }
        let run = shoal::view_model::run_synthetic::synthetic_run(&["x", "y", "z"], &[4, 4, 4]);
        let mut app = ShoalApp::with_dataset(Dataset::from_run(run, Vec::new()));
        app.ws.views[0].network_mut().unwrap().gpu_threshold = Some(0);
        app
    });
    h.run();
    let before = view(&h).gpu.stats();
    assert!(before.frames > 0 && before.slots == scene(&h).halves.len());
    let start = view(&h).rect.unwrap().center();
    h.drag_at(start);
    h.run();
    h.hover_at(start + egui::vec2(40.0, 0.0));
    h.run();
    h.drop_at(start + egui::vec2(40.0, 0.0));
    h.run();
    let after = view(&h).gpu.stats();
    assert!(after.geometry_builds > before.geometry_builds, "a turn moves every half");
    assert_eq!(after.slots, scene(&h).halves.len());
    h.render().expect("the turned torus renders");
}
