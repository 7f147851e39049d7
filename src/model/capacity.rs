//! A link's capacity: its active width (lanes) and lane speed, as the topology formats write
//! them, and the data rate per direction after line encoding (issue 22, item 1). The table is
//! documented in `docs/capacity.md`.
//!
//! Width: `1x`, `2x`, `4x`, `8x`, `12x` (any case). Speed: the generation's name (`SDR` … `XDR`,
//! `FDR10`) as ibnetdiscover writes it after the width (`4xQDR`), or OpenSM's `SPD=` number of
//! Gb/s per lane (`2.5`, `5`, `10`, `14`, `25`, `50`, `100`, `200`).

use super::fabric::Link;

/// One lane's speed, by InfiniBand generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LaneSpeed {
    Sdr,
    Ddr,
    Qdr,
    Fdr10,
    Fdr,
    Edr,
    Hdr,
    Ndr,
    Xdr,
}

impl LaneSpeed {
    /// Every speed, slowest first.
    pub const ALL: [LaneSpeed; 9] = [
        LaneSpeed::Sdr,
        LaneSpeed::Ddr,
        LaneSpeed::Qdr,
        LaneSpeed::Fdr10,
        LaneSpeed::Fdr,
        LaneSpeed::Edr,
        LaneSpeed::Hdr,
        LaneSpeed::Ndr,
        LaneSpeed::Xdr,
    ];

    /// The speed a topology file wrote: a generation name or OpenSM's Gb/s per lane.
    pub fn parse(text: &str) -> Option<LaneSpeed> {
        let text = text.trim();
        let by_name = match text.to_ascii_uppercase().as_str() {
            "SDR" => Some(LaneSpeed::Sdr),
            "DDR" => Some(LaneSpeed::Ddr),
            "QDR" => Some(LaneSpeed::Qdr),
            "FDR10" => Some(LaneSpeed::Fdr10),
            "FDR" => Some(LaneSpeed::Fdr),
            "EDR" => Some(LaneSpeed::Edr),
            "HDR" => Some(LaneSpeed::Hdr),
            "NDR" => Some(LaneSpeed::Ndr),
            "XDR" => Some(LaneSpeed::Xdr),
            _ => None,
        };
        by_name.or_else(|| {
            let gbps: f64 = text.parse().ok()?;
            [
                (2.5, LaneSpeed::Sdr),
                (5.0, LaneSpeed::Ddr),
                (10.0, LaneSpeed::Qdr),
                (10.3125, LaneSpeed::Fdr10),
                (14.0, LaneSpeed::Fdr),
                (14.0625, LaneSpeed::Fdr),
                (25.0, LaneSpeed::Edr),
                (25.78125, LaneSpeed::Edr),
                (50.0, LaneSpeed::Hdr),
                (53.125, LaneSpeed::Hdr),
                (100.0, LaneSpeed::Ndr),
                (106.25, LaneSpeed::Ndr),
                (200.0, LaneSpeed::Xdr),
                (212.5, LaneSpeed::Xdr),
            ]
            .into_iter()
            .find(|(rate, _)| (rate - gbps).abs() < 1e-9)
            .map(|(_, speed)| speed)
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            LaneSpeed::Sdr => "SDR",
            LaneSpeed::Ddr => "DDR",
            LaneSpeed::Qdr => "QDR",
            LaneSpeed::Fdr10 => "FDR10",
            LaneSpeed::Fdr => "FDR",
            LaneSpeed::Edr => "EDR",
            LaneSpeed::Hdr => "HDR",
            LaneSpeed::Ndr => "NDR",
            LaneSpeed::Xdr => "XDR",
        }
    }

    /// OpenSM's `SPD=` for this speed (Gb/s per lane as OpenSM names it; `FDR10` by name).
    pub fn opensm_spd(self) -> &'static str {
        match self {
            LaneSpeed::Sdr => "2.5",
            LaneSpeed::Ddr => "5",
            LaneSpeed::Qdr => "10",
            LaneSpeed::Fdr10 => "FDR10",
            LaneSpeed::Fdr => "14",
            LaneSpeed::Edr => "25",
            LaneSpeed::Hdr => "50",
            LaneSpeed::Ndr => "100",
            LaneSpeed::Xdr => "200",
        }
    }

    /// The line rate of one lane in Gb/s, before encoding. HDR and later run PAM4 with RS-FEC;
    /// their line rates are given as the rate whose 64b/66b payload is the nominal 50, 100 and
    /// 200 Gb/s per lane.
    pub fn line_gbps(self) -> f64 {
        match self {
            LaneSpeed::Sdr => 2.5,
            LaneSpeed::Ddr => 5.0,
            LaneSpeed::Qdr => 10.0,
            LaneSpeed::Fdr10 => 10.3125,
            LaneSpeed::Fdr => 14.0625,
            LaneSpeed::Edr => 25.78125,
            LaneSpeed::Hdr => 51.5625,
            LaneSpeed::Ndr => 103.125,
            LaneSpeed::Xdr => 206.25,
        }
    }

    /// Data bits per line bits: 8b/10b up to QDR, 64b/66b from FDR10 on.
    pub fn encoding(self) -> (u32, u32) {
        if self <= LaneSpeed::Qdr { (8, 10) } else { (64, 66) }
    }

    /// Data Gb/s per lane, after encoding.
    pub fn data_gbps(self) -> f64 {
        let (data, line) = self.encoding();
        self.line_gbps() * f64::from(data) / f64::from(line)
    }

    /// Bytes one XmitWait tick stands for, by NVIDIA's formulas (ibdiagnet manual, "Congestion
    /// Assessment on InfiniBand Links"): lost bytes = XmitWait × (Tick + 1) per port on Quantum
    /// switches (HDR and later), × (Tick + 1) × lanes on Switch-IB/Switch-X (EDR and earlier).
    /// `tick` is the port's `PortSamplesControl.Tick` where a capture recorded it; without it the
    /// per-ASIC value is assumed (7 on Quantum: 8 bytes of the port; 31 before: 32 bytes per
    /// lane), and shown as assumed wherever used.
    pub fn bytes_per_tick(self, lanes: u32, tick: Option<u8>) -> f64 {
        let quantum = self >= LaneSpeed::Hdr;
        let per = f64::from(tick.unwrap_or(if quantum { 7 } else { 31 })) + 1.0;
        if quantum { per } else { per * f64::from(lanes) }
    }
}

/// Lanes of a width as written (`4x`, `12X`, `1x`).
pub fn lanes(width: &str) -> Option<u32> {
    let digits = width.trim().strip_suffix(['x', 'X'])?;
    let lanes: u32 = digits.parse().ok()?;
    [1, 2, 4, 8, 12].contains(&lanes).then_some(lanes)
}

/// A link's active width and speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capacity {
    pub lanes: u32,
    pub speed: LaneSpeed,
}

impl Capacity {
    /// A link's capacity, or why it cannot be known.
    pub fn of(link: &Link) -> Result<Capacity, String> {
        let width = link.width.as_deref().ok_or("the topology gives no width for this link")?;
        let speed = link.speed.as_deref().ok_or("the topology gives no speed for this link")?;
        let lanes = lanes(width).ok_or_else(|| format!("width `{width}` is not 1x, 2x, 4x, 8x or 12x"))?;
        let speed =
            LaneSpeed::parse(speed).ok_or_else(|| format!("speed `{speed}` is no InfiniBand lane speed"))?;
        Ok(Capacity { lanes, speed })
    }

    /// The best width and speed both ends of a link support, where the topology records them
    /// (ibdiagnet2 `db_csv`); `None` elsewhere.
    pub fn supported(link: &Link) -> Option<Capacity> {
        let lanes = lanes(link.supported_width?)?;
        let speed = LaneSpeed::parse(link.supported_speed?)?;
        Some(Capacity { lanes, speed })
    }

    /// Data bytes per second in each direction.
    pub fn bytes_per_s(self) -> f64 {
        self.speed.data_gbps() * f64::from(self.lanes) * 1e9 / 8.0
    }

    /// `4x QDR`.
    pub fn describe(self) -> String {
        format!("{}x {}", self.lanes, self.speed.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_follow_the_line_encoding_table() {
        let rate = |lanes, speed| Capacity { lanes, speed }.bytes_per_s();
        assert_eq!(rate(4, LaneSpeed::Sdr), 1e9, "4 × 2.5 Gb/s × 8/10 = 8 Gb/s");
        assert_eq!(rate(4, LaneSpeed::Qdr), 4e9);
        assert_eq!(rate(1, LaneSpeed::Sdr), 0.25e9);
        assert_eq!(rate(4, LaneSpeed::Fdr10), 5e9);
        assert!((rate(4, LaneSpeed::Fdr) - 6.818_181_8e9).abs() < 1e3);
        assert_eq!(rate(4, LaneSpeed::Edr), 12.5e9);
        assert_eq!(rate(4, LaneSpeed::Ndr), 50e9);
        assert_eq!(rate(4, LaneSpeed::Xdr), 100e9);
    }

    #[test]
    fn speeds_read_as_names_or_opensm_numbers() {
        assert_eq!(LaneSpeed::parse("2.5"), Some(LaneSpeed::Sdr));
        assert_eq!(LaneSpeed::parse("qdr"), Some(LaneSpeed::Qdr));
        assert_eq!(LaneSpeed::parse("14"), Some(LaneSpeed::Fdr));
        assert_eq!(LaneSpeed::parse("FDR10"), Some(LaneSpeed::Fdr10));
        assert_eq!(LaneSpeed::parse("100"), Some(LaneSpeed::Ndr));
        assert_eq!(LaneSpeed::parse("7"), None);
        assert_eq!(lanes("4x"), Some(4));
        assert_eq!(lanes("12X"), Some(12));
        assert_eq!(lanes("3x"), None);
    }

    #[test]
    fn opensm_speed_names_read_back_as_the_same_speed() {
        for speed in LaneSpeed::ALL {
            assert_eq!(LaneSpeed::parse(speed.opensm_spd()), Some(speed), "{speed:?}");
        }
    }

    #[test]
    fn a_link_without_width_or_speed_says_why_it_has_no_capacity() {
        let link = Link {
            a_port: crate::model::PortNum(1),
            b_port: crate::model::PortNum(1),
            width: Some("4x".into()),
            speed: None,
            supported_width: None,
            supported_speed: None,
        };
        assert!(Capacity::of(&link).unwrap_err().contains("no speed"));
    }
}
