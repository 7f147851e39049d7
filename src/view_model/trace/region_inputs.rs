//! A profile's counters as the tracer takes them: each region's deltas, and each rank's
//! cumulative total, borrowed from the profile and its region table.

use crate::model::{Profile, RegionTable};
use crate::routing::{RankTraffic, RegionInput};

/// Region `table.regions[at]`'s deltas for every rank.
pub fn region_input<'p>(profile: &'p Profile, table: &'p RegionTable, at: usize) -> RegionInput<'p> {
    let info = &table.regions[at];
    RegionInput {
        region: Some(info.number),
        name: info.name.clone(),
        dumptime: info.dumptime,
        ranks: profile
            .ranks
            .iter()
            .enumerate()
            .map(|(i, section)| {
                let c = table.delta(profile, at, i);
                RankTraffic { section, peers: c.peers, lids: c.lids }
            })
            .collect(),
    }
}

/// Every rank's cumulative counters (its last dump, plus anything carried forward).
pub fn total_input<'p>(profile: &'p Profile, table: &'p RegionTable) -> RegionInput<'p> {
    RegionInput {
        region: None,
        name: None,
        dumptime: table.regions.last().and_then(|r| r.dumptime),
        ranks: profile
            .ranks
            .iter()
            .enumerate()
            .map(|(i, section)| {
                let (peers, lids) = table.total(profile, i);
                RankTraffic { section, peers, lids }
            })
            .collect(),
    }
}

/// Rank counters per region (deltas) and for the total, as the tracer wants them.
pub fn region_inputs<'p>(
    profile: &'p Profile,
    table: &'p RegionTable,
) -> (Vec<RegionInput<'p>>, RegionInput<'p>) {
    let inputs = (0..table.regions.len()).map(|at| region_input(profile, table, at)).collect();
    (inputs, total_input(profile, table))
}
