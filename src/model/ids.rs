//! Identifier newtypes, printed the way the InfiniBand tools print them:
//! LIDs and GUIDs in hexadecimal (`0x0012`, `0x0002c90300a1b2c3`), port numbers in decimal.

use std::fmt;

/// A local identifier: the 16-bit address a subnet manager gives each port (switches: port 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lid(pub u16);

/// The first multicast LID; unicast LIDs are `1..MULTICAST_START`.
pub const MULTICAST_START: u16 = 0xC000;

impl Lid {
    /// Parses `0x12`, `0012` or `12` as hexadecimal. `None` if it is not a 16-bit hex number.
    pub fn parse_hex(s: &str) -> Option<Lid> {
        parse_hex_u64(s).and_then(|v| u16::try_from(v).ok()).map(Lid)
    }

    /// Parses a decimal LID, as `ibnetdiscover` prints it.
    pub fn parse_dec(s: &str) -> Option<Lid> {
        s.trim().parse::<u16>().ok().map(Lid)
    }

    /// Parses a LID typed by a user: `0x12` is hexadecimal, a bare `12` decimal, as `ibtracert`,
    /// `perfquery` and `ibnetdiscover` read them (issue 16).
    pub fn parse_typed(s: &str) -> Option<Lid> {
        let s = s.trim();
        if s.starts_with("0x") || s.starts_with("0X") { Lid::parse_hex(s) } else { Lid::parse_dec(s) }
    }

    /// True for a LID a forwarding table can route: not 0 (unassigned) and not multicast.
    pub fn is_unicast(self) -> bool {
        self.0 != 0 && self.0 < MULTICAST_START
    }
}

impl fmt::Display for Lid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:04x}", self.0)
    }
}

/// A 64-bit globally unique identifier of a node, port or system.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Guid(pub u64);

impl Guid {
    /// Parses `0x0002c903...` or the same digits without `0x`.
    pub fn parse_hex(s: &str) -> Option<Guid> {
        parse_hex_u64(s).map(Guid)
    }
}

impl fmt::Display for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:016x}", self.0)
    }
}

/// A physical port number on a node (0 is a switch's management port).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PortNum(pub u8);

/// The port number forwarding tables use to mean "drop": no route.
pub const DROP_PORT: u8 = 255;

impl fmt::Display for PortNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Which subnet (rail) of a multi-rail cluster. Rail 0 is drawn above the hosts, rail 1 below.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RailId(pub u8);

impl fmt::Display for RailId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

fn parse_hex_u64(s: &str) -> Option<u64> {
    if let Some(value) = plain_hex(s.as_bytes()) {
        return Some(value);
    }
    let s = s.trim();
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s);
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

/// `[0x]` and 1 to 16 hex digits, nothing else: the usual spelling, read without trimming or
/// `from_str_radix` (a `.lst` line holds six GUIDs). `None` sends anything else the long way.
fn plain_hex(bytes: &[u8]) -> Option<u64> {
    let digits = match bytes {
        [b'0', b'x' | b'X', rest @ ..] => rest,
        _ => bytes,
    };
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    digits.iter().try_fold(0u64, |value, &b| Some(value << 4 | u64::from(char::from(b).to_digit(16)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lids_print_and_parse_as_four_hex_digits() {
        assert_eq!(Lid(0x12).to_string(), "0x0012");
        assert_eq!(Lid::parse_hex("0x0012"), Some(Lid(0x12)));
        assert_eq!(Lid::parse_hex("00C0"), Some(Lid(0xC0)));
        assert_eq!(Lid::parse_hex("0x10000"), None);
        assert_eq!(Lid::parse_hex("zz"), None);
        assert_eq!(Lid::parse_hex(""), None);
    }

    #[test]
    fn typed_lids_are_decimal_unless_prefixed_0x() {
        assert_eq!(Lid::parse_typed("12"), Some(Lid(12)));
        assert_eq!(Lid::parse_typed("0x12"), Some(Lid(0x12)));
        assert_eq!(Lid::parse_typed(" 0X1a "), Some(Lid(0x1a)));
        assert_eq!(Lid::parse_typed("1a"), None);
        assert_eq!(Lid::parse_typed("65536"), None);
        assert_eq!(Lid::parse_typed(""), None);
    }

    #[test]
    fn guids_print_with_sixteen_hex_digits() {
        assert_eq!(Guid(0x2c903).to_string(), "0x000000000002c903");
        assert_eq!(Guid::parse_hex("0x0002c90300a1b2c3"), Some(Guid(0x0002c90300a1b2c3)));
        assert_eq!(Guid::parse_hex("0x00000000000000000"), None);
    }

    #[test]
    fn only_nonzero_non_multicast_lids_are_unicast() {
        assert!(!Lid(0).is_unicast());
        assert!(Lid(1).is_unicast());
        assert!(Lid(0xBFFF).is_unicast());
        assert!(!Lid(0xC000).is_unicast());
    }

    /// The long way: what `parse_hex_u64` did before its fast path.
    fn long_hex(s: &str) -> Option<u64> {
        let s = s.trim();
        let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s);
        if digits.is_empty() || digits.len() > 16 {
            return None;
        }
        u64::from_str_radix(digits, 16).ok()
    }

    proptest::proptest! {
        #[test]
        fn the_fast_hex_path_reads_what_the_long_way_reads(s in "[ 0xX+a-fA-F0-9g\u{a0}]{0,20}") {
            proptest::prop_assert_eq!(parse_hex_u64(&s), long_hex(&s));
        }
    }
}
