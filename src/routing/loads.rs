//! Bytes per link end per region, with the accounting that proves nothing was lost.

use petgraph::graph::NodeIndex;

use crate::model::bytes::{add_bytes, is_saturated};
use crate::model::{EpochMicros, Lid, LinkEnd};

pub use super::link_bytes::LinkBytes;

/// Why a trace stopped before the destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DropReason {
    /// The switch's table has no row for the destination LID.
    MissingEntry,
    /// The row says `UNREACHABLE` or port 255.
    Unreachable,
    /// The output port has no link plugged in.
    DeadPort,
    /// The path came back to a switch it had already crossed.
    Loop,
    /// The switch has no forwarding table at all.
    NoTable,
    /// No port in the fabric owns the destination LID.
    UnknownDestination,
    /// No port in the fabric owns the source LID, or the source host is not on this rail.
    UnknownSource,
    /// The path ran into a CA that is not the destination.
    WrongEndpoint,
    /// The CA port has LID 0 (no LID assigned): nothing can be addressed to it or sent from it.
    NoLid,
}

impl std::fmt::Display for DropReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DropReason::MissingEntry => "no forwarding-table row for the destination",
            DropReason::Unreachable => "the forwarding table marks the destination unreachable",
            DropReason::DeadPort => "the output port has no link",
            DropReason::Loop => "the path loops",
            DropReason::NoTable => "the switch has no forwarding table",
            DropReason::UnknownDestination => "no port owns the destination LID",
            DropReason::UnknownSource => "no port owns the source LID",
            DropReason::WrongEndpoint => "the path ends at a node that is not the destination",
            DropReason::NoLid => "the CA port has no LID (LID 0)",
        })
    }
}

impl DropReason {
    pub const ALL: [DropReason; 9] = [
        DropReason::MissingEntry,
        DropReason::Unreachable,
        DropReason::DeadPort,
        DropReason::Loop,
        DropReason::NoTable,
        DropReason::UnknownDestination,
        DropReason::UnknownSource,
        DropReason::WrongEndpoint,
        DropReason::NoLid,
    ];

    /// A one-word name, as loads files write it.
    pub fn word(self) -> &'static str {
        match self {
            DropReason::MissingEntry => "missing_entry",
            DropReason::Unreachable => "unreachable",
            DropReason::DeadPort => "dead_port",
            DropReason::Loop => "loop",
            DropReason::NoTable => "no_table",
            DropReason::UnknownDestination => "unknown_destination",
            DropReason::UnknownSource => "unknown_source",
            DropReason::WrongEndpoint => "wrong_endpoint",
            DropReason::NoLid => "no_lid",
        }
    }

    pub fn from_word(word: &str) -> Option<DropReason> {
        DropReason::ALL.into_iter().find(|r| r.word() == word)
    }
}

/// Bytes that could not be delivered, grouped by where and why they stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undelivered {
    /// The switch (or CA) where the trace stopped; `None` when it never started.
    pub at: Option<NodeIndex>,
    pub destination: Lid,
    pub reason: DropReason,
    pub bytes: u64,
}

/// One rail's link-end loads for one region.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RailLoad {
    /// By [`LinkEnd::index`]: bytes the node at that end sent into the link, stored for the
    /// ends that carried any.
    pub bytes: LinkBytes,
    /// Bytes put onto this rail by sources (CAs).
    pub injected: u64,
    /// Bytes that reached their destination CA.
    pub delivered: u64,
    /// Bytes that stopped on the way; `undelivered_detail` says where.
    pub undelivered: u64,
    pub undelivered_detail: Vec<Undelivered>,
}

impl RailLoad {
    pub fn with_link_ends(link_ends: usize) -> Self {
        RailLoad { bytes: LinkBytes::zeros(link_ends), ..Default::default() }
    }

    pub fn at(&self, end: LinkEnd) -> u64 {
        self.bytes.get(end.index())
    }

    /// Adds another load of the same rail, link end by link end.
    pub fn add(&mut self, other: &RailLoad) {
        // Saturating, as `add_bytes` is (see [`crate::model::bytes`]).
        self.bytes = self.bytes.sum(&other.bytes);
        add_bytes(&mut self.injected, other.injected);
        add_bytes(&mut self.delivered, other.delivered);
        add_bytes(&mut self.undelivered, other.undelivered);
        let detail = std::mem::take(&mut self.undelivered_detail);
        self.undelivered_detail =
            merge_undelivered(detail.into_iter().chain(other.undelivered_detail.iter().cloned()).collect());
    }

    /// Injected = delivered + undelivered.
    /// A saturated sum (see [`crate::model::bytes`]) is reported as such, not as a leak.
    pub fn is_conserved(&self) -> bool {
        self.delivered.checked_add(self.undelivered).is_none_or(|sum| sum == self.injected)
            || is_saturated(self.injected)
    }
}

/// Which traffic a [`RegionLoads`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RegionKey {
    /// Region N's own traffic: dump N − dump N−1.
    Region(u32),
    /// Everything up to the last dump.
    Total,
}

/// Loads for one region on every rail.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionLoads {
    pub region: Option<u32>,
    pub name: Option<String>,
    pub dumptime: Option<EpochMicros>,
    /// Indexed by rail.
    pub rails: Vec<RailLoad>,
    /// Bytes between ranks on the same host: counted, not traced.
    pub intra_node_bytes: u64,
    /// Bytes whose source or destination rank could not be placed on any rail.
    pub unplaced_bytes: u64,
}

impl RegionLoads {
    /// The element-wise sum of several regions' loads: the whole run, when every region's
    /// counters are exact deltas of monotone cumulative dumps.
    pub fn sum<'a>(regions: impl IntoIterator<Item = &'a RegionLoads>) -> RegionLoads {
        let mut total = RegionLoads::default();
        for region in regions {
            if total.rails.len() < region.rails.len() {
                total.rails.resize(region.rails.len(), RailLoad::default());
            }
            for (sum, rail) in total.rails.iter_mut().zip(&region.rails) {
                sum.add(rail);
            }
            add_bytes(&mut total.intra_node_bytes, region.intra_node_bytes);
            add_bytes(&mut total.unplaced_bytes, region.unplaced_bytes);
            total.dumptime = total.dumptime.max(region.dumptime);
        }
        total
    }

    pub fn key(&self) -> RegionKey {
        self.region.map_or(RegionKey::Total, RegionKey::Region)
    }
}

/// Per-region loads plus their total, in region order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loads {
    pub regions: Vec<RegionLoads>,
    pub total: RegionLoads,
}

impl Loads {
    pub fn get(&self, key: RegionKey) -> Option<&RegionLoads> {
        match key {
            RegionKey::Total => Some(&self.total),
            RegionKey::Region(n) => self.regions.iter().find(|r| r.region == Some(n)),
        }
    }
}

/// Adds up entries with the same place, destination and reason; largest first.
pub fn merge_undelivered(entries: Vec<Undelivered>) -> Vec<Undelivered> {
    let mut merged: std::collections::HashMap<(Option<NodeIndex>, Lid, DropReason), u64> =
        std::collections::HashMap::new();
    for u in entries {
        add_bytes(merged.entry((u.at, u.destination, u.reason)).or_insert(0), u.bytes);
    }
    let mut out: Vec<Undelivered> = merged
        .into_iter()
        .map(|((at, destination, reason), bytes)| Undelivered { at, destination, reason, bytes })
        .collect();
    out.sort_by(|a, b| {
        b.bytes
            .cmp(&a.bytes)
            .then(a.destination.cmp(&b.destination))
            .then(a.reason.cmp(&b.reason))
            .then(a.at.cmp(&b.at))
    });
    out
}
