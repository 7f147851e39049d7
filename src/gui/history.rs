//! File → The fabric as it ran…: a dialog for counters from Prometheus over a range — typed,
//! or a scheduler job's range picked from the jobs open — and a Slurm accounting file (issue
//! 26). It reopens the rails open now with the request's `prometheus` and `jobs_from`, as the
//! command line's `--prometheus URL --from T --to T --step D --jobs-from FILE` would.

use std::path::PathBuf;

use crate::profile_io::prometheus_api::time::{parse_duration, parse_time, rfc3339_of};
use crate::view_model::dataset::scheduled::ScheduledJob;
use crate::view_model::{OpenRequest, PrometheusRequest};

/// The dialog's fields, as typed.
#[derive(Clone, Debug, Default)]
pub struct HistoryDialog {
    /// Open while true.
    pub open: bool,
    pub url: String,
    pub from: String,
    pub to: String,
    pub step: String,
    pub jobs_from: String,
    /// The job whose range was picked last, by JobID.
    pub job: Option<String>,
}

impl HistoryDialog {
    /// Opens the dialog with what `current` asked last, if anything.
    pub fn start(&mut self, current: Option<&OpenRequest>) {
        let asked = current.and_then(|c| c.prometheus.clone());
        if let Some(p) = asked {
            (self.url, self.from, self.to) = (p.url, p.from, p.to);
            self.step = p.step.unwrap_or_default();
        }
        if self.url.is_empty() {
            self.url = "http://127.0.0.1:9090".into();
        }
        if self.step.is_empty() {
            self.step = "60s".into();
        }
        if let Some(path) = current.and_then(|c| c.jobs_from.as_ref()) {
            self.jobs_from = path.display().to_string();
        }
        self.open = true;
    }

    /// What the fields ask, over `current`, or why not yet (shown under the fields).
    pub fn request(&self, current: Option<&OpenRequest>) -> Result<OpenRequest, String> {
        let current = current.filter(|c| !c.rails.is_empty()).ok_or("open fabric dumps (rails) first")?;
        let mut request = current.clone();
        let step = self.step.trim();
        let prometheus = PrometheusRequest {
            url: self.url.trim().to_string(),
            from: self.from.trim().to_string(),
            to: self.to.trim().to_string(),
            step: (!step.is_empty()).then(|| step.to_string()),
        };
        let wanted = !(prometheus.url.is_empty() || (prometheus.from.is_empty() && prometheus.to.is_empty()));
        request.prometheus = if wanted {
            let range = prometheus.range()?;
            if range.to <= range.from {
                return Err("the range is empty: To must come after From".into());
            }
            // The server's range replaces counter files open now: the two make no one series
            // (see `view_model::open`), and this dialog asks for the server's counters.
            request.counters.clear();
            Some(prometheus)
        } else {
            None
        };
        let jobs_from = self.jobs_from.trim();
        request.jobs_from = (!jobs_from.is_empty()).then(|| PathBuf::from(jobs_from));
        if request.prometheus.is_none() && request.jobs_from.is_none() {
            return Err("give a server and a range, or a sacct file".into());
        }
        Ok(request)
    }

    /// Takes a job's range: From its start, To its end (a job still running: to its start plus
    /// a day, to edit).
    pub fn pick(&mut self, job: &ScheduledJob) {
        let Some(start) = job.start else { return };
        self.from = rfc3339_of(start);
        self.to = rfc3339_of(job.end.unwrap_or(start + 86_400.0));
        self.job = Some(job.id.clone());
    }

    /// Shows the dialog; the request to open once "Open" is pressed.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        current: Option<&OpenRequest>,
        jobs: &[ScheduledJob],
    ) -> Option<OpenRequest> {
        if !self.open {
            return None;
        }
        let mut keep_open = true;
        let mut go = false;
        let asked = self.request(current);
        let window = egui::Window::new("The fabric as it ran").open(&mut keep_open).collapsible(false);
        window.default_pos([420.0, 120.0]).show(ctx, |ui| {
            ui.strong("Counters from Prometheus");
            egui::Grid::new("prometheus fields").num_columns(3).show(ui, |ui| {
                field(ui, "server", &mut self.url, "", None);
                field(ui, "from", &mut self.from, "RFC 3339 or Unix seconds", Some(check_time));
                field(ui, "to", &mut self.to, "RFC 3339 or Unix seconds", Some(check_time));
                field(ui, "step", &mut self.step, "60s, 5m, 1h", Some(check_step));
            });
            if !jobs.is_empty() {
                self.job_picker(ui, jobs);
            }
            ui.separator();
            ui.strong("Jobs from Slurm");
            ui.horizontal(|ui| {
                let label = ui.label("sacct --parsable2 file");
                ui.add_sized([300.0, 20.0], egui::TextEdit::singleline(&mut self.jobs_from))
                    .labelled_by(label.id);
            });
            ui.separator();
            match &asked {
                Ok(_) => go = ui.button("Open").clicked(),
                Err(why) => {
                    ui.add_enabled(false, egui::Button::new("Open"));
                    ui.colored_label(ui.visuals().warn_fg_color, why);
                }
            }
        });
        self.open = keep_open && !go;
        if go { asked.ok() } else { None }
    }

    /// A job's range, picked from the jobs open.
    fn job_picker(&mut self, ui: &mut egui::Ui, jobs: &[ScheduledJob]) {
        let shown = self.job.clone().unwrap_or_else(|| "pick a job…".into());
        ui.horizontal(|ui| {
            ui.label("or a job's range");
            egui::ComboBox::from_id_salt("job range").selected_text(shown).show_ui(ui, |ui| {
                for job in jobs.iter().filter(|j| j.start.is_some()) {
                    let text = format!("{} {} ({}) {}", job.id, job.name, job.user, job.state);
                    if ui.selectable_label(self.job.as_deref() == Some(job.id.as_str()), text).clicked() {
                        self.pick(job);
                    }
                }
            });
        });
    }
}

/// One labelled field, with what it reads as (or why not) beside it.
type Check = fn(&str) -> Result<String, String>;

fn field(ui: &mut egui::Ui, name: &str, text: &mut String, hint: &str, check: Option<Check>) {
    let label = ui.label(name);
    ui.add_sized([260.0, 20.0], egui::TextEdit::singleline(text).hint_text(hint)).labelled_by(label.id);
    match check.map(|check| check(text)) {
        Some(Ok(reading)) => ui.weak(reading),
        Some(Err(why)) => ui.colored_label(ui.visuals().warn_fg_color, why),
        None => ui.label(""),
    };
    ui.end_row();
}

/// What a time field reads as, in UTC.
fn check_time(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Ok(String::new());
    }
    parse_time(text).map(rfc3339_of)
}

/// What a step field reads as, in seconds.
fn check_step(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Ok(String::new());
    }
    parse_duration(text).map(|s| format!("{s} s"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rails() -> OpenRequest {
        OpenRequest::of_rails(vec![vec!["r0".into()]])
    }

    #[test]
    fn the_fields_become_the_command_lines_request() {
        let mut d = HistoryDialog::default();
        d.start(Some(&rails()));
        (d.from, d.to) = ("2023-11-14T22:13:20Z".into(), "1700003600".into());
        d.jobs_from = " sacct.txt ".into();
        let request = d.request(Some(&rails())).unwrap();
        let p = request.prometheus.unwrap();
        assert_eq!((p.url.as_str(), p.step.as_deref()), ("http://127.0.0.1:9090", Some("60s")));
        assert_eq!(request.jobs_from, Some(PathBuf::from("sacct.txt")));
        assert_eq!(request.rails, rails().rails);
    }

    #[test]
    fn a_range_replaces_the_counter_files_open_now_and_a_sacct_file_alone_keeps_them() {
        let files = OpenRequest {
            counters: vec![crate::view_model::CounterSpec { rail: None, path: "after.txt".into() }],
            ..rails()
        };
        let mut d = HistoryDialog::default();
        d.start(Some(&files));
        (d.from, d.to) = ("1700000000".into(), "1700003600".into());
        let request = d.request(Some(&files)).unwrap();
        assert!(request.prometheus.is_some() && request.counters.is_empty(), "one source of counters");
        (d.from, d.to, d.jobs_from) = (String::new(), String::new(), "sacct.txt".into());
        assert_eq!(d.request(Some(&files)).unwrap().counters, files.counters);
    }

    #[test]
    fn a_bad_time_an_empty_range_or_no_rails_say_why_nothing_opens() {
        let mut d = HistoryDialog::default();
        d.start(None);
        (d.from, d.to) = ("yesterday".into(), "1700003600".into());
        assert_eq!(d.request(None).unwrap_err(), "open fabric dumps (rails) first");
        assert!(d.request(Some(&rails())).unwrap_err().starts_with("--from: `yesterday`"));
        d.from = "1700003600".into();
        assert!(d.request(Some(&rails())).unwrap_err().contains("range is empty"));
    }

    #[test]
    fn picking_a_job_takes_its_range() {
        let job = ScheduledJob {
            id: "5001".into(),
            name: "md".into(),
            user: "u".into(),
            state: "COMPLETED".into(),
            start: Some(1_700_000_000.0),
            end: Some(1_700_003_600.0),
            hosts: Vec::new(),
            host_names: Vec::new(),
            footprint: Default::default(),
        };
        let mut d = HistoryDialog::default();
        d.pick(&job);
        assert_eq!((d.from.as_str(), d.to.as_str()), ("2023-11-14T22:13:20Z", "2023-11-14T23:13:20Z"));
    }
}
