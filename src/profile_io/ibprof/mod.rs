//! The ibprof v1 traffic profile: reader and writer. The format is pinned in
//! `docs/formats/ibprof.md`; in short:
//!
//! ```text
//! ibprof 1
//! job ranks 2 mpi "Open MPI 4.1.5" source pmpi
//! rank 0 host n0001 pid 4242 starttime 1700000000.000000
//! port 0 device mlx5_0 portnum 1 guid 0x0002c903000a0001 lid 0x0001
//! region 1 name "exchange" dumptime 1700000001.500000
//! peer 1 sent 1048576 recv 1048576
//! lid 0 0x0002 sent 1048576 recv 0
//! ```
//!
//! Every dump is cumulative since `starttime`; per-region deltas are derived in
//! [`crate::model::regions`]. Anything unusable in a line is a [`Warning`] with file and line;
//! only a file without the `ibprof 1` header (or one that cannot be read) is a [`ParseError`].
//!
//! The lexical layer (tokens, numbers, quoting), the fast path for canonical `peer` and `lid`
//! lines and the writer's spelling of every record live in the `ibprof-format` crate, which the
//! collector writes with too: one implementation of the format for both sides.
//!
//! Speed: the reader works on the bytes of the text, parses numbers by hand, takes a fast path
//! for canonical `peer` and `lid` lines, and parses rank sections in parallel (`read.rs`). A
//! file is streamed instead (`streamed.rs`): memory follows the profile, not the file.

mod chunk;
mod files;
mod read;
mod streamed;
mod windowed;
mod write;

use std::path::Path;

use crate::model::{Profile, Warning};

use super::error::ParseError;

pub use write::{ProfileWriter, write_profile};

/// The format's limits: larger numbers in a file are warnings. Nothing is allocated by them;
/// the bounds only reject nonsense.
pub use ibprof_format::record::{Job as ProfileJob, MAX_LMC, MAX_PORTS, MAX_RANKS};

/// Reads a profile file (plain or gzip, detected by its magic bytes) or a directory of
/// `*.ibprof` / `*.ibprof.gz` files, merged in name order.
pub fn read_profile(path: &Path) -> Result<(Profile, Vec<Warning>), ParseError> {
    let (profile, warnings) = files::read_path(path)?;
    check_region_density(&profile, &path.display().to_string())?;
    Ok((profile, warnings))
}

/// Reads a large plain ibprof file window by window, never holding its whole text (issue 13);
/// `None` when `path` is not one (small, gzip, a pipe, PFProf JSON, not UTF-8): read it whole.
pub fn read_large_file(path: &Path) -> Option<Result<(Profile, Vec<Warning>), ParseError>> {
    let parsed = files::read_large_plain(path)?;
    Some(parsed.and_then(|parsed| {
        check_region_density(&parsed.profile, &path.display().to_string())?;
        Ok((parsed.profile, parsed.warnings))
    }))
}

/// Parses ibprof v1 text; `display_path` names it in warnings and errors.
pub fn parse_profile(text: &str, display_path: &str) -> Result<(Profile, Vec<Warning>), ParseError> {
    let parsed = read::parse_text(text, display_path)?;
    check_region_density(&parsed.profile, display_path)?;
    Ok((parsed.profile, parsed.warnings))
}

/// Per-region counter sets a profile may need beyond [`SPARSE_CELLS_PER_DUMP`] per dump.
pub const FREE_REGION_CELLS: u64 = 1 << 16;
/// How sparse a profile's ranks × regions grid may be: cells per dump actually written.
pub const SPARSE_CELLS_PER_DUMP: u64 = 16;

/// The region table holds one counter set per rank and region, so a short file with a thousand
/// ranks that each name a different region would ask for a million of them. Real profiles dump
/// most regions on most ranks; a grid far sparser than that is refused as corrupt (issue 6).
pub(crate) fn check_region_density(profile: &Profile, display: &str) -> Result<(), ParseError> {
    let regions: std::collections::HashSet<u32> =
        profile.ranks.iter().flat_map(|r| r.dumps.iter().map(|d| d.region)).collect();
    let dumps: u64 = profile.ranks.iter().map(|r| r.dumps.len() as u64).sum();
    let cells = regions.len() as u64 * profile.ranks.len() as u64;
    if cells > SPARSE_CELLS_PER_DUMP * dumps + FREE_REGION_CELLS {
        return Err(ParseError::invalid(
            display,
            format!(
                "{} ranks and {} distinct regions would need {cells} per-region counter sets for only \
                 {dumps} dumps; a profile this sparse is refused as corrupt",
                profile.ranks.len(),
                regions.len()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod message_tests;
#[cfg(test)]
mod tests;
