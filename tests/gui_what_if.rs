//! The window's What-if tab (issue 23), driven headless with egui_kittest: on the sample's
//! rail 0 and its profile, the tab routes the traffic with every engine off the UI thread and
//! shows, per routing, the figures `shoal route --engine greedy|greedy-sum` prints for the
//! same input, to the byte and to the link end.
#![cfg(feature = "gui")]

use std::path::PathBuf;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use shoal::gui::ShoalApp;
use shoal::view_model::what_if::ShownRow;
use shoal::view_model::{OpenRequest, open};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const RAIL: &str = "sample-data/tworail/rail0";
const PROFILE: &str = "sample-data/tworail/samplesort.ibprof.gz";

fn app() -> Harness<'static, ShoalApp> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let request = OpenRequest {
        profile: Some(root.join(PROFILE)),
        ..OpenRequest::of_rails(vec![vec![root.join(RAIL)]])
    };
    let dataset = open(&request, &|_| {}).expect("the sample loads");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |_| ShoalApp::with_dataset(dataset));
    h.run();
    h
}

/// The routings' rows of `shoal route`'s printed comparison: routing → its cells (switch to
/// switch, any end, ratio to recorded, busiest end), split where the command puts two spaces.
fn printed_rows(engine: &str) -> Vec<Vec<String>> {
    let out = std::env::temp_dir().join(format!("shoal-what-if-{}-{engine}", std::process::id()));
    let out_text = out.display().to_string();
    let (ok, stdout, stderr) =
        shoal(&["route", RAIL, "--engine", engine, "--profile", PROFILE, "--out", &out_text]);
    assert!(ok, "{stderr}");
    let _ = std::fs::remove_dir_all(&out);
    let table = stdout.split("maximum link-end load").nth(1).expect("the comparison is printed");
    table
        .lines()
        .skip(1)
        .map(|line| {
            line.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty() && *c != "(lowest)")
                .map(String::from)
                .collect()
        })
        .collect()
}

fn cells(row: &ShownRow) -> Vec<String> {
    vec![
        row.routing.clone(),
        row.switch_to_switch.clone(),
        row.any_end.clone(),
        row.ratio.clone(),
        row.at.clone(),
    ]
}

/// The window on the What-if tab once its engines have routed (off the UI thread).
fn routed() -> Harness<'static, ShoalApp> {
    let mut h = app();
    h.get_by_label("What-if").click();
    // The spinner repaints while the engines route: step, not run to a settled frame.
    h.run_steps(2);
    assert!(h.state().what_if.busy(), "the engines run off the UI thread");
    h.state_mut().what_if.wait();
    h.run();
    h
}

#[test]
fn the_what_if_tab_shows_what_shoal_route_prints_for_every_routing() {
    let h = routed();
    let rows = match h.state().what_if.shown() {
        Some(Ok(rows)) => rows.clone(),
        other => panic!("no rows: {other:?}"),
    };
    let names: Vec<&str> = rows.iter().map(|r| r.routing.as_str()).collect();
    assert_eq!(names, ["recorded", "dmodk", "minhop", "greedy", "greedy-sum"]);
    for engine in ["greedy", "greedy-sum"] {
        let printed = printed_rows(engine);
        let shown: Vec<Vec<String>> = rows
            .iter()
            .filter(|r| ["recorded", "dmodk", "minhop", engine].contains(&r.routing.as_str()))
            .map(cells)
            .collect();
        assert_eq!(shown, printed, "the tab and `shoal route --engine {engine}` agree");
    }
    for row in &rows {
        for text in [&row.switch_to_switch, &row.ratio, &row.at] {
            assert!(h.query_all_by_label(text).next().is_some(), "{text} is on screen");
        }
    }
}

#[test]
fn show_highlights_the_busiest_end_of_a_routing_in_the_view() {
    let mut h = routed();
    h.get_by_label("show greedy").click();
    h.run();
    let view = &h.state().ws.views[0];
    let link = view.selected_link.expect("the busiest end is picked");
    let d = h.state().ws.dataset.clone().expect("data");
    let (rail, end) = d.fabric.as_ref().and_then(|f| f.index.link(link)).expect("a link end of the fabric");
    let Some(Ok(rows)) = h.state().what_if.shown() else { panic!("no rows") };
    let greedy = rows.iter().find(|r| r.routing == "greedy").expect("a greedy row");
    assert_eq!((rail, Some(end)), (0, greedy.load.busiest_end));
}
