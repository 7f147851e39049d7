//! Reading a profile from disk: one file (plain or gzip, detected by its magic bytes), or a
//! directory of `*.ibprof` / `*.ibprof.gz` files merged into one profile.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::model::{Profile, Warning};
use crate::profile_io::error::ParseError;
use crate::profile_io::input::Input;

use super::read::Parsed;
use super::streamed::parse_input;
use super::windowed::{Fallback, WINDOW, read_windowed};

/// Reads and parses one file: a large plain one window by window in parallel pieces
/// ([`super::windowed`]); any other regular file streamed (gzip, small, not UTF-8, or a section
/// too long for a window: only what it holds is kept); a pipe or standard input whole.
fn read_file(path: &Path) -> Result<Parsed, ParseError> {
    if let Some(parsed) = read_large_plain(path) {
        return parsed;
    }
    if crate::profile_io::stream::is_regular_file(path) {
        return parse_input(&Input::deferred(path));
    }
    let (input, mut warnings) = Input::open(path)?;
    let mut parsed = parse_input(&input)?;
    warnings.append(&mut parsed.warnings);
    parsed.warnings = warnings;
    Ok(parsed)
}

/// A large plain ibprof file read window by window; `None` for anything else (small, gzip, a
/// pipe, PFProf JSON, text that is not UTF-8), which is read whole.
pub(super) fn read_large_plain(path: &Path) -> Option<Result<Parsed, ParseError>> {
    let large = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() >= 2 * WINDOW as u64);
    if !large || crate::profile_io::stream::is_stdin(path) {
        return None;
    }
    match read_windowed(path, WINDOW) {
        Ok(parsed) => Some(Ok(parsed)),
        Err(Fallback::Failed(e)) => Some(Err(e)),
        Err(Fallback::ReadWhole) => None,
    }
}

/// True for the names a profile directory is read for: `*.ibprof` and `*.ibprof.gz`.
fn is_profile_name(name: &str) -> bool {
    name.ends_with(".ibprof") || name.ends_with(".ibprof.gz")
}

/// Reads every profile file of `dir`, in name order, and merges them.
pub(super) fn read_dir(dir: &Path) -> Result<(Profile, Vec<Warning>), ParseError> {
    let display = dir.display().to_string();
    let entries = std::fs::read_dir(dir).map_err(|e| ParseError::io(&display, e))?;
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    let mut skipped = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| ParseError::io(&display, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_profile_name(&name) && !entry.path().is_dir() {
            match crate::profile_io::special::special_kind(&entry.path()) {
                Some(kind) => skipped.push(crate::profile_io::special::skipped_special(&entry.path(), kind)),
                None => files.push((name, entry.path())),
            }
        }
    }
    if files.is_empty() {
        return Err(ParseError::invalid(display, "no *.ibprof or *.ibprof.gz files in this directory"));
    }
    files.sort();
    let results: Vec<Result<Parsed, ParseError>> =
        files.par_iter().map(|(_, path)| read_file(path)).collect();
    let names: Vec<String> = files.iter().map(|(_, path)| path.display().to_string()).collect();
    let (profile, mut warnings) = merge(&display, &names, results)?;
    warnings.splice(0..0, skipped);
    Ok((profile, warnings))
}

/// Merges parsed files in order: the first job line wins (a differing one is a warning), a rank
/// already read is skipped with a warning, an unusable file is skipped with a warning (an error
/// only when no file is usable).
pub(super) fn merge(
    display: &str,
    names: &[String],
    results: Vec<Result<Parsed, ParseError>>,
) -> Result<(Profile, Vec<Warning>), ParseError> {
    let mut warnings = Vec::new();
    let mut merged: Option<Profile> = None;
    let mut job_from: Option<(String, usize)> = None;
    let mut first_at: std::collections::HashMap<u32, (usize, usize)> = Default::default();
    let mut first_error = None;
    for (file, result) in results.into_iter().enumerate() {
        let name = names.get(file).map_or(display, String::as_str);
        let parsed = match result {
            Ok(parsed) => parsed,
            Err(e) => {
                warnings.push(Warning::in_file(name, format!("file skipped: {e}")));
                first_error.get_or_insert(e);
                continue;
            }
        };
        warnings.extend(parsed.warnings);
        let target = merged.get_or_insert_with(|| Profile {
            job_ranks: parsed.profile.job_ranks,
            mpi: parsed.profile.mpi.clone(),
            source: parsed.profile.source,
            ranks: Vec::new(),
        });
        let job_line = parsed.job.as_ref().map(|(_, line)| *line);
        merge_job_line(target, &mut job_from, &parsed.profile, job_line, name, &mut warnings);
        let job_ranks = target.job_ranks;
        for (mut section, line) in parsed.profile.ranks.into_iter().zip(parsed.rank_lines) {
            // A file whose job line (or lack of one) allowed more ranks than the merged job.
            if section.rank >= job_ranks {
                let message = format!(
                    "rank {} is not a rank of this job ({job_ranks} ranks); this section is skipped",
                    section.rank
                );
                warnings.push(Warning::at(name, line, message));
                continue;
            }
            let beyond: usize = section
                .dumps
                .iter_mut()
                .map(|dump| {
                    let before = dump.peers.len();
                    dump.peers.retain(|p| p.peer < job_ranks);
                    before - dump.peers.len()
                })
                .sum();
            if beyond > 0 {
                let message = format!(
                    "rank {}: {beyond} peer counters name ranks beyond this job's {job_ranks}; skipped",
                    section.rank
                );
                warnings.push(Warning::at(name, line, message));
            }
            if let Some(&(f, l)) = first_at.get(&section.rank) {
                let first = names.get(f).map_or(display, String::as_str);
                let message = format!(
                    "rank {} was already read from {first}:{l}; this section is skipped",
                    section.rank
                );
                warnings.push(Warning::at(name, line, message));
                continue;
            }
            first_at.insert(section.rank, (file, line));
            target.ranks.push(section);
        }
    }
    match (merged, first_error) {
        (Some(mut profile), _) => {
            // Files are read in name order (`rank10` before `rank2`); hand ranks out in rank order.
            profile.ranks.sort_by_key(|section| section.rank);
            Ok((profile, warnings))
        }
        (None, Some(e)) => Err(e),
        (None, None) => Err(ParseError::invalid(display, "no profile files")),
    }
}

/// The merged job follows the first job line; a later one that differs is a warning. Files
/// without one size the job by their sections.
fn merge_job_line(
    target: &mut Profile,
    job_from: &mut Option<(String, usize)>,
    profile: &Profile,
    job_line: Option<usize>,
    name: &str,
    warnings: &mut Vec<Warning>,
) {
    match (&*job_from, job_line) {
        (None, Some(line)) => {
            *job_from = Some((name.to_string(), line));
            // Earlier files without a job line sized the job from their sections: keep them.
            target.job_ranks = target.job_ranks.max(profile.job_ranks);
            target.mpi = profile.mpi.clone();
            target.source = profile.source;
        }
        (Some((first, first_line)), Some(line)) => {
            let same = (target.job_ranks, &target.mpi, target.source)
                == (profile.job_ranks, &profile.mpi, profile.source);
            if !same {
                warnings.push(Warning::at(
                    name,
                    line,
                    format!("job line differs from {first}:{first_line}; keeping that one"),
                ));
            }
        }
        (None, None) => target.job_ranks = target.job_ranks.max(profile.job_ranks),
        (Some(_), None) => {}
    }
}

/// Reads a profile file or directory.
pub(super) fn read_path(path: &Path) -> Result<(Profile, Vec<Warning>), ParseError> {
    if path.is_dir() {
        return read_dir(path);
    }
    let parsed = read_file(path)?;
    Ok((parsed.profile, parsed.warnings))
}
