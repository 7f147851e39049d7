//! Forwarding-table tracing and profile → link-end loads.

pub mod accumulate;
pub mod loads;
pub mod trace;

#[cfg(test)]
pub(crate) mod test_fabric;

pub use accumulate::{Flow, accumulate};
pub use loads::{DropReason, Loads, RailLoad, RegionKey, RegionLoads, Undelivered};
pub use trace::{Hop, Outcome, Path, trace};
