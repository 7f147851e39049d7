//! `torus_frame`: the CPU cost of one frame of the torus view of an 8×8×8 torus run with all its
//! links (3,072 directed links, 512 nodes), while the view turns (so the projected scene is
//! rebuilt every frame). Target ≤ 5 ms.
//!
//! - `scene_and_draw_list`: scene build (colours within the range, highlight, rotation,
//!   orthographic projection, depth sort) plus the pixel-space draw list every painter consumes.
//! - `egui_frame_turning`: the whole egui pass of the torus module as the app runs it (input,
//!   scene, draw list, line mesh, marks, legends) plus tessellation, the orbit changing each
//!   frame as during a drag.
//!
//! Run: `cargo bench --bench torus_frame`.

use std::sync::OnceLock;

use shoal::modules::registry::prepare_view;
use shoal::scene::camera::Camera;
use shoal::scene::draw::draw_list;
use shoal::view_model::filter::Filter;
use shoal::view_model::highlight::Lit;
use shoal::view_model::orbit::Orbit;
use shoal::view_model::run_synthetic::synthetic_run;
use shoal::view_model::{Dataset, Prepared, RegionSelection, ViewSpec};

#[path = "support/frame.rs"]
mod frame;
use frame::Frame;

fn main() {
    divan::main();
}

fn torus() -> &'static (Dataset, ViewSpec, Prepared) {
    static T: OnceLock<(Dataset, ViewSpec, Prepared)> = OnceLock::new();
    T.get_or_init(|| {
        let d = Dataset::from_run(synthetic_run(&["x", "y", "z"], &[8, 8, 8]), Vec::new());
        let spec = ViewSpec { selection: RegionSelection::Region(1), ..ViewSpec::for_dataset(&d) };
        let prepared = prepare_view(&d, &spec, &Filter::default()).expect("a torus view");
        assert_eq!(d.run.network().links.len(), 3072);
        (d, spec, prepared)
    })
}

#[divan::bench]
fn scene_and_draw_list(b: divan::Bencher) {
    let (run, spec, prepared) = torus();
    let lit = Lit::default();
    let mut orbit = Orbit::default();
    b.bench_local(|| {
        orbit.drag([3.0, 1.0]);
        let scene = prepared.scene(run, spec, (None, None), &lit, &orbit, 1.6);
        draw_list(&scene, &Camera::default(), 1600.0, 1000.0).lines.len()
    });
}

#[divan::bench]
fn egui_frame_turning(b: divan::Bencher) {
    let (d, spec, _) = torus();
    let mut f = Frame::new(spec.clone(), false);
    b.bench_local(|| {
        f.eye.orbit.drag([3.0, 1.0]);
        f.run(d, false)
    });
}
