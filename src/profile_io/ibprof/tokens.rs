//! The lexical layer of ibprof v1: tokens of one line, hand-written number parsers, and the
//! quoting rule the writer follows.
//!
//! - Tokens are separated by spaces, tabs or carriage returns.
//! - `#` outside a quoted string ends the line (a comment), even in the middle of a word.
//! - A token that starts with `"` is a quoted string up to the next unescaped `"`. Inside it,
//!   `\"` is a quote, `\\` a backslash, `\n`, `\r`, `\t` a line feed, carriage return and tab;
//!   a backslash before anything else is kept as written. Bare words have no escapes.
//!
//! Everything here works on bytes of a `&str` and splits only at ASCII bytes, so every slice
//! handed out is on a character boundary. Nothing allocates except a quoted string with escapes.

use std::borrow::Cow;

/// One token of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// A bare word: no whitespace, no `#`.
    Bare(&'a str),
    /// A double-quoted string, escapes resolved.
    Quoted(Cow<'a, str>),
}

impl Token<'_> {
    /// The text of the token, bare or quoted.
    pub(crate) fn text(&self) -> &str {
        match self {
            Token::Bare(s) => s,
            Token::Quoted(s) => s,
        }
    }

    /// The token as a keyword or number: only bare words qualify.
    pub(crate) fn bare(&self) -> Option<&str> {
        match self {
            Token::Bare(s) => Some(s),
            Token::Quoted(_) => None,
        }
    }

    /// The token as written, for messages: quoted strings are shown in quotes.
    pub(crate) fn shown(&self) -> String {
        match self {
            Token::Bare(s) => (*s).to_string(),
            Token::Quoted(s) => format!("{s:?}"),
        }
    }
}

/// Reads the tokens of one line (without its `\n`).
pub(crate) struct Tokens<'a> {
    line: &'a str,
    pos: usize,
}

const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(line: &'a str) -> Self {
        Tokens { line, pos: 0 }
    }

    /// The next token, `Ok(None)` at the end of the line or at a comment, or an error message
    /// for a quoted string that does not end or is glued to the next word.
    pub(crate) fn next_token(&mut self) -> Result<Option<Token<'a>>, &'static str> {
        let bytes = self.line.as_bytes();
        while self.pos < bytes.len() && is_space(bytes[self.pos]) {
            self.pos += 1;
        }
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
    pub(crate) fn at_end(&mut self) -> bool {
        let bytes = self.line.as_bytes();
        while self.pos < bytes.len() && is_space(bytes[self.pos]) {
            self.pos += 1;
        }
        matches!(bytes.get(self.pos), None | Some(b'#'))
    }

    fn quoted(&mut self, body: usize) -> Result<Token<'a>, &'static str> {
        let bytes = self.line.as_bytes();
        let mut i = body;
        let mut owned: Option<String> = None;
        let mut copied_to = body;
        loop {
            match bytes.get(i) {
                None => return Err("quoted string does not end on this line"),
                Some(b'"') => break,
                Some(b'\\') => {
                    let replacement = match bytes.get(i + 1) {
                        Some(b'"') => "\"",
                        Some(b'\\') => "\\",
                        Some(b'n') => "\n",
                        Some(b'r') => "\r",
                        Some(b't') => "\t",
                        _ => {
                            i += 1;
                            continue;
                        }
                    };
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(&self.line[copied_to..i]);
                    s.push_str(replacement);
                    i += 2;
                    copied_to = i;
                }
                Some(_) => i += 1,
            }
        }
        let token = match owned {
            Some(mut s) => {
                s.push_str(&self.line[copied_to..i]);
                Token::Quoted(Cow::Owned(s))
            }
            None => Token::Quoted(Cow::Borrowed(&self.line[body..i])),
        };
        self.pos = i + 1;
        match bytes.get(self.pos) {
            Some(&b) if !is_space(b) && b != b'#' => Err("text right after a closing quote"),
            _ => Ok(token),
        }
    }
}

/// A decimal `u64`: digits only, no sign, no overflow.
pub(crate) fn parse_u64(s: &str) -> Option<u64> {
    let bytes = s.as_bytes();
    if bytes.is_empty() || bytes.len() > 20 {
        return None;
    }
    let mut value: u64 = 0;
    for &b in bytes {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(digit))?;
    }
    Some(value)
}

/// A decimal `u32`.
pub(crate) fn parse_u32(s: &str) -> Option<u32> {
    parse_u64(s).and_then(|v| u32::try_from(v).ok())
}

/// A hexadecimal `u64`, with or without `0x`, 1 to 16 digits.
pub(crate) fn parse_hex(s: &str) -> Option<u64> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s).as_bytes();
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    let mut value: u64 = 0;
    for &b in digits {
        value = (value << 4) | u64::from(hex_digit(b)?);
    }
    Some(value)
}

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The fast path for the two counter lines, which are nearly all of a profile: reads
/// `peer R sent B recv B` and `lid I 0xL sent B recv B` exactly as the writer spells them (single
/// spaces, `\n` or `\r\n`). Anything else returns `None` and the line takes the general path.
pub(crate) struct Canonical<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Canonical<'a> {
    pub(crate) fn new(line: &'a str) -> Self {
        let bytes = line.as_bytes();
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        Canonical { bytes, pos: 0 }
    }

    /// `peer R sent B recv B` → `(R, sent, recv)`.
    pub(crate) fn peer(mut self) -> Option<(u32, u64, u64)> {
        self.literal(b"peer ")?;
        let peer = u32::try_from(self.decimal()?).ok()?;
        let (sent, recv) = self.sent_recv()?;
        Some((peer, sent, recv))
    }

    /// `lid I 0xL sent B recv B` → `(I, L, sent, recv)`.
    pub(crate) fn lid(mut self) -> Option<(u32, u16, u64, u64)> {
        self.literal(b"lid ")?;
        let port = u32::try_from(self.decimal()?).ok()?;
        self.literal(b" 0x")?;
        let lid = self.hex16()?;
        let (sent, recv) = self.sent_recv()?;
        Some((port, lid, sent, recv))
    }

    fn sent_recv(&mut self) -> Option<(u64, u64)> {
        self.literal(b" sent ")?;
        let sent = self.decimal()?;
        self.literal(b" recv ")?;
        let recv = self.decimal()?;
        (self.pos == self.bytes.len()).then_some((sent, recv))
    }

    fn literal(&mut self, expected: &[u8]) -> Option<()> {
        let end = self.pos + expected.len();
        (self.bytes.get(self.pos..end)? == expected).then(|| self.pos = end)
    }

    fn decimal(&mut self) -> Option<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(&b) = self.bytes.get(self.pos) {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value.checked_mul(10)?.checked_add(u64::from(digit))?;
            self.pos += 1;
        }
        (self.pos > start).then_some(value)
    }

    fn hex16(&mut self) -> Option<u16> {
        let start = self.pos;
        let mut value: u32 = 0;
        while let Some(digit) = self.bytes.get(self.pos).and_then(|&b| hex_digit(b)) {
            value = (value << 4) | u32::from(digit);
            self.pos += 1;
            if self.pos - start > 4 {
                return None;
            }
        }
        if self.pos == start {
            return None;
        }
        u16::try_from(value).ok()
    }
}

/// Appends `s` as one token: bare if it can be, else quoted with escapes.
pub(crate) fn push_string(out: &mut Vec<u8>, s: &str) {
    let needs_quotes = s.is_empty() || s.bytes().any(|b| b <= b' ' || b == b'"' || b == b'#' || b == 0x7f);
    if !needs_quotes {
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

/// Appends `v` in decimal.
pub(crate) fn push_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Appends `v` as `0x` and exactly `width` lower-case hex digits (more if `v` needs them).
pub(crate) fn push_hex(out: &mut Vec<u8>, v: u64, width: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let needed = (16 - (v.leading_zeros() as usize) / 4).max(1);
    out.extend_from_slice(b"0x");
    for i in (0..needed.max(width)).rev() {
        let nibble = if i < 16 { (v >> (4 * i)) & 0xf } else { 0 };
        out.push(HEX[nibble as usize]);
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
        assert_eq!(tokens("peer  1\tsent 2 recv 3\r").unwrap(), ["peer", "1", "sent", "2", "recv", "3"]);
    }

    #[test]
    fn hash_starts_a_comment_even_inside_a_word_but_not_inside_quotes() {
        assert_eq!(tokens("port 0 guid 0x1#comment").unwrap(), ["port", "0", "guid", "0x1"]);
        assert_eq!(tokens("# whole line").unwrap(), Vec::<String>::new());
        assert_eq!(tokens(r##"job mpi "a # b" # c"##).unwrap(), ["job", "mpi", "a # b"]);
    }

    #[test]
    fn quoted_strings_resolve_escapes_and_keep_unknown_backslashes() {
        assert_eq!(tokens(r#"x "say \"hi\" \\ done""#).unwrap(), ["x", r#"say "hi" \ done"#]);
        assert_eq!(tokens(r#""a\nb\tc" "C:\dir""#).unwrap(), ["a\nb\tc", r"C:\dir"]);
        assert_eq!(tokens(r#""""#).unwrap(), [""]);
        assert_eq!(tokens(r"bare\word").unwrap(), [r"bare\word"]);
    }

    #[test]
    fn unterminated_or_glued_quotes_are_errors() {
        assert!(tokens(r#"host "n0001 HCA"#).is_err());
        assert!(tokens(r#"host "n0001\""#).is_err());
        assert!(tokens(r#"host "a"b"#).is_err());
        assert_eq!(tokens(r##"host "a"#b"##).unwrap(), ["host", "a"]);
    }

    #[test]
    fn numbers_reject_signs_overflow_and_junk() {
        assert_eq!(parse_u64("18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_u64("18446744073709551616"), None);
        assert_eq!(parse_u64("-1"), None);
        assert_eq!(parse_u64("1e3"), None);
        assert_eq!(parse_u64(""), None);
        assert_eq!(parse_u32("4294967296"), None);
        assert_eq!(parse_hex("0x0002c903000a0001"), Some(0x0002_c903_000a_0001));
        assert_eq!(parse_hex("00C0"), Some(0xc0));
        assert_eq!(parse_hex("0x"), None);
        assert_eq!(parse_hex("0x1g"), None);
        assert_eq!(parse_hex("0x00000000000000001"), None);
    }

    #[test]
    fn canonical_counter_lines_take_the_fast_path_and_others_do_not() {
        assert_eq!(Canonical::new("peer 12 sent 100 recv 7").peer(), Some((12, 100, 7)));
        assert_eq!(Canonical::new("peer 12 sent 100 recv 7\r").peer(), Some((12, 100, 7)));
        assert_eq!(Canonical::new("lid 1 0x00d1 sent 5 recv 0").lid(), Some((1, 0xd1, 5, 0)));
        for slow in ["peer 12  sent 100 recv 7", "peer 12 sent 100 recv 7 # c", "peer 12 recv 7 sent 1"] {
            assert_eq!(Canonical::new(slow).peer(), None, "{slow}");
        }
        assert_eq!(Canonical::new("peer 12 sent 100 recv").peer(), None);
        assert_eq!(Canonical::new("peer 4294967296 sent 1 recv 1").peer(), None);
        assert_eq!(Canonical::new("peer 1 sent 99999999999999999999 recv 1").peer(), None);
        assert_eq!(Canonical::new("lid 0 0x10000 sent 1 recv 1").lid(), None);
        assert_eq!(Canonical::new("lid 0 0x sent 1 recv 1").lid(), None);
    }

    #[test]
    fn strings_are_quoted_only_when_a_bare_word_would_change_them() {
        let show = |s: &str| {
            let mut out = Vec::new();
            push_string(&mut out, s);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(show("n0001"), "n0001");
        assert_eq!(show(r"back\slash"), r"back\slash");
        assert_eq!(show(""), r#""""#);
        assert_eq!(show("Open MPI 4.1"), r#""Open MPI 4.1""#);
        assert_eq!(show("a\"b\\c\nd#"), r#""a\"b\\c\nd#""#);
    }

    #[test]
    fn numbers_print_in_decimal_and_fixed_width_hex() {
        let mut out = Vec::new();
        push_u64(&mut out, 0);
        out.push(b' ');
        push_u64(&mut out, u64::MAX);
        out.push(b' ');
        push_hex(&mut out, 0xd1, 4);
        out.push(b' ');
        push_hex(&mut out, 0x2c903, 16);
        out.push(b' ');
        push_hex(&mut out, 0x12345, 4);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "0 18446744073709551615 0x00d1 0x000000000002c903 0x12345"
        );
    }
}
