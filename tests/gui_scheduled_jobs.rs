//! The scheduler's jobs in the window (issue 26), driven headless with egui_kittest (wgpu on
//! lavapipe; `WGPU_BACKEND=vulkan`): the Jobs tab lists `--jobs-from`'s jobs, its buttons
//! highlight a job's footprint, filter the focused view to it (`job = NAME`) and list who
//! shared its links; the time strip draws the jobs that ran in its span as bands.
#![cfg(feature = "gui")]

use std::collections::BTreeSet;
use std::path::PathBuf;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use shoal::gui::{ShoalApp, Tab};
use shoal::scene::time_strip_jobs_draw::{LANE_H, LANES_GAP};
use shoal::view_model::highlight::{Seed, search};
use shoal::view_model::view::ModuleSpec;
use shoal::view_model::{Dataset, OpenRequest, open};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The two-rail sample with its profile and jobs from `sacct` (sample-data: 5001–5004 on
/// 2026-11-24; tests/fixtures: 7101–7103 while the profile ran, 2023-11-14 22:13:20 on).
fn dataset(sacct: &str) -> Dataset {
    let request = OpenRequest { jobs_from: Some(root().join(sacct)), ..OpenRequest::sample() };
    open(&request, &|_| {}).expect("the sample opens with its jobs")
}

fn app(d: Dataset) -> Harness<'static, ShoalApp> {
    let mut h =
        Harness::builder().with_size(egui::vec2(1600.0, 900.0)).build_eframe(|_| ShoalApp::with_dataset(d));
    h.run();
    h.state_mut().tab = Tab::Jobs;
    h.run();
    h
}

/// Clicks the button `label` of the `row`th job (0: the first).
fn click(h: &mut Harness<'static, ShoalApp>, label: &str, row: usize) {
    h.get_all_by_role_and_label(Role::Button, label).nth(row).expect("a button per job").click();
    h.run();
    h.run();
}

fn highlighted(h: &Harness<'static, ShoalApp>) -> BTreeSet<Seed> {
    let ws = &h.state().ws;
    ws.group(ws.views[0].group).expect("the view's group").highlight.seeds.clone()
}

#[test]
fn the_jobs_tab_lists_each_job_with_its_user_hosts_and_range() {
    let h = app(dataset("sample-data/tworail/sacct.txt"));
    for text in ["scheduler jobs (4)", "5001", "samplesort", "RUNNING"] {
        h.get_by_label(text);
    }
    assert_eq!(h.get_all_by_label("alice").count(), 2, "5001 and 5004");
    h.get_by_label(
        "8 hosts: n0001 … n0008 · 2026-11-24 10:00:00.000 UTC – 2026-11-24 10:30:00.000 UTC · 64 link ends, 48 contended",
    );
    h.get_by_label_contains("9 hosts: n0005 … n0040 ·");
    h.get_by_label_contains("16 hosts: n0020 … n0035 · 2026-11-24 10:20:00.000 UTC – … ·");
}

#[test]
fn the_footprint_button_highlights_the_jobs_link_ends_and_hosts() {
    let d = dataset("sample-data/tworail/sacct.txt");
    let expected: BTreeSet<Seed> = search(&d, "job 5002").into_iter().collect();
    let mut h = app(d);
    assert!(highlighted(&h).is_empty());
    click(&mut h, "footprint", 1);
    assert!(!expected.is_empty());
    assert_eq!(highlighted(&h), expected, "job 5002's footprint");
}

#[test]
fn the_filter_button_keeps_only_the_link_ends_of_the_jobs_footprint() {
    let d = dataset("sample-data/tworail/sacct.txt");
    let f = d.fabric.as_ref().unwrap();
    let footprint: BTreeSet<usize> = (f.scheduled[0].footprint.rails.iter().enumerate())
        .flat_map(|(rail, ends)| ends.iter().filter_map(move |&e| f.index.link_position(rail, e)))
        .collect();
    let mut h = app(d);
    click(&mut h, "filter", 0);
    let view = &h.state().ws.views[0];
    let clauses: Vec<String> = view.spec.filter.clauses.iter().map(|c| c.to_string()).collect();
    assert_eq!(clauses, ["job = samplesort"]);
    let network = view.network().expect("a network view");
    let Some(Ok(prepared)) = &network.prepared else { panic!("the view is prepared") };
    let passing: BTreeSet<usize> =
        prepared.link_pass.iter().enumerate().filter(|(_, p)| **p).map(|(i, _)| i).collect();
    assert!(!footprint.is_empty());
    assert_eq!(passing, footprint, "the view keeps the link ends on the routes among 5001's hosts");
}

#[test]
fn shared_lists_the_jobs_that_ran_with_it_on_its_link_ends() {
    let mut h = app(dataset("sample-data/tworail/sacct.txt"));
    click(&mut h, "shared", 0);
    h.get_by_label("who shared the links of job 5001 (samplesort)");
    // 5002 (ior, 10:10–11:00) overlapped 5001 (10:00–10:30) on hosts n0005–n0008 (32 shared
    // ends, as `shoal jobs --shared-with 5001` says); 5004 (post, 11:05–11:20) ran after it
    // on the same leaf, and 5003 shares none of its ends: both are in the jobs table alone.
    assert_eq!(h.get_all_by_label("ior").count(), 2, "in the table and in the shared list");
    h.get_by_label(
        "32 shared link ends · together 2026-11-24 10:10:00.000 UTC – 2026-11-24 10:30:00.000 UTC · no counters, so no bytes there · no XmitWait ticks",
    );
    assert_eq!(h.get_all_by_label("post").count(), 1);
    assert_eq!(h.get_all_by_label("lammps").count(), 1);
    h.render().expect("the Jobs tab renders");
}

#[test]
fn the_time_strip_draws_the_jobs_that_ran_in_its_span_as_bands() {
    let mut h = app(dataset("tests/fixtures/slurm/testbed-sacct.txt"));
    h.state_mut().ws.add_view(ModuleSpec::of("time_strip"));
    h.run();
    let strip = h.state().ws.views[1].strip().expect("a time strip").strip.clone();
    let labels: Vec<&str> = strip.jobs.bands.iter().map(|b| b.label.as_str()).collect();
    // The profile's regions end 22:13:22 and 22:14:01; 7103 began at 22:14:20.
    assert_eq!(labels, ["7101 lammps (ann)", "7102 ior (bob)"]);
    assert_eq!(strip.jobs.lanes(), 2, "they ran together");
    h.render().expect("the strip with its jobs renders");
}

#[test]
fn a_click_on_a_jobs_band_highlights_its_footprint() {
    let d = dataset("tests/fixtures/slurm/testbed-sacct.txt");
    let expected: BTreeSet<Seed> = search(&d, "job 7102").into_iter().collect();
    let mut h = app(d);
    h.state_mut().ws.add_view(ModuleSpec::of("time_strip"));
    h.run();
    let map = h.state().ws.views[1].strip().and_then(|s| s.map).expect("the strip drew");
    // Lane 1 (7102) under the map: the gap, one lane, half a lane.
    let at = egui::pos2(map.center().x, map.max.y + LANES_GAP + 1.5 * LANE_H);
    h.hover_at(at);
    h.run();
    h.drag_at(at);
    h.run();
    let release = egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(release);
    h.run();
    h.run();
    assert!(!expected.is_empty());
    assert_eq!(highlighted(&h), expected, "job 7102's footprint");
}
