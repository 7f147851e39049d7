//! The error a reader returns when it cannot produce anything useful from a file.

use crate::model::{Warning, echo};

/// A fatal problem with one input. Recoverable problems are [`Warning`](crate::model::Warning)s.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The I/O error is part of the message, not a `source`: a chain printer (`{:#}`) would
    /// repeat it (`… (os error 2): … (os error 2)`, issue 16).
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path}:{line}: {message}")]
    Syntax { path: String, line: usize, message: String },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
    /// An error after warnings about the same input: they often say why (a gzip bomb's only
    /// line was skipped, so the file "holds no link"), so they go with the error and are printed
    /// under it.
    #[error("{error}{}", listed(warnings))]
    AfterWarnings { error: Box<ParseError>, warnings: Vec<Warning> },
}

/// How many of an error's earlier warnings its message lists; the rest are counted.
pub const LISTED_WARNINGS: usize = 5;

impl ParseError {
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Self {
        ParseError::Io { path: bounded(path.into()), error: source }
    }

    pub fn syntax(path: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        ParseError::Syntax { path: bounded(path.into()), line, message: bounded(message.into()) }
    }

    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        ParseError::Invalid { path: bounded(path.into()), message: bounded(message.into()) }
    }

    /// This error, carrying the warnings gathered before it (none: the error as it is).
    pub fn with_warnings(self, mut warnings: Vec<Warning>) -> Self {
        match self {
            _ if warnings.is_empty() => self,
            ParseError::AfterWarnings { error, warnings: later } => {
                warnings.extend(later);
                ParseError::AfterWarnings { error, warnings }
            }
            error => ParseError::AfterWarnings { error: Box::new(error), warnings },
        }
    }

    /// The warnings gathered before the error, if it carries any.
    pub fn warnings(&self) -> &[Warning] {
        match self {
            ParseError::AfterWarnings { warnings, .. } => warnings,
            _ => &[],
        }
    }
}

/// The warnings under an error: the first [`LISTED_WARNINGS`], then a count.
fn listed(warnings: &[Warning]) -> String {
    let mut text =
        format!("\n  after {} warning{}:", warnings.len(), if warnings.len() == 1 { "" } else { "s" });
    for warning in warnings.iter().take(LISTED_WARNINGS) {
        text.push_str(&format!("\n    {warning}"));
    }
    if warnings.len() > LISTED_WARNINGS {
        text.push_str(&format!("\n    … and {} more", warnings.len() - LISTED_WARNINGS));
    }
    text
}

/// An error may quote the input: capped, control characters escaped ([`echo::shown`]).
fn bounded(text: String) -> String {
    match echo::shown(&text, echo::MESSAGE_CHARS) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(shown) => shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_io_error_is_said_once_through_an_error_chain() {
        let error = ParseError::io("/nonexistent", std::io::Error::from_raw_os_error(2));
        let chained = format!("{:#}", anyhow::Error::new(error));
        assert_eq!(chained.matches("os error 2").count(), 1, "{chained}");
        assert!(chained.starts_with("/nonexistent: "), "{chained}");
    }
}
