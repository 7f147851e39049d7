//! The tokens of one line of ibprof v1.
//!
//! - Tokens are separated by spaces, tabs or carriage returns.
//! - `#` outside a quoted string ends the line (a comment), even in the middle of a word.
//! - A token that starts with `"` is a quoted string up to the next unescaped `"`, escapes
//!   resolved as [`crate::quote`] says. A quoted string ends the token: `"a"b` is an error.
//!
//! Everything here works on bytes of a `&str` and splits only at ASCII bytes, so every slice
//! handed out is on a character boundary. Nothing allocates except a quoted string with escapes.

use std::borrow::Cow;

use crate::quote::{body_len, unescape};

/// One token of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// A bare word: no whitespace, no `#`.
    Bare(&'a str),
    /// A double-quoted string, escapes resolved.
    Quoted(Cow<'a, str>),
}

impl<'a> Token<'a> {
    /// The text of the token, bare or quoted.
    pub fn text(&self) -> &str {
        match self {
            Token::Bare(s) => s,
            Token::Quoted(s) => s,
        }
    }

    /// The token as a keyword or number: only bare words qualify.
    pub fn bare(&self) -> Option<&'a str> {
        match self {
            Token::Bare(s) => Some(s),
            Token::Quoted(_) => None,
        }
    }

    /// The token as a string value, bare or quoted.
    pub fn into_text(self) -> Cow<'a, str> {
        match self {
            Token::Bare(s) => Cow::Borrowed(s),
            Token::Quoted(s) => s,
        }
    }

    /// The token as written, for messages: quoted strings are shown in quotes.
    pub fn shown(&self) -> String {
        match self {
            Token::Bare(s) => (*s).to_string(),
            Token::Quoted(s) => format!("{s:?}"),
        }
    }
}

/// Reads the tokens of one line (without its `\n`).
pub struct Tokens<'a> {
    line: &'a str,
    pos: usize,
}

const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

impl<'a> Tokens<'a> {
    #[inline]
    pub fn new(line: &'a str) -> Self {
        Tokens { line, pos: 0 }
    }

    /// The next token, `Ok(None)` at the end of the line or at a comment, or an error message
    /// for a quoted string that does not end or is glued to the next word.
    #[inline]
    pub fn next_token(&mut self) -> Result<Option<Token<'a>>, &'static str> {
        let bytes = self.line.as_bytes();
        self.skip_spaces();
        let start = self.pos;
        match bytes.get(start) {
            None | Some(b'#') => Ok(None),
            Some(b'"') => self.quoted(start + 1).map(Some),
            Some(_) => {
                let mut end = start;
                while end < bytes.len() && !is_space(bytes[end]) && bytes[end] != b'#' {
                    end += 1;
                }
                self.pos = end;
                Ok(Some(Token::Bare(&self.line[start..end])))
            }
        }
    }

    /// True if nothing but spaces or a comment is left.
    pub fn at_end(&mut self) -> bool {
        self.skip_spaces();
        matches!(self.line.as_bytes().get(self.pos), None | Some(b'#'))
    }

    fn skip_spaces(&mut self) {
        let bytes = self.line.as_bytes();
        while self.pos < bytes.len() && is_space(bytes[self.pos]) {
            self.pos += 1;
        }
    }

    fn quoted(&mut self, body: usize) -> Result<Token<'a>, &'static str> {
        let bytes = self.line.as_bytes();
        let rest = bytes.get(body..).unwrap_or_default();
        let end = body + body_len(rest).ok_or("quoted string does not end on this line")?;
        self.pos = end + 1;
        match bytes.get(self.pos) {
            Some(&b) if !is_space(b) && b != b'#' => Err("text right after a closing quote"),
            _ => Ok(Token::Quoted(unescape(&self.line[body..end]))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(line: &str) -> Result<Vec<String>, &'static str> {
        let mut t = Tokens::new(line);
        let mut out = Vec::new();
        while let Some(token) = t.next_token()? {
            out.push(token.text().to_string());
        }
        Ok(out)
    }

    #[test]
    fn words_split_on_spaces_tabs_and_carriage_returns() {
        assert_eq!(
            tokens("peer  1\tsent 2 recv 3\r"),
            Ok(vec!["peer", "1", "sent", "2", "recv", "3"].into_iter().map(String::from).collect())
        );
    }

    #[test]
    fn hash_starts_a_comment_even_inside_a_word_but_not_inside_quotes() {
        assert_eq!(tokens("port 0 guid 0x1#comment").unwrap_or_default(), ["port", "0", "guid", "0x1"]);
        assert_eq!(tokens("# whole line").unwrap_or_default(), Vec::<String>::new());
        assert_eq!(tokens(r##"job mpi "a # b" # c"##).unwrap_or_default(), ["job", "mpi", "a # b"]);
    }

    #[test]
    fn quoted_strings_resolve_escapes_and_keep_unknown_backslashes() {
        assert_eq!(tokens(r#"x "say \"hi\" \\ done""#).unwrap_or_default(), ["x", r#"say "hi" \ done"#]);
        assert_eq!(tokens(r#""a\nb\tc" "C:\dir""#).unwrap_or_default(), ["a\nb\tc", r"C:\dir"]);
        assert_eq!(tokens(r#""""#).unwrap_or_default(), [""]);
        assert_eq!(tokens(r"bare\word").unwrap_or_default(), [r"bare\word"]);
    }

    #[test]
    fn only_bare_words_are_keywords_or_numbers() {
        let mut t = Tokens::new(r#"peer "1""#);
        let first = t.next_token();
        assert_eq!(first.as_ref().ok().and_then(|t| t.as_ref()).and_then(Token::bare), Some("peer"));
        let second = t.next_token().ok().flatten();
        assert_eq!(second.as_ref().and_then(Token::bare), None);
        assert_eq!(second.map(|t| t.shown()).as_deref(), Some("\"1\""));
    }

    #[test]
    fn unterminated_or_glued_quotes_are_errors() {
        assert!(tokens(r#"host "n0001 HCA"#).is_err());
        assert!(tokens(r#"host "n0001\""#).is_err());
        assert!(tokens(r#"host "a"b"#).is_err());
        assert_eq!(tokens(r##"host "a"#b"##).unwrap_or_default(), ["host", "a"]);
    }
}
