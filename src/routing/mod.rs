//! Forwarding-table tracing and profile → link-end loads, and routing engines that compute
//! forwarding tables from the cabling alone (`engines`).

pub mod accumulate;
pub mod ar;
mod ar_progress;
pub mod contention;
pub mod counter_delta;
pub mod counter_join;
mod demand;
pub mod end_columns;
pub mod end_rows;
pub mod end_values;
pub mod engines;
pub mod flows;
pub mod footprint;
pub mod health;
pub mod history;
pub mod hot;
pub mod in_situ;
mod link_bytes;
pub mod link_rates;
pub mod loads;
pub mod loads_input;
pub mod observed;
mod observed_report;
mod pair_merge;
pub mod pair_messages;
mod pair_stretch;
pub mod pair_table;
pub mod placement;
mod port_hops;
pub mod problems;
pub mod profile_loads;
pub mod rank_cas;
mod rank_places;
pub mod reachability;
pub mod region_input;
pub mod residual;
pub mod saturation;
pub mod switch_count;
mod tally;
pub mod topk;
pub mod trace;
mod tree;
pub mod undelivered;

#[cfg(test)]
mod synthetic_tests;

pub use accumulate::{Flow, accumulate};
pub use ar::RoutingModel;
pub use contention::{ContendedEnd, contended_ends, contention_load};
pub use flows::{FlowBuilder, FlowSet, HostMap, RailPolicy, RankTraffic, RegionFlows};
pub use hot::{HotEnd, PairBytes, hottest, hottest_by, pairs_through, pairs_through_by};
pub use loads::{DropReason, LinkBytes, Loads, RailLoad, RegionKey, RegionLoads, Undelivered};
pub use observed::{CounterInput, Interval, ObserveError, Observed, ObservedPort, observe, residual};
pub use placement::{PlacementError, PlacementPolicy};
pub use profile_loads::{LoadOptions, compute_loads, region_loads};
pub use reachability::{Reachability, UndeliveredPairs, ca_reachability};
pub use region_input::RegionInput;
pub use residual::{RankBy, RankedEnd, rank_ends};
pub use trace::{Hop, Outcome, Path, trace};
