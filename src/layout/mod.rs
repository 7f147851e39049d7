//! Node positions: the fat-tree layout of the thesis, and more.
//!
//! Units are abstract: x counts slots in a level, y counts levels. y grows upward; hosts sit at
//! y = 0, rail 0's switches at y = +level, rail 1's at y = −level.

pub mod crossings;
pub mod fat_tree;
mod fat_tree_options;
pub mod generic2d;
pub mod planes;
mod rail_order;
pub mod torus;

pub use fat_tree::{FatTreeOptions, HcaPlanes, layout_fat_tree};
pub use planes::{PlaneBlock, PlaneLayout};

/// A point in layout units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

/// Where every node of a cluster goes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterLayout {
    /// Indexed like `Cluster::hosts`: each host is drawn once, shared by all rails.
    pub hosts: Vec<Position>,
    /// Indexed by rail.
    pub rails: Vec<RailLayout>,
    /// Set by the plane layout: every CA has its own spot on the host row, and a host is marked
    /// by all of them (`hosts[h]` is then its leftmost CA).
    pub planes: Option<PlaneLayout>,
}

/// One rail's node placement.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RailLayout {
    /// Indexed by `NodeIndex::index()`. A CA sits at its host's position (in the plane layout,
    /// at its own spot on the host row). `None`: unreachable
    /// from any host, so not placed.
    pub positions: Vec<Option<Position>>,
    /// Indexed by `NodeIndex::index()`: hops to the nearest host (CAs are level 0).
    pub levels: Vec<Option<u32>>,
    /// The highest level on this rail.
    pub max_level: u32,
}
