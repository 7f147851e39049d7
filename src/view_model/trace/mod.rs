//! The steps behind [`super::open`]: files → fabric → profile → loads → layout, for one profile
//! (or a loads file) or several jobs. Only `open` runs them whole; the stages stay public for
//! the benchmarks that time each one.

use std::path::{Path, PathBuf};

pub mod jobs;
mod region_inputs;

pub(crate) use jobs::analyse_jobs;
pub use jobs::{Job, JobSpec, JobsAnalysis, JobsError};
pub use region_inputs::{region_input, region_inputs, total_input};

use crate::layout::{ClusterLayout, FatTreeOptions, layout_fat_tree};
use crate::model::{Cluster, Profile, Warning};
use crate::profile_io::ParseError;
use crate::profile_io::loads_file::read_loads_file;
use crate::routing::loads_input::{TopKTable, loads_from_file};
use crate::routing::{CounterInput, LoadOptions, Loads, Observed, compute_loads, observe};

use crate::profile_io::rail::{RailRead, read_cluster};

/// A loaded profile, its regions and the loads it puts on the fabric.
#[derive(Clone, Debug)]
pub struct ProfileAnalysis {
    pub path: PathBuf,
    pub profile: Profile,
    pub regions: RegionTable,
    pub loads: Loads,
    pub options: LoadOptions,
}

/// Everything a view or a report needs.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub cluster: Cluster,
    pub layout: ClusterLayout,
    pub profile: Option<ProfileAnalysis>,
    /// Loads read from a loads file (`--loads`) instead of traced from a profile.
    pub loads_file: Option<LoadsFileAnalysis>,
    pub warnings: Vec<Warning>,
    /// What each rail was read from (its warnings are in `warnings` too).
    pub rails_read: Vec<RailRead>,
}

/// Link-end loads read from a loads file, with the top-K attribution it carries (if any).
#[derive(Clone, Debug)]
pub struct LoadsFileAnalysis {
    pub path: PathBuf,
    pub loads: Loads,
    pub top_k: Option<TopKTable>,
    /// The one job the file's rows name, if they name one.
    pub job: Option<String>,
}

impl Analysis {
    /// The loads to show: the profile's trace, else the loads file's.
    pub fn loads(&self) -> Option<&Loads> {
        self.profile.as_ref().map(|p| &p.loads).or(self.loads_file.as_ref().map(|l| &l.loads))
    }
}

/// Loads the rails and either a profile (traced) or a loads file (read), and lays the fabric out.
pub(crate) fn analyse_inputs(
    rails: &[Vec<PathBuf>],
    (profile, loads): (Option<&Path>, Option<&Path>),
    options: &LoadOptions,
    layout: &FatTreeOptions,
) -> Result<Analysis, ParseError> {
    let mut analysis = analyse(rails, profile, options, layout)?;
    if let Some(path) = loads {
        let (file, mut warnings) = read_loads_file(path)?;
        let (loads, top_k, more) = loads_from_file(&analysis.cluster, &file);
        warnings.extend(more);
        analysis.warnings.extend(warnings);
        let job = file.job.clone();
        analysis.loads_file = Some(LoadsFileAnalysis { path: path.to_path_buf(), loads, top_k, job });
    }
    Ok(analysis)
}

/// Loads the rails and (optionally) a profile, traces it and lays the fabric out.
fn analyse(
    rails: &[Vec<PathBuf>],
    profile: Option<&Path>,
    options: &LoadOptions,
    layout_options: &FatTreeOptions,
) -> Result<Analysis, ParseError> {
    let (cluster, profile) = rayon::join(
        || read_cluster(rails),
        || profile.map(|p| read_profile(p).map(|(prof, w)| (p.to_path_buf(), prof, w))).transpose(),
    );
    let ((cluster, rails_read), profile) = (cluster?, profile?);
    let mut warnings = rail_warnings(&rails_read);
    let (layout, profile) = rayon::join(
        || layout_fat_tree(&cluster, layout_options),
        || {
            profile.map(|(path, profile, read_warnings)| {
                let (analysis, more) = analyse_profile(&cluster, path, profile, options);
                (analysis, read_warnings.into_iter().chain(more).collect::<Vec<_>>())
            })
        },
    );
    let profile = profile.map(|(analysis, more)| {
        warnings.extend(more);
        analysis
    });
    Ok(Analysis { cluster, layout, profile, loads_file: None, warnings, rails_read })
}

/// Every rail's warnings, rail after rail.
fn rail_warnings(read: &[RailRead]) -> Vec<Warning> {
    read.iter().flat_map(|r| r.warnings.iter().cloned()).collect()
}

/// Traces a profile already read.
pub fn analyse_profile(
    cluster: &Cluster,
    path: PathBuf,
    profile: Profile,
    options: &LoadOptions,
) -> (ProfileAnalysis, Vec<Warning>) {
    let (regions, mut warnings) = region_table(&profile, &path);
    let source = path.display().to_string();
    let (loads, more) = match options.only_region {
        // One region asked for (`hot --region N`): trace it and the total, not the other regions
        // (only the total when the profile lacks it: the caller names the regions it has).
        Some(n) => {
            let one: Vec<_> =
                regions.index_of(n).map(|at| region_input(&profile, &regions, at)).into_iter().collect();
            compute_loads(cluster, &one, Some(&total_input(&profile, &regions)), options, &source)
        }
        None => {
            let (inputs, total) = region_inputs(&profile, &regions);
            // Sums of exact deltas are the cumulative counters; re-trace only when a counter shrank.
            let total = if regions.clamped { Some(&total) } else { None };
            compute_loads(cluster, &inputs, total, options, &source)
        }
    };
    warnings.extend(more);
    (ProfileAnalysis { path, profile, regions, loads, options: options.clone() }, warnings)
}

pub use crate::model::RegionTable;
pub use crate::profile_io::profiles::read_profile;

fn region_table(profile: &Profile, path: &Path) -> (RegionTable, Vec<Warning>) {
    crate::model::region_table(profile, &path.display().to_string())
}

/// A counter file and the rail it was assigned to (`--counters railN=FILE`), if any.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rail: Option<usize>,
    pub path: PathBuf,
}

impl CounterSpec {
    /// `FILE` or `railN=FILE`.
    pub fn parse(text: &str) -> Result<CounterSpec, String> {
        if let Some((head, path)) = text.split_once('=')
            && let Some(n) = head.strip_prefix("rail")
        {
            let rail = n.parse().map_err(|_| format!("`{head}` is not `railN` (e.g. rail1={path})"))?;
            return Ok(CounterSpec { rail: Some(rail), path: PathBuf::from(path) });
        }
        Ok(CounterSpec { rail: None, path: PathBuf::from(text) })
    }
}

/// Reads counter files (in parallel) and joins their snapshots, in the order given, to the
/// fabric's link ends.
pub fn read_observed(
    cluster: &Cluster,
    specs: &[CounterSpec],
) -> Result<(Observed, Vec<Warning>), ParseError> {
    use rayon::prelude::*;
    let read: Vec<_> = specs
        .par_iter()
        .map(|spec| crate::profile_io::counters::read_counters(&spec.path).map(|(s, w)| (spec.rail, s, w)))
        .collect::<Result<_, _>>()?;
    let mut warnings = Vec::new();
    let inputs: Vec<CounterInput> = read
        .into_iter()
        .map(|(rail, snapshot, more)| {
            warnings.extend(more);
            CounterInput { rail, snapshot }
        })
        .collect();
    let (observed, more) =
        observe(cluster, &inputs).map_err(|e| ParseError::invalid("--counters", e.to_string()))?;
    warnings.extend(more);
    Ok((observed, warnings))
}
