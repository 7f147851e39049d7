//! Forwarding-table tracing and profile → link-end loads.

pub mod loads;

pub use loads::{DropReason, Loads, RailLoad, RegionKey, RegionLoads, Undelivered};
