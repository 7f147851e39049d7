//! The width and speed codes of ibdiagnet2's `db_csv` (issue 22, item 1), as sets, so that what
//! both ends of a link support is their intersection.
//!
//! - `PORTS` `LinkWidthActv`/`LinkWidthSup`: IB bitmasks, 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x.
//! - `PORTS` `LinkSpeedActv`/`LinkSpeedSup`: ibdiagnet writes ibdm's combined code, one byte per
//!   PortInfo field: byte 0 the base speeds (1, 2, 4 = SDR, DDR, QDR), byte 1 the extended ones
//!   (1, 2, 4, 8 = FDR, EDR, HDR, NDR: `256`, `512`, `1024`, `2048`), byte 2 Mellanox's (1 = FDR10,
//!   `65536`; 2 = EDR20, which no InfiniBand rate table here has), byte 3 the second extension
//!   (1 = XDR, `16777216`). A real NDR capture writes `LinkSpeedActv` 2048 and `LinkSpeedSup` 3841.
//! - An older separate `LinkSpeedExtActv`/`LinkSpeedExtSup` column holds byte 1 alone.
//! - `EXTENDED_PORT_INFO` `LinkSpeedActive`/`LinkSpeedSupported` (Mellanox's ExtendedPortInfo):
//!   1 = FDR10. A port whose PortInfo says QDR runs FDR10 when this says so (the rule the Linux
//!   mlx4/mlx5 drivers apply).

use crate::model::capacity::LaneSpeed;

/// A set of lane speeds: bit `i` is [`LaneSpeed::ALL`]`[i]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Speeds(u16);

/// The byte-by-byte meaning of ibdm's combined speed code.
const COMBINED: [(u32, LaneSpeed); 9] = [
    (1, LaneSpeed::Sdr),
    (2, LaneSpeed::Ddr),
    (4, LaneSpeed::Qdr),
    (1 << 8, LaneSpeed::Fdr),
    (2 << 8, LaneSpeed::Edr),
    (4 << 8, LaneSpeed::Hdr),
    (8 << 8, LaneSpeed::Ndr),
    (1 << 16, LaneSpeed::Fdr10),
    (1 << 24, LaneSpeed::Xdr),
];

impl Speeds {
    pub fn of(speed: LaneSpeed) -> Speeds {
        Speeds(1 << LaneSpeed::ALL.iter().position(|s| *s == speed).unwrap_or(0))
    }

    /// A `PORTS` speed code; `Err` names the bits no known speed has (EDR20, reserved ones).
    pub fn from_ports(code: u32) -> Result<Speeds, String> {
        let mut speeds = Speeds::default();
        let mut known = 0u32;
        for (bit, speed) in COMBINED {
            if code & bit != 0 {
                speeds = speeds.union(Speeds::of(speed));
                known |= bit;
            }
        }
        match code & !known {
            0 => Ok(speeds),
            rest => Err(format!("speed code {code} has bits {rest:#x} that name no InfiniBand lane speed")),
        }
    }

    /// An older separate `LinkSpeedExt…` column: the extended byte alone.
    pub fn from_ext(code: u32) -> Result<Speeds, String> {
        Speeds::from_ports(code.checked_shl(8).filter(|c| c >> 8 == code).ok_or("too large")?)
    }

    /// `EXTENDED_PORT_INFO`'s `LinkSpeedActive`/`LinkSpeedSupported`: only FDR10 (bit 0) is a
    /// speed of the rate table; EDR20 (bit 1) is Mellanox's own and left out.
    pub fn from_mlnx(code: u32) -> Speeds {
        if code & 1 != 0 { Speeds::of(LaneSpeed::Fdr10) } else { Speeds::default() }
    }

    pub fn union(self, other: Speeds) -> Speeds {
        Speeds(self.0 | other.0)
    }

    pub fn intersection(self, other: Speeds) -> Speeds {
        Speeds(self.0 & other.0)
    }

    pub fn contains(self, speed: LaneSpeed) -> bool {
        self.intersection(Speeds::of(speed)) != Speeds::default()
    }

    /// The fastest speed of the set.
    pub fn fastest(self) -> Option<LaneSpeed> {
        LaneSpeed::ALL.iter().rev().copied().find(|s| self.contains(*s))
    }
}

/// Widths of an IB width mask, as `PHY=` writes them, and their lane counts.
const WIDTHS: [(u32, &str, u32); 5] =
    [(1, "1x", 1), (16, "2x", 2), (2, "4x", 4), (4, "8x", 8), (8, "12x", 12)];

/// The width an active-width code names (one bit), if any.
pub fn width_name(code: u32) -> Option<&'static str> {
    WIDTHS.iter().find(|(bit, _, _)| *bit == code).map(|(_, name, _)| *name)
}

/// The widest width in a width mask.
pub fn widest(mask: u32) -> Option<&'static str> {
    WIDTHS.iter().rev().find(|(bit, _, _)| mask & bit != 0).map(|(_, name, _)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_real_ndr_capture_codes_read_as_ndr_active_and_sdr_to_ndr_supported() {
        // A real NDR capture's PORTS row: LinkSpeedActv 2048, LinkSpeedSup 3841, LinkWidthSup 19.
        assert_eq!(Speeds::from_ports(2048).unwrap().fastest(), Some(LaneSpeed::Ndr));
        let supported = Speeds::from_ports(3841).unwrap();
        assert!(supported.contains(LaneSpeed::Sdr) && supported.contains(LaneSpeed::Hdr));
        assert!(!supported.contains(LaneSpeed::Qdr));
        assert_eq!(widest(19), Some("4x"), "1x, 4x and 2x");
        assert_eq!(width_name(2), Some("4x"));
    }

    #[test]
    fn fdr10_and_xdr_have_their_own_bytes() {
        assert_eq!(Speeds::from_ports(1 << 16).unwrap().fastest(), Some(LaneSpeed::Fdr10));
        assert_eq!(Speeds::from_ports(1 << 24).unwrap().fastest(), Some(LaneSpeed::Xdr));
        assert_eq!(Speeds::from_mlnx(1).fastest(), Some(LaneSpeed::Fdr10));
        assert_eq!(Speeds::from_mlnx(2).fastest(), None, "EDR20 is not in the rate table");
        assert_eq!(Speeds::from_ext(8).unwrap().fastest(), Some(LaneSpeed::Ndr));
        assert_eq!(Speeds::from_ports(7).unwrap().fastest(), Some(LaneSpeed::Qdr));
    }

    #[test]
    fn a_speed_code_with_unknown_bits_is_named() {
        let err = Speeds::from_ports(2 << 16).unwrap_err();
        assert!(err.contains("131072") && err.contains("0x20000"), "{err}");
        assert!(Speeds::from_ext(u32::MAX).is_err());
    }

    #[test]
    fn what_two_ends_support_is_the_fastest_speed_they_share() {
        let ndr_end = Speeds::from_ports(3841).unwrap();
        let hdr_end = Speeds::from_ports(0x701).unwrap();
        assert_eq!(ndr_end.intersection(hdr_end).fastest(), Some(LaneSpeed::Hdr));
        assert_eq!(widest(19 & 2), Some("4x"));
    }
}
