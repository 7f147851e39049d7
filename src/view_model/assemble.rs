//! A traced analysis as a data set: the flows of every region with their origins (for "who
//! crossed this link end"), built when first asked for, and the ranks placed where the host map
//! puts them.

use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use super::trace::Analysis;
use super::trace::{JobsAnalysis, ProfileAnalysis};
use crate::model::HostMap;
use crate::routing::Loads;
use crate::view_model::dataset::{Attribution, Dataset, DatasetJob, FlowsRecipe, LazyFlows, flows_of};

use super::request::OpenRequest;

/// A data set from one profile's (or a loads file's) analysis; its layout is kept.
pub fn from_analysis(name: String, analysis: Analysis, host_map: &HostMap) -> Dataset {
    let Analysis { cluster, layout, profile, loads_file, warnings, rails_read } = analysis;
    let cluster = Arc::new(cluster);
    let loads_job = loads_file.as_ref().and_then(|l| l.job.clone());
    let (profile, loads, flows, top_k) = match (profile, loads_file) {
        (Some(p), _) => {
            let ProfileAnalysis { profile, regions, loads, options, .. } = p;
            let profile = Arc::new(profile);
            let recipe = FlowsRecipe {
                cluster: Arc::clone(&cluster),
                profile: Arc::clone(&profile),
                regions,
                options,
            };
            (Some(profile), loads, LazyFlows::deferred(recipe), None)
        }
        (None, Some(l)) => (None, l.loads, LazyFlows::default(), Some(l.top_k)),
        (None, None) => (None, Loads::default(), LazyFlows::default(), None),
    };
    let traced = crate::view_model::dataset::Traced { profile, loads, flows, host_map };
    let mut dataset = Dataset::with_layout(name, cluster, layout, traced, warnings);
    if let Some(fabric) = dataset.fabric.as_mut() {
        fabric.loads_job = loads_job;
        fabric.rails_read = rails_read;
        fabric.attribution = match top_k {
            None => Attribution::Flows,
            Some(None) => Attribution::None,
            Some(Some(table)) => Attribution::TopK(table),
        };
    }
    dataset
}

/// A data set of several jobs from a jobs analysis; its layout is kept.
pub fn from_jobs(name: String, analysis: JobsAnalysis) -> Dataset {
    let JobsAnalysis { cluster, layout, jobs, warnings, rails_read } = analysis;
    let jobs: Vec<DatasetJob> = jobs
        .into_par_iter()
        .map(|job| {
            let a = &job.analysis;
            let flows = flows_of(&cluster, &a.profile, &a.regions, &a.options);
            let placed = !job.placement.is_empty();
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
            DatasetJob { name: job.name, loads: job.analysis.loads, flows, rank_hosts, placed }
        })
        .collect();
    let mut dataset = Dataset::with_jobs(name, cluster, layout, jobs, warnings);
    if let Some(fabric) = dataset.fabric.as_mut() {
        fabric.rails_read = rails_read;
    }
    dataset
}

/// The title: the jobs, the profile's or loads file's name, and the rails'.
pub fn name_of(request: &OpenRequest) -> String {
    let last = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let rails: Vec<String> = request.rails.iter().filter_map(|r| r.paths.first()).map(last).collect();
    let jobs = request.job_requests();
    if !jobs.is_empty() {
        let names: Vec<&str> = jobs.iter().map(|s| s.name.as_str()).collect();
        return format!("jobs {} on {}", names.join(", "), rails.join(" + "));
    }
    match request.profile.as_ref().or(request.loads.as_ref()) {
        Some(p) => format!("{} on {}", last(p), rails.join(" + ")),
        None => rails.join(" + "),
    }
}
