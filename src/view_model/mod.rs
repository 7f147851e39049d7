//! The view model's layer (issue 21): what to open ([`OpenRequest`], plain serde data), the one
//! way to open it ([`open`]) into a [`crate::view_model::dataset::Dataset`] with its warnings, and a
//! whole workspace as a file ([`session::Session`]). Every face — the window, each command, a
//! session — builds a request and calls [`open`]; none keeps a loading road of its own.
//!
//!
//! Below the requests lies the data set and everything that turns it into a view's values,
//! free of any GUI, file and drawing: [`dataset`] (every data set as domains, typed tables and
//! projections), [`query`] (the one filter and aggregation engine), [`view`] and [`prepare`]
//! (one view of any module: its values, masks and ranges), [`highlight`] (what a pick lights
//! across domains). The scene takes a [`Prepared`] and draws it; it decides no value.

mod assemble;
pub mod ccdf;
pub mod colour_choice;
pub mod congestion;
pub mod crossing;
pub mod dataset;
pub mod diff;
mod fabric_values;
pub mod filter;
pub mod highlight;
pub mod interval;
pub mod link_series;
pub mod matrix;
pub mod matrix_filter;
pub mod matrix_fold;
pub mod matrix_options;
pub mod matrix_order;
pub mod module_spec;
pub mod open;
mod open_history;
pub mod orbit;
pub mod prepare;
pub mod query;
pub mod relation;
pub mod request;
pub mod routing_shown;
pub mod run_synthetic;
pub mod session;
pub mod shared_links;
pub mod stats;
pub mod strip_measure;
pub mod time_strip;
mod time_strip_cells;
pub mod time_strip_jobs;
pub mod time_strip_measure;
pub mod torus_values;
pub mod trace;
pub mod values;
pub mod view;
pub mod what_if;
pub mod why;

pub use crate::profile_io::classify::{PathKind, classify, is_run_path};
pub use colour_choice::{ColourMap, ScaleKind};
pub use dataset::Dataset;
pub use filter::{Clause, Combine, Filter, Relation};
pub use highlight::{Highlight, Lit, RankHosts, Seed};
pub use open::{OpenError, Progress, RunError, open, open_regions};
pub use prepare::{LayoutChoice, Prepared, prepare};
pub use request::{
    CounterSpec, JobRequest, OpenRequest, PrometheusRequest, RailRequest, RoutingMode, job_name_of,
};
pub use values::{LinkValues, RegionSelection};
pub use view::{ModuleSpec, ViewSpec};
