//! The error a reader returns when it cannot produce anything useful from a file.

use crate::model::echo;

/// A fatal problem with one input. Recoverable problems are [`Warning`](crate::model::Warning)s.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}:{line}: {message}")]
    Syntax { path: String, line: usize, message: String },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

impl ParseError {
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Self {
        ParseError::Io { path: bounded(path.into()), source }
    }

    pub fn syntax(path: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        ParseError::Syntax { path: bounded(path.into()), line, message: bounded(message.into()) }
    }

    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        ParseError::Invalid { path: bounded(path.into()), message: bounded(message.into()) }
    }
}

/// An error may quote the input: capped, control characters escaped ([`echo::shown`]).
fn bounded(text: String) -> String {
    match echo::shown(&text, echo::MESSAGE_CHARS) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(shown) => shown,
    }
}
