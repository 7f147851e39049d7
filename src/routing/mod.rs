//! Forwarding-table tracing and profile → link-end loads.

pub mod accumulate;
pub mod counter_join;
mod demand;
pub mod flows;
pub mod hot;
pub mod loads;
pub mod observed;
pub mod profile_loads;
pub mod reachability;
pub mod residual;
mod tally;
pub mod trace;
mod tree;

#[cfg(test)]
mod synthetic_tests;

pub use accumulate::{Flow, accumulate};
pub use flows::{FlowBuilder, FlowSet, HostMap, RailPolicy, RankTraffic};
pub use hot::{HotEnd, contributing_pairs, hottest};
pub use loads::{DropReason, Loads, RailLoad, RegionKey, RegionLoads, Undelivered};
pub use observed::{CounterInput, ObserveError, Observed, observe, residual};
pub use profile_loads::{LoadOptions, RegionInput, compute_loads, region_loads};
pub use reachability::{Reachability, UndeliveredPairs, ca_reachability};
pub use residual::{RankBy, RankedEnd, rank_ends};
pub use trace::{Hop, Outcome, Path, trace};
