//! Jobs' colours in the window (issue 21): a view coloured by one job or by contention draws
//! the same values, masks and halves with and without a clause that keeps everything, as
//! `render` does (tests/job_colours.rs).
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use shoal::gui::ShoalApp;
use shoal::view_model::filter::Clause;
use shoal::view_model::{JobRequest, OpenRequest};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;
#[path = "support/window.rs"]
mod window;
use window::open_window;

fn scratch() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-gui-job-colours-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A k = 8 fabric on two rails and two jobs placed where they share link ends.
fn request(dir: &std::path::Path) -> OpenRequest {
    let p = |f: &str| dir.join(f).display().to_string();
    for args in [
        vec!["gen", "--k", "8", "--rails", "2", "--out", &p("k8")],
        vec!["pattern", "alltoall", "--ranks", "8", "--bytes", "1MiB", "--out", &p("a.ibprof")],
        vec!["pattern", "io", "--ranks", "10", "--servers", "2", "--bytes", "4MiB", "--out", &p("b.ibprof")],
    ] {
        let (ok, _, err) = shoal(&args);
        assert!(ok, "{args:?}: {err}");
    }
    let job = |name: &str, file: &str, place: &str| JobRequest {
        name: name.into(),
        profile: dir.join(file),
        place: place.into(),
    };
    OpenRequest {
        jobs: vec![job("a", "a.ibprof", "random-node:1"), job("b", "b.ibprof", "random-node:2")],
        ..OpenRequest::of_rails(vec![vec![dir.join("k8/rail0")], vec![dir.join("k8/rail1")]])
    }
}

/// The focused view's link values, link mask and halves' colours after one frame.
type Drawn = (Vec<Option<f64>>, Vec<bool>, Vec<[u8; 4]>);

fn drawn(h: &mut Harness<'static, ShoalApp>, job: &str, clause: Option<&str>) -> Drawn {
    let view = &mut h.state_mut().ws.views[0];
    view.spec.job = Some(job.into());
    view.spec.filter.clauses = clause.map(|c| Clause::parse(c).unwrap()).into_iter().collect();
    h.run();
    let network = h.state().ws.views[0].network().expect("a network view");
    let Some(Ok(prepared)) = &network.prepared else { panic!("the view is prepared") };
    let scene = network.scene.as_ref().expect("the view is drawn");
    let colours = scene.halves.iter().map(|half| half.colour.0).collect();
    (prepared.link_values.clone(), prepared.link_pass.clone(), colours)
}

#[test]
fn the_window_colours_a_job_and_contention_alike_with_and_without_a_clause() {
    let dir = scratch();
    let mut h = open_window(request(&dir));
    assert!(h.state().errors.is_empty(), "{:?}", h.state().errors);
    for job in ["contention", "a", "b", "all"] {
        let plain = drawn(&mut h, job, None);
        let kept = drawn(&mut h, job, Some("rail >= 0"));
        assert!(plain.0.iter().flatten().any(|&v| v > 0.0), "job {job}: some end carries bytes");
        assert_eq!(plain, kept, "job {job}: the same values, mask and colours");
    }
    let a = drawn(&mut h, "a", None).0;
    let all = drawn(&mut h, "all", None).0;
    assert_ne!(a, all, "job a's bytes are not every job's");
    let _ = std::fs::remove_dir_all(&dir);
}
