//! The colours a view asks for, as plain data: which map and which scale. How a map paints (its
//! ramp) is the scene's ([`crate::scene::colour`]); the view model only names the choice.

use std::fmt;

/// A named colour map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColourMap {
    /// ColorBrewer's yellow → orange → red: light for 0, dark red for the busiest (the default:
    /// see `scene::colour` for why).
    #[default]
    YlOrRd,
    /// Boxfish's default: black → copper.
    Copper,
    Viridis,
    Cividis,
    Magma,
    /// Diverging blue (negative) – white – red (positive).
    RdBu,
    /// Diverging purple (negative) – white – orange (positive).
    PuOr,
}

impl ColourMap {
    pub const ALL: [ColourMap; 7] = [
        ColourMap::YlOrRd,
        ColourMap::Copper,
        ColourMap::Viridis,
        ColourMap::Cividis,
        ColourMap::Magma,
        ColourMap::RdBu,
        ColourMap::PuOr,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ColourMap::YlOrRd => "ylorrd",
            ColourMap::Copper => "copper",
            ColourMap::Viridis => "viridis",
            ColourMap::Cividis => "cividis",
            ColourMap::Magma => "magma",
            ColourMap::RdBu => "rdbu",
            ColourMap::PuOr => "puor",
        }
    }

    /// Parses a name as [`name`](Self::name) prints it, case-insensitively.
    pub fn parse(name: &str) -> Option<ColourMap> {
        let lower = name.to_ascii_lowercase();
        ColourMap::ALL.into_iter().find(|m| m.name() == lower)
    }

    pub fn is_diverging(self) -> bool {
        matches!(self, ColourMap::RdBu | ColourMap::PuOr)
    }
}

impl fmt::Display for ColourMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How values are spread over the colour map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScaleKind {
    #[default]
    Linear,
    /// `ln(1 + |v|)`: keeps small loads distinguishable next to a few huge ones.
    Log,
}

impl ScaleKind {
    /// The function values go through before they are spread linearly over the map.
    #[inline]
    pub fn apply(self, v: f64) -> f64 {
        match self {
            ScaleKind::Linear => v,
            ScaleKind::Log => v.signum() * v.abs().ln_1p(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ScaleKind::Linear => "linear",
            ScaleKind::Log => "log",
        }
    }
}
