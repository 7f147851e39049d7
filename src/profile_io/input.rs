//! Opening an input: plain or gzip-compressed (detected by its magic bytes, not by its name), a
//! file, a pipe or standard input (`-`), held as text and handed out as numbered lines.
//!
//! An input is either text in memory (tests, pipes, standard input, bundles) or a regular file
//! read as a stream each time a parser walks it ([`Input::deferred`]). Parsers walk lines with
//! [`Input::for_each_line`] and keep owned records only, so memory follows what they keep, not
//! what a file expands to: a 1 MB gzip bomb of a billion short junk lines costs its counted
//! warnings, not 1 GiB of text (issue 16).

use std::io::Read;
use std::path::Path;

use flate2::read::MultiGzDecoder;
use rayon::prelude::*;

use super::aligned_read::append_aligned;
use super::error::ParseError;
use super::lines::{LineSummary, MAX_LINE_BYTES, split_lines};
use super::stream::changed_while_read;
use crate::model::Warning;

/// The two bytes every gzip member starts with.
pub(super) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A whole input file, decompressed and decoded, with the name used in warnings.
#[derive(Clone, Debug)]
pub struct Input {
    display: String,
    text: String,
    /// Set for an input not read yet ([`Input::deferred`]); its text is empty.
    deferred: Option<std::path::PathBuf>,
}

impl Input {
    /// Reads `path`, gunzipping it if it starts with the gzip magic bytes (whatever its name).
    /// Bytes that are not UTF-8 are replaced (with one warning), so a Latin-1 node description
    /// does not lose the whole file; lines longer than [`MAX_LINE_BYTES`] are skipped with a
    /// warning each (they stay as blank lines, so line numbers hold).
    ///
    /// `-` is standard input, and a pipe or FIFO (`<(zcat run.ibprof.gz)`, `/dev/stdin`) is
    /// read to its end. A regular file is read once, whole, and parsed from that snapshot. If its
    /// size or modification time changed while it was read (a subnet manager rewriting its dump),
    /// the read is an error: a half-old, half-new file must not become a fabric. The caller keeps
    /// what it had (the GUI its last good fabric) and may read again later.
    ///
    /// Compressed data is decompressed as a stream: memory follows the lines kept, not what the
    /// file expands to (a 1 MB gzip bomb of one endless line costs a few MB).
    pub fn open(path: &Path) -> Result<(Input, Vec<Warning>), ParseError> {
        let display = super::stream::display_name(path);
        let io = |e| ParseError::io(&display, e);
        let regular = !super::stream::is_stdin(path) && std::fs::metadata(path).map_err(io)?.is_file();
        if !regular {
            let (text, warnings) = super::stream::read_stream(path, |reader| text_of(reader, &display))?;
            return Ok((Input { display, text, deferred: None }, warnings));
        }
        let mut file = std::fs::File::open(path).map_err(io)?;
        let before = file.metadata().map_err(io)?;
        // Up to the size seen at open: a file still growing is reported below, not chased.
        let bytes = read_snapshot(&mut file, before.len()).map_err(io)?;
        let after = std::fs::metadata(path).map_err(io)?;
        if let Some(change) = changed_while_read(&before, &after, bytes.len()) {
            return Err(ParseError::invalid(
                &display,
                format!(
                    "the file changed while it was being read ({change}); read it again once it is complete"
                ),
            ));
        }
        Input::from_bytes(display, bytes)
    }

    /// Builds an input from bytes already in memory (plain or gzip), named `display` in warnings.
    /// Gzip is decompressed line by line, keeping only lines within [`MAX_LINE_BYTES`]; plain
    /// bytes that are valid UTF-8 with no over-long line become the text as they are.
    pub fn from_bytes(
        display: impl Into<String>,
        bytes: Vec<u8>,
    ) -> Result<(Input, Vec<Warning>), ParseError> {
        let display = display.into();
        let (text, warnings) = if bytes.starts_with(&GZIP_MAGIC) {
            text_of(&mut MultiGzDecoder::new(bytes.as_slice()), &display)
                .map_err(|e| ParseError::invalid(&display, format!("cannot decompress gzip data: {e}")))?
        } else {
            match decode(bytes) {
                Ok(text) => (text, Vec::new()),
                // Invalid UTF-8 or an over-long line: the careful way, line by line.
                Err(bytes) => {
                    text_of(&mut bytes.as_slice(), &display).map_err(|e| ParseError::io(&display, e))?
                }
            }
        };
        Ok((Input { display, text, deferred: None }, warnings))
    }

    /// Builds an input from text (tests, or data that is already decoded).
    pub fn from_text(display: impl Into<String>, text: impl Into<String>) -> Input {
        Input { display: display.into(), text: text.into(), deferred: None }
    }

    /// A file to be read by the parser itself, line by line, instead of whole: the rail and
    /// profile loaders make these for regular files (a big fabric's `.fdbs` is hundreds of MB, a
    /// gzip bomb 1 GiB of lines; see [`super::stream`]). Its [`Input::text`] is empty; parsers
    /// read it through [`Input::for_each_line`], which applies [`Input::open`]'s snapshot contract.
    pub fn deferred(path: &Path) -> Input {
        Input { display: path.display().to_string(), text: String::new(), deferred: Some(path.to_path_buf()) }
    }

    /// The file a [`Input::deferred`] input stands for.
    pub fn deferred_path(&self) -> Option<&Path> {
        self.deferred.as_deref()
    }

    /// The name used in warnings: the path as the user gave it.
    pub fn display(&self) -> &str {
        &self.display
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Calls `on_line(number, text, unterminated)` for every line (1-based numbers, without the
    /// line end; `unterminated` only for a last line with no line end). A [deferred](Input::deferred)
    /// input is streamed from its file (gunzipped if need be), holding one line at a time; its
    /// over-long lines and invalid UTF-8 come back as warnings in the summary, as
    /// [`Input::open`] gives them for a text.
    pub fn for_each_line(
        &self,
        mut on_line: impl FnMut(usize, &str, bool),
    ) -> Result<LineSummary, ParseError> {
        if let Some(path) = &self.deferred {
            return super::stream::read_stream(path, |reader| {
                split_lines(reader, &self.display, &mut on_line)
            });
        }
        let unterminated_last_line = self.unterminated_last_line();
        let mut lines = 0;
        for (number, line) in self.lines() {
            lines = number;
            on_line(number, line, unterminated_last_line == Some(number));
        }
        Ok(LineSummary { lines, unterminated_last_line, warnings: Vec::new() })
    }

    /// Like [`Input::for_each_line`], but only for the lines between `start` and `end` (an
    /// ibdiagnet2 `db_csv` section such as `START_PM_INFO` … `END_PM_INFO`), trailing space
    /// trimmed, in the first such section; `on_line` returns false to skip the rest of it.
    /// Also says whether the section was found.
    pub fn for_each_section_line(
        &self,
        (start, end): (&str, &str),
        mut on_line: impl FnMut(usize, &str) -> bool,
    ) -> Result<(LineSummary, bool), ParseError> {
        let (mut found, mut done) = (false, false);
        let summary = self.for_each_line(|number, line, _| {
            let line = line.trim_end();
            if done {
            } else if !found {
                found = line == start;
            } else if line == end {
                done = true;
            } else {
                done = !on_line(number, line);
            }
        })?;
        Ok((summary, found))
    }

    /// Every line with its 1-based number, without the line end (`\n` or `\r\n`). Empty for a
    /// [deferred](Input::deferred) input: use [`Input::for_each_line`].
    pub fn lines(&self) -> impl Iterator<Item = (usize, &str)> + '_ {
        self.text.lines().enumerate().map(|(i, line)| (i + 1, line))
    }

    /// The number of the last line when the file does not end with a line end: every dump
    /// writer ends its lines with `\n`, so such a last line was most likely cut short.
    pub fn unterminated_last_line(&self) -> Option<usize> {
        // A lone `\r` after the last line end is a stray carriage return, not a cut line.
        let text =
            self.text.strip_suffix('\r').filter(|t| t.is_empty() || t.ends_with('\n')).unwrap_or(&self.text);
        if text.is_empty() || text.ends_with('\n') { None } else { Some(self.text.lines().count()) }
    }

    /// The warning every parser gives for [`Input::unterminated_last_line`], if any.
    pub fn truncation_warning(&self) -> Option<Warning> {
        self.unterminated_last_line().map(|line| {
            Warning::at(
                &self.display,
                line,
                "the file ends without a line end; its last line may be truncated",
            )
        })
    }

    /// The first lines that are neither blank nor `#` comments, for guessing what a file is.
    pub fn first_meaningful_lines(&self, count: usize) -> impl Iterator<Item = &str> + '_ {
        self.text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).take(count)
    }
}

/// Files at least this large are read by two threads at once, each into its own half.
const PARALLEL_READ: u64 = 16 << 20;

/// The first `len` bytes of `file` (fewer if it is shorter now). A large file is read in two
/// halves at once: copying 100 MB out of the page cache is tens of milliseconds of one core.
fn read_snapshot(file: &mut std::fs::File, len: u64) -> std::io::Result<Vec<u8>> {
    #[cfg(unix)]
    if len >= PARALLEL_READ {
        use super::aligned_read::fill_aligned;
        use std::os::unix::fs::FileExt;
        let read_fully_at = |buf: &mut [u8], mut offset: u64| {
            fill_aligned(buf, |chunk| {
                let n = file.read_at(chunk, offset)?;
                offset += n as u64;
                Ok(n)
            })
        };
        let mut bytes = vec![0; usize::try_from(len).map_err(std::io::Error::other)?];
        let half = bytes.len() / 2;
        let (first, second) = bytes.split_at_mut(half);
        let (a, b) = rayon::join(|| read_fully_at(first, 0), || read_fully_at(second, half as u64));
        let (a, b) = (a?, b?);
        // A short first half means the file shrank: keep only what is contiguous.
        bytes.truncate(if a < half { a } else { half + b });
        return Ok(bytes);
    }
    let mut bytes = Vec::new();
    append_aligned(file, &mut bytes, usize::try_from(len).map_err(std::io::Error::other)?)?;
    Ok(bytes)
}

/// Pieces of a large input checked for UTF-8 in parallel.
const PIECE: usize = 8 << 20;

/// `String::from_utf8`, unless some line is longer than [`MAX_LINE_BYTES`] (then the bytes come
/// back too). Large inputs are checked piece by piece in parallel: a 100 MB profile otherwise
/// spends tens of milliseconds of one core here before parsing can start.
pub(crate) fn decode(bytes: Vec<u8>) -> Result<String, Vec<u8>> {
    let clean = |piece: &[u8]| std::str::from_utf8(piece).is_ok_and(|text| !has_long_line(text));
    let all_clean = if bytes.len() >= 2 * PIECE {
        pieces(&bytes).par_iter().all(|piece| clean(piece))
    } else {
        clean(&bytes)
    };
    if !all_clean {
        return Err(bytes);
    }
    // SAFETY: every piece is valid UTF-8 and every piece but the last ends just after a `\n`,
    // which is a whole one-byte character; so their concatenation, `bytes`, is valid.
    Ok(unsafe { String::from_utf8_unchecked(bytes) })
}

/// True if a line of `text` is longer than [`MAX_LINE_BYTES`]. A line is that long exactly when
/// the `MAX_LINE_BYTES + 1` bytes from its start hold no line end, so each step searches that
/// span backwards (`memrchr`) and jumps to the line after the last end found: about one search
/// per mebibyte. Visiting every line end instead (`memchr_iter`) cost a profile's reader thread
/// 2 % of a TSUBAME render's CPU time (perf).
fn has_long_line(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut start = 0;
    while bytes.len() - start > MAX_LINE_BYTES {
        match memchr::memrchr(b'\n', &bytes[start..=start + MAX_LINE_BYTES]) {
            Some(end) => start += end + 1,
            None => return true,
        }
    }
    false
}

/// The text of a stream, line by line: lines past [`MAX_LINE_BYTES`] are left blank (numbers
/// hold) with a warning, invalid UTF-8 is replaced with one warning. Line ends become `\n`.
fn text_of(reader: &mut dyn Read, display: &str) -> std::io::Result<(String, Vec<Warning>)> {
    let mut text = String::new();
    let mut next = 1;
    let summary = split_lines(reader, display, |number, line, unterminated| {
        for _ in next..number {
            text.push('\n');
        }
        text.push_str(line);
        if !unterminated {
            text.push('\n');
        }
        next = number + 1;
    })?;
    for _ in next..=summary.lines {
        text.push('\n');
    }
    Ok((text, summary.warnings))
}

/// `bytes` cut into pieces of about [`PIECE`] bytes, each ending just after a line end (the
/// last piece ends where `bytes` does).
fn pieces(bytes: &[u8]) -> Vec<&[u8]> {
    let mut pieces = Vec::new();
    let mut rest = bytes;
    while rest.len() > PIECE {
        let Some(newline) = rest[PIECE..].iter().position(|&b| b == b'\n') else { break };
        let (piece, tail) = rest.split_at(PIECE + newline + 1);
        pieces.push(piece);
        rest = tail;
    }
    pieces.push(rest);
    pieces
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;

    fn gzip(text: &str) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(text.as_bytes()).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn gzip_is_detected_by_magic_bytes_whatever_the_name() {
        let (input, warnings) = Input::from_bytes("opensm.fdbs", gzip("a\nb\n")).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(input.lines().collect::<Vec<_>>(), vec![(1, "a"), (2, "b")]);
    }

    #[test]
    fn plain_text_named_gz_is_read_as_plain_text() {
        let (input, _) = Input::from_bytes("x.lst.gz", b"plain\n".to_vec()).unwrap();
        assert_eq!(input.text(), "plain\n");
    }

    #[test]
    fn corrupt_gzip_is_an_error_naming_the_file() {
        let mut bytes = gzip("some text that compresses\n");
        bytes.truncate(12);
        let err = Input::from_bytes("rail0/opensm.fdbs.gz", bytes).unwrap_err();
        assert!(err.to_string().starts_with("rail0/opensm.fdbs.gz: cannot decompress"), "{err}");
    }

    #[test]
    fn invalid_utf8_is_replaced_with_one_warning_on_its_line() {
        let (input, warnings) = Input::from_bytes("f", b"ok\nn\xe9ud\n".to_vec()).unwrap();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].line, Some(2));
        assert_eq!(input.lines().nth(1), Some((2, "n\u{fffd}ud")));
    }

    #[test]
    fn large_inputs_are_checked_in_pieces_cut_after_line_ends() {
        let line = "peer 1 sent 1024 recv 1024 # é\n";
        let text = line.repeat(3 * PIECE / line.len());
        let cut = pieces(text.as_bytes());
        assert!(cut.len() >= 3);
        assert!(cut[..cut.len() - 1].iter().all(|p| p.ends_with(b"\n")));
        assert_eq!(cut.concat(), text.as_bytes());
        assert_eq!(decode(text.clone().into_bytes()).unwrap(), text);
        let mut bad = text.into_bytes();
        let middle = bad.len() / 2;
        bad[middle] = 0xff;
        assert!(decode(bad).is_err(), "an invalid byte in any piece is found");
    }

    #[test]
    fn a_large_file_read_in_two_halves_is_the_file() {
        let path = std::env::temp_dir().join(format!("shoal-input-halves-{}", std::process::id()));
        let text: String = (0..(PARALLEL_READ as usize / 16)).map(|i| format!("line {i:>12}\n")).collect();
        assert!(text.len() as u64 >= PARALLEL_READ);
        std::fs::write(&path, &text).unwrap();
        let (input, warnings) = Input::open(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(input.text().len(), text.len());
        assert!(input.text() == text);
    }

    #[test]
    fn crlf_line_ends_are_stripped() {
        let input = Input::from_text("f", "a\r\nb\r\n");
        assert_eq!(input.lines().map(|(_, l)| l).collect::<Vec<_>>(), vec!["a", "b"]);
        assert_eq!(input.unterminated_last_line(), None);
    }

    #[test]
    fn a_missing_final_line_end_is_reported_as_possible_truncation() {
        let input = Input::from_text("f", "a\nb\nc");
        assert_eq!(input.unterminated_last_line(), Some(3));
        assert_eq!(input.truncation_warning().and_then(|w| w.line), Some(3));
        assert_eq!(Input::from_text("f", "").unterminated_last_line(), None);
    }

    #[test]
    fn first_meaningful_lines_skip_blanks_and_comments() {
        let input = Input::from_text("f", "\n# header\n  \nfirst\nsecond\n");
        assert_eq!(input.first_meaningful_lines(5).collect::<Vec<_>>(), vec!["first", "second"]);
    }

    #[test]
    fn open_reads_a_whole_file_as_one_snapshot() {
        let dir = std::env::temp_dir().join(format!("shoal-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.lst");
        std::fs::write(&path, "a\nb\n").unwrap();
        let (input, warnings) = Input::open(&path).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(input.text(), "a\nb\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_over_long_line_is_left_blank_with_a_warning_and_numbers_hold() {
        for compress in [false, true] {
            let text = format!("first\n{}\nthird\n", "x".repeat(MAX_LINE_BYTES + 1));
            let bytes = if compress { gzip(&text) } else { text.into_bytes() };
            let (input, warnings) = Input::from_bytes("long.fdbs", bytes).unwrap();
            assert_eq!(input.lines().collect::<Vec<_>>(), vec![(1, "first"), (2, ""), (3, "third")]);
            assert_eq!(warnings.len(), 1, "compressed: {compress}");
            assert_eq!(warnings[0].line, Some(2));
            assert!(warnings[0].message.contains("MAX_LINE_BYTES"), "{}", warnings[0].message);
        }
    }

    #[test]
    fn a_fifo_given_as_a_path_is_read_to_its_end() {
        let dir = std::env::temp_dir().join(format!("shoal-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("profile.pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let writer_path = fifo.clone();
        let writer = std::thread::spawn(move || {
            let mut pipe = std::fs::OpenOptions::new().write(true).open(writer_path).unwrap();
            pipe.write_all(&gzip("one\ntwo\n")).unwrap();
        });
        let (input, warnings) = Input::open(&fifo).unwrap();
        writer.join().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(input.text(), "one\ntwo\n", "a pipe's size on disk is 0, its content is not");
        assert_eq!(input.display(), fifo.display().to_string());
    }

    #[test]
    fn a_line_is_long_only_past_the_limit_wherever_it_sits() {
        let line = |n: usize| "x".repeat(n);
        let at_limit = line(MAX_LINE_BYTES);
        let over = line(MAX_LINE_BYTES + 1);
        assert!(!has_long_line(&at_limit));
        assert!(has_long_line(&over));
        assert!(!has_long_line(&format!("{at_limit}\n{at_limit}\n{at_limit}")));
        assert!(has_long_line(&format!("a\n{at_limit}\n{over}\nb\n")));
        assert!(has_long_line(&format!("{}\n{over}", "short\n".repeat(300_000))));
        assert!(!has_long_line(&format!("{}\n{at_limit}", "short\n".repeat(300_000))));
        assert!(!has_long_line(&"\n".repeat(3 * MAX_LINE_BYTES)));
    }
}
