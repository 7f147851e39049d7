//! Plain data for fabrics and profiles. Knows no file format and no pixel.

pub mod ar;
pub mod bytes;
pub mod capacity;
pub mod cluster;
pub mod counters;
pub mod echo;
pub mod fabric;
pub mod host_map;
pub mod id_index;
pub mod ids;
pub mod join_map;
pub mod lft;
pub mod message_counts;
pub mod natural;
pub mod network;
pub mod planes;
pub mod port_counters;
pub mod profile;
pub mod regions;
pub mod run;
pub mod synthetic;
pub mod table;
#[cfg(test)]
pub(crate) mod test_fabric;
pub mod text_column;
pub mod thresholds;
pub mod warning;

pub use ar::{ArState, ArTable};
pub use cluster::{Cluster, Host};
pub use fabric::{BuildIssue, Fabric, FabricBuilder, Link, LinkEnd, Node, NodeKind, PortInfo, Side};
pub use host_map::HostMap;
pub use ids::{Guid, Lid, PortNum, RailId};
pub use lft::{Lft, LftEntry, LidSet};
pub use natural::natural_cmp;
pub use network::{NetLink, NetNode, Network, Shape};
pub use planes::{Plane, RailPlanes};
pub use profile::{
    Dump, EpochMicros, LidBytes, LocalPort, PeerBytes, PeerMessages, Profile, ProfileSource, RankSection,
    SizeCounts,
};
pub use regions::{Delta, RankCounters, RegionInfo, RegionTable, region_table};
pub use run::{Policy, Projection, Run};
pub use table::{Column, Domain, Table};
pub use text_column::TextColumn;
pub use warning::{Level, RailRead, Warning, count_warnings};
