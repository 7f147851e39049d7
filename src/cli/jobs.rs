//! `shoal jobs RAIL… --jobs-from FILE [--prometheus URL --from T --to T] [--shared-with JOB]`:
//! the scheduler's jobs on the fabric — hosts, time range, footprint (link ends on the routes
//! among their hosts) and how many of those ends other jobs' footprints also cross — and, for
//! one job, who shared its links: the jobs that overlapped it in time, ranked by the observed
//! bytes and stall on the ends their footprints share with it (issue 26).
//!
//! The JSON is one object: `jobs` (each with `job`, `name`, `user`, `state`, `start`, `end`,
//! `hosts`, `footprint_ends`, `contended_ends`) and, with --shared-with, `shared_with` (`job`
//! and `jobs`, each with `job`, `name`, `user`, `shared_ends`, `from`, `to`, `bytes`,
//! `stall_ticks`). Times are RFC 3339 UTC, null when unknown.

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::{Value, json};
use shoal::profile_io::prometheus_api::time::rfc3339_of;
use shoal::view_model::dataset::FabricData;
use shoal::view_model::dataset::scheduled::{ScheduledJob, contended_ends};
use shoal::view_model::shared_links::{SharedJob, shared_with};

use super::common::{report_counters, report_warnings};
use super::open_args::OpenArgs;

#[derive(Args, Debug)]
pub struct JobsArgs {
    #[command(flatten)]
    pub open: OpenArgs,
    /// One job's JobID: list the jobs that overlapped it in time and share link ends with its
    /// footprint, the most observed bytes (then stall) on those ends first.
    #[arg(long, value_name = "JOB")]
    pub shared_with: Option<String>,
    /// Print one JSON object (`jobs`, and `shared_with` with --shared-with) instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &JobsArgs) -> Result<()> {
    if args.open.history.jobs_from.is_none() {
        bail!("jobs needs --jobs-from FILE (sacct --parsable2 output)");
    }
    let request = args.open.request()?;
    let dataset = shoal::view_model::open(&request, &|_| {})?;
    report_warnings(&dataset.warnings, args.open.verbose);
    let fabric = dataset.fabric.context("jobs needs fabric dumps")?;
    report_counters(&fabric);
    let contended = contended_ends(&fabric.cluster, &fabric.scheduled);
    let shared = match &args.shared_with {
        Some(id) => {
            let Some(at) = fabric.scheduled.iter().position(|j| j.id == *id) else {
                let known: Vec<&str> = fabric.scheduled.iter().take(20).map(|j| j.id.as_str()).collect();
                bail!("--shared-with {id}: no such job in --jobs-from (jobs: {})", known.join(", "));
            };
            Some((at, shared_with(&fabric, at)))
        }
        None => None,
    };
    let text = if args.json {
        serde_json::to_string_pretty(&to_json(&fabric, &contended, shared.as_ref()))? + "\n"
    } else {
        to_text(&fabric, &contended, shared.as_ref())
    };
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        // `shoal jobs … | head` closes the pipe early: that is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

fn time(t: Option<f64>) -> Value {
    t.filter(|t| t.is_finite()).map_or(Value::Null, |t| Value::String(rfc3339_of(t)))
}

fn time_text(t: Option<f64>) -> String {
    t.filter(|t| t.is_finite()).map_or_else(|| "-".into(), rfc3339_of)
}

fn to_json(fabric: &FabricData, contended: &[usize], shared: Option<&(usize, Vec<SharedJob>)>) -> Value {
    let jobs: Vec<Value> = (fabric.scheduled.iter().zip(contended))
        .map(|(j, c)| {
            json!({
                "job": j.id, "name": j.name, "user": j.user, "state": j.state,
                "start": time(j.start), "end": time(j.end), "hosts": j.host_names,
                "footprint_ends": j.footprint.len(), "contended_ends": c,
            })
        })
        .collect();
    let mut out = json!({ "jobs": jobs });
    if let Some((at, list)) = shared {
        let rows: Vec<Value> = list
            .iter()
            .map(|s| {
                let j: &ScheduledJob = &fabric.scheduled[s.job];
                json!({
                    "job": j.id, "name": j.name, "user": j.user, "shared_ends": s.shared_ends,
                    "from": time(Some(s.overlap.0)), "to": time(Some(s.overlap.1)),
                    "bytes": s.bytes, "stall_ticks": s.stall_ticks,
                })
            })
            .collect();
        out["shared_with"] = json!({ "job": fabric.scheduled[*at].id, "jobs": rows });
    }
    out
}

fn to_text(fabric: &FabricData, contended: &[usize], shared: Option<&(usize, Vec<SharedJob>)>) -> String {
    let mut out = format!(
        "{:<10} {:<14} {:<8} {:<10} {:<20} {:<20} {:>5} {:>10} {:>9}\n",
        "job", "name", "user", "state", "start", "end", "hosts", "footprint", "contended"
    );
    for (j, c) in fabric.scheduled.iter().zip(contended) {
        out.push_str(&format!(
            "{:<10} {:<14} {:<8} {:<10} {:<20} {:<20} {:>5} {:>10} {:>9}\n",
            j.id,
            j.name,
            j.user,
            j.state,
            time_text(j.start),
            time_text(j.end),
            j.host_names.len(),
            j.footprint.len(),
            c
        ));
    }
    let Some((at, list)) = shared else { return out };
    let mine = &fabric.scheduled[*at];
    out.push_str(&format!("\nwho shared the links of job {} ({}):\n", mine.id, mine.name));
    if list.is_empty() {
        out.push_str("  no job that overlapped it in time shares a link end with its footprint\n");
    }
    for s in list {
        let j = &fabric.scheduled[s.job];
        let bytes = s.bytes.map_or_else(|| "- (no counters)".into(), shoal::units::format_bytes);
        let stall = s.stall_ticks.map_or_else(|| "-".into(), |t| t.to_string());
        out.push_str(&format!(
            "  {:<10} {:<14} {:<8} {:>5} shared ends  {:>12}  stall {:>10} ticks  {} .. {}\n",
            j.id,
            j.name,
            j.user,
            s.shared_ends,
            bytes,
            stall,
            time_text(Some(s.overlap.0)),
            time_text(Some(s.overlap.1))
        ));
    }
    out
}
