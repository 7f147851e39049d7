//! `time_strip` (issue 13): a 20,000-region profile on the two-rail sample (a time-step loop of
//! 16 ranks, one region per step, written by the collector's format writer into
//! `target/many-regions/` on first run; never committed).
//!
//! - setup prints the peak heap of reading it and tracing region 150 and the total (what
//!   `shoal hot --region 150` holds; target ≤ 150 MB of peak memory, RSS included: measure the
//!   binary with `/usr/bin/time -v`), then of tracing every region (what the window holds);
//! - `step_to_next_region`: what one frame of stepping (the play button, or a click on the
//!   strip) costs the linked fat tree: prepare the next region's values, then its scene;
//! - `strip_build`: the strip's numbers for every region (once per load or rows change);
//! - `strip_bins_1000`: binning 20,000 columns into 1,000 pixels (every frame of the strip).
//!
//! Run: `cargo bench --bench time_strip`.

#[path = "../tests/support/peak_alloc.rs"]
mod peak_alloc;
#[path = "../tests/support/time_steps.rs"]
mod time_steps;

use std::sync::OnceLock;

use peak_alloc::PeakAlloc;
use shoal::modules::registry::prepare_view;
use shoal::view_model::filter::Filter;
use shoal::view_model::highlight::Lit;
use shoal::view_model::orbit::Orbit;
use shoal::view_model::time_strip::{StripRows, TimeStrip, region_columns};
use shoal::view_model::{Dataset, RegionSelection, ViewSpec};
use shoal::view_model::{OpenRequest, open_regions};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// `cargo test --all-targets` runs each bench once in a debug build: a short loop proves it
/// works there; the figures come from `cargo bench` (optimised) with the full 20,000 steps.
const STEPS: u32 = if cfg!(debug_assertions) { 200 } else { 20_000 };

fn main() {
    divan::main();
}

fn dataset() -> &'static Dataset {
    static D: OnceLock<Dataset> = OnceLock::new();
    D.get_or_init(|| {
        let path = time_steps::time_step_profile(16, STEPS);
        let rails = time_steps::sample_rails();
        let request = OpenRequest { profile: Some(path.clone()), ..OpenRequest::of_rails(rails) };
        let open = |only| open_regions(&request, only, &|_| {}).expect("the profile opens");
        let (hot, peak) = peak_alloc::peak_of(|| open(Some(150.min(STEPS))));
        eprintln!(
            "{}: read, region 150 and the total traced (hot --region 150) with a peak heap of {:.1} MB",
            path.display(),
            peak as f64 / 1e6
        );
        drop(hot);
        let (d, peak) = peak_alloc::peak_of(|| open(None));
        eprintln!(
            "{}: read, every region traced and the view model built with a peak heap of {:.1} MB",
            path.display(),
            peak as f64 / 1e6
        );
        d
    })
}

#[divan::bench(sample_count = 20)]
fn step_to_next_region(b: divan::Bencher) {
    let d = dataset();
    let mut spec = ViewSpec::for_dataset(d);
    let mut region = 0;
    b.bench_local(|| {
        region = region % STEPS + 1;
        spec.selection = RegionSelection::Region(region);
        let prepared = prepare_view(d, &spec, &Filter::default()).expect("the region prepares");
        prepared.scene(d, &spec, (None, None), &Lit::default(), &Orbit::default(), 1.6).halves.len()
    });
}

#[divan::bench(sample_count = 5)]
fn strip_build(b: divan::Bencher) {
    let f = dataset().fabric.as_ref().expect("a fabric");
    b.bench_local(|| TimeStrip::build(f, &region_columns(&f.loads), StripRows::Groups).cells.len());
}

#[divan::bench(sample_count = 20)]
fn strip_bins_1000(b: divan::Bencher) {
    let f = dataset().fabric.as_ref().expect("a fabric");
    let strip = TimeStrip::build(f, &region_columns(&f.loads), StripRows::Groups);
    b.bench_local(|| strip.binned(1000).cells.len());
}
