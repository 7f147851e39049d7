//! Synthetic fabrics with D-mod-k forwarding tables, for tests, benchmarks and `shoal gen`.
//!
//! Real sample data comes from OpenSM runs on ibsim (see `scripts/`); these builders exist for
//! sizes and shapes ibsim cannot simulate (it stops at 256 switches), and for property tests.

mod profile;
mod rail_optimized;
mod three_level;
mod time_steps;
mod two_level;

pub use profile::PeerProfile;
pub use rail_optimized::RailOptimized;
pub use three_level::ThreeLevel;
pub use time_steps::TimeSteps;
pub use two_level::TwoLevel;
