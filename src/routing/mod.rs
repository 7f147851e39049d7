//! Forwarding-table tracing and profile → link-end loads.

pub mod accumulate;
pub mod ar;
mod demand;
pub mod flows;
pub mod hot;
pub mod loads;
pub mod profile_loads;
pub mod reachability;
mod tally;
pub mod trace;
mod tree;

#[cfg(test)]
mod synthetic_tests;

pub use accumulate::{Flow, accumulate};
pub use flows::{FlowBuilder, FlowSet, HostMap, RailPolicy, RankTraffic};
pub use hot::{HotEnd, hottest};
pub use loads::{DropReason, Loads, RailLoad, RegionKey, RegionLoads, Undelivered};
pub use profile_loads::{LoadOptions, RegionInput, compute_loads, region_loads};
pub use reachability::{Reachability, UndeliveredPairs, ca_reachability};
pub use trace::{Hop, Outcome, Path, trace};
