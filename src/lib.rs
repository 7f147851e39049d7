//! Shoal: application traffic on InfiniBand fabrics.
//!
//! The layers run one way: [`profile_io`] parses files into [`model`] types, [`routing`] traces
//! them through the forwarding tables into link-end loads, and [`layout`] places the nodes.
//!
//! Conventions, stated once: LIDs and GUIDs are hexadecimal (`0x0012`), port numbers decimal,
//! traffic in bytes (`u64`), times in Unix epoch microseconds. Layout y grows upward: rail 0's
//! switches are above the hosts (y > 0), rail 1's below (y < 0).

pub mod export;
#[cfg(feature = "gui")]
pub mod gui;
pub mod layout;
pub mod model;
#[cfg(feature = "gui")]
pub mod modules;
pub mod profile_io;
pub mod routing;
pub mod scene;
pub mod units;
pub mod view_model;
