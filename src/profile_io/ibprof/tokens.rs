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
/// spaces, ending in `\n`, `\r\n` or the end of the text), straight from the text, finding the
/// line end on the way. Anything else returns `None` and the line takes the general path.
pub(crate) struct Canonical<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Canonical<'a> {
    /// Reads the line that starts at byte `at` of `text`.
    pub(crate) fn at(text: &'a str, at: usize) -> Self {
        Canonical { bytes: text.as_bytes(), pos: at }
    }

    /// `peer R sent B recv B` → `(R, sent, recv, start of the next line)`.
    pub(crate) fn peer(mut self) -> Option<(u32, u64, u64, usize)> {
        self.literal(b"peer ")?;
        let peer = u32::try_from(self.decimal()?).ok()?;
        let (sent, recv) = self.sent_recv()?;
        Some((peer, sent, recv, self.line_end()?))
    }

    /// `lid I 0xL sent B recv B` → `(I, L, sent, recv, start of the next line)`.
    pub(crate) fn lid(mut self) -> Option<(u32, u16, u64, u64, usize)> {
        self.literal(b"lid ")?;
        let port = u32::try_from(self.decimal()?).ok()?;
        self.literal(b" 0x")?;
        let lid = self.hex16()?;
        let (sent, recv) = self.sent_recv()?;
        Some((port, lid, sent, recv, self.line_end()?))
    }

    fn sent_recv(&mut self) -> Option<(u64, u64)> {
        self.literal(b" sent ")?;
        let sent = self.decimal()?;
        self.literal(b" recv ")?;
        let recv = self.decimal()?;
        Some((sent, recv))
    }

    /// The start of the next line if the line ends here.
    fn line_end(&self) -> Option<usize> {
        match self.bytes.get(self.pos..) {
            Some([]) => Some(self.pos),
            Some([b'\n', ..]) => Some(self.pos + 1),
            Some([b'\r', b'\n', ..]) => Some(self.pos + 2),
            Some([b'\r']) => Some(self.pos + 1),
            _ => None,
        }
    }

    /// Compares a fixed-size literal (word compares, no `memcmp` call).
    fn literal<const N: usize>(&mut self, expected: &[u8; N]) -> Option<()> {
        let end = self.pos + N;
        let found: &[u8; N] = self.bytes.get(self.pos..end)?.try_into().ok()?;
        (found == expected).then(|| self.pos = end)
    }

    /// 1 to 20 decimal digits. Eight bytes at a time when the text has them (SWAR: digits found
    /// and combined with a few word operations), byte by byte after that. Up to 19 digits cannot
    /// overflow a `u64`; a 20-digit number is checked the slow way.
    #[inline(always)]
    fn decimal(&mut self) -> Option<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        if let Some(word) = self.bytes.get(start..start + 8) {
            let word = u64::from_le_bytes(word.try_into().ok()?);
            let digits = word.wrapping_sub(0x3030_3030_3030_3030);
            // A byte's high bit is set here iff it is not an ASCII digit (a borrow from an earlier
            // non-digit can only disturb later bytes, which are not read).
            let non_digit = (digits | digits.wrapping_add(0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080;
            let count = (non_digit.trailing_zeros() / 8) as usize;
            if count == 0 {
                return None;
            }
            value = eight_digits(digits << (8 * (8 - count)));
            self.pos += count;
            if count < 8 {
                return Some(value);
            }
        }
        while let Some(&b) = self.bytes.get(self.pos) {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
            self.pos += 1;
        }
        match self.pos - start {
            0 => None,
            1..=19 => Some(value),
            _ => std::str::from_utf8(&self.bytes[start..self.pos]).ok().and_then(parse_u64),
        }
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

/// The value of eight decimal digits, one per byte (already minus `'0'`), the first digit in the
/// lowest byte; leading bytes may be 0.
#[inline(always)]
fn eight_digits(word: u64) -> u64 {
    let word = ((word & 0x0f00_0f00_0f00_0f00) >> 8) + (word & 0x000f_000f_000f_000f) * 10;
    let word = ((word & 0x00ff_0000_00ff_0000) >> 16) + (word & 0x0000_00ff_0000_00ff) * 100;
    ((word & 0x0000_ffff_0000_0000) >> 32) + (word & 0x0000_0000_0000_ffff) * 10000
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
        let peer = |line: &str| Canonical::at(line, 0).peer();
        assert_eq!(peer("peer 12 sent 100 recv 7\nnext"), Some((12, 100, 7, 24)));
        assert_eq!(peer("peer 12 sent 100 recv 7\r\nnext"), Some((12, 100, 7, 25)));
        assert_eq!(peer("peer 12 sent 100 recv 7"), Some((12, 100, 7, 23)));
        assert_eq!(Canonical::at("x\nlid 1 0x00d1 sent 5 recv 0\n", 2).lid(), Some((1, 0xd1, 5, 0, 29)));
        for slow in ["peer 12  sent 100 recv 7", "peer 12 sent 100 recv 7 # c", "peer 12 recv 7 sent 1"] {
            assert_eq!(peer(slow), None, "{slow}");
        }
        assert_eq!(peer("peer 12 sent 100 recv"), None);
        assert_eq!(peer("peer 12 sent 100 recv 7x\n"), None);
        assert_eq!(peer("peer 4294967296 sent 1 recv 1"), None);
        assert_eq!(peer("peer 1 sent 99999999999999999999 recv 1"), None);
        assert_eq!(Canonical::at("lid 0 0x10000 sent 1 recv 1", 0).lid(), None);
        assert_eq!(Canonical::at("lid 0 0x sent 1 recv 1", 0).lid(), None);
    }

    #[test]
    fn eight_at_a_time_digits_agree_with_the_plain_parser() {
        let mut cases: Vec<String> = Vec::new();
        for digits in 1..=21 {
            cases.push("9".repeat(digits));
            cases.push(format!("1{}", "0".repeat(digits - 1)));
            cases.push("1234567890123456789012".chars().take(digits).collect());
        }
        cases.extend(
            ["0", "007", "18446744073709551615", "18446744073709551616", "00000000000000000000001"]
                .map(String::from),
        );
        for case in cases {
            for tail in ["", " ", "\n", "x", ":", "/", "\u{e9}", "\u{ff}"] {
                let line = format!("peer 1 sent {case}{tail} recv 2");
                let mut c = Canonical::at(&line, 12);
                let got = c.decimal();
                let expected = parse_u64(&case);
                assert_eq!(got, expected, "{line:?}");
                if expected.is_some() {
                    assert_eq!(c.pos, 12 + case.len(), "{line:?}");
                }
            }
        }
        assert_eq!(Canonical::at("sent x1234567", 5).decimal(), None);
        assert_eq!(Canonical::at("/0123456789", 0).decimal(), None);
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
