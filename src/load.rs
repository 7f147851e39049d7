//! Loading files into an app data set, above the scene layer: rails and a profile through
//! [`crate::pipeline`] (reporting progress, for the GUI's background loader and `shoal render`),
//! or a run (Boxfish meta file, CSV pair) through [`crate::profile_io::runs`].

use std::collections::BTreeMap;
use std::path::PathBuf;

use rayon::prelude::*;

use crate::layout::FatTreeOptions;
use crate::model::{Cluster, Warning};
use crate::pipeline::{self, Analysis, JobSpec, JobsAnalysis, ProfileAnalysis};
use crate::routing::{FlowSet, LoadOptions, Loads, Observed, RegionKey};
use crate::scene::dataset::{Attribution, Dataset, DatasetJob};

/// What to open: one path list per rail, and a profile, or several jobs (issue 12).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadRequest {
    pub rails: Vec<Vec<PathBuf>>,
    pub profile: Option<PathBuf>,
    /// How the fabric is laid out (`--hca-planes`).
    pub layout: FatTreeOptions,
    /// A loads file (`--loads`): link-end loads collected in situ, shown instead of a profile's.
    pub loads: Option<PathBuf>,
    /// Jobs sharing the fabric; when given, `profile` (if any) is one of them, named after its
    /// file, listed first.
    pub jobs: Vec<JobSpec>,
    /// Port-counter files (`--counters`): one as they stand, two per rail as after − before.
    pub counters: Vec<pipeline::CounterSpec>,
}

impl LoadRequest {
    /// Every job the request names, `profile` included (empty: at most one plain profile).
    pub fn job_specs(&self) -> Vec<JobSpec> {
        if self.jobs.is_empty() {
            return Vec::new();
        }
        let first = self.profile.as_deref().map(JobSpec::from_profile);
        first.into_iter().chain(self.jobs.iter().cloned()).collect()
    }
}

/// A loading stage and how far along the whole load is (0..=1).
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub fraction: f32,
    pub stage: String,
}

/// Why nothing could be loaded (a partial success returns the data set and its warnings).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("nothing to open: no rail given")]
    NoRails,
    #[error(transparent)]
    Parse(#[from] crate::profile_io::ParseError),
    #[error(transparent)]
    Jobs(#[from] crate::pipeline::JobsError),
}

/// Loads the rails and the profile, traces every region, lays the fabric out, and rebuilds the
/// flows of each region with their origins (for the "who crossed this link end" table).
pub fn load_dataset(request: &LoadRequest, progress: &dyn Fn(Progress)) -> Result<Dataset, LoadError> {
    if request.rails.is_empty() {
        return Err(LoadError::NoRails);
    }
    let stage = |fraction: f32, stage: &str| progress(Progress { fraction, stage: stage.into() });
    let specs = request.job_specs();
    if !specs.is_empty() {
        stage(0.05, "reading the dumps and every job's profile, placing and tracing each job");
        let analysis = pipeline::analyse_jobs_with_layout(
            &request.rails,
            &specs,
            &LoadOptions::default(),
            &request.layout,
        )?;
        let observed = read_counters(request, &analysis.cluster, &stage)?;
        stage(0.8, "collecting who sent what, job by job");
        let dataset = with_observed(from_jobs(name_of(request), analysis), observed);
        stage(1.0, "done");
        return Ok(dataset);
    }
    stage(0.05, "reading the dumps and the profile, tracing every region");
    let analysis = pipeline::analyse_inputs_with_layout(
        &request.rails,
        (request.profile.as_deref(), request.loads.as_deref()),
        &LoadOptions::default(),
        &request.layout,
    )?;
    let observed = read_counters(request, &analysis.cluster, &stage)?;
    stage(0.8, "collecting who sent what");
    let flows = flows_of(&analysis);
    let dataset = with_observed(from_analysis(name_of(request), analysis, flows), observed);
    stage(1.0, "done");
    Ok(dataset)
}

/// The request's counter snapshots joined to the cluster's link ends, if it names any.
fn read_counters(
    request: &LoadRequest,
    cluster: &Cluster,
    stage: &dyn Fn(f32, &str),
) -> Result<Option<(Observed, Vec<Warning>)>, LoadError> {
    if request.counters.is_empty() {
        return Ok(None);
    }
    stage(0.7, "reading the port counters");
    Ok(Some(pipeline::read_observed(cluster, &request.counters)?))
}

/// `dataset` with the observed counters as link-end values, and their warnings.
fn with_observed(mut dataset: Dataset, observed: Option<(Observed, Vec<Warning>)>) -> Dataset {
    let Some((observed, warnings)) = observed else { return dataset };
    dataset.warnings.extend(warnings);
    dataset.with_counters(observed)
}

/// A data set from a pipeline analysis (its layout is kept).
pub fn from_analysis(name: String, analysis: Analysis, flows: BTreeMap<RegionKey, FlowSet>) -> Dataset {
    let Analysis { cluster, layout, profile, loads_file, warnings } = analysis;
    let (profile, loads, top_k) = match (profile, loads_file) {
        (Some(p), _) => (Some(p.profile), p.loads, None),
        (None, Some(l)) => (None, l.loads, Some(l.top_k)),
        (None, None) => (None, Loads::default(), None),
    };
    let mut dataset = Dataset::with_layout(name, cluster, layout, profile, loads, flows, warnings);
    if let Some(fabric) = dataset.fabric.as_mut() {
        fabric.attribution = match top_k {
            None => Attribution::Flows,
            Some(None) => Attribution::None,
            Some(Some(table)) => Attribution::TopK(table),
        };
    }
    dataset
}

/// A data set of several jobs from a jobs analysis (its layout is kept).
pub fn from_jobs(name: String, analysis: JobsAnalysis) -> Dataset {
    let JobsAnalysis { cluster, layout, jobs, warnings } = analysis;
    let jobs: Vec<DatasetJob> = jobs
        .into_par_iter()
        .map(|job| {
            let flows = flows_of_profile(&cluster, &job.analysis);
            let rank_hosts = if job.placement.is_empty() {
                let map = &job.analysis.options.host_map;
                job.analysis
                    .profile
                    .ranks
                    .iter()
                    .filter_map(|r| Some((r.rank, cluster.host_index(map.host_of_rank(r.rank, &r.host))?)))
                    .collect()
            } else {
                job.placement
            };
            DatasetJob { name: job.name, loads: job.analysis.loads, flows, rank_hosts }
        })
        .collect();
    Dataset::with_jobs(name, cluster, layout, jobs, warnings)
}

/// Why a run could not be read. The path is said once: the reader's error usually starts with
/// it already (`x_meta.yaml: …`), and the reader's error is part of the message, not a `source`,
/// so an error-chain printer does not repeat it either.
#[derive(Debug)]
pub struct RunError {
    pub path: String,
    pub error: crate::profile_io::ParseError,
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

/// Whether a path names a run rather than fabric dumps: a YAML meta file, a CSV file naming
/// nodes or links (`nodes.csv`, `mesh_links.csv`, gzipped or not), or a folder holding a
/// `*_meta.yaml` or a `nodes.csv`.
pub fn is_run_path(path: &std::path::Path) -> bool {
    let lower = |n: &std::ffi::OsStr| n.to_string_lossy().to_ascii_lowercase();
    let named = |name: &str| {
        let stem = name.strip_suffix(".gz").unwrap_or(name);
        let csv = stem.ends_with(".csv") && (stem.contains("nodes") || stem.contains("links"));
        (
            stem.ends_with(".yaml") || stem.ends_with(".yml") || csv,
            stem.ends_with("_meta.yaml") || stem == "nodes.csv",
        )
    };
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else { return false };
        return entries.flatten().any(|e| named(&lower(&e.file_name())).1);
    }
    path.file_name().is_some_and(|n| named(&lower(n)).0)
}

/// A run (a Boxfish `*_meta.yaml`, a CSV pair or a folder holding one) as a data set.
pub fn load_run_dataset(path: &std::path::Path) -> Result<Dataset, RunError> {
    let (run, warnings): (crate::model::Run, Vec<Warning>) = crate::profile_io::runs::load_run(path)
        .map_err(|error| RunError { path: path.display().to_string(), error })?;
    Ok(Dataset::from_run(run, warnings))
}

fn flows_of(analysis: &Analysis) -> BTreeMap<RegionKey, FlowSet> {
    let Some(profile) = &analysis.profile else { return BTreeMap::new() };
    flows_of_profile(&analysis.cluster, profile)
}

fn flows_of_profile(
    cluster: &crate::model::Cluster,
    profile: &ProfileAnalysis,
) -> BTreeMap<RegionKey, FlowSet> {
    let keys: Vec<RegionKey> = profile
        .regions
        .regions
        .iter()
        .map(|r| RegionKey::Region(r.number))
        .chain([RegionKey::Total])
        .collect();
    keys.into_par_iter().map(|k| (k, pipeline::region_flows(cluster, profile, k))).collect()
}

fn name_of(request: &LoadRequest) -> String {
    let last = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let rails: Vec<String> = request.rails.iter().filter_map(|r| r.first()).map(last).collect();
    let specs = request.job_specs();
    if !specs.is_empty() {
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        return format!("jobs {} on {}", names.join(", "), rails.join(" + "));
    }
    match request.profile.as_ref().or(request.loads.as_ref()) {
        Some(p) => format!("{} on {}", last(p), rails.join(" + ")),
        None => rails.join(" + "),
    }
}

/// The bundled two-rail sample: `sample-data/tworail` with the samplesort profile.
pub fn sample_request() -> LoadRequest {
    let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
    LoadRequest {
        rails: vec![vec![base.join("rail0")], vec![base.join("rail1")]],
        profile: Some(base.join("samplesort.ibprof.gz")),
        ..Default::default()
    }
}
