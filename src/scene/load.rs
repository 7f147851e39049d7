//! Loading a data set from files: rails (directories or dump files) and an optional profile,
//! reporting progress, for the GUI's background loader and `shoal render`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::model::Warning;
use crate::profile_io::load_cluster;
use crate::routing::Loads;

use super::dataset::Dataset;

/// What to open: one path list per rail, and a profile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadRequest {
    pub rails: Vec<Vec<PathBuf>>,
    pub profile: Option<PathBuf>,
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
    #[error("{0}")]
    Profile(String),
}

/// Loads the rails, lays them out, and (with a profile) traces every region.
pub fn load_dataset(request: &LoadRequest, progress: &dyn Fn(Progress)) -> Result<Dataset, LoadError> {
    if request.rails.is_empty() {
        return Err(LoadError::NoRails);
    }
    progress(Progress { fraction: 0.05, stage: "reading the fabric dumps".into() });
    let (cluster, mut warnings) = load_cluster(&request.rails)?;
    let (profile, loads, flows) = match &request.profile {
        None => (None, Loads::default(), BTreeMap::new()),
        Some(path) => {
            progress(Progress { fraction: 0.4, stage: "reading the profile".into() });
            let (profile, loads, flows, more) =
                super::profile_loads::trace_profile(&cluster, path, progress)?;
            warnings.extend(more);
            (Some(profile), loads, flows)
        }
    };
    progress(Progress { fraction: 0.9, stage: "laying out the fat tree".into() });
    let name = name_of(request);
    let mut dataset = Dataset::assemble(name, cluster, profile, loads, flows, warnings);
    dataset.rail_paths = request.rails.clone();
    dataset.profile_path = request.profile.clone();
    progress(Progress { fraction: 1.0, stage: "done".into() });
    Ok(dataset)
}

fn name_of(request: &LoadRequest) -> String {
    let last = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let rails: Vec<String> = request.rails.iter().filter_map(|r| r.first()).map(last).collect();
    match &request.profile {
        Some(p) => format!("{} on {}", last(p), rails.join(" + ")),
        None => rails.join(" + "),
    }
}

/// Warnings as the panel lists them, for tests and the CLI.
pub fn warning_lines(warnings: &[Warning]) -> Vec<String> {
    warnings.iter().map(ToString::to_string).collect()
}
