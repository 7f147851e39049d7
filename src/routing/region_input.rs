//! One region's counters for every rank: what the tracer reads, whichever path traces it.

use crate::model::EpochMicros;

use super::flows::RankTraffic;

/// The counters of one region (or of the cumulative total) for every rank.
#[derive(Clone, Debug, Default)]
pub struct RegionInput<'a> {
    /// `None` for the cumulative total.
    pub region: Option<u32>,
    pub name: Option<String>,
    pub dumptime: Option<EpochMicros>,
    pub ranks: Vec<RankTraffic<'a>>,
}
