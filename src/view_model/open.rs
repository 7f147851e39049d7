//! The one way in: [`open`] turns an [`OpenRequest`] into a [`Dataset`] with its warnings —
//! rails with a profile, jobs or a loads file (traced and laid out), or a run (Boxfish meta
//! file, CSV pair) — reporting progress for the window's background loader.

use std::path::Path;

use crate::model::{Cluster, HostMap, Warning};

use crate::profile_io::ParseError;
use crate::routing::placement::ParsedPolicy;
use crate::routing::{LoadOptions, Observed, PlacementPolicy, RailPolicy};
use crate::view_model::dataset::Dataset;

use super::assemble::{from_analysis, from_jobs, name_of};
use super::request::{JobRequest, OpenRequest, RoutingMode};
use super::trace::{self, JobSpec};

/// A loading stage and how far along the whole load is (0..=1).
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub fraction: f32,
    pub stage: String,
}

/// Why nothing could be opened (a partial success returns the data set and its warnings).
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("nothing to open: no rail given")]
    NoRails,
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Jobs(#[from] trace::JobsError),
    #[error(transparent)]
    Run(#[from] RunError),
    /// The request contradicts itself or the files (named in the message).
    #[error("{0}")]
    Request(String),
}

/// Opens what the request names. Only region `only_region` (and the total) is traced when given
/// (`hot --region N` on a long time loop); everything else traces every region.
pub fn open(request: &OpenRequest, progress: &dyn Fn(Progress)) -> Result<Dataset, OpenError> {
    open_regions(request, None, progress)
}

/// [`open`], tracing only one region and the total when `only_region` is given.
pub fn open_regions(
    request: &OpenRequest,
    only_region: Option<u32>,
    progress: &dyn Fn(Progress),
) -> Result<Dataset, OpenError> {
    let stage = |fraction: f32, stage: &str| progress(Progress { fraction, stage: stage.into() });
    if let Some(run) = &request.run {
        check_run_alone(request, run)?;
        stage(0.05, "reading the run");
        let dataset = load_run_dataset(run)?;
        stage(1.0, "done");
        return Ok(dataset);
    }
    if request.rails.is_empty() {
        return Err(OpenError::NoRails);
    }
    check_rail_policy(request.rail_policy, request.rails.len())?;
    check_one_counter_source(request)?;
    let (mut options, mut warnings) = load_options(request)?;
    options.only_region = only_region;
    let jobs = request.job_requests();
    let mut dataset = if jobs.is_empty() {
        stage(0.05, "reading the dumps and the profile, tracing every region");
        let analysis = trace::analyse_inputs(
            &request.rail_paths(),
            (request.profile.as_deref(), request.loads.as_deref()),
            &options,
            &request.layout(),
        )?;
        let observed = read_counters(request, &analysis.cluster, &stage)?;
        stage(0.8, "collecting who sent what");
        with_observed(from_analysis(name_of(request), analysis, &options.host_map), observed)
    } else {
        if request.loads.is_some() {
            return Err(OpenError::Request(
                "--loads shows loads already traced; --job and --place need profiles".into(),
            ));
        }
        stage(0.05, "reading the dumps and every job's profile, placing and tracing each job");
        let specs = jobs.iter().map(job_spec).collect::<Result<Vec<_>, _>>()?;
        let analysis = trace::analyse_jobs(&request.rail_paths(), &specs, &options, &request.layout())?;
        let observed = read_counters(request, &analysis.cluster, &stage)?;
        stage(0.8, "collecting who sent what, job by job");
        with_observed(from_jobs(name_of(request), analysis), observed)
    };
    if let Some(path) = &request.jobs_from {
        stage(0.9, "placing the scheduler's jobs and tracing their footprints");
        let (jobs, more) = crate::profile_io::slurm::read_sacct(path)?;
        warnings.extend(more);
        dataset = dataset.with_scheduled(jobs, &path.display().to_string());
    }
    warnings.append(&mut dataset.warnings);
    dataset.warnings = warnings;
    dataset.routing = routing_shown(request, &mut dataset);
    stage(1.0, "done");
    Ok(dataset)
}

/// The request's routing mode, where the dumps can show it: AR asked of dumps without
/// adaptive-routing tables is a warning, and the views show the static trace.
fn routing_shown(request: &OpenRequest, dataset: &mut Dataset) -> RoutingMode {
    let has_ar = dataset.fabric.as_ref().is_some_and(|f| f.ar_loads.is_some());
    if request.routing == RoutingMode::Ar && !has_ar {
        dataset.warnings.push(Warning::in_file(
            "--routing ar",
            "AR was asked for, but the dumps hold no adaptive-routing tables (ibdiagnet2.far); \
             the views show the static forwarding tables",
        ));
        return RoutingMode::Static;
    }
    request.routing
}

/// A run has no rails, profile, jobs, loads or counters: those belong to fabric dumps.
fn check_run_alone(request: &OpenRequest, run: &Path) -> Result<(), OpenError> {
    let fabric_only = !request.rails.is_empty()
        || request.profile.is_some()
        || request.loads.is_some()
        || !request.jobs.is_empty()
        || !request.counters.is_empty()
        || request.prometheus.is_some()
        || request.jobs_from.is_some()
        || request.host_map.is_some();
    if fabric_only {
        return Err(OpenError::Request(format!(
            "--profile, --loads, --job, --counters, --prometheus, --jobs-from and --host-map belong to fabric dumps, not to a run ({})",
            run.display()
        )));
    }
    Ok(())
}

/// The request's rail policy and host map as the tracer takes them, with the map's warnings.
fn load_options(request: &OpenRequest) -> Result<(LoadOptions, Vec<Warning>), OpenError> {
    let (host_map, warnings) = match &request.host_map {
        Some(path) => crate::profile_io::host_map::read_host_map(path)
            .map_err(|e| OpenError::Request(format!("reading --host-map {}: {e}", path.display())))?,
        None => (HostMap::default(), Vec::new()),
    };
    Ok((LoadOptions { policy: request.rail_policy, host_map, only_region: None }, warnings))
}

/// `rail:N` names one of the rails given: otherwise every rank-level byte would be unplaced and
/// the open would still succeed (issue 16).
fn check_rail_policy(policy: RailPolicy, rails: usize) -> Result<(), OpenError> {
    if let RailPolicy::Rail(n) = policy
        && usize::from(n) >= rails
    {
        return Err(OpenError::Request(format!(
            "--rail-policy rail:{n}, but {rails} rail{} given (rails are numbered from 0, in the order given)",
            if rails == 1 { " was" } else { "s were" }
        )));
    }
    Ok(())
}

/// A job as the tracer takes it: its placement parsed, a `hosts:FILE` list read.
fn job_spec(job: &JobRequest) -> Result<JobSpec, OpenError> {
    let bad = |e: String| OpenError::Request(format!("--place {}={}: {e}", job.name, job.place));
    let place = match PlacementPolicy::parse(&job.place).map_err(bad)? {
        ParsedPolicy::Ready(policy) => policy,
        ParsedPolicy::HostsFile(path) => PlacementPolicy::Hosts(read_host_list(Path::new(&path))?),
    };
    Ok(JobSpec { name: job.name.clone(), profile: job.profile.clone(), place })
}

/// One host name per line (the first word); blank lines and `#` comments are skipped.
fn read_host_list(path: &Path) -> Result<Vec<String>, OpenError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| OpenError::Request(format!("reading the host list {}: {e}", path.display())))?;
    let hosts: Vec<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap_or(l).to_string())
        .collect();
    if hosts.is_empty() {
        return Err(OpenError::Request(format!("the host list {} names no host", path.display())));
    }
    Ok(hosts)
}

/// The request's counters joined to the cluster's link ends, if it names any: a Prometheus
/// range folded into the history's columns, or the counter files' snapshots.
fn read_counters(
    request: &OpenRequest,
    cluster: &Cluster,
    stage: &dyn Fn(f32, &str),
) -> Result<Option<(Observed, Vec<Warning>)>, OpenError> {
    if let Some(prometheus) = &request.prometheus {
        stage(0.65, "querying Prometheus");
        let range = prometheus.range().map_err(OpenError::Request)?;
        return Ok(Some(super::open_history::fold_range(cluster, &range)?));
    }
    if request.counters.is_empty() {
        return Ok(None);
    }
    stage(0.7, "reading the port counters");
    Ok(Some(trace::read_observed(cluster, &request.counters)?))
}

/// Counter files and a Prometheus range are two sources of the same port counters, and no
/// sound series is made of both: the server's steps lie on its grid, a file's snapshot at
/// whatever time it was taken (often unknown), and snapshots pair port by port in the order
/// given, so mixing them would difference a file against a step of another time and divide
/// by the wrong interval. One source is asked for, before anything is read.
fn check_one_counter_source(request: &OpenRequest) -> Result<(), OpenError> {
    if request.prometheus.is_some() && !request.counters.is_empty() {
        return Err(OpenError::Request(
            "--counters and --prometheus both give port counters: give one of them (the server's \
             steps and the files' snapshots are taken at different times, so they make no one \
             series); the range alone covers every port its exporters scrape"
                .into(),
        ));
    }
    Ok(())
}

/// `dataset` with the observed counters as link-end values, and their warnings.
fn with_observed(mut dataset: Dataset, observed: Option<(Observed, Vec<Warning>)>) -> Dataset {
    let Some((observed, warnings)) = observed else { return dataset };
    dataset.warnings.extend(warnings);
    dataset.with_counters(observed)
}

/// Why a run could not be read. The path is said once: the reader's error usually starts with
/// it already (`x_meta.yaml: …`), and the reader's error is part of the message, not a `source`,
/// so an error-chain printer does not repeat it either.
#[derive(Debug)]
pub struct RunError {
    pub path: String,
    pub error: ParseError,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let error = self.error.to_string();
        if error.starts_with(&self.path) {
            write!(f, "cannot read the run {error}")
        } else {
            write!(f, "cannot read the run {}: {error}", self.path)
        }
    }
}

impl std::error::Error for RunError {}

/// A run (a Boxfish `*_meta.yaml`, a CSV pair or a folder holding one) as a data set.
fn load_run_dataset(path: &Path) -> Result<Dataset, RunError> {
    let (run, warnings) = crate::profile_io::runs::load_run(path)
        .map_err(|error| RunError { path: path.display().to_string(), error })?;
    Ok(Dataset::from_run(run, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::request::{PrometheusRequest, RailRequest};
    use crate::view_model::trace::CounterSpec;

    #[test]
    fn counter_files_beside_a_prometheus_range_are_refused_before_anything_is_read() {
        let request = OpenRequest {
            // Neither path exists: the refusal comes first, naming both flags.
            rails: vec![RailRequest { paths: vec!["/nonexistent/rail0".into()] }],
            counters: vec![CounterSpec { rail: None, path: "/nonexistent/after.txt".into() }],
            prometheus: Some(PrometheusRequest {
                url: "http://127.0.0.1:1".into(),
                from: "0".into(),
                to: "60".into(),
                step: None,
            }),
            ..Default::default()
        };
        let error = open(&request, &|_| {}).expect_err("both sources are refused");
        let text = error.to_string();
        assert!(matches!(error, OpenError::Request(_)), "{text}");
        assert!(text.contains("--counters") && text.contains("--prometheus"), "{text}");
    }
}
