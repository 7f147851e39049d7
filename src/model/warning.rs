//! Warnings are values, not log lines: every parser and the tracer return what they skipped and why.

use std::fmt;

/// Something skipped or suspicious in an input, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The file (as given by the user), or a pseudo-source such as `trace rail 0`.
    pub file: String,
    /// 1-based line number, when the warning is about one line.
    pub line: Option<usize>,
    pub message: String,
}

impl Warning {
    pub fn at(file: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        Warning { file: file.into(), line: Some(line), message: message.into() }
    }

    pub fn in_file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Warning { file: file.into(), line: None, message: message.into() }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.file, line, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}
