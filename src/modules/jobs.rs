//! The jobs panel (issue 26): the scheduler's jobs from `--jobs-from` (or File → The fabric as
//! it ran…), each with its name, user, state, hosts, time range, footprint and how much of it
//! other footprints cross; buttons highlight a job's footprint, filter the focused view to it
//! (`job = NAME`), and list who shared its links (the jobs that overlapped it in time, ranked by
//! the observed bytes, then stall, on the link ends both footprints hold).

use egui::Ui;

use crate::modules::link_group::LinkGroup;
use crate::units::{format_bytes, format_epoch_micros};
use crate::view_model::dataset::Dataset;
use crate::view_model::dataset::scheduled::{ScheduledJob, contended_ends};
use crate::view_model::dataset::scheduled_tables::job_clause;
use crate::view_model::highlight::search;
use crate::view_model::shared_links::{SharedJob, shared_with};

use super::command::Command;
use super::workspace::View;

/// Rows listed at most (the rest are counted).
const SHOWN: usize = 500;

/// Panel state that survives frames: who shared the links of the job asked last, and each
/// job's contended ends, both for the data set of `generation`.
#[derive(Clone, Debug, Default)]
pub struct JobsPanelState {
    pub shared: Option<(usize, Vec<SharedJob>)>,
    contended: Vec<usize>,
    generation: Option<u64>,
}

/// The table of jobs and, after a "shared" click, who shared that job's links.
pub fn panel(
    ui: &mut Ui,
    state: &mut JobsPanelState,
    d: &Dataset,
    generation: u64,
    (view, group): (&View, &LinkGroup),
    commands: &mut Vec<Command>,
) {
    let Some(fabric) = d.fabric.as_ref().filter(|f| !f.scheduled.is_empty()) else {
        ui.label("no scheduler jobs: open with --jobs-from FILE (sacct --parsable2), or File → The fabric as it ran…");
        return;
    };
    if state.generation != Some(generation) {
        *state = JobsPanelState {
            contended: contended_ends(&fabric.cluster, &fabric.scheduled),
            generation: Some(generation),
            ..Default::default()
        };
    }
    let jobs = &fabric.scheduled;
    ui.heading(format!("scheduler jobs ({})", jobs.len()));
    ui.small("footprint: the link ends on the routes among the job's hosts; contended: those another job's footprint crosses too");
    // Above the table, which may run long.
    if let Some((at, list)) = &state.shared {
        shared_ui(ui, d, *at, list, group, commands);
        ui.separator();
    }
    // Two lines a job, buttons first, so a narrow panel shows everything without scrolling.
    for (i, job) in jobs.iter().enumerate().take(SHOWN) {
        ui.separator();
        job_row(ui, state, d, i, job, (view, group), commands);
    }
    if jobs.len() > SHOWN {
        ui.small(format!("… and {} more jobs", jobs.len() - SHOWN));
    }
}

/// One job's cells and its buttons.
fn job_row(
    ui: &mut Ui,
    state: &mut JobsPanelState,
    d: &Dataset,
    i: usize,
    job: &ScheduledJob,
    (view, group): (&View, &LinkGroup),
    commands: &mut Vec<Command>,
) {
    ui.horizontal(|ui| {
        if ui.small_button("footprint").on_hover_text("highlight its link ends and hosts").clicked() {
            let seeds = search(d, &format!("job {}", job.id));
            commands.push(Command::Highlight { group: group.id, seeds, add: false });
        }
        if let Some(clause) = job_clause(d, i)
            && ui.small_button("filter").on_hover_text(format!("the focused view keeps {clause}")).clicked()
        {
            let mut spec = view.spec.clone();
            spec.filter.clauses.retain(|c| c.attribute != "job" && c.attribute != "jobid");
            spec.filter.clauses.push(clause);
            commands.extend(Command::set_spec_if_changed(view.id, &view.spec, spec));
        }
        if ui.small_button("shared").on_hover_text("who shared its links").clicked() {
            let list = d.fabric.as_ref().map(|f| shared_with(f, i)).unwrap_or_default();
            state.shared = Some((i, list));
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.strong(&job.id);
        ui.label(&job.name);
        ui.label(&job.user);
        ui.label(&job.state);
    });
    let contended = state.contended.get(i).map_or("—".into(), ToString::to_string);
    ui.small(format!(
        "{} · {} – {} · {} link ends, {contended} contended",
        hosts_text(job),
        time(job.start),
        time(job.end),
        job.footprint.len()
    ))
    .on_hover_text(job.host_names.iter().take(100).cloned().collect::<Vec<_>>().join(" "));
}

/// Who shared the links of job `at`.
fn shared_ui(
    ui: &mut Ui,
    d: &Dataset,
    at: usize,
    list: &[SharedJob],
    group: &LinkGroup,
    commands: &mut Vec<Command>,
) {
    let Some(jobs) = d.fabric.as_ref().map(|f| &f.scheduled) else { return };
    let Some(mine) = jobs.get(at) else { return };
    ui.strong(format!("who shared the links of job {} ({})", mine.id, mine.name));
    if list.is_empty() {
        ui.label("no job that ran at the same time crosses a link end of its footprint");
        return;
    }
    ui.small("the jobs that overlapped it in time, the most observed bytes (then stall) on the shared link ends first");
    for s in list {
        let Some(other) = jobs.get(s.job) else { continue };
        ui.horizontal_wrapped(|ui| {
            if ui.small_button("footprint").clicked() {
                let seeds = search(d, &format!("job {}", other.id));
                commands.push(Command::Highlight { group: group.id, seeds, add: false });
            }
            ui.strong(&other.id);
            ui.label(&other.name);
            ui.label(&other.user);
        });
        ui.small(format!(
            "{} shared link ends · together {} – {} · {} there · {} XmitWait ticks",
            s.shared_ends,
            time(Some(s.overlap.0)),
            time(Some(s.overlap.1)),
            s.bytes.map_or("no counters, so no bytes".into(), format_bytes),
            s.stall_ticks.map_or("no".into(), |t| t.to_string())
        ));
    }
}

/// `8 hosts: n0001 … n0008`; hosts outside the fabric are counted.
fn hosts_text(job: &ScheduledJob) -> String {
    let names = &job.host_names;
    let mut text = match names.as_slice() {
        [] => "no hosts".to_string(),
        [one] => format!("1 host: {one}"),
        [first, .., last] => format!("{} hosts: {first} … {last}", names.len()),
    };
    let outside = names.len() - job.hosts.len().min(names.len());
    if outside > 0 {
        text.push_str(&format!(" ({outside} not in the fabric)"));
    }
    text
}

/// A Unix time as a UTC date and time; `…` when unknown (still running, or never started).
fn time(t: Option<f64>) -> String {
    t.filter(|t| t.is_finite()).map_or_else(|| "…".into(), |t| format_epoch_micros((t * 1e6) as i64))
}
