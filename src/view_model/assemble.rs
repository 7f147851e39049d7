//! A traced analysis as a data set: the flows of every region rebuilt with their origins (for
//! "who crossed this link end"), the ranks placed where the host map puts them.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use super::trace::{self, Analysis, JobsAnalysis, ProfileAnalysis};
use crate::model::HostMap;
use crate::routing::{FlowSet, Loads, RegionKey};
use crate::view_model::dataset::{Attribution, Dataset, DatasetJob};

use super::request::OpenRequest;

/// A data set from one profile's (or a loads file's) analysis; its layout is kept.
pub fn from_analysis(name: String, analysis: Analysis, host_map: &HostMap) -> Dataset {
    let flows = flows_of(&analysis);
    let Analysis { cluster, layout, profile, loads_file, warnings, rails_read } = analysis;
    let loads_job = loads_file.as_ref().and_then(|l| l.job.clone());
    let (profile, loads, top_k) = match (profile, loads_file) {
        (Some(p), _) => (Some(p.profile), p.loads, None),
        (None, Some(l)) => (None, l.loads, Some(l.top_k)),
        (None, None) => (None, Loads::default(), None),
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
            let flows = flows_of_profile(&cluster, &job.analysis);
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

fn flows_of(analysis: &Analysis) -> crate::routing::RegionFlows {
    let Some(profile) = &analysis.profile else { return BTreeMap::new() };
    flows_of_profile(&analysis.cluster, profile)
}

/// The flows of every traced region and of the total (only the traced ones when the open traced
/// one region).
fn flows_of_profile(
    cluster: &crate::model::Cluster,
    profile: &ProfileAnalysis,
) -> crate::routing::RegionFlows {
    let keys: Vec<RegionKey> = profile
        .regions
        .regions
        .iter()
        .map(|r| RegionKey::Region(r.number))
        .filter(|k| profile.options.only_region.is_none_or(|n| *k == RegionKey::Region(n)))
        .chain([RegionKey::Total])
        .collect();
    let mut flows: crate::routing::RegionFlows = keys
        .into_par_iter()
        .map(|k| (k, std::sync::Arc::new(trace::region_flows(cluster, profile, k))))
        .collect();
    share_the_total(&mut flows);
    keep_switch_counts(cluster, &mut flows);
    flows
}

/// Each set keeps its flows' switch counts, so that a traffic matrix's first build looks its
/// hop classes up (issue 23). A total shared with its one region is counted once, for both.
fn keep_switch_counts(cluster: &crate::model::Cluster, flows: &mut crate::routing::RegionFlows) {
    let total = flows.remove(&RegionKey::Total);
    let twin = total.as_ref().and_then(|t| flows.iter().find(|(_, f)| Arc::ptr_eq(f, t)).map(|(k, _)| *k));
    // A twin's total is dropped here, so that the region's set is held once while counted.
    if let (None, Some(total)) = (twin, total) {
        flows.insert(RegionKey::Total, total);
    }
    let mut sets: Vec<&mut Arc<FlowSet>> = flows.values_mut().collect();
    sets.par_iter_mut().for_each(|set| {
        // Just built, so held once.
        if let Some(set) = Arc::get_mut(set) {
            crate::routing::switch_count::keep_switch_counts(cluster, set);
        }
    });
    if let Some(twin) = twin.and_then(|k| flows.get(&k)).cloned() {
        flows.insert(RegionKey::Total, twin);
    }
}

/// A profile with one region has the same flows for it and for the total: keep them once.
fn share_the_total(flows: &mut crate::routing::RegionFlows) {
    let mut regions = flows.iter().filter(|(k, _)| **k != RegionKey::Total);
    let (Some((_, only)), None) = (regions.next(), regions.next()) else { return };
    let only = only.clone();
    if let Some(total) = flows.get_mut(&RegionKey::Total)
        && **total == *only
    {
        *total = only;
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Cluster;
    use crate::model::test_fabric::{TwoLeaves, two_leaves};
    use crate::routing::{Flow, RegionFlows};

    fn set(flows: Vec<Flow>) -> Arc<FlowSet> {
        Arc::new(FlowSet { flows: vec![flows], ..FlowSet::default() })
    }

    #[test]
    fn every_set_keeps_its_switch_counts_and_a_shared_total_stays_shared() {
        let TwoLeaves { fabric, .. } = two_leaves();
        let cluster = Cluster::new(vec![fabric]);
        let across = Flow { src: crate::model::Lid(0x10), dst: crate::model::Lid(0x13), bytes: 5 };
        let within = Flow { src: crate::model::Lid(0x10), dst: crate::model::Lid(0x11), bytes: 7 };
        let one = set(vec![across, within]);
        let mut shared: RegionFlows =
            [(RegionKey::Region(1), one.clone()), (RegionKey::Total, one)].into_iter().collect();
        keep_switch_counts(&cluster, &mut shared);
        assert!(Arc::ptr_eq(&shared[&RegionKey::Region(1)], &shared[&RegionKey::Total]));
        assert_eq!(shared[&RegionKey::Total].hops, vec![vec![3, 1]]);
        let mut apart: RegionFlows =
            [(RegionKey::Region(1), set(vec![within])), (RegionKey::Total, set(vec![across]))]
                .into_iter()
                .collect();
        keep_switch_counts(&cluster, &mut apart);
        assert_eq!(apart[&RegionKey::Region(1)].hops, vec![vec![1]]);
        assert_eq!(apart[&RegionKey::Total].hops, vec![vec![3]]);
    }
}
