//! GUI modules: view classes in a registry keyed by class id (fat tree, torus 3D, torus 2D,
//! generic 2D, time strip), the workspace that holds the views by stable id, and the shared
//! panels (filter, highlight, linking, regions, plots).
//!
//! As in rerun's viewer, a class ([`class::ViewClass`]) keeps no state of its own: it makes a
//! per-view state of its own type and draws from a [`class::ViewContext`] made only of
//! references. Views and panels read the [`workspace::Workspace`] and change it only by queueing
//! [`command::Command`]s, which it applies once per frame ([`apply`]). Every network class
//! draws any data set the view model holds, so a link group may mix them: a fat tree and a
//! generic-2D view of one fabric share one highlight and one colour range.
//!
//! This file only declares; the files import each other directly, never through it.

pub mod apply;
pub mod class;
pub mod command;
pub mod congestion;
pub mod congestion_view;
pub mod counters;
pub mod fat_tree;
pub mod filter;
pub mod generic2d;
pub mod gpu_links;
pub mod highlight;
pub mod jobs;
pub mod link_group;
pub mod linking;
pub mod matrix;
pub mod network;
pub mod network_class;
pub mod options;
pub mod paint;
pub mod plots;
pub mod regions;
pub mod registry;
pub mod routing_switch;
mod session;
pub mod tables;
pub mod time_strip;
pub mod time_strip_controls;
pub mod time_strip_state;
pub mod torus;
pub mod view_frame;
pub mod view_ui;
pub mod what_if;
pub mod workspace;

pub use class::{AnyViewClass, Eye, ViewClass, ViewContext};
pub use command::{Command, ViewId};
pub use network::NetworkState;
pub use registry::{REGISTRY, class, class_of};
pub use workspace::{View, Workspace};
