//! Opening runs (a Boxfish `*_meta.yaml`, a CSV pair, or a folder holding one) into the same
//! workspace as fabrics, and telling them from fabric dumps.

use std::path::{Path, PathBuf};

pub use crate::load::is_run_path;

use super::ShoalApp;

/// Loads a run (on the UI thread: a run of Boxfish's `bgpc` size reads in milliseconds) and
/// shows it; a failure keeps what is on screen and says why.
pub fn open_run(app: &mut ShoalApp, path: &Path) {
    match crate::load::load_run_dataset(path) {
        Ok(dataset) => {
            app.current = None;
            app.show(dataset);
        }
        // The error names the run's path once (`cannot read the run x_meta.yaml: …`).
        Err(e) => app.errors.push(e.to_string()),
    }
}

/// File → Open run…: a file dialog on its own thread.
pub(super) fn open_dialog(app: &mut ShoalApp, ctx: &egui::Context) {
    app.spawn_dialog(
        super::path_entry::Purpose::Run,
        || {
            rfd::FileDialog::new()
                .set_title("Open a run: a Boxfish *_meta.yaml or a nodes.csv")
                .add_filter("Boxfish meta or CSV pair", &["yaml", "yml", "csv", "gz"])
                .pick_file()
                .map(super::Dialog::Run)
        },
        ctx,
    );
}

/// `shoal PATH… [--profile P | --loads FILE | --job NAME=PROFILE …]` with no subcommand: a run
/// opens in its module, anything else as rails, with the profile, loads file or jobs given,
/// laid out as `--hca-planes` says.
pub fn run_paths(
    paths: Vec<PathBuf>,
    profile: Option<PathBuf>,
    loads: Option<PathBuf>,
    jobs: Vec<crate::pipeline::JobSpec>,
    counters: Vec<crate::pipeline::CounterSpec>,
    hca_planes: crate::layout::HcaPlanes,
) -> anyhow::Result<()> {
    match paths.first() {
        Some(p) if is_run_path(p) && jobs.is_empty() => {
            let path = p.clone();
            super::run_with(None, move |app| open_run(app, &path))
        }
        _ => {
            let mut request = super::recent::request_from_paths(&paths, None);
            if let Some(r) = request.as_mut() {
                r.layout.hca_planes = hca_planes;
                if !jobs.is_empty() {
                    (r.profile, r.loads, r.jobs) = (None, None, jobs);
                } else if profile.is_some() {
                    (r.profile, r.loads) = (profile, None);
                } else if loads.is_some() {
                    (r.profile, r.loads) = (None, loads);
                }
                r.counters = counters;
            }
            super::run(request)
        }
    }
}
