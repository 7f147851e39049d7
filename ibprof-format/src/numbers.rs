//! Numbers as ibprof v1 spells them: unsigned decimal counts and ranks, hexadecimal LIDs and
//! GUIDs (`0x` optional on input; the writer prints `0x` and a fixed width), and times as Unix
//! seconds with up to six decimals, kept exactly as integer microseconds. Parsers are written by
//! hand: no sign, no separators, no overflow.

use std::fmt;

/// A decimal `u64`: digits only, no sign, no overflow.
#[inline]
pub fn parse_u64(s: &str) -> Option<u64> {
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
#[inline]
pub fn parse_u32(s: &str) -> Option<u32> {
    parse_u64(s).and_then(|v| u32::try_from(v).ok())
}

/// A hexadecimal `u64`, with or without `0x`, 1 to 16 digits.
pub fn parse_hex(s: &str) -> Option<u64> {
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

#[inline]
pub(crate) fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// A time in microseconds since the Unix epoch from `1700000000`, `1700000000.25` or
/// `1700000000.250000` (at most 6 decimals; a leading `-` for times before 1970).
pub fn parse_time(s: &str) -> Option<i64> {
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || frac.len() > 6 || !all_digits(whole) || !all_digits(frac) {
        return None;
    }
    let secs: i64 = whole.parse().ok()?;
    let micros =
        frac.bytes().chain(std::iter::repeat(b'0')).take(6).fold(0, |v, b| v * 10 + i64::from(b - b'0'));
    let value = secs.checked_mul(1_000_000)?.checked_add(micros)?;
    Some(if negative { -value } else { value })
}

/// A time in microseconds since the Unix epoch, displayed as the writer writes it: seconds
/// with exactly six decimals (`1700000000.250000`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub i64);

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let v = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:06}", v / 1_000_000, v % 1_000_000)
    }
}

/// Appends `v` in decimal.
#[inline]
pub fn push_u64(out: &mut Vec<u8>, mut v: u64) {
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
pub fn push_hex(out: &mut Vec<u8>, v: u64, width: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let needed = (16 - (v.leading_zeros() as usize) / 4).max(1);
    out.extend_from_slice(b"0x");
    for i in (0..needed.max(width)).rev() {
        let nibble = if i < 16 { (v >> (4 * i)) & 0xf } else { 0 };
        out.push(HEX[nibble as usize]);
    }
}

/// Appends a time as [`Time`] displays it.
pub fn push_time(out: &mut Vec<u8>, micros: i64) {
    use std::io::Write as _;
    // Writing into a `Vec` cannot fail.
    let _ = write!(out, "{}", Time(micros));
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(out, b"0 18446744073709551615 0x00d1 0x000000000002c903 0x12345");
    }

    #[test]
    fn times_have_exactly_six_decimals() {
        assert_eq!(Time(1_700_000_000_250_000).to_string(), "1700000000.250000");
        assert_eq!(Time(1).to_string(), "0.000001");
        assert_eq!(Time(-1_500_000).to_string(), "-1.500000");
        let mut out = Vec::new();
        push_time(&mut out, 9);
        assert_eq!(out, b"0.000009");
    }

    #[test]
    fn times_read_with_up_to_six_decimals_exactly() {
        assert_eq!(parse_time("1700000000.25"), Some(1_700_000_000_250_000));
        assert_eq!(parse_time("1700000000"), Some(1_700_000_000_000_000));
        assert_eq!(parse_time("1700000000.000001"), Some(1_700_000_000_000_001));
        assert_eq!(parse_time("-1.5"), Some(-1_500_000));
        assert_eq!(parse_time("1."), Some(1_000_000));
        for bad in ["", ".5", "1.1234567", "1e3", "+1", "1.-5", "99999999999999999999", "9223372036855"] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_time_reads_back_as_written() {
        for t in [0, 1, -1, 999_999, 1_000_000, 1_700_000_000_250_000, i64::MAX, i64::MIN + 1] {
            assert_eq!(parse_time(&Time(t).to_string()), Some(t), "{t}");
        }
    }
}
