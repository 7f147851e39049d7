//! File → Add profiles as jobs in the window (issue 25): the placement dialog asks where the
//! new job runs; a job recorded on hosts another job holds fails with the clash, the dialog
//! comes back with it, and placing the job by random switch adds it beside the first.
#![cfg(feature = "gui")]

use std::path::PathBuf;

use egui_kittest::kittest::Queryable;
use shoal::view_model::{JobRequest, OpenRequest};

#[path = "support/window.rs"]
mod window;
use window::{finish_loading, open_window};

fn sample(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail").join(path)
}

#[test]
fn a_second_job_recorded_on_the_same_hosts_is_placed_elsewhere_from_the_dialog() {
    let md = sample("jobs/md.ibprof.gz");
    let rails = vec![vec![sample("rail0")], vec![sample("rail1")]];
    let request = OpenRequest { jobs: vec![JobRequest::from_profile(&md)], ..OpenRequest::of_rails(rails) };
    let mut h = open_window(request);
    assert_eq!(h.state().ws.dataset.as_ref().unwrap().fabric.as_ref().unwrap().jobs.len(), 1);

    // The same profile again: recorded on the same 64 hosts.
    h.state_mut().place_new_jobs(std::slice::from_ref(&md));
    h.run();
    h.get_by_label("as recorded").click();
    h.get_by_label("Add jobs").click();
    h.run_steps(2); // the click takes effect; the load then runs in the background
    finish_loading(&mut h);
    assert!(h.state().errors.iter().any(|e| e.contains("jobs never share a host")), "{:?}", h.state().errors);
    let shown = h.get_all_by_label_contains("jobs never share a host").count();
    assert_eq!(shown, 2, "the clash is in the warnings panel and in the dialog");
    h.get_by_label("Place the new job elsewhere:");

    h.get_by_label("random switch (whole leaves)").click();
    h.run();
    h.get_by_label("Add jobs").click();
    h.run_steps(2); // the click takes effect; the load then runs in the background
    finish_loading(&mut h);
    let app = h.state();
    assert!(app.errors.is_empty(), "a successful open clears the clash: {:?}", app.errors);
    let placed = &app.current.as_ref().unwrap().jobs;
    assert_eq!(
        placed.iter().map(|j| (j.name.as_str(), j.place.as_str())).collect::<Vec<_>>(),
        [("md", "as-recorded"), ("md-2", "random-switch:1")]
    );
    let fabric = app.ws.dataset.as_ref().unwrap().fabric.as_ref().unwrap();
    assert_eq!(fabric.jobs.len(), 2);
    let hosts = &fabric.cluster.hosts;
    let second: Vec<&str> = fabric.jobs[1].placement.iter().map(|&(_, h)| hosts[h].name.as_str()).collect();
    assert_eq!(second.len(), 64, "every rank placed");
    let first_hosts: Vec<String> = (1..=64).map(|i| format!("n{i:04}")).collect();
    assert!(second.iter().all(|h| !first_hosts.iter().any(|f| f == h)), "no host shared: {second:?}");
}
