//! File → Add profiles as jobs: the profiles picked, then a dialog that says where each new job
//! runs before the data set reopens: as recorded, linear, random node or random switch (with a
//! seed), or a host file (the placement policies of `--place`, `docs/formats/convert.md`). Jobs
//! never share a host: when the reopen fails on a host two jobs recorded, the dialog comes back
//! with the clash, so the new job can be placed elsewhere.

use std::path::PathBuf;

use crate::view_model::{JobRequest, OpenRequest};

impl super::ShoalApp {
    /// File → Add profiles as jobs…: the file dialog, whose answer opens the placement dialog.
    pub(super) fn jobs_dialog(&mut self, ctx: &egui::Context) {
        self.spawn_dialog(
            super::path_entry::Purpose::Jobs,
            || {
                rfd::FileDialog::new()
                    .set_title("Add profiles as jobs sharing the fabric")
                    .add_filter("ibprof profile", &["ibprof", "gz"])
                    .pick_files()
                    .map(super::Dialog::Jobs)
            },
            ctx,
        );
    }

    /// Profiles picked to join the open data set as jobs: asks where each runs.
    pub fn place_new_jobs(&mut self, profiles: &[PathBuf]) {
        match &self.current {
            Some(current) => self.place_jobs.start(current, profiles),
            None => self.errors.push("open rails before adding jobs".into()),
        }
    }
}

/// Where one job runs, as the dialog offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    AsRecorded,
    Linear,
    RandomNode,
    RandomSwitch,
    HostFile,
}

impl Policy {
    pub const ALL: [Policy; 5] =
        [Policy::AsRecorded, Policy::Linear, Policy::RandomNode, Policy::RandomSwitch, Policy::HostFile];

    /// The label of its radio button.
    pub fn label(self) -> &'static str {
        match self {
            Policy::AsRecorded => "as recorded",
            Policy::Linear => "linear (free hosts, leaf by leaf)",
            Policy::RandomNode => "random node",
            Policy::RandomSwitch => "random switch (whole leaves)",
            Policy::HostFile => "host file",
        }
    }
}

/// A new job waiting for its placement.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingJob {
    pub job: JobRequest,
    pub policy: Policy,
    pub seed: u64,
    pub host_file: String,
}

impl PendingJob {
    /// The `--place` text of the choice (`random-switch:7`, `hosts:FILE`).
    pub fn place(&self) -> String {
        match self.policy {
            Policy::AsRecorded => "as-recorded".into(),
            Policy::Linear => "linear".into(),
            Policy::RandomNode => format!("random-node:{}", self.seed),
            Policy::RandomSwitch => format!("random-switch:{}", self.seed),
            Policy::HostFile => format!("hosts:{}", self.host_file.trim()),
        }
    }
}

/// The dialog's state: the request the jobs join, the new jobs, and why the last try failed.
#[derive(Clone, Debug, Default)]
pub struct PlaceJobs {
    /// Open while `Some`.
    pub dialog: Option<Dialog>,
    /// The last jobs added, kept to offer them again if the reopen fails on a host clash.
    last: Option<Dialog>,
}

#[derive(Clone, Debug)]
pub struct Dialog {
    base: OpenRequest,
    pub jobs: Vec<PendingJob>,
    pub error: Option<String>,
}

impl PlaceJobs {
    /// Opens the dialog for `profiles` joining `current` (a profile opened alone becomes the
    /// first job, as recorded); names as [`super::recent::add_jobs`] gives them.
    pub fn start(&mut self, current: &OpenRequest, profiles: &[PathBuf]) {
        let mut base = current.clone();
        let before = if base.jobs.is_empty() && base.profile.is_some() { 1 } else { base.jobs.len() };
        let mut with = base.clone();
        super::recent::add_jobs(&mut with, profiles);
        base.jobs = with.jobs[..before].to_vec();
        base.profile = None;
        let jobs = with.jobs[before..]
            .iter()
            .map(|job| PendingJob {
                job: job.clone(),
                policy: Policy::AsRecorded,
                seed: 1,
                host_file: String::new(),
            })
            .collect();
        self.dialog = Some(Dialog { base, jobs, error: None });
    }

    /// After a failed open: a host clash brings the last jobs back with the error, to place them
    /// elsewhere.
    pub fn on_failure(&mut self, error: &str) {
        if error.contains("jobs never share a host")
            && let Some(mut last) = self.last.take()
        {
            last.error = Some(error.to_string());
            self.dialog = Some(last);
        }
    }

    /// Shows the dialog; the request to open once "Add jobs" is pressed.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<OpenRequest> {
        let dialog = self.dialog.as_mut()?;
        let mut keep_open = true;
        let mut add = false;
        egui::Window::new("Place the new jobs").open(&mut keep_open).collapsible(false).show(ctx, |ui| {
            if let Some(error) = &dialog.error {
                ui.colored_label(ui.visuals().warn_fg_color, error);
                ui.label("Place the new job elsewhere:");
            }
            for (k, pending) in dialog.jobs.iter_mut().enumerate() {
                job_ui(ui, k, pending);
            }
            add = ui.button("Add jobs").clicked();
        });
        if !keep_open {
            self.dialog = None;
            return None;
        }
        if !add {
            return None;
        }
        let dialog = self.dialog.take()?;
        let mut request = dialog.base.clone();
        request.jobs.extend(dialog.jobs.iter().map(|p| JobRequest { place: p.place(), ..p.job.clone() }));
        self.last = Some(Dialog { error: None, ..dialog });
        Some(request)
    }
}

/// One job's placement: a radio button per policy, the seed or host file where it needs one.
fn job_ui(ui: &mut egui::Ui, k: usize, pending: &mut PendingJob) {
    ui.push_id(("place job", k), |ui| {
        ui.strong(format!("{} ({})", pending.job.name, pending.job.profile.display()));
        for policy in Policy::ALL {
            ui.radio_value(&mut pending.policy, policy, policy.label());
        }
        match pending.policy {
            Policy::RandomNode | Policy::RandomSwitch => {
                ui.horizontal(|ui| {
                    let label = ui.label("seed");
                    ui.add(egui::DragValue::new(&mut pending.seed)).labelled_by(label.id);
                });
            }
            Policy::HostFile => {
                ui.horizontal(|ui| {
                    let label = ui.label("host file (one host per line)");
                    ui.text_edit_singleline(&mut pending.host_file).labelled_by(label.id);
                });
            }
            _ => {}
        }
        ui.separator();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_choice_is_the_place_text_of_the_command_line() {
        let job = JobRequest::from_profile(std::path::Path::new("io.ibprof"));
        let mut p = PendingJob { job, policy: Policy::AsRecorded, seed: 7, host_file: " h.txt ".into() };
        let places: Vec<String> = Policy::ALL
            .into_iter()
            .map(|policy| {
                p.policy = policy;
                p.place()
            })
            .collect();
        assert_eq!(places, ["as-recorded", "linear", "random-node:7", "random-switch:7", "hosts:h.txt"]);
    }

    #[test]
    fn a_profile_opened_alone_stays_the_first_job_and_the_new_ones_wait_for_a_place() {
        let rails = vec![vec![PathBuf::from("r0")]];
        let current = OpenRequest { profile: Some("md.ibprof".into()), ..OpenRequest::of_rails(rails) };
        let mut place = PlaceJobs::default();
        place.start(&current, &[PathBuf::from("md.ibprof"), PathBuf::from("io.ibprof")]);
        let dialog = place.dialog.as_ref().unwrap();
        let names = |jobs: &[JobRequest]| jobs.iter().map(|j| j.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&dialog.base.jobs), ["md"]);
        let pending: Vec<JobRequest> = dialog.jobs.iter().map(|p| p.job.clone()).collect();
        assert_eq!(names(&pending), ["md-2", "io"]);
        assert!(dialog.base.profile.is_none());
    }

    #[test]
    fn a_host_clash_brings_the_last_jobs_back_with_the_error_and_other_failures_do_not() {
        let mut place = PlaceJobs::default();
        place.start(&OpenRequest::of_rails(vec![vec![PathBuf::from("r0")]]), &[PathBuf::from("io.ibprof")]);
        place.last = place.dialog.take();
        place.on_failure("could not open x: file not found");
        assert!(place.dialog.is_none());
        place.on_failure("host n0001 is held by both job md and job io; jobs never share a host");
        let back = place.dialog.as_ref().expect("offered again");
        assert!(back.error.as_deref().is_some_and(|e| e.contains("n0001")));
    }
}
