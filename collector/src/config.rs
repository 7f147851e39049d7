//! Settings from the environment, read once at `MPI_Init`.
//!
//! | variable                 | meaning                                                              |
//! |--------------------------|----------------------------------------------------------------------|
//! | `IBPROF_OUT`             | output file (default `<program>.ibprof` in the working directory)    |
//! | `IBPROF`                 | collectives to count, e.g. `ALLTOALL,BCAST` (default: everything)   |
//! | `IBPROF_PER_RANK=1`      | also one file per rank, `<out without .ibprof>.rank<R>.ibprof`       |
//! | `IBPROF_OMPI_MONITORING=1` | Open MPI only: actual per-peer bytes from the monitoring components |
//! | `IBPROF_PERUSE=0`        | do not look for the PERUSE InfiniBand send event                     |
//! | `IBPROF_SYSFS_ROOT`      | read InfiniBand ports under this directory instead of `/sys`        |

use std::path::PathBuf;

use crate::scope::{ALL_KINDS, parse_selection};

#[derive(Clone, Debug)]
pub struct Config {
    pub out: PathBuf,
    pub per_rank: bool,
    pub selection: u32,
    /// `IBPROF=` names that were not understood (reported once by rank 0).
    pub unknown_names: Vec<String>,
    pub ompi_monitoring: bool,
    pub peruse: bool,
    pub sysfs_root: PathBuf,
}

impl Config {
    pub fn from_env() -> Config {
        Config::from_lookup(|k| std::env::var(k).ok())
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Config {
        let flag = |k: &str, default: bool| match get(k).as_deref().map(str::trim) {
            None | Some("") => default,
            Some(v) => !matches!(v.to_ascii_lowercase().as_str(), "0" | "no" | "false" | "off"),
        };
        let (selection, unknown_names) = match get("IBPROF") {
            Some(v) if !v.trim().is_empty() => parse_selection(&v),
            _ => (ALL_KINDS, Vec::new()),
        };
        let out = get("IBPROF_OUT")
            .filter(|s| !s.trim().is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(format!("{}.ibprof", program_name())));
        Config {
            out,
            per_rank: flag("IBPROF_PER_RANK", false),
            selection,
            unknown_names,
            ompi_monitoring: flag("IBPROF_OMPI_MONITORING", false),
            peruse: flag("IBPROF_PERUSE", true),
            sysfs_root: get("IBPROF_SYSFS_ROOT").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/sys")),
        }
    }

    /// The file rank `rank` writes when every rank writes its own.
    pub fn per_rank_path(&self, rank: u32) -> PathBuf {
        let text = self.out.to_string_lossy();
        let stem = text.strip_suffix(".ibprof").unwrap_or(&text);
        PathBuf::from(format!("{stem}.rank{rank}.ibprof"))
    }
}

fn program_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "ibprof".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scope::Kind;

    fn cfg(pairs: &[(&str, &str)]) -> Config {
        Config::from_lookup(|k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string()))
    }

    #[test]
    fn defaults_count_everything_into_one_file() {
        let c = cfg(&[]);
        assert_eq!(c.selection, ALL_KINDS);
        assert!(!c.per_rank && !c.ompi_monitoring && c.peruse);
        assert!(c.out.to_string_lossy().ends_with(".ibprof"));
        assert_eq!(c.sysfs_root, PathBuf::from("/sys"));
    }

    #[test]
    fn per_rank_files_keep_the_ibprof_extension() {
        let c = cfg(&[("IBPROF_OUT", "out/run1.ibprof"), ("IBPROF_PER_RANK", "1")]);
        assert!(c.per_rank);
        assert_eq!(c.per_rank_path(3), PathBuf::from("out/run1.rank3.ibprof"));
        assert_eq!(cfg(&[("IBPROF_OUT", "x")]).per_rank_path(0), PathBuf::from("x.rank0.ibprof"));
    }

    #[test]
    fn selection_and_switches_come_from_the_environment() {
        let c = cfg(&[("IBPROF", "ALLTOALL,FOO"), ("IBPROF_PERUSE", "0"), ("IBPROF_OMPI_MONITORING", "yes")]);
        assert_eq!(c.selection, Kind::Alltoall.bit());
        assert_eq!(c.unknown_names, vec!["FOO".to_string()]);
        assert!(!c.peruse && c.ompi_monitoring);
    }
}
