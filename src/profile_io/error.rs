//! The error a reader returns when it cannot produce anything useful from a file.

use crate::model::echo;

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
}

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
