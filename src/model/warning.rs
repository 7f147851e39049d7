//! Warnings are values, not log lines: every parser and the tracer return what they skipped and why.

use std::fmt;

use super::echo;

/// Something skipped or suspicious in an input, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The file (as given by the user), or a pseudo-source such as `trace rail 0`.
    pub file: String,
    /// 1-based line number, when the warning is about one line.
    pub line: Option<usize>,
    pub message: String,
    /// A warning, or only a note about a choice made (which of two equivalent dumps was read):
    /// notes are shown with `-v` and are not counted as warnings.
    pub level: Level,
}

/// How much a [`Warning`] matters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// Something skipped or suspicious: counted and shown.
    #[default]
    Warning,
    /// A choice between equivalent inputs, nothing lost: shown with `-v` only.
    Info,
}

impl Warning {
    /// A warning about one line. The message is capped and its control characters escaped
    /// ([`echo::shown`]): it may quote the offending line.
    pub fn at(file: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        Warning {
            file: file.into(),
            line: Some(line),
            message: bounded(message.into()),
            level: Level::Warning,
        }
    }

    /// A warning about a whole file (or a pseudo-source); the message as in [`Warning::at`].
    pub fn in_file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Warning { file: file.into(), line: None, message: bounded(message.into()), level: Level::Warning }
    }

    /// A note about a whole file: a choice between equivalent inputs, where nothing is lost.
    pub fn info_in_file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Warning { level: Level::Info, ..Warning::in_file(file, message) }
    }

    /// Whether this is only a note ([`Level::Info`]), not a warning.
    pub fn is_info(&self) -> bool {
        self.level == Level::Info
    }
}

/// How many of `warnings` are warnings, not notes.
pub fn count_warnings(warnings: &[Warning]) -> usize {
    warnings.iter().filter(|w| !w.is_info()).count()
}

/// `message` capped at [`echo::MESSAGE_CHARS`] with control characters escaped.
fn bounded(message: String) -> String {
    match echo::shown(&message, echo::MESSAGE_CHARS) {
        std::borrow::Cow::Borrowed(_) => message,
        std::borrow::Cow::Owned(shown) => shown,
    }
}

impl Warning {
    /// The file name as shown (escaped; a path can hold control characters too).
    pub fn shown_file(&self) -> std::borrow::Cow<'_, str> {
        echo::shown(&self.file, echo::MESSAGE_CHARS)
    }

    /// The message as shown: warnings built by hand (`Warning { .. }`) pass through here too.
    pub fn shown_message(&self) -> std::borrow::Cow<'_, str> {
        echo::shown(&self.message, echo::MESSAGE_CHARS)
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.shown_file(), line, self.shown_message()),
            None => write!(f, "{}: {}", self.shown_file(), self.shown_message()),
        }
    }
}

/// What one rail was read from (each file with its kind, as `shoal info` lists them) and what
/// reading it warned.
#[derive(Clone, Debug, Default)]
pub struct RailRead {
    pub files: Vec<(String, &'static str)>,
    pub warnings: Vec<Warning>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_quoting_a_huge_line_with_escapes_is_capped_and_escaped() {
        let line = format!("\u{1b}]2;pwned\u{7}{}", "x".repeat(52_000_000));
        let warning = Warning::at("topo.txt", 7, format!("unrecognised line; skipped: `{line}`"));
        assert!(warning.message.len() < 700, "{} bytes", warning.message.len());
        assert!(warning.message.starts_with("unrecognised line; skipped: `\\x1b]2;pwned\\x07xxx"));
        assert!(warning.message.ends_with(&format!("… ({} chars)", line.chars().count() + 30)));
        let built_by_hand =
            Warning { file: "a\u{1b}b".into(), line: None, message: "\u{9b}".into(), level: Level::Warning };
        assert_eq!(built_by_hand.to_string(), "a\\x1bb: \\x9b");
    }
}
