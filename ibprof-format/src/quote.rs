//! Strings as tokens: when the writer quotes one, how it escapes it, and how a reader finds the
//! end of a quoted string and resolves its escapes. Quoting and unescaping are each other's
//! inverse, so they live together.
//!
//! - A string is written bare unless it is empty or holds a space, a control character (Unicode
//!   `Cc`: tab, line breaks, DEL, C1 controls…), `"` or `#`. A bare word has no escapes:
//!   `C:\dir` is written and read as those six characters.
//! - A quoted string escapes `"` as `\"`, `\` as `\\`, and line feed, carriage return and tab as
//!   `\n`, `\r`, `\t`, so that it never spans lines. Other characters are written as they are.
//! - Reading, a backslash before anything else is kept as written.

use std::borrow::Cow;

/// True if `s` must be quoted to be read back as one token with the same text.
pub fn needs_quotes(s: &str) -> bool {
    s.is_empty() || s.chars().any(|c| c == ' ' || c == '"' || c == '#' || c.is_control())
}

/// Appends `s` as one token: bare if it can be, else quoted with escapes.
pub fn push_string(out: &mut Vec<u8>, s: &str) {
    if !needs_quotes(s) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    out.push(b'"');
    for b in s.bytes() {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => out.push(b),
        }
    }
    out.push(b'"');
}

/// The length of a quoted string's body: the bytes of `s` (what follows the opening `"`) up to
/// the closing, unescaped `"`. `None` if the string does not end in `s`.
pub fn body_len(s: &[u8]) -> Option<usize> {
    let mut i = 0;
    loop {
        match s.get(i)? {
            b'"' => return Some(i),
            b'\\' if matches!(s.get(i + 1), Some(b'"' | b'\\')) => i += 2,
            _ => i += 1,
        }
    }
}

/// The text of a quoted string's body (between its quotes), escapes resolved. Borrows when
/// there is no backslash.
pub fn unescape(body: &str) -> Cow<'_, str> {
    if !body.contains('\\') {
        return Cow::Borrowed(body);
    }
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let escaped = match chars.clone().next() {
            Some('"') => '"',
            Some('\\') => '\\',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            _ => {
                out.push('\\');
                continue;
            }
        };
        chars.next();
        out.push(escaped);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(s: &str) -> String {
        let mut out = Vec::new();
        push_string(&mut out, s);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn strings_are_quoted_only_when_a_bare_word_would_change_them() {
        assert_eq!(show("n0001"), "n0001");
        assert_eq!(show(r"back\slash"), r"back\slash");
        assert_eq!(show("nœud-é"), "nœud-é");
        assert_eq!(show(""), r#""""#);
        assert_eq!(show("Open MPI 4.1"), r#""Open MPI 4.1""#);
        assert_eq!(show("x#y"), "\"x#y\"");
        assert_eq!(show("a\"b\\c\nd\re\tf#"), r#""a\"b\\c\nd\re\tf#""#);
    }

    #[test]
    fn control_characters_force_quotes_and_only_line_ends_and_tabs_are_escaped() {
        assert_eq!(show("bell\u{7}"), "\"bell\u{7}\"");
        assert_eq!(show("del\u{7f}"), "\"del\u{7f}\"");
        assert_eq!(show("next\u{85}line"), "\"next\u{85}line\"");
    }

    #[test]
    fn a_quoted_body_ends_at_the_first_unescaped_quote() {
        assert_eq!(body_len(br#"abc" x"#), Some(3));
        assert_eq!(body_len(br#"a\"b" x"#), Some(4));
        assert_eq!(body_len(br#"a\\" x"#), Some(3));
        assert_eq!(body_len(br#"C:\dir""#), Some(6));
        assert_eq!(body_len(br#"no end\""#), None);
        assert_eq!(body_len(b""), None);
    }

    #[test]
    fn unescaping_resolves_known_escapes_and_keeps_other_backslashes() {
        assert_eq!(unescape(r#"say \"hi\" \\ done"#), r#"say "hi" \ done"#);
        assert_eq!(unescape(r"a\nb\tc\rd"), "a\nb\tc\rd");
        assert_eq!(unescape(r"C:\dir\"), r"C:\dir\");
        assert!(matches!(unescape("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn every_string_reads_back_as_it_was_written() {
        let cases = [
            "",
            " ",
            "\"",
            "\\",
            "\\ \"",
            r"a\nb",
            r"a\nb c",
            "tab\there",
            "two\nlines\r\n",
            "#",
            "é ü",
            "\u{85}",
        ];
        for s in cases {
            let quoted = show(s);
            let Some(body) = quoted.strip_prefix('"') else {
                assert_eq!(quoted, s, "a bare word is the string itself");
                continue;
            };
            let len = body_len(body.as_bytes());
            assert_eq!(len, Some(body.len() - 1), "{quoted}");
            assert_eq!(unescape(&body[..body.len() - 1]), s, "{quoted}");
        }
    }
}
