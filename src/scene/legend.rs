//! Legend bars: "N" (nodes) and "L" (links), each a colour map with its value range in byte
//! units and the scale (linear or log).

use crate::units::format_bytes_f64;

use crate::model::thresholds::Threshold;

use super::colour::{ColourScale, ScaleKind};

/// One legend bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Legend {
    /// `N` or `L`.
    pub title: String,
    /// What the colour means, e.g. `bytes sent` or `bytes injected`.
    pub caption: String,
    pub scale: ColourScale,
    /// (position on the bar 0..=1 from the bottom, label), bottom first.
    pub ticks: Vec<(f64, String)>,
}

impl Legend {
    /// A legend with ticks at the bottom, middle and top of the bar (five for a log scale,
    /// where the middle alone says little).
    pub fn new(title: &str, caption: &str, scale: ColourScale) -> Self {
        let positions: &[f64] = match scale.kind {
            ScaleKind::Linear => &[0.0, 0.5, 1.0],
            ScaleKind::Log => &[0.0, 0.25, 0.5, 0.75, 1.0],
        };
        let ticks = positions.iter().map(|&t| (t, format_bytes_f64(scale.value_at(t)))).collect();
        Legend { title: title.into(), caption: caption.into(), scale, ticks }
    }

    /// A percentage's legend: its ends and each threshold inside them, named (`5 % active`).
    pub fn percent(title: &str, caption: &str, scale: ColourScale, thresholds: &[Threshold]) -> Self {
        let label = |v: f64| if v.fract() == 0.0 { format!("{v:.0} %") } else { format!("{v:.1} %") };
        let mut ticks = vec![(0.0, label(scale.value_at(0.0)))];
        for t in thresholds.iter().filter(|t| t.percent > scale.min() && t.percent < scale.max()) {
            ticks.push((scale.position(t.percent), format!("{} {}", label(t.percent), t.name)));
        }
        ticks.push((1.0, label(scale.value_at(1.0))));
        Legend { title: title.into(), caption: caption.into(), scale, ticks }
    }

    /// `linear` or `log`, shown under the bar.
    pub fn scale_name(&self) -> &'static str {
        self.scale.kind.name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::colour::ColourMap;

    #[test]
    fn legend_ticks_carry_byte_units() {
        let s = ColourScale::new(ColourMap::Copper, ScaleKind::Linear, 0.0, 3.0 * 1024.0 * 1024.0);
        let l = Legend::new("L", "bytes sent", s);
        let labels: Vec<&str> = l.ticks.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(labels, ["0 B", "1.5 MiB", "3 MiB"]);
        assert_eq!(l.scale_name(), "linear");
    }

    #[test]
    fn a_utilisation_legend_names_its_thresholds_where_the_colours_are() {
        use crate::model::thresholds::UTILISATION;
        let s = ColourScale::new(ColourMap::YlOrRd, ScaleKind::Linear, 0.0, 100.0);
        let l = Legend::percent("L", "utilisation", s.clone(), &UTILISATION);
        let labels: Vec<&str> = l.ticks.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(labels, ["0 %", "5 % active", "50 % tail", "100 %"]);
        for (position, label) in &l.ticks {
            let value: f64 = label.split(' ').next().unwrap().parse().unwrap();
            assert!((s.value_at(*position) - value).abs() < 1e-9, "{label} sits where its colour is");
        }
    }

    #[test]
    fn a_diverging_legend_is_signed() {
        let s = ColourScale::new(ColourMap::RdBu, ScaleKind::Linear, -2048.0, 1024.0);
        let l = Legend::new("L", "A − B", s);
        assert_eq!(l.ticks.first().map(|t| t.1.as_str()), Some("-2 KiB"));
        assert_eq!(l.ticks.last().map(|t| t.1.as_str()), Some("2 KiB"));
    }
}
