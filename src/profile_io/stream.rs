//! Reading a large file line by line through one reused buffer, for the forwarding tables of big
//! fabrics: a k = 36 three-level fat tree has a 580 MB `.fdbs` per rail, and holding two of them
//! whole costs 1.2 GB plus the time the kernel takes to hand out that much fresh memory.
//!
//! The contract is [`Input::open`](super::Input::open)'s: the file is read once, start to end;
//! if its size or modification time changes meanwhile, the result is an error, so a dump being
//! rewritten never becomes a half-old, half-new table. Gzip is detected by its magic bytes.
//! Invalid UTF-8 is replaced, with one warning.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

use super::error::ParseError;
use super::input::changed_while_read;
use crate::model::Warning;

/// Bytes read at a time; lines are cut at the last line end of each piece.
const PIECE: usize = 4 << 20;

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
    let display = path.display().to_string();
    let io = |e| ParseError::io(&display, e);
    let mut file = File::open(path).map_err(io)?;
    let before = file.metadata().map_err(io)?;
    let mut magic = [0u8; 2];
    let got = read_full(&mut file, &mut magic).map_err(io)?;
    let head = std::io::Cursor::new(magic[..got].to_vec());
    let gzip = magic[..got] == [0x1f, 0x8b];
    let mut raw_bytes = 0usize;
    // Only the bytes the file had when opened: a file that keeps growing is not chased (each
    // piece would find a few new bytes), it is reported as changed below.
    let rest = before.len().saturating_sub(got as u64);
    let counted = CountingReader { inner: head.chain((&mut file).take(rest)), count: &mut raw_bytes };
    let mut reader: Box<dyn Read + '_> = if gzip {
        Box::new(MultiGzDecoder::new(BufReader::with_capacity(1 << 20, counted)))
    } else {
        Box::new(counted)
    };
    let mut summary = StreamSummary::default();
    let mut buffer: Vec<u8> = Vec::with_capacity(PIECE);
    let mut number = 0usize;
    let mut warned_utf8 = false;
    loop {
        let kept = buffer.len();
        buffer.resize(kept + PIECE, 0);
        let read = read_full(&mut reader, &mut buffer[kept..]).map_err(|e| {
            if gzip {
                ParseError::invalid(&display, format!("cannot decompress gzip data: {e}"))
            } else {
                io(e)
            }
        })?;
        buffer.truncate(kept + read);
        let at_end = read == 0;
        let complete = if at_end {
            buffer.len()
        } else {
            match buffer.iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None => continue, // one line longer than a piece: read on
            }
        };
        let text = match std::str::from_utf8(&buffer[..complete]) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(e) => {
                if !warned_utf8 {
                    warned_utf8 = true;
                    let bad_line =
                        number + 1 + buffer[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
                    summary.warnings.push(Warning::at(
                        &display,
                        bad_line,
                        "text is not valid UTF-8; invalid bytes were replaced with U+FFFD",
                    ));
                }
                String::from_utf8_lossy(&buffer[..complete])
            }
        };
        let unterminated = at_end && !text.is_empty() && !text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(&text);
        if !text.is_empty() {
            // A byte loop: table rows are ~27 bytes, too short for `memchr` to pay off.
            let bytes = body.as_bytes();
            let mut start = 0;
            loop {
                let end = bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| start + i);
                let l = &body[start..end];
                number += 1;
                line(number, l.strip_suffix('\r').unwrap_or(l), unterminated && end == bytes.len());
                if end == bytes.len() {
                    break;
                }
                start = end + 1;
            }
        }
        if unterminated {
            summary.unterminated_last_line = Some(number);
        }
        if at_end {
            break;
        }
        buffer.drain(..complete);
    }
    drop(reader);
    let after = std::fs::metadata(path).map_err(io)?;
    if let Some(change) = changed_while_read(&before, &after, raw_bytes) {
        return Err(ParseError::invalid(
            &display,
            format!("the file changed while it was being read ({change}); read it again once it is complete"),
        ));
    }
    Ok(summary)
}

/// Reads until `buf` is full or the reader ends; returns the bytes read.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
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

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;
    use crate::profile_io::Input;

    fn lines_of(path: &Path) -> (Vec<(usize, String, bool)>, StreamSummary) {
        let mut seen = Vec::new();
        let summary = for_each_line(path, |n, l, last| seen.push((n, l.to_string(), last))).unwrap();
        (seen, summary)
    }

    fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("shoal-stream-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
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
        let big = format!("{}{text}", "y".repeat(PIECE - 5) + "\n");
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
                let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
                file.write_all(b"0x0002 : 002  : 01   : yes\n").unwrap();
            }
        })
        .unwrap_err();
        assert!(err.to_string().contains("changed while it was being read"), "{err}");
        let (tables, _) = crate::profile_io::fdbs::read_fdbs_file(&path).unwrap();
        assert_eq!(tables.values().next().map(|t| t.lft.len()), Some(2), "read again once complete");
    }
}
