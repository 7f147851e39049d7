//! What a time strip's cells are (issue 22, item 5): bytes, or a % per interval.

/// What a time strip's cells are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StripMeasure {
    /// Bytes, summed over the row's ends.
    #[default]
    Bytes,
    /// The row's worst utilisation % of capacity.
    Utilisation,
    /// The row's worst stall % of the interval.
    Stall,
}

impl StripMeasure {
    pub const ALL: [StripMeasure; 3] = [StripMeasure::Bytes, StripMeasure::Utilisation, StripMeasure::Stall];

    pub fn name(self) -> &'static str {
        match self {
            StripMeasure::Bytes => "bytes",
            StripMeasure::Utilisation => "utilisation",
            StripMeasure::Stall => "stall",
        }
    }

    pub fn parse(text: &str) -> Option<StripMeasure> {
        StripMeasure::ALL.into_iter().find(|m| m.name() == text)
    }

    /// Utilisation and stall are a % (0–100 with thresholds on the legend); bytes are not.
    pub fn is_percent(self) -> bool {
        self != StripMeasure::Bytes
    }
}
