//! Cutting any byte stream (a file, a gunzipped file, a pipe, standard input) into numbered
//! lines in one linear pass, holding at most one piece and one line in memory.
//!
//! Every byte is looked at a bounded number of times, whatever the line lengths: a line that
//! runs on over many pieces is carried, not rescanned (issue 16: a 1 GB line took over 30 s
//! when the buffer was searched again as it grew). A line longer than [`MAX_LINE_BYTES`] is
//! skipped and reported with its file, line and length; no dump or profile writes one, so it is
//! garbage or a decompression bomb, and holding it would make memory follow the file.

use std::borrow::Cow;
use std::io::{self, Read};

use super::aligned_read::AlignedPiece;
use super::line_warnings::LineWarnings;
use crate::model::Warning;

/// The longest line any reader accepts: 1 MiB. The longest lines real inputs hold are ibprof
/// peer rows and ibdiagnet2 CSV rows, a few hundred bytes; a Boxfish table row of a wide run a
/// few KB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Bytes read at a time, at most.
const PIECE: usize = 4 << 20;

/// Bytes read at first.
const FIRST_PIECE: usize = 64 << 10;

/// What [`split_lines`] learnt about the stream besides its lines.
#[derive(Debug, Default)]
pub struct LineSummary {
    /// How many lines the stream had, skipped ones included.
    pub lines: usize,
    /// The number of the last line if the stream does not end with a line end (likely truncated).
    pub unterminated_last_line: Option<usize>,
    /// Over-long lines skipped and the first invalid UTF-8, each with its line.
    pub warnings: Vec<Warning>,
}

impl LineSummary {
    /// The warning every parser gives for [`LineSummary::unterminated_last_line`], if any.
    pub fn truncation_warning(&self, display: &str) -> Option<Warning> {
        self.unterminated_last_line.map(|line| {
            Warning::at(display, line, "the file ends without a line end; its last line may be truncated")
        })
    }
}

/// What a line reader hands its lines to. A closure `FnMut(number, text, unterminated)` is one;
/// a parser that can recognise its common lines faster than line by line overrides
/// [`LineSink::block`].
pub trait LineSink {
    /// One line (1-based number, without its line end; `unterminated` only for a last line with
    /// no line end).
    fn line(&mut self, number: usize, text: &str, unterminated: bool);

    /// The whole lines of one piece read. A sink may step over lines it recognises by their
    /// bytes ([`Block::rest`], [`Block::skip_line`]); the lines it leaves go to
    /// [`LineSink::line`]. The default hands every line there.
    fn block(&mut self, block: &mut Block<'_>) {
        while let Some((number, text)) = block.next_line() {
            self.line(number, text, false);
        }
    }
}

impl<F: FnMut(usize, &str, bool)> LineSink for F {
    fn line(&mut self, number: usize, text: &str, unterminated: bool) {
        self(number, text, unterminated)
    }
}

/// Whole lines of one piece (separated by `\n`, the last one ended just past the block), read
/// front to back. Over-long lines are skipped with their warning as they are reached.
pub struct Block<'a> {
    text: &'a str,
    /// Where the next line starts; past `text.len()` once the last line is taken.
    at: usize,
    /// The number of the line last taken.
    number: usize,
    warnings: &'a mut LineWarnings,
}

impl<'a> Block<'a> {
    /// The bytes from the next line's start to the block's end (empty once all are taken).
    pub fn rest(&self) -> &'a [u8] {
        self.text.as_bytes().get(self.at..).unwrap_or_default()
    }

    /// The next line and its number (`\r` stripped), skipping over-long lines with a warning.
    pub fn next_line(&mut self) -> Option<(usize, &'a str)> {
        while self.at <= self.text.len() {
            let rest = &self.text[self.at..];
            let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
            self.at += end + 1;
            self.number += 1;
            if end > MAX_LINE_BYTES {
                self.warnings.line(self.number, too_long_message(end));
            } else {
                // `\n` is ASCII, so `end` is a character boundary.
                return Some((self.number, strip_cr(&rest[..end])));
            }
        }
        None
    }

    /// Steps over the next line, which the caller has read from [`Block::rest`]: its line end is
    /// at `length` (a `\n`, or the block's end). Returns the line's number.
    pub fn skip_line(&mut self, length: usize) -> usize {
        debug_assert!(length <= MAX_LINE_BYTES);
        debug_assert!(self.rest().get(length).is_none_or(|&b| b == b'\n'));
        self.at += length + 1;
        self.number += 1;
        self.number
    }
}

/// Calls `on_line(number, text, unterminated)` for every line of `reader` no longer than
/// [`MAX_LINE_BYTES`] (1-based numbers, without `\n` or `\r\n`; `unterminated` only for a last
/// line with no line end). Invalid UTF-8 is replaced with U+FFFD (one warning per stream).
pub fn split_lines(
    reader: impl Read,
    display: &str,
    mut on_line: impl FnMut(usize, &str, bool),
) -> io::Result<LineSummary> {
    split_lines_into(reader, display, &mut on_line)
}

/// [`split_lines`] into any [`LineSink`].
pub fn split_lines_into(
    mut reader: impl Read,
    display: &str,
    on_line: &mut impl LineSink,
) -> io::Result<LineSummary> {
    let mut splitter = Splitter::new(display);
    // Small inputs cost little: the piece grows to [`PIECE`] while reads keep filling it.
    let mut piece = AlignedPiece::new(FIRST_PIECE);
    loop {
        let read = match reader.read(piece.as_mut_slice()) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        splitter.feed(piece.head(read), on_line);
        if read == piece.len() && piece.len() < PIECE {
            piece = AlignedPiece::new(piece.len() * 2);
        }
    }
    Ok(splitter.finish(on_line))
}

/// The state between two pieces: the start of a line not ended yet.
struct Splitter {
    number: usize,
    /// The bytes of the line in progress, while it is within the bound.
    carry: Vec<u8>,
    /// The length of the line in progress once it went past the bound (its bytes are dropped).
    skipping: Option<usize>,
    warnings: LineWarnings,
    warned_utf8: bool,
}

impl Splitter {
    fn new(display: &str) -> Self {
        Splitter {
            number: 0,
            carry: Vec::new(),
            skipping: None,
            warnings: LineWarnings::new(display),
            warned_utf8: false,
        }
    }

    fn feed(&mut self, mut bytes: &[u8], on_line: &mut impl LineSink) {
        if !self.carry.is_empty() || self.skipping.is_some() {
            match bytes.iter().position(|&b| b == b'\n') {
                None => return self.extend_partial(bytes),
                Some(end) => {
                    self.extend_partial(&bytes[..end]);
                    self.end_partial(false, on_line);
                    bytes = &bytes[end + 1..];
                }
            }
        }
        if let Some(last) = bytes.iter().rposition(|&b| b == b'\n') {
            self.whole_lines(&bytes[..last], on_line);
            bytes = &bytes[last + 1..];
        }
        self.extend_partial(bytes);
    }

    fn extend_partial(&mut self, bytes: &[u8]) {
        if let Some(length) = self.skipping.as_mut() {
            *length += bytes.len();
        } else if self.carry.len() + bytes.len() > MAX_LINE_BYTES {
            self.skipping = Some(self.carry.len() + bytes.len());
            self.carry = Vec::new();
        } else {
            self.carry.extend_from_slice(bytes);
        }
    }

    fn end_partial(&mut self, unterminated: bool, on_line: &mut impl LineSink) {
        self.number += 1;
        if let Some(length) = self.skipping.take() {
            self.too_long(length);
        } else {
            let carry = std::mem::take(&mut self.carry);
            let text = self.decode(&carry, self.number);
            on_line.line(self.number, strip_cr(&text), unterminated);
            self.carry = carry;
            self.carry.clear();
        }
    }

    /// Lines separated by `\n` (the last one ended by the `\n` just after `block`).
    fn whole_lines(&mut self, block: &[u8], on_line: &mut impl LineSink) {
        let text = self.decode(block, self.number + 1);
        let mut lines = Block { text: &text, at: 0, number: self.number, warnings: &mut self.warnings };
        on_line.block(&mut lines);
        // Whatever the sink left is still its lines.
        while let Some((number, line)) = lines.next_line() {
            on_line.line(number, line, false);
        }
        self.number = lines.number;
    }

    fn decode<'b>(&mut self, bytes: &'b [u8], first_line: usize) -> Cow<'b, str> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(e) => {
                if !std::mem::replace(&mut self.warned_utf8, true) {
                    let line = first_line + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
                    self.warnings.push(Warning::at(
                        self.warnings.file_name(),
                        line,
                        "text is not valid UTF-8; invalid bytes were replaced with U+FFFD",
                    ));
                }
                String::from_utf8_lossy(bytes)
            }
        }
    }

    fn too_long(&mut self, length: usize) {
        self.warnings.line(self.number, too_long_message(length));
    }

    fn finish(mut self, on_line: &mut impl LineSink) -> LineSummary {
        let mut unterminated_last_line = None;
        if !self.carry.is_empty() || self.skipping.is_some() {
            // A lone `\r` after the last line end is a stray carriage return, not a cut line.
            let stray_cr = self.carry == b"\r";
            self.end_partial(true, on_line);
            unterminated_last_line = Some(self.number).filter(|_| !stray_cr);
        }
        LineSummary { lines: self.number, unterminated_last_line, warnings: self.warnings.finish() }
    }
}

/// The warning for a line skipped for its length.
pub fn too_long_message(length: usize) -> String {
    format!("line of {length} bytes is longer than the {MAX_LINE_BYTES}-byte limit (MAX_LINE_BYTES); skipped")
}

fn strip_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes per read, to cut lines across pieces.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn split(bytes: &[u8], step: usize) -> (Vec<(usize, String, bool)>, LineSummary) {
        let mut seen = Vec::new();
        let summary =
            split_lines(Trickle { bytes, step }, "f", |n, l, u| seen.push((n, l.to_string(), u))).unwrap();
        (seen, summary)
    }

    #[test]
    fn lines_are_the_same_however_the_stream_is_cut() {
        let text = "a\r\n\nbb\nccc\r\nlast";
        let expected: Vec<(usize, String, bool)> = vec![
            (1, "a".into(), false),
            (2, "".into(), false),
            (3, "bb".into(), false),
            (4, "ccc".into(), false),
            (5, "last".into(), true),
        ];
        for step in [1, 2, 3, 5, 100] {
            let (seen, summary) = split(text.as_bytes(), step);
            assert_eq!(seen, expected, "step {step}");
            assert_eq!(summary.unterminated_last_line, Some(5));
            assert_eq!(summary.lines, 5);
        }
    }

    #[test]
    fn an_over_long_line_is_skipped_with_its_number_and_length() {
        for step in [PIECE, 300_000] {
            let mut text = b"first\n".to_vec();
            text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
            text.extend(b"\nthird\n");
            text.extend(std::iter::repeat_n(b'y', MAX_LINE_BYTES + 1));
            let (seen, summary) = split(&text, step);
            assert_eq!(seen, vec![(1, "first".into(), false), (3, "third".into(), false)], "step {step}");
            assert_eq!(summary.warnings.len(), 2);
            assert_eq!(summary.warnings[0].line, Some(2));
            assert!(summary.warnings[0].message.contains(&format!("{} bytes", MAX_LINE_BYTES + 10)));
            assert_eq!(summary.warnings[1].line, Some(4));
            assert_eq!(summary.unterminated_last_line, Some(4));
        }
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_kept() {
        let mut text = vec![b'z'; MAX_LINE_BYTES];
        text.push(b'\n');
        let (seen, summary) = split(&text, 4096);
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].1.len(), MAX_LINE_BYTES);
        assert!(summary.warnings.is_empty());
    }

    #[test]
    fn invalid_utf8_is_replaced_and_reported_once_on_its_line() {
        let (seen, summary) = split(b"ok\nn\xe9ud\nthr\xe9e\n", 4);
        assert_eq!(seen[1].1, "n\u{fffd}ud");
        assert_eq!(summary.warnings.len(), 1);
        assert_eq!(summary.warnings[0].line, Some(2));
    }
}
