//! Sessions in the window (issue 21): File → Save session, then `shoal render --session` draws
//! the window's own export; Open session brings back every view; the window keeps the host map
//! and rail policy it was opened with for its reloads.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use shoal::gui::ShoalApp;
use shoal::routing::RailPolicy;
use shoal::view_model::OpenRequest;
use shoal::view_model::RegionSelection;

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;
#[path = "support/window.rs"]
mod window;
use window::{finish_loading, open_window as harness};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-gui-session-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_session_saved_by_the_window_renders_as_the_window_exports_it() {
    let mut h = harness(OpenRequest::sample());
    h.state_mut().ws.views[0].spec.selection = RegionSelection::Region(2);
    h.run();
    let dir = scratch("export");
    let (window_png, session, rendered) =
        (dir.join("window.png"), dir.join("s.yaml"), dir.join("render.png"));
    h.state_mut().export_focused(&window_png).unwrap();
    h.state().save_session(&session).unwrap();
    let (ok, _, err) =
        shoal(&["render", "--session", session.to_str().unwrap(), "--out", rendered.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (a, b) = (std::fs::read(&window_png).unwrap(), std::fs::read(&rendered).unwrap());
    assert!(a == b, "render --session differs from the window's export");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn each_view_of_a_linked_pair_renders_from_the_session_as_the_window_exports_it() {
    let mut h = harness(OpenRequest::sample());
    h.state_mut().ws.compare(1, 2);
    h.run();
    let dir = scratch("linked");
    let session = dir.join("s.yaml");
    h.state().save_session(&session).unwrap();
    for view in [1usize, 2] {
        h.state_mut().ws.focus_at(view - 1);
        let (window_png, rendered) =
            (dir.join(format!("window{view}.png")), dir.join(format!("render{view}.png")));
        h.state_mut().export_focused(&window_png).unwrap();
        let args = ["render", "--session", session.to_str().unwrap(), "--view", &view.to_string()];
        let (ok, _, err) = shoal(&[&args[..], &["--out", rendered.to_str().unwrap()]].concat());
        assert!(ok, "{err}");
        let (a, b) = (std::fs::read(&window_png).unwrap(), std::fs::read(&rendered).unwrap());
        assert!(a == b, "view {view}: render --session differs from the window's export");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn opening_a_session_brings_back_its_views_and_what_they_show() {
    let mut h = harness(OpenRequest::sample());
    h.state_mut().ws.compare(1, 2);
    h.run();
    let dir = scratch("reopen");
    let session = dir.join("s.yaml");
    h.state().save_session(&session).unwrap();
    let saved: Vec<RegionSelection> = h.state().ws.views.iter().map(|v| v.spec.selection).collect();
    assert_eq!(saved.len(), 2);
    let mut again =
        Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_eframe(|_| ShoalApp::empty());
    let ctx = again.ctx.clone();
    again.state_mut().open_session(&session, &ctx).unwrap();
    finish_loading(&mut again);
    assert!(again.state().errors.is_empty(), "{:?}", again.state().errors);
    let shown: Vec<RegionSelection> = again.state().ws.views.iter().map(|v| v.spec.selection).collect();
    assert_eq!(shown, saved);
    assert!(
        again.state().ws.views.iter().all(|v| v.network().is_some_and(|n| n.scene.is_some())),
        "every view is drawn"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_window_keeps_the_host_map_and_rail_policy_it_opened_with() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
    let request = OpenRequest {
        profile: Some(root.join("collector-samplesort-8.ibprof")),
        host_map: Some(root.join("collector-samplesort-8.hostmap")),
        rail_policy: RailPolicy::Rail(0),
        ..OpenRequest::of_rails(vec![vec![root.join("rail0")], vec![root.join("rail1")]])
    };
    let h = harness(request.clone());
    assert_eq!(h.state().current.as_ref(), Some(&request), "a reload opens the same request");
    let dataset = h.state().ws.dataset.clone().unwrap();
    let fabric = dataset.fabric.as_ref().unwrap();
    assert_eq!(fabric.rank_hosts.len(), 8, "the map put every rank on a fabric host");
    assert!(fabric.loads.total.rails[0].injected > 0);
    assert_eq!(fabric.loads.total.rails[1].injected, 0, "rail:0 leaves rail 1 idle");
}

#[test]
fn saving_a_session_with_nothing_open_says_why() {
    let h = Harness::builder().build_eframe(|_| ShoalApp::empty());
    let error = h.state().save_session(std::path::Path::new("/tmp/never.yaml")).unwrap_err();
    assert!(error.contains("nothing is open"), "{error}");
}
