//! Reading a large plain profile window by window, so that its text is never held whole next to
//! the profile it becomes: a 20,000-region profile is 60 MB of text for 60 MB of dumps, and
//! holding both made reading it the peak of `shoal hot --region N` (issue 13).
//!
//! Each window is cut at the last line that starts a rank section and parsed as a piece
//! ([`Pieces`]); the rest waits for the next window. The file is read up to the size it had when
//! opened, and a change while it was read is an error, as for every other input. Anything the
//! fast path cannot take (gzip, PFProf JSON, text that is not UTF-8, over-long lines, a pipe) is read whole
//! instead, by the caller.

use std::io::Read;
use std::path::Path;

use crate::profile_io::aligned_read::append_aligned;
use crate::profile_io::error::ParseError;
use crate::profile_io::input::decode;
use crate::profile_io::stream::changed_while_read;

use super::read::{Parsed, Pieces};

/// Bytes read per window. Three windows' worth of text is the most held at once: one parsed, one
/// waiting, one being read.
pub(super) const WINDOW: usize = 8 << 20;

/// Why the windowed reader gave the file back: the caller reads it whole.
pub(super) enum Fallback {
    /// Compressed, or not valid UTF-8, or with a line too long to keep, or no section boundary
    /// for four windows: the streaming reader handles it (and warns).
    ReadWhole,
    Failed(ParseError),
}

impl From<ParseError> for Fallback {
    fn from(e: ParseError) -> Self {
        Fallback::Failed(e)
    }
}

/// Reads the regular file `path` window by window (`window` bytes each). A reader thread reads,
/// cuts and checks the next window while this one's sections are parsed: done in turn, that
/// work ran on one core between the parallel parses (TSUBAME's 100 MB all-to-all: 0.87 s
/// instead of 0.93 s for the whole `render`, medians of six interleaved runs).
///
/// Parsed windows go back to the reader to be filled again: with a fresh buffer per window,
/// the kernel mapping and zeroing new pages for them was a sixth of that profile's reading time
/// (perf). Three windows are still the most held: the reader takes a spare only once it has
/// sent its window, that is once the parser has taken the one before.
pub(super) fn read_windowed(path: &Path, window: usize) -> Result<Parsed, Fallback> {
    let display = path.display().to_string();
    // One window waits while one is parsed: three windows' text at most, with the one being read.
    let (texts, received) = std::sync::mpsc::sync_channel::<Result<String, Fallback>>(1);
    let (give_back, spares) = std::sync::mpsc::sync_channel::<Vec<u8>>(2);
    std::thread::scope(|scope| {
        let shown = &display;
        scope.spawn(move || {
            if let Err(stop) = read_texts(path, shown, window, &texts, &spares) {
                // The parser may have stopped first; then nobody needs to hear why.
                let _ = texts.send(Err(stop));
            }
        });
        let mut pieces = Pieces::new(&display);
        // Dropping `received` on an early return stops the reader at its next window.
        for text in received {
            let text = text?;
            pieces.add(&text)?;
            // Full (the reader has spares enough) or gone: then the buffer is simply freed.
            let _ = give_back.try_send(text.into_bytes());
        }
        Ok(pieces.finish())
    })
}

/// Sends the file's text window by window, each cut after its last section start, until the
/// end, a reason to read it whole, or the parser hanging up. Buffers come from `spares` when
/// the parser has given one back.
fn read_texts(
    path: &Path,
    display: &str,
    window: usize,
    texts: &std::sync::mpsc::SyncSender<Result<String, Fallback>>,
    spares: &std::sync::mpsc::Receiver<Vec<u8>>,
) -> Result<(), Fallback> {
    let io = |e| Fallback::Failed(ParseError::io(display, e));
    let mut file = std::fs::File::open(path).map_err(io)?;
    let before = file.metadata().map_err(io)?;
    let mut reader = (&mut file).take(before.len());
    let mut pending: Vec<u8> = Vec::new();
    let mut read = 0usize;
    loop {
        // Into spare capacity, not zeroed first: zeroing each window was 1.5 % of a TSUBAME render.
        let got = append_aligned(&mut reader, &mut pending, window).map_err(io)?;
        // Gzip, or PFProf JSON (an object or an array): not for this reader.
        if read == 0
            && (pending.starts_with(&[0x1f, 0x8b])
                || matches!(pending.trim_ascii_start().first(), Some(b'{' | b'[')))
        {
            return Err(Fallback::ReadWhole);
        }
        read += got;
        let end = got < window;
        let cut = if end { pending.len() } else { last_rank_line(&pending).unwrap_or(0) };
        if cut == 0 && !end {
            // No rank line for four windows (one huge section, or a bomb of junk lines): the
            // streaming reader takes it, holding only what it parses (issue 16).
            if pending.len() >= 4 * window.max(WINDOW) {
                return Err(Fallback::ReadWhole);
            }
            continue;
        }
        // The head of the next window's first section, held only until its buffer is found (a
        // kept one would be one more section's text held for good).
        let carry = pending[cut..].to_vec();
        pending.truncate(cut);
        let text = decode(std::mem::take(&mut pending)).map_err(|_| Fallback::ReadWhole)?;
        if texts.send(Ok(text)).is_err() {
            return Ok(()); // the parser stopped
        }
        if end {
            break;
        }
        // Sent: so the parser has taken the window before, and given back the one before that.
        pending = spares.try_recv().unwrap_or_default();
        pending.clear();
        // Exactly: a doubled window would be held from then on.
        pending.reserve_exact(carry.len() + window);
        pending.extend_from_slice(&carry);
    }
    let after = std::fs::metadata(path).map_err(io)?;
    if let Some(change) = changed_while_read(&before, &after, read) {
        return Err(Fallback::Failed(ParseError::invalid(
            display,
            format!("the file changed while it was being read ({change}); read it again once it is complete"),
        )));
    }
    Ok(())
}

/// Where the last line that starts a rank section begins, if after the first byte.
fn last_rank_line(bytes: &[u8]) -> Option<usize> {
    let mut end = bytes.len();
    while let Some(newline) = bytes[..end].iter().rposition(|&b| b == b'\n') {
        let at = newline + 1;
        if bytes.get(at..at + 5).is_some_and(|w| w.starts_with(b"rank") && matches!(w[4], b' ' | b'\t')) {
            return Some(at);
        }
        end = newline;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile_io::ibprof::read::parse_text;
    use crate::profile_io::test_files::temp;

    fn sections(n: u32) -> String {
        let mut text = String::from("ibprof 1\njob ranks 40 source pmpi\n");
        for r in 0..n {
            text.push_str(&format!("rank {r} host n{r} starttime 1\n"));
            for region in 1..=3 {
                text.push_str(&format!("region {region} name \"step\" dumptime {}\n", 1 + region));
                text.push_str(&format!("peer {} sent {} recv 1\n", (r + 1) % n, region * 100));
            }
        }
        text
    }

    #[test]
    fn a_profile_read_in_small_windows_equals_the_whole_text_parsed_at_once() {
        // Bad lines, a repeated rank and a cut last line: the warnings' line numbers must hold.
        let text =
            format!("{}rank 3 host x\npeer oops\nregion 9 dumptime 5\npeer 1 sent 1 recv", sections(30));
        let file = temp("windows.ibprof", text.as_bytes());
        let whole = parse_text(&text, &file.display().to_string()).unwrap();
        assert!(!whole.warnings.is_empty());
        for window in [16, 100, 1000, 1 << 20] {
            let Ok(windowed) = read_windowed(&file, window) else { panic!("window {window}") };
            assert_eq!(windowed.profile, whole.profile, "window {window}");
            assert_eq!(windowed.warnings, whole.warnings, "window {window}");
            assert_eq!(windowed.rank_lines, whole.rank_lines, "window {window}");
        }
    }

    #[test]
    fn gzip_or_text_that_is_not_utf8_is_handed_back_to_be_read_whole() {
        let gz = temp("gzip.ibprof", &[0x1f, 0x8b, 8, 0]);
        assert!(matches!(read_windowed(&gz, 64), Err(Fallback::ReadWhole)));
        let latin = temp("latin.ibprof", b"ibprof 1\nrank 0 host caf\xe9 starttime 1\n");
        assert!(matches!(read_windowed(&latin, 64), Err(Fallback::ReadWhole)));
    }

    #[test]
    fn text_that_is_not_utf8_in_a_later_window_hands_the_file_back_after_the_first_windows_parsed() {
        let mut bytes = sections(30).into_bytes();
        bytes.extend_from_slice(b"rank 30 host caf\xe9 starttime 1\n");
        let file = temp("later-latin.ibprof", &bytes);
        assert!(matches!(read_windowed(&file, 64), Err(Fallback::ReadWhole)));
    }

    #[test]
    fn a_file_without_the_header_is_the_same_error_as_when_read_whole() {
        let file = temp("no-header.ibprof", b"rank 0 host a starttime 1\n");
        let whole = parse_text("rank 0 host a starttime 1\n", &file.display().to_string()).unwrap_err();
        match read_windowed(&file, 8) {
            Err(Fallback::Failed(e)) => assert_eq!(e.to_string(), whole.to_string()),
            _ => panic!("expected the header error"),
        }
    }
}
