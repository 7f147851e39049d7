//! Reading one ibprof text: cut it into chunks at lines that start a rank section, parse the
//! chunks in parallel (rayon), then join them in file order with absolute line numbers.
//!
//! Why cut at `rank` lines: a rank's section is self-contained (its ports, regions and counters),
//! so the only state a chunk needs is the job line from the prelude. Chunks hold whole sections,
//! about 1/64 of the text each: an all-to-all profile of 1,296 ranks (107 MB) makes 64 chunks of
//! ~20 sections, enough to keep every core busy to the end.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::model::{Profile, Warning};
use crate::profile_io::error::ParseError;
use crate::profile_io::line_warnings::MAX_LINE_WARNINGS;

use super::chunk::{Chunk, Context, Job, parse_chunk};

/// One parsed text, with what a directory merge needs to know about it.
#[derive(Debug)]
pub(super) struct Parsed {
    pub profile: Profile,
    pub warnings: Vec<Warning>,
    /// The job line and its line number, if the text had one.
    pub job: Option<(Job, usize)>,
    /// The line of each rank's `rank` line, aligned with `profile.ranks`.
    pub rank_lines: Vec<usize>,
}

/// Chunks are at least this big, so that small files are not cut into crumbs.
const MIN_CHUNK_BYTES: usize = 64 * 1024;

/// How many chunks a large text is cut into (a few per core keeps the cores evenly busy).
const CHUNKS: usize = 64;

/// True if a line starting at `at` is a `rank` line (`rank` and a space or tab).
pub(super) fn is_rank_line(bytes: &[u8], at: usize) -> bool {
    bytes.get(at..at + 5).is_some_and(|w| w.starts_with(b"rank") && matches!(w[4], b' ' | b'\t'))
}

/// The first `rank` line starting at or after byte `from`.
fn next_rank_line(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    if from == 0 && is_rank_line(bytes, 0) {
        return Some(0);
    }
    // From the byte before `from`, so that a line starting exactly at `from` is found. Bytes,
    // not `str` slicing: `from` need not be a character boundary.
    let mut search = from.saturating_sub(1);
    while let Some(newline) = bytes.get(search..)?.iter().position(|&b| b == b'\n') {
        let at = search + newline + 1;
        if is_rank_line(bytes, at) {
            return Some(at);
        }
        search = at;
    }
    None
}

/// Where chunks start: the first at the first `rank` line (before it is the prelude), then the
/// first `rank` line after every chunk-size step. Only the bytes after each step are searched,
/// not the whole text.
fn chunk_starts(text: &str) -> Vec<usize> {
    let step = (text.len() / CHUNKS).max(MIN_CHUNK_BYTES);
    let mut starts = Vec::new();
    let mut next = next_rank_line(text, 0);
    while let Some(at) = next {
        starts.push(at);
        next = next_rank_line(text, at + step);
    }
    starts
}

/// Parses a whole ibprof v1 text. `display` names it in warnings and errors.
pub(super) fn parse_text(text: &str, display: &str) -> Result<Parsed, ParseError> {
    let mut pieces = Pieces::new(display);
    pieces.add(text)?;
    Ok(pieces.finish())
}

/// A text parsed piece by piece, so that a large file need not be held whole (issue 13): each
/// piece but the last must end where a `rank` line starts (or at the end of the text), which is
/// where [`parse_text`] cuts its chunks too, so the result is the same.
pub(super) struct Pieces<'d> {
    display: &'d str,
    prelude: Option<Chunk>,
    ctx: Context,
    chunks: Vec<Chunk>,
    /// What follows the last line end of the last piece (empty when it ends with one).
    tail: String,
}

impl<'d> Pieces<'d> {
    pub(super) fn new(display: &'d str) -> Self {
        Pieces { display, prelude: None, ctx: Context::default(), chunks: Vec::new(), tail: String::new() }
    }

    /// Parses the next piece. The first must open with the `ibprof 1` header (else `Err`).
    pub(super) fn add(&mut self, text: &str) -> Result<(), ParseError> {
        let display = self.display;
        let mut starts = chunk_starts(text);
        if self.prelude.is_none() {
            let prelude_end = starts.first().copied().unwrap_or(text.len());
            let prelude = parse_chunk(&text[..prelude_end], true, &Context::default())
                .map_err(|(line, message)| ParseError::syntax(display, line, message))?;
            if !prelude.header_seen {
                return Err(match starts.is_empty() {
                    true => ParseError::invalid(display, "empty profile: no `ibprof 1` header line"),
                    false => ParseError::syntax(
                        display,
                        prelude.lines + 1,
                        "not an ibprof profile: a `rank` line before the `ibprof 1` header",
                    ),
                });
            }
            self.ctx = Context { job: prelude.job.clone() };
            self.prelude = Some(prelude);
        } else if starts.first() != Some(&0) && !text.is_empty() {
            // A later piece that does not start at a `rank` line: its head belongs to the section
            // before (only the windowed reader makes pieces, and it never cuts there).
            starts.insert(0, 0);
        }
        let ctx = &self.ctx;
        let chunks: Vec<Chunk> = starts
            .par_iter()
            .enumerate()
            .map(|(i, &start)| {
                let end = starts.get(i + 1).copied().unwrap_or(text.len());
                // A section chunk never fails: only the prelude checks the header.
                parse_chunk(&text[start..end], false, ctx).unwrap_or_default()
            })
            .collect();
        self.chunks.extend(chunks);
        self.tail = text.rsplit('\n').next().unwrap_or("").to_string();
        Ok(())
    }

    /// Joins what the pieces held (an empty profile's error comes from [`Pieces::add`]).
    pub(super) fn finish(self) -> Parsed {
        let prelude = self.prelude.unwrap_or_default();
        assemble(!self.tail.trim().is_empty(), self.display, prelude, self.chunks)
    }
}

/// Joins the chunks in order: absolute line numbers, duplicate ranks, the job, warnings in
/// line order with the usual cap. `cut` says the text ends inside a line (no line end).
pub(super) fn assemble(cut: bool, display: &str, mut prelude: Chunk, chunks: Vec<Chunk>) -> Parsed {
    let job = prelude.job.take();
    let mut lines: Vec<(usize, String)> = Vec::new();
    let mut suppressed = 0;
    let mut file_notes: Vec<String> = Vec::new();
    let mut max_rank_seen = None;
    let mut profile = Profile::default();
    let mut rank_lines = Vec::new();
    let mut first_line_of: HashMap<u32, usize> = HashMap::new();
    let mut offset = 0;
    // The prelude can hold sections too: a first `rank` line indented is not a chunk boundary.
    for chunk in std::iter::once(prelude).chain(chunks) {
        suppressed += chunk.suppressed;
        lines.extend(chunk.warnings.into_iter().map(|(line, message)| (offset + line, message)));
        max_rank_seen = max_rank_seen.max(chunk.max_rank_seen);
        for (line, section) in chunk.sections {
            let line = offset + line;
            match first_line_of.get(&section.rank) {
                Some(first) => lines.push((
                    line,
                    format!(
                        "rank {} appears again (first on line {first}); this section is skipped",
                        section.rank
                    ),
                )),
                None => {
                    first_line_of.insert(section.rank, line);
                    rank_lines.push(line);
                    profile.ranks.push(section);
                }
            }
        }
        offset += chunk.lines;
    }
    if cut {
        const CUT: &str = "the file ends without a line end; its last line may be truncated";
        match lines.iter_mut().rev().find(|(line, _)| *line == offset) {
            Some((_, message)) => message.push_str(&format!(" ({CUT})")),
            None => lines.push((offset, CUT.into())),
        }
    }
    match &job {
        Some((job, _)) => {
            profile.job_ranks = job.ranks.unwrap_or_else(|| max_rank_seen.map_or(0, |m| m.saturating_add(1)));
            profile.mpi = job.mpi.clone();
            profile.source = job.source;
        }
        None => {
            profile.job_ranks = max_rank_seen.map_or(0, |m| m.saturating_add(1));
            file_notes.push(format!(
                "no `job` line; job ranks taken as {}, one more than the highest rank or peer",
                profile.job_ranks
            ));
        }
    }
    Parsed { profile, warnings: finish_warnings(display, lines, suppressed, file_notes), job, rank_lines }
}

/// Sorts line warnings by line (stable), keeps the first [`MAX_LINE_WARNINGS`], counts the rest.
fn finish_warnings(
    display: &str,
    mut lines: Vec<(usize, String)>,
    mut suppressed: usize,
    file_notes: Vec<String>,
) -> Vec<Warning> {
    lines.sort_by_key(|(line, _)| *line);
    if lines.len() > MAX_LINE_WARNINGS {
        suppressed += lines.len() - MAX_LINE_WARNINGS;
        lines.truncate(MAX_LINE_WARNINGS);
    }
    let mut warnings: Vec<Warning> =
        lines.into_iter().map(|(line, message)| Warning::at(display, line, message)).collect();
    warnings.extend(file_notes.into_iter().map(|message| Warning::in_file(display, message)));
    if suppressed > 0 {
        warnings.push(Warning::in_file(
            display,
            format!("{suppressed} more problem lines not listed (only the first {MAX_LINE_WARNINGS} are)"),
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_start_only_at_lines_beginning_with_the_rank_keyword() {
        let text =
            "ibprof 1\nrank 0 host a starttime 1\n  rank 1\nranks 2\n# rank 3\nrank\t4 host b starttime 1\n";
        assert_eq!(next_rank_line(text, 0), Some(9));
        let after = next_rank_line(text, 10).unwrap();
        assert_eq!(&text[after..after + 6], "rank\t4");
        assert_eq!(next_rank_line(text, after + 1), None);
        assert_eq!(next_rank_line("rank 0 host a\n", 0), Some(0));
        assert_eq!(next_rank_line("rank", 0), None);
        assert_eq!(next_rank_line("x", 5), None);
        let wide = "ibprof 1\nrank 0 host \"é\" starttime 1\nrank 1 host b starttime 1\n";
        assert_eq!(next_rank_line(wide, 22), Some(38));
    }

    #[test]
    fn large_texts_are_cut_into_chunks_at_rank_lines() {
        let section = format!("rank 0 host a starttime 1\n{}", "peer 1 sent 1 recv 1\n".repeat(1000));
        let text = format!("ibprof 1\n{}", section.repeat(400));
        let starts = chunk_starts(&text);
        assert!(starts.len() > 16 && starts.len() <= CHUNKS + 1, "{}", starts.len());
        assert!(starts.iter().all(|&at| text[at..].starts_with("rank 0 ")));
        assert!(starts.windows(2).all(|w| w[0] < w[1]));
    }
}
