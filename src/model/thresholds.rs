//! Threshold presets for utilisation and stall (issue 22, item 3), from the seed paper on Blue
//! Waters link-level analysis: a link end is *active* above 5 % utilisation and in the *tail*
//! above 50 %; stalls of 10–15 % of the time already *hurt* jobs, and 40 % is *severe*.
//!
//! They are marks on the legend of a view coloured by utilisation or stall, the default stall
//! threshold of congestion regions, and the words of `shoal why`'s verdict.

/// One named level of a percentage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    pub percent: f64,
    pub name: &'static str,
}

/// Utilisation % of the link's capacity: active, tail.
pub const UTILISATION: [Threshold; 2] =
    [Threshold { percent: 5.0, name: "active" }, Threshold { percent: 50.0, name: "tail" }];

/// Stall % of the interval: hurts (from 10 %, the seed's 10–15 % band), severe.
pub const STALL: [Threshold; 2] =
    [Threshold { percent: 10.0, name: "hurts" }, Threshold { percent: 40.0, name: "severe" }];

/// The upper edge of the seed's "hurts" band: stalls between 10 and 15 % already hurt.
pub const STALL_HURTS_UPPER: f64 = 15.0;

/// The stall % above which a link end joins a congestion region, unless told otherwise.
pub const DEFAULT_REGION_STALL: f64 = STALL[0].percent;

/// The name of the highest threshold `percent` reaches, if any.
pub fn level(thresholds: &[Threshold], percent: f64) -> Option<&'static str> {
    thresholds.iter().rev().find(|t| percent >= t.percent).map(|t| t.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_percentage_takes_the_name_of_the_highest_threshold_it_reaches() {
        assert_eq!(level(&STALL, 9.9), None);
        assert_eq!(level(&STALL, 12.0), Some("hurts"));
        assert_eq!(level(&STALL, 40.0), Some("severe"));
        assert_eq!(level(&UTILISATION, 5.0), Some("active"));
        assert_eq!(level(&UTILISATION, 75.0), Some("tail"));
    }
}
