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
}

impl LineWarnings {
    pub fn new(file: &str) -> Self {
        LineWarnings { file: file.to_string(), warnings: Vec::new(), suppressed: 0 }
    }

    /// A warning about one line; past [`MAX_LINE_WARNINGS`] it is only counted.
    pub fn line(&mut self, line: usize, message: impl Into<String>) {
        if self.warnings.len() < MAX_LINE_WARNINGS {
            self.warnings.push(Warning::at(&self.file, line, message));
        } else {
            self.suppressed += 1;
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
