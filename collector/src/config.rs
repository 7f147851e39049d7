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
//! | `IBPROF_RAILS`           | rails to trace in situ: `RAIL;RAIL…`, each a directory or comma list |
//! | `IBPROF_HOSTMAP`         | a `--host-map` file placing ranks' hosts on the fabric's hosts       |
//! | `IBPROF_RAIL_POLICY`     | `split` (default) or `rail:N`, as `--rail-policy`                    |
//! | `IBPROF_LOADS`           | loads file written by rank 0 (needs `IBPROF_RAILS`)                  |
//! | `IBPROF_TOPK=K`          | keep the K largest host pairs per link end in the loads file        |
//! | `IBPROF_WRITER`          | `mpiio` (default), `rank0`, or `both` (also `<out>.rank0`)           |
//! | `IBPROF_IO_BLOCK=N`      | MPI-IO: one writer per N consecutive ranks (default 64)              |

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
    /// `IBPROF_RAILS`: one path list per rail.
    pub rails: Vec<Vec<PathBuf>>,
    pub host_map: Option<PathBuf>,
    /// `IBPROF_RAIL_POLICY` as given (`split`, `rail:N`).
    pub rail_policy: String,
    pub loads: Option<PathBuf>,
    pub top_k: usize,
    /// Whether to write the per-peer profile: `IBPROF_OUT` is set, or no loads file is.
    pub profile_wanted: bool,
    /// How the per-peer profile is written.
    pub writer: Writer,
    /// MPI-IO: ranks per writer (the first rank of each block of this many writes the block).
    pub io_block: u32,
    /// Settings whose values were not understood, each with what is used instead (reported
    /// once by rank 0).
    pub ignored: Vec<String>,
}

/// Ranks per MPI-IO writer when `IBPROF_IO_BLOCK` is not set: about one writer per node.
pub const DEFAULT_IO_BLOCK: u32 = 64;

/// `IBPROF_WRITER`: how the gathered profile reaches the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writer {
    /// Every rank writes its section at its offset (MPI-IO); rank 0 alone if MPI-IO fails.
    MpiIo,
    /// Rank 0 receives every section and writes them.
    Rank0,
    /// Both: MPI-IO to `IBPROF_OUT`, rank 0 to `IBPROF_OUT.rank0` (to compare them).
    Both,
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
        let nonempty = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        let mut ignored = Vec::new();
        let mut number = |k: &str, default: u32, min: u32| match nonempty(k) {
            None => default,
            Some(v) => match v.trim().parse::<u32>() {
                Ok(n) if n >= min => n,
                _ => {
                    ignored.push(format!("{k}={} (not a whole number ≥ {min}; {default} used)", v.trim()));
                    default
                }
            },
        };
        let top_k = number("IBPROF_TOPK", 0, 0) as usize;
        let io_block = number("IBPROF_IO_BLOCK", DEFAULT_IO_BLOCK, 1);
        let writer = match nonempty("IBPROF_WRITER").as_deref().map(str::trim) {
            None | Some("mpiio") => Writer::MpiIo,
            Some("rank0") => Writer::Rank0,
            Some("both") => Writer::Both,
            Some(other) => {
                ignored.push(format!("IBPROF_WRITER={other} (not mpiio, rank0 or both; mpiio used)"));
                Writer::MpiIo
            }
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
            rails: get("IBPROF_RAILS").map(|v| parse_rails(&v)).unwrap_or_default(),
            host_map: nonempty("IBPROF_HOSTMAP").map(PathBuf::from),
            rail_policy: nonempty("IBPROF_RAIL_POLICY").unwrap_or_else(|| "split".into()),
            loads: nonempty("IBPROF_LOADS").map(PathBuf::from),
            top_k,
            profile_wanted: nonempty("IBPROF_OUT").is_some() || nonempty("IBPROF_LOADS").is_none(),
            writer,
            io_block,
            ignored,
        }
    }

    /// The file rank `rank` writes when every rank writes its own.
    pub fn per_rank_path(&self, rank: u32) -> PathBuf {
        let text = self.out.to_string_lossy();
        let stem = text.strip_suffix(".ibprof").unwrap_or(&text);
        PathBuf::from(format!("{stem}.rank{rank}.ibprof"))
    }
}

/// `IBPROF_RAILS`: rails separated by `;`, each a directory or files joined by `,`.
fn parse_rails(text: &str) -> Vec<Vec<PathBuf>> {
    text.split(';')
        .map(|rail| {
            rail.split(',').map(str::trim).filter(|p| !p.is_empty()).map(PathBuf::from).collect::<Vec<_>>()
        })
        .filter(|rail| !rail.is_empty())
        .collect()
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
    fn in_situ_settings_split_rails_and_keep_the_profile_only_when_asked() {
        let c =
            cfg(&[("IBPROF_RAILS", "/d/rail0;/d/r1/a.lst,/d/r1/a.fdbs"), ("IBPROF_LOADS", "run.loads.csv")]);
        assert_eq!(
            c.rails,
            vec![vec![PathBuf::from("/d/rail0")], vec!["/d/r1/a.lst".into(), "/d/r1/a.fdbs".into()]]
        );
        assert!(!c.profile_wanted, "a loads file alone writes no per-peer profile");
        assert!(cfg(&[("IBPROF_LOADS", "x"), ("IBPROF_OUT", "y")]).profile_wanted);
        assert!(cfg(&[]).profile_wanted && cfg(&[]).writer == Writer::MpiIo);
        assert_eq!(cfg(&[("IBPROF_WRITER", "rank0")]).writer, Writer::Rank0);
        assert_eq!(cfg(&[]).io_block, DEFAULT_IO_BLOCK);
        assert_eq!(cfg(&[("IBPROF_IO_BLOCK", "8")]).io_block, 8);
        assert_eq!(cfg(&[("IBPROF_TOPK", "4")]).top_k, 4);
    }

    #[test]
    fn selection_and_switches_come_from_the_environment() {
        let c = cfg(&[("IBPROF", "ALLTOALL,FOO"), ("IBPROF_PERUSE", "0"), ("IBPROF_OMPI_MONITORING", "yes")]);
        assert_eq!(c.selection, Kind::Alltoall.bit());
        assert_eq!(c.unknown_names, vec!["FOO".to_string()]);
        assert!(!c.peruse && c.ompi_monitoring);
    }

    #[test]
    fn values_not_understood_are_named_with_what_is_used_instead() {
        let c = cfg(&[("IBPROF_IO_BLOCK", "0"), ("IBPROF_TOPK", "many"), ("IBPROF_WRITER", "rank1")]);
        assert_eq!((c.io_block, c.top_k, c.writer), (DEFAULT_IO_BLOCK, 0, Writer::MpiIo));
        assert_eq!(
            c.ignored,
            vec![
                "IBPROF_TOPK=many (not a whole number ≥ 0; 0 used)".to_string(),
                "IBPROF_IO_BLOCK=0 (not a whole number ≥ 1; 64 used)".to_string(),
                "IBPROF_WRITER=rank1 (not mpiio, rank0 or both; mpiio used)".to_string(),
            ]
        );
        assert!(cfg(&[("IBPROF_WRITER", "mpiio"), ("IBPROF_TOPK", "3")]).ignored.is_empty());
    }
}
