//! Reading a file line by line through one reused buffer, for the forwarding tables of big
//! fabrics (a k = 36 three-level fat tree has a 580 MB `.fdbs` per rail, and holding two of them
//! whole costs 1.2 GB), and opening any source as a stream: a regular file, a pipe or FIFO
//! (`--profile <(zcat run.ibprof.gz)`, `/dev/stdin`), or standard input named `-`.
//!
//! The contract for a regular file is [`Input::open`](super::Input::open)'s: it is read once,
//! start to end; if its size or modification time changes meanwhile, the result is an error, so
//! a dump being rewritten never becomes a half-old, half-new table. A pipe has no size: it is
//! read to its end. Gzip is detected by its magic bytes. Invalid UTF-8 is replaced, with one
//! warning; lines longer than [`MAX_LINE_BYTES`](super::lines::MAX_LINE_BYTES) are skipped.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

use super::aligned_read::fill_aligned;
use super::error::ParseError;
use super::lines::{LineSink, split_lines_into};
use crate::model::Warning;

/// The path that names standard input where one file is expected (`--profile -`).
pub const STDIN_PATH: &str = "-";

/// How standard input is named in warnings and errors.
pub const STDIN_NAME: &str = "standard input";

/// True for `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN_PATH
}

/// True for a regular file (not `-`, a pipe, a FIFO or a device): one that can be read twice,
/// so it is streamed by its parser rather than read whole first.
pub fn is_regular_file(path: &Path) -> bool {
    !is_stdin(path) && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// The name of `path` in warnings: the path as given, or `standard input` for `-`.
pub fn display_name(path: &Path) -> String {
    if is_stdin(path) { STDIN_NAME.to_string() } else { path.display().to_string() }
}

/// What [`for_each_line`] learnt about the file besides its lines.
#[derive(Debug, Default)]
pub struct StreamSummary {
    /// The number of the last line if the file does not end with a line end (likely truncated).
    pub unterminated_last_line: Option<usize>,
    pub warnings: Vec<Warning>,
}

/// Calls `line(number, text, unterminated)` for every line of the file at `path` (1-based
/// numbers, without the line end; `unterminated` is true only for a last line with no line end).
pub fn for_each_line(
    path: &Path,
    mut line: impl FnMut(usize, &str, bool),
) -> Result<StreamSummary, ParseError> {
    for_each_line_into(path, &mut line)
}

/// [`for_each_line`] into any [`LineSink`], such as a parser with a fast path for its rows.
pub fn for_each_line_into(path: &Path, sink: &mut impl LineSink) -> Result<StreamSummary, ParseError> {
    let display = display_name(path);
    let summary = read_stream(path, |reader| split_lines_into(reader, &display, sink))?;
    Ok(StreamSummary { unterminated_last_line: summary.unterminated_last_line, warnings: summary.warnings })
}

/// Opens `path` (or standard input for `-`), gunzips it if it starts with the gzip magic, and
/// hands the decoded stream to `body`. A regular file is read up to the size it had when
/// opened, and an error if it changed meanwhile; anything else (pipe, FIFO, device) is read to
/// its end.
pub fn read_stream<T>(
    path: &Path,
    body: impl FnOnce(&mut dyn Read) -> std::io::Result<T>,
) -> Result<T, ParseError> {
    let display = display_name(path);
    let io = |e| ParseError::io(&display, e);
    if is_stdin(path) {
        return decode_stream(std::io::stdin().lock(), &display, body);
    }
    let mut file = File::open(path).map_err(io)?;
    let before = file.metadata().map_err(io)?;
    if !before.is_file() {
        return decode_stream(file, &display, body);
    }
    let mut raw_bytes = 0usize;
    // Only the bytes the file had when opened: a file that keeps growing is not chased, it is
    // reported as changed below.
    let counted = CountingReader { inner: (&mut file).take(before.len()), count: &mut raw_bytes };
    let result = decode_stream(counted, &display, body)?;
    let after = std::fs::metadata(path).map_err(io)?;
    if let Some(change) = changed_while_read(&before, &after, raw_bytes) {
        return Err(ParseError::invalid(
            &display,
            format!("the file changed while it was being read ({change}); read it again once it is complete"),
        ));
    }
    Ok(result)
}

/// The first `limit` bytes of the file at `path` as text (gunzipped if need be, invalid UTF-8
/// replaced): enough to tell its format without reading it all.
pub fn head(path: &Path, limit: u64) -> Result<String, ParseError> {
    let display = display_name(path);
    let file = File::open(path).map_err(|e| ParseError::io(&display, e))?;
    decode_stream(file, &display, |reader| {
        let mut bytes = Vec::new();
        reader.take(limit).read_to_end(&mut bytes)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    })
}

/// Peeks at the first two bytes of `raw` and hands `body` the stream, gunzipped if they are the
/// gzip magic.
fn decode_stream<T>(
    mut raw: impl Read,
    display: &str,
    body: impl FnOnce(&mut dyn Read) -> std::io::Result<T>,
) -> Result<T, ParseError> {
    let mut magic = [0u8; 2];
    let got = fill_aligned(&mut magic, |chunk| raw.read(chunk)).map_err(|e| ParseError::io(display, e))?;
    let chained = std::io::Cursor::new(magic[..got].to_vec()).chain(raw);
    if magic[..got] == [0x1f, 0x8b] {
        let mut reader = MultiGzDecoder::new(BufReader::with_capacity(1 << 20, chained));
        body(&mut reader)
            .map_err(|e| ParseError::invalid(display, format!("cannot decompress gzip data: {e}")))
    } else {
        let mut reader = chained;
        body(&mut reader).map_err(|e| ParseError::io(display, e))
    }
}

/// Counts the raw bytes taken from the file, to compare with its size afterwards.
struct CountingReader<'c, R> {
    inner: R,
    count: &'c mut usize,
}

impl<R: Read> Read for CountingReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        *self.count += n;
        Ok(n)
    }
}

/// What differs between the metadata taken before and after reading `read` bytes, if anything.
pub fn changed_while_read(
    before: &std::fs::Metadata,
    after: &std::fs::Metadata,
    read: usize,
) -> Option<String> {
    if before.len() != after.len() || read as u64 != after.len() {
        return Some(format!("{} bytes before, {} read, {} after", before.len(), read, after.len()));
    }
    match (before.modified(), after.modified()) {
        (Ok(b), Ok(a)) if a != b => Some("its modification time moved".into()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;
    use crate::profile_io::Input;
    use crate::profile_io::test_files::temp;

    fn lines_of(path: &Path) -> (Vec<(usize, String, bool)>, StreamSummary) {
        let mut seen = Vec::new();
        let summary = for_each_line(path, |n, l, last| seen.push((n, l.to_string(), last))).unwrap();
        (seen, summary)
    }

    #[test]
    fn lines_match_what_a_whole_input_gives_across_piece_boundaries() {
        // Lines of every length around the piece size, CRLF ends and a cut last line.
        let mut text = String::new();
        for i in 0..3000usize {
            text.push_str(&"x".repeat(i * 7 % 4001));
            text.push_str(if i % 3 == 0 { "\r\n" } else { "\n" });
        }
        text.push_str("cut");
        // Over 4 MiB (one piece) before the varied lines, so piece ends fall inside them.
        let big = format!("{}{text}", ("y".repeat(999) + "\n").repeat(4300));
        let path = temp("a.fdbs", big.as_bytes());
        let (seen, summary) = lines_of(&path);
        let input = Input::from_text("a", big.clone());
        let expected: Vec<(usize, String, bool)> = input
            .lines()
            .map(|(n, l)| (n, l.to_string(), Some(n) == input.unterminated_last_line()))
            .collect();
        assert_eq!(seen, expected);
        assert_eq!(summary.unterminated_last_line, input.unterminated_last_line());
        assert!(summary.warnings.is_empty());
    }

    #[test]
    fn gzip_is_read_by_magic_and_bad_utf8_warns_once_on_its_line() {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(b"one\nn\xe9ud\nthr\xe9e\n").unwrap();
        let path = temp("b.fdbs.gz", &encoder.finish().unwrap());
        let (seen, summary) = lines_of(&path);
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[1].1, "n\u{fffd}ud");
        assert_eq!(summary.warnings.len(), 1);
        assert_eq!(summary.warnings[0].line, Some(2));
        assert_eq!(summary.unterminated_last_line, None);
    }

    #[test]
    fn a_corrupt_gzip_stream_is_an_error_naming_the_file() {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all("row\n".repeat(1000).as_bytes()).unwrap();
        let mut bytes = encoder.finish().unwrap();
        bytes.truncate(bytes.len() / 2);
        let path = temp("c.fdbs.gz", &bytes);
        let err = for_each_line(&path, |_, _, _| {}).unwrap_err();
        assert!(err.to_string().contains("cannot decompress"), "{err}");
    }

    #[test]
    fn a_file_written_to_while_it_is_read_is_an_error_not_a_half_read_table() {
        let path = temp("d.fdbs", "dump_ucast_routes: Switch 0x1\n0x0001 : 001  : 01   : yes\n".as_bytes());
        let mut appended = false;
        let err = for_each_line(&path, |_, _, _| {
            if !std::mem::replace(&mut appended, true) {
                // The subnet manager writes more while we read.
                let mut file = std::fs::OpenOptions::new().append(true).open(&*path).unwrap();
                file.write_all(b"0x0002 : 002  : 01   : yes\n").unwrap();
            }
        })
        .unwrap_err();
        assert!(err.to_string().contains("changed while it was being read"), "{err}");
        let (tables, _) = crate::profile_io::fdbs::read_fdbs_file(&path).unwrap();
        assert_eq!(tables.values().next().map(|t| t.lft.len()), Some(2), "read again once complete");
    }

    #[test]
    fn a_file_that_grows_or_is_rewritten_between_two_looks_is_reported_as_changed() {
        let dir = std::env::temp_dir().join(format!("shoal-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("opensm.fdbs");
        std::fs::write(&path, "dump_ucast_routes: Switch 0x1\n").unwrap();
        let before = std::fs::metadata(&path).unwrap();
        assert_eq!(changed_while_read(&before, &before, before.len() as usize), None);
        // Bytes read that do not match the size: the file was cut or grew during the read.
        assert!(changed_while_read(&before, &before, 3).is_some());
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"0x0001 : 001\n").unwrap();
        let after = std::fs::metadata(&path).unwrap();
        let change = changed_while_read(&before, &after, before.len() as usize).unwrap();
        assert!(change.contains("bytes before"), "{change}");
        // A rewrite to the same size is caught by the modification time.
        let same_size = std::fs::metadata(&path).unwrap();
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_modified(same_size.modified().unwrap() + std::time::Duration::from_secs(5)).unwrap();
        let rewritten = std::fs::metadata(&path).unwrap();
        let read = same_size.len() as usize;
        assert_eq!(
            changed_while_read(&same_size, &rewritten, read).as_deref(),
            Some("its modification time moved")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
