//! `line_paint`: the links of a 1920 × 1080 render painted onto the canvas
//! (`export::line_layer::paint_lines`, the step `shoal render` and the window's software painter
//! share), without the rest of the export.
//!
//! - `tsubame`: the TSUBAME-sized two rails (benches/data/tsubame) with shift traffic, 15,552
//!   link halves in 4 colours.
//! - `k36`: the k = 36 two rails with 10,000 ranks × 100 peers as `shoal render` draws them by
//!   default, 139,968 halves 1.5 pixels wide in 87 colours, long diagonals between the switch
//!   levels. Opened once (a few seconds); set `SHOAL_K36=DIR` to a folder `shoal gen` wrote, or
//!   the bench writes one under `target/bench-data/k36` first (about a minute).
//!
//! Run: `cargo bench --bench line_paint`.

use std::path::PathBuf;

use shoal::export::line_layer::paint_lines;
use shoal::export::line_raster::PixelRect;
use shoal::export::{export_list, pixels_per_point_for};
use shoal::profile_io::load_cluster;
use shoal::scene::camera::Camera;
use shoal::scene::draw::{DrawList, plot_rect};
use shoal::scene::scene_for;
use shoal::view_model::filter::Filter;
use shoal::view_model::{Dataset, Highlight, LayoutChoice, ViewSpec, open};

#[path = "support/k36.rs"]
mod k36;

const WIDTH: u32 = 1920;
const HEIGHT: u32 = 1080;

fn main() {
    // `cargo test --all-targets` runs benches once, in a debug build: opening the k = 36 fabric
    // there would take minutes. Only `cargo bench` (which passes `--bench`).
    if !std::env::args().any(|a| a == "--bench") {
        println!("line_paint: measured under `cargo bench` only");
        return;
    }
    divan::main();
}

/// The draw list of the data set's default view at 1920 × 1080, as `render` lays it out.
fn draw_list_of(dataset: &Dataset) -> (DrawList, f32) {
    let ppp = pixels_per_point_for(WIDTH, HEIGHT);
    let plot = plot_rect(WIDTH as f32 / ppp, HEIGHT as f32 / ppp);
    let spec = ViewSpec::for_dataset(dataset);
    let choice = (&LayoutChoice::FatTree, plot.w / plot.h.max(1.0));
    let scene = scene_for(dataset, &spec, &Filter::default(), &Highlight::default(), choice)
        .expect("the default view exists");
    (export_list(&scene, &Camera::default(), WIDTH, HEIGHT, ppp), ppp)
}

fn bench_painting(b: divan::Bencher, (list, ppp): &(DrawList, f32)) {
    let p = list.plot;
    let clip =
        PixelRect { left: p.x * ppp, top: p.y * ppp, right: (p.x + p.w) * ppp, bottom: (p.y + p.h) * ppp };
    let blank = vec![255u8; (WIDTH * HEIGHT * 4) as usize];
    b.with_inputs(|| blank.clone())
        .bench_local_refs(|pixels| paint_lines(pixels, WIDTH as usize, &list.lines, *ppp, clip));
}

#[divan::bench(sample_count = 10)]
fn tsubame(b: divan::Bencher) {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data/tsubame");
    let (cluster, _) =
        load_cluster(&[vec![data.join("rail0")], vec![data.join("rail1")]]).expect("TSUBAME rails parse");
    let n = cluster.hosts.len();
    let shift: Vec<_> =
        (0..n).map(|s| (s, (s * 7 + n / 3) % n, 1u64 << 20)).filter(|(s, d, _)| s != d).collect();
    let dataset =
        Dataset::from_host_traffic("TSUBAME two-rail".into(), cluster, vec![("shift".into(), shift)]);
    bench_painting(b, &draw_list_of(&dataset));
}

#[divan::bench(sample_count = 5)]
fn k36(b: divan::Bencher) {
    let dataset = open(&k36::request(&k36::fabric_dir()), &|_| {}).expect("the k = 36 fabric opens");
    let list = draw_list_of(&dataset);
    // Freeing the data set one allocation at a time only costs time here.
    std::mem::forget(dataset);
    bench_painting(b, &list);
}
