//! What the torus and generic-2D scenes share: their input (values, filter masks and highlight
//! per node and per link of a [`crate::model::network::Network`]), their style, and legends in
//! plain numbers (run attributes are packets, counts or times, not always bytes).
//!
//! Glyph identity in these scenes: a node mark is [`super::MarkOf::Node`] and a link half's
//! `end` is `LinkEnd::from_index(i)` on rail 0, so `half.end.index()` is `i`. In a generic-2D
//! scene `i` indexes the network's nodes and links; in a torus scene it indexes the layout's
//! cells and merged links (the same as the network's when nothing is aggregated).

use crate::layout::torus::Aggregate;
use crate::model::LinkEnd;

use super::colour::{ColourMap, ColourScale, Rgba, ScaleKind};
use super::legend::Legend;
pub use crate::view_model::values::{NetworkInput, is_bytes, values_range};

/// How far glyphs outside a highlight fade toward the background (less than the fat tree's
/// 0.8: a torus seen in depth needs its dimmed frame to stay legible around what is lit).
pub const DIM_FADE: f32 = 0.65;

/// A link or node that has no value (or whose members all failed the filter): drawn neutral.
pub const NO_DATA: Rgba = Rgba::rgb(196, 196, 200);

/// How a network scene is coloured and titled.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkStyle {
    pub title: String,
    pub link_map: ColourMap,
    pub node_map: ColourMap,
    pub scale: ScaleKind,
    /// `None`: from the values (a link group sets the union of its members' ranges).
    pub link_range: Option<(f64, f64)>,
    pub node_range: Option<(f64, f64)>,
    /// What the link and node colours mean, e.g. `packets (mean)`.
    pub link_caption: String,
    pub node_caption: String,
    /// How merged nodes and links combine (torus projections).
    pub aggregate: Aggregate,
    /// The link and node values are bytes: legends read `MiB`, not `M`.
    pub link_bytes: bool,
    pub node_bytes: bool,
}

impl Default for NetworkStyle {
    fn default() -> Self {
        NetworkStyle {
            title: String::new(),
            link_map: ColourMap::default(),
            node_map: ColourMap::Viridis,
            scale: ScaleKind::Linear,
            link_range: None,
            node_range: None,
            link_caption: "no link attribute".into(),
            node_caption: "no node attribute".into(),
            aggregate: Aggregate::Mean,
            link_bytes: false,
            node_bytes: false,
        }
    }
}

/// The glyph identity of item `i` (see the module doc).
pub fn end_of(i: usize) -> LinkEnd {
    LinkEnd::from_index(i)
}

/// A colour scale over `range`, or `[0, 1]` if there is none.
pub fn scale_for(map: ColourMap, kind: ScaleKind, range: Option<(f64, f64)>) -> ColourScale {
    let (lo, hi) = range.unwrap_or((0.0, 1.0));
    ColourScale::new(map, kind, lo, hi)
}

/// A legend in bytes (binary units) or in plain numbers.
pub fn value_legend(title: &str, caption: &str, scale: ColourScale, bytes: bool) -> Legend {
    if bytes { Legend::new(title, caption, scale) } else { number_legend(title, caption, scale) }
}

/// A legend whose ticks are plain numbers.
pub fn number_legend(title: &str, caption: &str, scale: ColourScale) -> Legend {
    let mut legend = Legend::new(title, caption, scale);
    for (t, label) in &mut legend.ticks {
        *label = format_number(legend.scale.value_at(*t));
    }
    legend
}

/// `0`, `12`, `3.5`, `0.125`, `12.3k`, `4.56M`, `7.1e12`: three significant digits.
pub fn format_number(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let a = v.abs();
    let (scaled, suffix) = if a >= 1e12 {
        return format!("{v:.2e}");
    } else if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e4 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let s = scaled.abs();
    let decimals = if (s == s.trunc() && suffix.is_empty()) || s >= 100.0 {
        0
    } else if s >= 10.0 {
        1
    } else if s >= 0.01 || s == 0.0 {
        3 - (s.log10().floor().max(0.0) as usize) - 1
    } else {
        return format!("{v:.2e}");
    };
    let mut text = format!("{scaled:.decimals$}");
    if text.contains('.') {
        text = text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    format!("{text}{suffix}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn counter_and_ar_columns_are_legended_in_bytes() {
        for name in ["bytes", "bytes_ar", "predicted", "observed", "residual", "ar_minus_static"] {
            assert!(super::is_bytes(Some(name)), "{name}");
        }
        assert!(!super::is_bytes(Some("level")));
        assert!(!super::is_bytes(None));
    }

    use super::*;

    #[test]
    fn numbers_print_with_three_significant_digits() {
        let cases = [(0.0, "0"), (12.0, "12"), (3.5, "3.5"), (0.126, "0.13"), (12345.0, "12.3k")];
        for (v, text) in cases {
            assert_eq!(format_number(v), text, "{v}");
        }
        assert_eq!(format_number(4_560_000.0), "4.56M");
        assert_eq!(format_number(-2500.0), "-2500");
        assert_eq!(format_number(7.1e13), "7.10e13");
    }

    #[test]
    fn ranges_start_at_zero_unless_values_go_below() {
        assert_eq!(values_range(&[Some(3.0), None, Some(9.0)]), Some((0.0, 9.0)));
        assert_eq!(values_range(&[Some(-3.0), Some(2.0)]), Some((-3.0, 2.0)));
        assert_eq!(values_range(&[None]), None);
    }

    #[test]
    fn item_identity_round_trips_through_the_link_end_index() {
        for i in [0, 1, 7, 3071] {
            assert_eq!(end_of(i).index(), i);
        }
    }
}
