//! The view model's layer (issue 21): what to open ([`OpenRequest`], plain serde data), the one
//! way to open it ([`open`]) into a [`crate::scene::dataset::Dataset`] with its warnings, and a
//! whole workspace as a file ([`session::Session`]). Every face — the window, each command, a
//! session — builds a request and calls [`open`]; none keeps a loading road of its own.
//!
//! The data set itself still lives in `scene::dataset` until it moves here.

mod assemble;
pub mod open;
pub mod request;
pub mod session;
pub mod trace;

pub use crate::profile_io::classify::{PathKind, classify, is_run_path};
pub use open::{OpenError, Progress, RunError, open, open_regions};
pub use request::{CounterSpec, JobRequest, OpenRequest, RailRequest, RoutingMode, job_name_of};
