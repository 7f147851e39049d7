//! Text from input files shown back to the user (node descriptions, offending lines) passes
//! through [`shown`]: the one function the terminal output, the GUI's warning panel and the
//! exported SVG use. A node description is set by whoever runs the node and a bad line can be
//! megabytes long (issue 16: one bad line made 52 MB of stderr), so the text is capped, with an
//! ellipsis and the original length, and control characters (terminal escape sequences, bidi
//! overrides, characters XML forbids) are written as visible escapes such as `\x1b` or `\t`.

use std::borrow::Cow;
use std::fmt::Write;

/// How many characters of an echoed line or name are shown.
pub const ECHO_CHARS: usize = 120;

/// How many characters a whole warning or error message keeps: it quotes at most a few echoed
/// fragments plus the words around them.
pub const MESSAGE_CHARS: usize = 600;

/// `text` with control characters escaped, cut to `max_chars` characters (counted before
/// escaping) with `… (N chars)` saying how long it was. Borrowed when nothing needed changing.
pub fn shown(text: &str, max_chars: usize) -> Cow<'_, str> {
    let needs_escape = text.chars().any(needs_escaping);
    // Byte length bounds the character count: most text is short and needs no counting.
    let too_long = text.len() > max_chars && text.chars().nth(max_chars).is_some();
    if !needs_escape && !too_long {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(max_chars * 2) + 24);
    for c in text.chars().take(max_chars) {
        if needs_escaping(c) {
            let _ = match c {
                '\t' => write!(out, "\\t"),
                '\n' => write!(out, "\\n"),
                '\r' => write!(out, "\\r"),
                c if (c as u32) < 0x100 => write!(out, "\\x{:02x}", c as u32),
                c => write!(out, "\\u{{{:x}}}", c as u32),
            };
        } else {
            out.push(c);
        }
    }
    if too_long {
        let _ = write!(out, "… ({} chars)", text.chars().count());
    }
    Cow::Owned(out)
}

/// [`shown`] with the [`ECHO_CHARS`] cap, for a quoted line or a node description.
pub fn echo(text: &str) -> Cow<'_, str> {
    shown(text, ECHO_CHARS)
}

/// C0 and C1 controls and DEL (terminal escapes, and all but tab/newline are invalid in XML 1.0),
/// bidirectional overrides and isolates (they reorder what is printed after them), and the
/// noncharacters U+FFFE/U+FFFF (invalid in XML).
fn needs_escaping(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{fffe}' | '\u{ffff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_short_text_is_borrowed_unchanged() {
        assert!(matches!(echo("n0001 HCA-1"), Cow::Borrowed("n0001 HCA-1")));
    }

    #[test]
    fn terminal_escape_sequences_are_shown_not_obeyed() {
        let evil = "sw\u{1b}]0;owned\u{7}\u{1b}[2J\tx\u{9b}1m\u{202e}";
        let out = echo(evil);
        assert_eq!(out, "sw\\x1b]0;owned\\x07\\x1b[2J\\tx\\x9b1m\\u{202e}");
        assert!(!out.chars().any(needs_escaping));
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis_and_its_length() {
        let line = "é".repeat(50_000_000 / 2);
        let out = echo(&line);
        assert!(out.starts_with(&"é".repeat(ECHO_CHARS)));
        assert!(out.ends_with(&format!("… ({} chars)", 25_000_000)), "{}", &out[out.len() - 40..]);
        assert!(out.chars().count() < ECHO_CHARS + 30);
        assert_eq!(
            shown(&"x".repeat(ECHO_CHARS), ECHO_CHARS),
            "x".repeat(ECHO_CHARS),
            "exactly the cap is kept"
        );
    }
}
