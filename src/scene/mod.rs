//! What is drawn, as plain data: the one [`Scene`] that the egui painter, the PNG writer and the
//! SVG writer all paint, so an export is exactly what the window shows.
//!
//! Conventions: a scene is in **world units**, the layout's (x counts slots in a level, y counts
//! levels, y grows upward, hosts at y = 0, rail 0 above). [`draw::draw_list`] maps a scene
//! through a [`camera::Camera`] onto a pixel canvas (y down) as a [`draw::DrawList`], which is
//! what painters consume. Colours are straight-alpha sRGB. Bytes are bytes.
//!
//! Each link is two [`Half`]s, from each end's node to the link's midpoint, coloured by the bytes
//! that end's node sent, so both directions of a full-duplex link show.
//!
//! The scene only draws: values in ([`crate::view_model::Prepared`]), a [`Scene`] out
//! ([`crate::view_model::Prepared::scene`], in [`build`]), then a [`DrawList`]. What the values are, and which ids pass, is the
//! view model's ([`crate::view_model`]).

pub mod build;
pub mod camera;
pub mod colour;
pub mod congestion_draw;
pub mod describe;
pub mod draw;
pub mod fat_tree;
pub mod generic2d;
pub mod health_layer;
pub mod legend;
pub mod matrix_draw;
pub mod network;
pub mod time_strip_draw;
pub mod time_strip_jobs_draw;
pub mod torus;

use petgraph::graph::NodeIndex;

pub use build::scene_for;
pub use camera::{Camera, ScreenRect};
pub use colour::{ColourScale, Rgba};
pub use draw::{DrawList, draw_list};
pub use legend::Legend;

use crate::layout::Position;
use crate::model::LinkEnd;

pub use crate::view_model::values::draw_key;

/// Plain halves by [`draw_key`], then the lit ones by theirs; equal keys keep their order.
pub fn in_draw_order(plain: Vec<(f64, Half)>, lit: Vec<(f64, Half)>) -> Vec<Half> {
    let mut out = Vec::with_capacity(plain.len() + lit.len());
    for part in [plain, lit] {
        sorted_into(part, &mut out);
    }
    out
}

/// Appends `keyed`'s halves by key. Sorts (key, index) pairs rather than the halves, without
/// a stable sort's buffer; the index keeps equal keys in order.
fn sorted_into(keyed: Vec<(f64, Half)>, out: &mut Vec<Half>) {
    use rayon::slice::ParallelSliceMut;
    if keyed.windows(2).all(|w| w[0].0 <= w[1].0) {
        out.extend(keyed.into_iter().map(|(_, h)| h));
        return;
    }
    let mut order: Vec<(f64, u32)> = keyed.iter().enumerate().map(|(i, (k, _))| (*k, i as u32)).collect();
    let by_key = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    // Threads pay off only for large scenes (a 100k-link fabric), not for a few thousand halves.
    if order.len() > 50_000 {
        order.par_sort_unstable_by(by_key)
    } else {
        order.sort_unstable_by(by_key)
    }
    out.extend(order.into_iter().map(|(_, i)| keyed[i as usize].1));
}

/// How a glyph stands relative to the current highlight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Emphasis {
    /// Nothing is highlighted.
    #[default]
    Normal,
    /// Part of the highlight: drawn wider, on top.
    Lit,
    /// Something else is highlighted: drawn faded.
    Dim,
}

/// Half of a link: from the node at `end` to the link's midpoint. In a torus or generic-2D
/// scene, `rail` is 0 and `end.index()` names the directed link (see [`network`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Half {
    pub from: Position,
    pub to: Position,
    pub colour: Rgba,
    pub rail: u8,
    pub end: LinkEnd,
    pub emphasis: Emphasis,
}

/// What a node mark stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkOf {
    /// A host (drawn once for all rails), index into `Cluster::hosts`.
    Host(usize),
    /// A switch (or router) on a rail.
    Switch { rail: u8, node: NodeIndex },
    /// A node of a torus or generic-2D scene (see [`network`] for what the index means).
    Node(usize),
}

/// A node: a filled circle (hosts) or square (switches).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    pub at: Position,
    pub colour: Rgba,
    pub of: MarkOf,
    pub emphasis: Emphasis,
}

/// A level label (`1a`, `2b`, `hosts`) at the left edge, at world height `y`.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelLabel {
    pub y: f32,
    pub text: String,
}

/// A bracket under a run of marks on the host row: a plane's block of CAs (`mlx5_3`), or the
/// CAs of one highlighted host (`ticks` at each of them, named by the host).
#[derive(Clone, Debug, PartialEq)]
pub struct Bracket {
    /// World x of the run's ends, and the world y of the host row it hangs under.
    pub x_min: f32,
    pub x_max: f32,
    pub y: f32,
    /// How many bracket rows below the host row (0 first), so several brackets do not overlap.
    pub row: u8,
    /// World x of each member, marked with a tick (empty: ticks only at the ends).
    pub ticks: Vec<f32>,
    pub text: String,
    pub emphasis: Emphasis,
}

/// A world-space rectangle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bounds {
    pub min: Position,
    pub max: Position,
}

impl Bounds {
    pub fn width(&self) -> f32 {
        self.max.x - self.min.x
    }

    pub fn height(&self) -> f32 {
        self.max.y - self.min.y
    }

    pub fn centre(&self) -> Position {
        Position { x: (self.min.x + self.max.x) / 2.0, y: (self.min.y + self.max.y) / 2.0 }
    }
}

/// The health layer (issue 22, item 5): a degraded link, dashed over its halves; a port whose
/// error counters moved, ringed where it sends into its link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HealthMark {
    Degraded { a: Position, b: Position },
    ErrorPort { at: Position },
}

/// Everything one view draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub title: String,
    pub background: Rgba,
    /// The world area that "fit" shows.
    pub bounds: Bounds,
    /// World distance between neighbouring hosts; marks and lines are sized from it.
    pub slot: f32,
    /// Visible link halves; lit ones last, so they paint on top.
    pub halves: Vec<Half>,
    pub marks: Vec<Mark>,
    pub labels: Vec<LevelLabel>,
    /// Plane blocks and highlighted multi-CA hosts, under the host row (fat tree, plane layout).
    pub brackets: Vec<Bracket>,
    /// The node legend ("N") then the link legend ("L").
    pub legends: Vec<Legend>,
    /// Degraded links and error ports, when the view shows the health layer.
    pub health: Vec<HealthMark>,
}

impl Scene {
    /// Links with at least one visible half.
    pub fn visible_link_count(&self) -> usize {
        let mut links: Vec<(u8, usize)> = self.halves.iter().map(|h| (h.rail, h.end.edge.index())).collect();
        links.sort_unstable();
        links.dedup();
        links.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_stay_small() {
        assert!(std::mem::size_of::<Half>() <= 40, "{}", std::mem::size_of::<Half>());
        assert!(std::mem::size_of::<Mark>() <= 32, "{}", std::mem::size_of::<Mark>());
    }
}
