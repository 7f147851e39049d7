//! Colours, colour maps and the value → colour scale shared by every painter.
//!
//! Sequential maps (YlOrRd, copper, viridis, cividis, magma) colour loads from 0 up; diverging
//! maps (RdBu, PuOr) colour signed differences around 0, red/orange for positive (A > B).
//! The curves come from `colorous`, except copper, which is matplotlib's linear formula that
//! Boxfish used as its default.
//!
//! The default is ColorBrewer's YlOrRd (issue 25): on the light canvas a link that carried
//! nothing should recede and the busiest should stand out. YlOrRd is a sequential map whose
//! lightness falls monotonically from a pale yellow (0, close to the canvas) to a dark, saturated
//! red (the maximum), so darker always means busier, also in greyscale and for the common
//! red-green colour blindness (the order is carried by lightness). Copper, Boxfish's default,
//! starts at black: zero-byte links were the most visible marks on the light canvas, so it stays
//! a choice, not the default. Viridis and magma start dark too; reversed they would end on a
//! bright yellow or black instead of a saturated colour.

pub use crate::view_model::colour_choice::{ColourMap, ScaleKind};

/// A straight-alpha sRGB colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    pub const WHITE: Rgba = Rgba([255, 255, 255, 255]);
    pub const BLACK: Rgba = Rgba([0, 0, 0, 255]);
    pub const TRANSPARENT: Rgba = Rgba([0, 0, 0, 0]);

    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba([r, g, b, 255])
    }

    pub fn with_alpha(self, alpha: u8) -> Rgba {
        let [r, g, b, _] = self.0;
        Rgba([r, g, b, alpha])
    }

    /// Mixes toward `other` by `t` in 0..=1 (alpha too).
    pub fn lerp(self, other: Rgba, t: f32) -> Rgba {
        let t = t.clamp(0.0, 1.0);
        let mut out = [0u8; 4];
        for (i, o) in out.iter_mut().enumerate() {
            let (a, b) = (f32::from(self.0[i]), f32::from(other.0[i]));
            *o = round_to_u8(a + (b - a) * t);
        }
        Rgba(out)
    }

    /// `#rrggbb`, as SVG wants it (alpha goes in a separate attribute).
    pub fn hex(self) -> String {
        let [r, g, b, _] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    pub fn alpha_f32(self) -> f32 {
        f32::from(self.0[3]) / 255.0
    }
}

/// `x.round() as u8` without a libm call (a TSUBAME scene fades 15,000 colours per highlight):
/// the integer part plus one where the fraction reaches a half, as `round` does for x ≥ 0;
/// below 0 both give 0, above 255 both saturate.
fn round_to_u8(x: f32) -> u8 {
    let i = x as u32;
    let up = x - i as f32 >= 0.5;
    u8::try_from(i + u32::from(up)).unwrap_or(u8::MAX)
}

/// `(t * 255).round()` for a map position `t` in 0..=1 (NaN: 0), without a libm call.
#[inline]
fn lut_slot(t: f64) -> usize {
    let x = t * 255.0;
    let i = x as usize;
    (i + usize::from(x - i as f64 >= 0.5)).min(255)
}

/// Painting a named map: the colour at a point of its ramp.
impl ColourMap {
    /// The colour at `t` in 0..=1 (0 = low / most negative, 1 = high / most positive).
    pub fn at(self, t: f64) -> Rgba {
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        let c = match self {
            ColourMap::Copper => {
                let channel = |x: f64| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
                return Rgba::rgb(channel(1.25 * t), channel(0.7812 * t), channel(0.4975 * t));
            }
            ColourMap::YlOrRd => colorous::YELLOW_ORANGE_RED.eval_continuous(t),
            ColourMap::Viridis => colorous::VIRIDIS.eval_continuous(t),
            ColourMap::Cividis => colorous::CIVIDIS.eval_continuous(t),
            ColourMap::Magma => colorous::MAGMA.eval_continuous(t),
            // colorous runs red → blue and purple → orange; we put positive at the red/orange end.
            ColourMap::RdBu => colorous::RED_BLUE.eval_continuous(1.0 - t),
            ColourMap::PuOr => colorous::PURPLE_ORANGE.eval_continuous(1.0 - t),
        };
        Rgba::rgb(c.r, c.g, c.b)
    }

    /// A 256-entry table, so painting thousands of links does not evaluate splines.
    pub fn lut(self) -> [Rgba; 256] {
        let mut lut = [Rgba::BLACK; 256];
        for (i, c) in lut.iter_mut().enumerate() {
            *c = self.at(i as f64 / 255.0);
        }
        lut
    }
}

/// Value → colour: a map, a scale and the value range `[min, max]` the map spans.
/// For a diverging map the range is symmetric around 0 (`min = -max`).
#[derive(Clone, Debug, PartialEq)]
pub struct ColourScale {
    pub map: ColourMap,
    pub kind: ScaleKind,
    min: f64,
    max: f64,
    /// `min` and `max` through the scale's function (`ln_1p` for log), kept: a scene colours
    /// every link end, and recomputing them per end was 15 % of a TSUBAME rebuild frame.
    span: (f64, f64),
    lut: [Rgba; 256],
}

impl ColourScale {
    /// A scale over `[min, max]`; a diverging map widens the range to be symmetric around 0.
    pub fn new(map: ColourMap, kind: ScaleKind, min: f64, max: f64) -> Self {
        let (min, max) = if map.is_diverging() {
            let m = min.abs().max(max.abs());
            (-m, m)
        } else {
            (min.min(max), max.max(min))
        };
        let span = (kind.apply(min), kind.apply(max));
        ColourScale { map, kind, min, max, span, lut: map.lut() }
    }

    /// The low end of the range the map spans.
    pub fn min(&self) -> f64 {
        self.min
    }

    /// The high end of the range the map spans.
    pub fn max(&self) -> f64 {
        self.max
    }

    /// Where `value` falls on the map, 0..=1.
    #[inline]
    pub fn position(&self, value: f64) -> f64 {
        let (lo, hi) = self.span;
        if hi <= lo {
            return if self.map.is_diverging() { 0.5 } else { 0.0 };
        }
        ((self.kind.apply(value) - lo) / (hi - lo)).clamp(0.0, 1.0)
    }

    /// The value at map position `t` (the inverse of [`position`](Self::position)), for legends.
    pub fn value_at(&self, t: f64) -> f64 {
        let (lo, hi) = self.span;
        let x = lo + (hi - lo) * t;
        match self.kind {
            ScaleKind::Linear => x,
            ScaleKind::Log => x.signum() * x.abs().exp_m1(),
        }
    }

    #[inline]
    pub fn colour(&self, value: f64) -> Rgba {
        self.lut[self.lut_index(value)]
    }

    /// Which of the 256 table colours `value` gets: `colour(value) == lut()[lut_index(value)]`.
    #[inline]
    pub fn lut_index(&self, value: f64) -> usize {
        lut_slot(self.position(value))
    }

    /// The 256 colours the scale picks from, so a painter can derive its own (faded) table.
    pub fn lut(&self) -> &[Rgba; 256] {
        &self.lut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative luminance (sRGB, WCAG), 0 black to 1 white.
    fn luminance(c: Rgba) -> f64 {
        let lin = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
        };
        let [r, g, b, _] = c.0;
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }

    #[test]
    fn the_default_map_is_light_at_zero_and_darkens_all_the_way_to_the_busiest() {
        let map = ColourMap::default();
        assert!(!map.is_diverging());
        assert!(luminance(map.at(0.0)) > 0.9, "zero recedes on the light canvas: {:?}", map.at(0.0));
        assert!(luminance(map.at(1.0)) < 0.1, "the busiest is darkest: {:?}", map.at(1.0));
        let lut = map.lut();
        for pair in lut.windows(2) {
            assert!(luminance(pair[1]) <= luminance(pair[0]) + 1e-3, "darker means busier: {pair:?}");
        }
        let [r, g, b, _] = map.at(1.0).0;
        assert!(r > 2 * g.max(b), "the busiest end is a saturated red, not black: {r} {g} {b}");
    }

    #[test]
    fn fast_rounding_agrees_with_round_everywhere_a_colour_can_fall() {
        for k in -2000..=300_000 {
            let x = k as f32 / 1024.0;
            assert_eq!(round_to_u8(x), x.round() as u8, "{x}");
        }
        for k in 0..=1_000_000 {
            let t = k as f64 / 1e6;
            assert_eq!(lut_slot(t), (t * 255.0).round() as usize, "{t}");
        }
        assert_eq!(lut_slot(f64::NAN), 0);
        assert_eq!(round_to_u8(f32::NAN), 0);
    }

    #[test]
    fn copper_runs_from_black_to_copper() {
        assert_eq!(ColourMap::Copper.at(0.0), Rgba::BLACK);
        assert_eq!(ColourMap::Copper.at(1.0), Rgba::rgb(255, 199, 127));
    }

    #[test]
    fn diverging_maps_are_white_at_zero_and_red_for_positive() {
        let scale = ColourScale::new(ColourMap::RdBu, ScaleKind::Linear, -10.0, 4.0);
        assert_eq!((scale.min(), scale.max()), (-10.0, 10.0));
        let [r, g, b, _] = scale.colour(0.0).0;
        assert!(r > 230 && g > 230 && b > 230, "{r} {g} {b}");
        let [r, _, b, _] = scale.colour(10.0).0;
        assert!(r > b);
        let [r, _, b, _] = scale.colour(-10.0).0;
        assert!(b > r);
    }

    #[test]
    fn log_scale_spreads_small_values_and_inverts() {
        let lin = ColourScale::new(ColourMap::Viridis, ScaleKind::Linear, 0.0, 1e9);
        let log = ColourScale::new(ColourMap::Viridis, ScaleKind::Log, 0.0, 1e9);
        assert!(log.position(1e3) > 0.3);
        assert!(lin.position(1e3) < 0.01);
        for t in [0.0, 0.25, 0.5, 1.0] {
            assert!((log.position(log.value_at(t)) - t).abs() < 1e-9);
        }
    }

    #[test]
    fn an_empty_range_maps_to_the_bottom_of_the_map() {
        let s = ColourScale::new(ColourMap::Magma, ScaleKind::Linear, 0.0, 0.0);
        assert_eq!(s.position(5.0), 0.0);
    }

    #[test]
    fn map_names_parse_back() {
        for m in ColourMap::ALL {
            assert_eq!(ColourMap::parse(m.name()), Some(m));
        }
        assert_eq!(ColourMap::parse("Viridis"), Some(ColourMap::Viridis));
        assert_eq!(ColourMap::parse("jet"), None);
    }
}
