//! The line reader every input goes through (files, gunzipped streams, pipes): bytes → lines,
//! read in pieces of every size; and the echo of any text in warnings, the window and SVG.
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use shoal::model::echo::{ECHO_CHARS, echo};
use shoal::profile_io::Input;
use shoal::profile_io::lines::split_lines;

/// Hands out at most `step` bytes per read, so lines and characters are cut across pieces.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

fn lines(bytes: &[u8], step: usize) -> (Vec<(usize, String, bool)>, usize, Option<usize>) {
    let mut seen = Vec::new();
    let summary = split_lines(Trickle { bytes, step }, "fuzz", |n, l, u| seen.push((n, l.to_string(), u)))
        .expect("reading memory cannot fail");
    (seen, summary.lines, summary.unterminated_last_line)
}

fuzz_target!(|data: &[u8]| {
    let Some((&step, bytes)) = data.split_first() else { return };
    let whole = lines(bytes, bytes.len().max(1));
    let cut = lines(bytes, usize::from(step).max(1));
    assert_eq!(whole, cut, "lines do not depend on how the stream is cut");
    let (seen, count, unterminated) = whole;
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "line numbers increase");
    assert!(seen.last().is_none_or(|last| last.0 <= count));
    // A lone `\r` after the last line end is a stray carriage return, not a cut line.
    let stray_cr = bytes == b"\r" || bytes.ends_with(b"\n\r");
    assert_eq!(unterminated.is_some(), !bytes.is_empty() && !bytes.ends_with(b"\n") && !stray_cr);
    // Input::from_bytes keeps the same lines, numbered the same.
    if let Ok((input, _)) = Input::from_bytes("fuzz", bytes.to_vec()) {
        let kept: Vec<(usize, &str)> = input.lines().filter(|(_, l)| !l.is_empty()).collect();
        let expected: Vec<(usize, &str)> =
            seen.iter().filter(|(_, l, _)| !l.is_empty()).map(|(n, l, _)| (*n, l.trim_end_matches('\r'))).collect();
        if !bytes.starts_with(&[0x1f, 0x8b]) && !bytes.contains(&b'\r') {
            assert_eq!(kept, expected);
        }
    }
    let text = String::from_utf8_lossy(bytes);
    let shown = echo(&text);
    assert!(!shown.chars().any(|c| c.is_control()), "no control character is echoed");
    assert!(shown.chars().count() <= 4 * ECHO_CHARS + 32, "the echo is capped");
});
