//! The fast path for the two counter lines, which are nearly all of a profile: `peer` and `lid`
//! lines spelled exactly as [`crate::write`] spells them are read straight from the text, numbers
//! eight digits at a time. Any other spelling is left to the token-by-token reader, which gives
//! the same result.

use crate::numbers::{hex_digit, parse_u64};
use crate::record::{MsgCounts, PeerCounts};

/// Reads `peer R sent B recv B` or `lid I 0xL sent B recv B` exactly as the writer spells them
/// (single spaces, ending in `\n`, `\r\n` or the end of the text), finding the line end on the
/// way. Anything else gives `None`, and the line takes the general path.
pub struct Canonical<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Canonical<'a> {
    /// Reads the line that starts at byte `at` of `text`.
    #[inline]
    pub fn at(text: &'a str, at: usize) -> Self {
        Canonical { bytes: text.as_bytes(), pos: at }
    }

    /// `peer R sent B recv B [sent_msgs M recv_msgs M]` → the counts and the start of the next
    /// line.
    #[inline]
    pub fn peer(mut self) -> Option<(PeerCounts, usize)> {
        self.literal(b"peer ")?;
        let peer = u32::try_from(self.decimal()?).ok()?;
        let (sent, recv) = self.sent_recv()?;
        let msgs = match self.bytes.get(self.pos) {
            Some(b' ') => {
                self.literal(b" sent_msgs ")?;
                let sent = self.decimal()?;
                self.literal(b" recv_msgs ")?;
                Some(MsgCounts { sent, recv: self.decimal()? })
            }
            _ => None,
        };
        Some((PeerCounts { peer, sent, recv, msgs }, self.line_end()?))
    }

    /// `lid I 0xL sent B recv B` → `(I, L, sent, recv, start of the next line)`.
    #[inline]
    pub fn lid(mut self) -> Option<(u32, u16, u64, u64, usize)> {
        self.literal(b"lid ")?;
        let port = u32::try_from(self.decimal()?).ok()?;
        self.literal(b" 0x")?;
        let lid = self.hex16()?;
        let (sent, recv) = self.sent_recv()?;
        Some((port, lid, sent, recv, self.line_end()?))
    }

    #[inline]
    fn sent_recv(&mut self) -> Option<(u64, u64)> {
        self.literal(b" sent ")?;
        let sent = self.decimal()?;
        self.literal(b" recv ")?;
        let recv = self.decimal()?;
        Some((sent, recv))
    }

    /// The start of the next line if the line ends here.
    #[inline]
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
    #[inline]
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

    #[inline]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_counter_lines_take_the_fast_path_and_others_do_not() {
        let peer = |line: &str| {
            Canonical::at(line, 0)
                .peer()
                .map(|(c, next)| (c.peer, c.sent, c.recv, c.msgs.map(|m| (m.sent, m.recv)), next))
        };
        assert_eq!(peer("peer 12 sent 100 recv 7\nnext"), Some((12, 100, 7, None, 24)));
        assert_eq!(peer("peer 12 sent 100 recv 7\r\nnext"), Some((12, 100, 7, None, 25)));
        assert_eq!(peer("peer 12 sent 100 recv 7"), Some((12, 100, 7, None, 23)));
        assert_eq!(peer("peer 1 sent 9 recv 0 sent_msgs 3 recv_msgs 0\n"), Some((1, 9, 0, Some((3, 0)), 45)));
        for slow in ["peer 1 sent 9 recv 0 sent_msgs 3", "peer 1 sent 9 recv 0 recv_msgs 0 sent_msgs 3"] {
            assert_eq!(peer(slow), None, "{slow}");
        }
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
}
