//! Several jobs on one fabric (issue 12): each job's profile is read, placed (as recorded or by a
//! [`PlacementPolicy`]) and traced on its own, so each keeps its own regions; `all` is the sum of
//! the jobs' totals, and contention compares the jobs end by end.
//!
//! Jobs never share a host. Hosts recorded by as-recorded jobs are held first (two of them
//! naming one host is an error naming both); placed jobs then take free hosts in command-line
//! order.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::layout::{ClusterLayout, FatTreeOptions, layout_fat_tree};
use crate::model::{Cluster, Profile, Warning};
use crate::profile_io::ParseError;
use crate::routing::placement::{PlacementRequest, leaf_groups, place};
use crate::routing::{
    ContendedEnd, HostMap, LoadOptions, PlacementError, PlacementPolicy, RailLoad, RegionLoads,
    contended_ends,
};

use super::{ProfileAnalysis, analyse_profile, rail_warnings, read_profile};
use crate::profile_io::rail::{RailRead, read_cluster};

/// Names no job may take: the rows they label mean something else.
pub const RESERVED_JOB_NAMES: [&str; 2] = ["all", "contention"];

/// One job as asked for: `--job NAME=PROFILE` with its `--place NAME=POLICY`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobSpec {
    pub name: String,
    pub profile: PathBuf,
    pub place: PlacementPolicy,
}

impl JobSpec {
    /// A job named after its profile's file: `md.ibprof.gz` → `md`.
    pub fn from_profile(profile: &Path) -> JobSpec {
        JobSpec {
            name: job_name_of(profile),
            profile: profile.to_path_buf(),
            place: PlacementPolicy::AsRecorded,
        }
    }
}

/// The file name without `.gz`, `.ibprof` or `.json`.
pub fn job_name_of(profile: &Path) -> String {
    let mut name = profile.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for ext in [".gz", ".ibprof", ".json"] {
        if let Some(stem) = name.strip_suffix(ext).filter(|s| !s.is_empty()) {
            name = stem.to_string();
        }
    }
    if name.is_empty() { "job".into() } else { name }
}

/// One traced job, and where its ranks were put if it was placed.
#[derive(Clone, Debug)]
pub struct Job {
    pub name: String,
    pub analysis: ProfileAnalysis,
    /// (rank, host index) in rank order; empty for an as-recorded job.
    pub placement: Vec<(u32, usize)>,
}

/// The fabric, its layout and every job's loads.
#[derive(Clone, Debug)]
pub struct JobsAnalysis {
    pub cluster: Cluster,
    pub layout: ClusterLayout,
    pub jobs: Vec<Job>,
    pub warnings: Vec<Warning>,
    /// What each rail was read from (its warnings are in `warnings` too).
    pub rails_read: Vec<RailRead>,
}

impl JobsAnalysis {
    /// Job `all`: the sum of every job's total, link end by link end.
    pub fn all_total(&self) -> RegionLoads {
        let mut sum = RegionLoads::sum(self.jobs.iter().map(|j| &j.analysis.loads.total));
        sum.rails.resize_with(self.cluster.rails.len(), || RailLoad::with_link_ends(0));
        sum
    }

    /// Every end two or more jobs' totals cross, ranked by the second-largest job's bytes.
    pub fn contended(&self) -> Vec<ContendedEnd> {
        let totals: Vec<&RegionLoads> = self.jobs.iter().map(|j| &j.analysis.loads.total).collect();
        contended_ends(&totals)
    }

    /// `job,rank,host` rows of every placed job.
    pub fn placement_rows(&self) -> Vec<(String, u32, String)> {
        self.jobs
            .iter()
            .flat_map(|j| {
                j.placement
                    .iter()
                    .map(|&(rank, h)| (j.name.clone(), rank, self.cluster.hosts[h].name.clone()))
            })
            .collect()
    }
}

/// Why the jobs could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum JobsError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Placement(#[from] PlacementError),
    #[error("two jobs are named {0}; give each --job a different name")]
    DuplicateName(String),
    #[error(
        "`{0}` is reserved (links.csv uses it for the sum and the contention rows); name the job otherwise"
    )]
    ReservedName(String),
    #[error("job {job}: {path} records no hosts (a synthetic pattern); place it with --place {job}=POLICY")]
    NoHosts { job: String, path: String },
    #[error("host {host} is held by both job {first} and job {second}; jobs never share a host")]
    SharedHost { host: String, first: String, second: String },
}

/// Reads the rails and every job's profile, places the jobs, traces each and lays the fabric out.
pub(crate) fn analyse_jobs(
    rails: &[Vec<PathBuf>],
    specs: &[JobSpec],
    options: &LoadOptions,
    layout_options: &FatTreeOptions,
) -> Result<JobsAnalysis, JobsError> {
    check_names(specs)?;
    let (cluster, profiles) = rayon::join(
        || read_cluster(rails),
        || specs.par_iter().map(|s| read_profile(&s.profile)).collect::<Vec<_>>(),
    );
    let (cluster, rails_read) = cluster?;
    let mut warnings = rail_warnings(&rails_read);
    let mut read = Vec::with_capacity(profiles.len());
    for result in profiles {
        let (profile, more) = result?;
        warnings.extend(more);
        read.push(profile);
    }
    let placed = place_jobs(&cluster, specs, &read, options)?;
    let (layout, traced) = rayon::join(
        || layout_fat_tree(&cluster, layout_options),
        || {
            specs
                .par_iter()
                .zip(read)
                .zip(placed)
                .map(|((spec, profile), (job_options, placement, placed_warnings))| {
                    let (analysis, mut more) =
                        analyse_profile(&cluster, spec.profile.clone(), profile, &job_options);
                    more.extend(placed_warnings);
                    (Job { name: spec.name.clone(), analysis, placement }, more)
                })
                .collect::<Vec<_>>()
        },
    );
    let jobs = traced
        .into_iter()
        .map(|(job, more)| {
            warnings.extend(more);
            job
        })
        .collect();
    Ok(JobsAnalysis { cluster, layout, jobs, warnings, rails_read })
}

fn check_names(specs: &[JobSpec]) -> Result<(), JobsError> {
    let mut seen = std::collections::HashSet::new();
    for spec in specs {
        if RESERVED_JOB_NAMES.contains(&spec.name.as_str()) {
            return Err(JobsError::ReservedName(spec.name.clone()));
        }
        if !seen.insert(spec.name.as_str()) {
            return Err(JobsError::DuplicateName(spec.name.clone()));
        }
    }
    Ok(())
}

/// Each job's load options, placement and placement warnings.
type Placed = (LoadOptions, Vec<(u32, usize)>, Vec<Warning>);

/// Holds the as-recorded jobs' hosts, then places the others on free hosts in order.
fn place_jobs(
    cluster: &Cluster,
    specs: &[JobSpec],
    profiles: &[Profile],
    options: &LoadOptions,
) -> Result<Vec<Placed>, JobsError> {
    let mut taken: Vec<Option<String>> = vec![None; cluster.hosts.len()];
    for (spec, profile) in specs.iter().zip(profiles) {
        if spec.place.is_placed() {
            continue;
        }
        if profile.ranks.iter().all(|r| r.host.is_empty()) && !profile.ranks.is_empty() {
            return Err(JobsError::NoHosts {
                job: spec.name.clone(),
                path: spec.profile.display().to_string(),
            });
        }
        for section in &profile.ranks {
            let name = options.host_map.host_of_rank(section.rank, &section.host);
            let Some(h) = cluster.host_index(name) else { continue };
            match &taken[h] {
                Some(holder) if *holder != spec.name => {
                    return Err(JobsError::SharedHost {
                        host: name.to_string(),
                        first: holder.clone(),
                        second: spec.name.clone(),
                    });
                }
                _ => taken[h] = Some(spec.name.clone()),
            }
        }
    }
    let groups = leaf_groups(cluster);
    let mut placed = Vec::with_capacity(specs.len());
    for (spec, profile) in specs.iter().zip(profiles) {
        if !spec.place.is_placed() {
            placed.push((options.clone(), Vec::new(), Vec::new()));
            continue;
        }
        let mut ranks: Vec<u32> = profile.ranks.iter().map(|r| r.rank).collect();
        ranks.sort_unstable();
        ranks.dedup();
        let request = PlacementRequest {
            job: &spec.name,
            ranks: &ranks,
            ranks_per_host: ranks_per_host(profile),
            policy: &spec.place,
        };
        let placement = place(cluster, &groups, &request, &mut taken)?;
        let host_map = HostMap {
            hosts: HashMap::new(),
            ranks: placement.iter().map(|&(r, h)| (r, cluster.hosts[h].name.clone())).collect(),
        };
        let mut warnings = Vec::new();
        let port_level = profile.ranks.iter().any(|r| r.dumps.iter().any(|d| !d.lids.is_empty()));
        if port_level {
            warnings.push(Warning::in_file(
                spec.profile.display().to_string(),
                format!(
                    "job {}: port-level counters name LIDs, so --place cannot move them; they stay \
                     on the ports that recorded them",
                    spec.name
                ),
            ));
        }
        placed.push((
            LoadOptions { policy: options.policy, host_map, only_region: None },
            placement,
            warnings,
        ));
    }
    Ok(placed)
}

/// The most ranks the profile put on one recorded host (1 when it records none).
fn ranks_per_host(profile: &Profile) -> usize {
    let mut per_host: BTreeMap<&str, usize> = BTreeMap::new();
    for section in profile.ranks.iter().filter(|r| !r.host.is_empty()) {
        *per_host.entry(section.host.as_str()).or_insert(0) += 1;
    }
    per_host.into_values().max().unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_is_named_after_its_file() {
        assert_eq!(job_name_of(Path::new("/x/md.ibprof.gz")), "md");
        assert_eq!(job_name_of(Path::new("ior.ibprof")), "ior");
        assert_eq!(job_name_of(Path::new("ranks")), "ranks");
        assert_eq!(job_name_of(Path::new("rank0.json")), "rank0");
    }

    #[test]
    fn reserved_and_repeated_names_are_errors() {
        let job =
            |n: &str| JobSpec { name: n.into(), profile: "p".into(), place: PlacementPolicy::AsRecorded };
        assert!(matches!(check_names(&[job("all")]), Err(JobsError::ReservedName(_))));
        assert!(matches!(check_names(&[job("a"), job("a")]), Err(JobsError::DuplicateName(_))));
        assert!(check_names(&[job("a"), job("b")]).is_ok());
    }
}
