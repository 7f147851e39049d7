//! Per-file collection of line warnings with a cap, so that feeding the wrong file to a parser
//! gives a hundred precise warnings and one count, not a million lines.

use crate::model::Warning;

/// How many line warnings one file reports in full before the rest are only counted.
pub const MAX_LINE_WARNINGS: usize = 100;

/// Collects the warnings of one input file.
#[derive(Debug)]
pub struct LineWarnings {
    file: String,
    warnings: Vec<Warning>,
    suppressed: usize,
    /// Debug-trace lines skipped: how many, and the first (line, text).
    debug: (usize, Option<(usize, String)>),
}

impl LineWarnings {
    pub fn new(file: &str) -> Self {
        LineWarnings { file: file.to_string(), warnings: Vec::new(), suppressed: 0, debug: (0, None) }
    }

    /// A warning about one line; past [`MAX_LINE_WARNINGS`] it is only counted.
    pub fn line(&mut self, line: usize, message: impl Into<String>) {
        if self.warnings.len() < MAX_LINE_WARNINGS {
            self.warnings.push(Warning::at(&self.file, line, message));
        } else {
            self.suppressed += 1;
        }
    }

    /// Line warnings already counted but not kept (by a parser that capped its own list).
    pub fn unlisted(&mut self, count: usize) {
        self.suppressed += count;
    }

    /// A line that is not part of the format: a tool's debug trace is counted (one warning at
    /// the end, [`super::stray::is_debug_trace`]); anything else is a line warning.
    pub fn stray(&mut self, line: usize, text: &str) {
        if super::stray::is_debug_trace(text) {
            let (count, first) = &mut self.debug;
            *count += 1;
            first.get_or_insert_with(|| (line, text.trim().chars().take(80).collect()));
        } else {
            self.line(line, super::stray::skipped(text));
        }
    }

    /// A warning about the whole file (never capped).
    pub fn file(&mut self, message: impl Into<String>) {
        self.warnings.push(Warning::in_file(&self.file, message));
    }

    pub fn push(&mut self, warning: Warning) {
        self.warnings.push(warning);
    }

    pub fn file_name(&self) -> &str {
        &self.file
    }

    /// The warnings, ending with a count of the suppressed ones if any.
    pub fn finish(mut self) -> Vec<Warning> {
        if let (count, Some((first, text))) = std::mem::take(&mut self.debug) {
            // Line numbers only in `line`: chunked parsers shift it afterwards.
            let message = format!(
                "skipped {count} lines of tool debug output, from this one on (`{text}`): \
                 the dump was captured with its -d/-v trace (2>&1)"
            );
            self.warnings.push(Warning::at(&self.file, first, message));
        }
        if self.suppressed > 0 {
            let message = format!(
                "{} more problem lines not listed (only the first {MAX_LINE_WARNINGS} are)",
                self.suppressed
            );
            self.warnings.push(Warning::in_file(&self.file, message));
        }
        self.warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hundreds_of_debug_lines_are_one_warning_with_their_count() {
        let mut sink = LineWarnings::new("ports.txt");
        for line in 1..=566 {
            sink.stray(line, "./libibnetdisc/ibnetdisc.c:821; from DR path slid 0; dlid 0; 0");
        }
        sink.stray(600, "garbage");
        let warnings = sink.finish();
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].message.starts_with("unrecognised line"));
        assert_eq!(warnings[1].line, Some(1));
        assert!(warnings[1].message.starts_with("skipped 566 lines of tool debug output, from this one on"));
    }

    #[test]
    fn line_warnings_past_the_cap_are_counted_in_one_summary() {
        let mut sink = LineWarnings::new("big.fdbs");
        for line in 1..=MAX_LINE_WARNINGS + 7 {
            sink.line(line, "bad");
        }
        sink.file("file-level note");
        let warnings = sink.finish();
        assert_eq!(warnings.len(), MAX_LINE_WARNINGS + 2);
        assert_eq!(warnings[MAX_LINE_WARNINGS].message, "file-level note");
        assert!(warnings.last().unwrap().message.starts_with("7 more problem lines"));
    }
}
