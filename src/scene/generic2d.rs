//! The generic-2D scene: a plane network at its given positions ([`PlaneLayout`]), each directed
//! link one half from its source to the midpoint, coloured by its own value, nodes as squares.
//!
//! The world box keeps the layout's aspect ratio on the plot (a mesh stays square) unless the
//! layout is more than [`STRETCH_ABOVE`] times wider than tall (or taller than wide), as a fat
//! tree from `shoal convert` is: then each axis fills the plot, as the fat-tree view does.

use crate::layout::Position;
use crate::layout::generic2d::PlaneLayout;
use crate::model::network::Network;

use super::colour::Rgba;
use super::fat_tree::{BACKGROUND, NEUTRAL};
use super::network::{
    DIM_FADE, NO_DATA, NetworkInput, NetworkStyle, end_of, scale_for, value_legend, values_range,
};
use super::{Bounds, Emphasis, Half, Mark, MarkOf, Scene};

/// Layouts more elongated than this fill the plot on each axis.
pub const STRETCH_ABOVE: f32 = 3.0;

/// The scene of a generic-2D view: `aspect` is the plot's width over its height.
pub fn build_plane_scene(
    net: &Network,
    layout: &PlaneLayout,
    input: &NetworkInput<'_>,
    style: &NetworkStyle,
    aspect: f32,
) -> Scene {
    let link_scale =
        scale_for(style.link_map, style.scale, style.link_range.or_else(|| values_range(input.link_values)));
    let node_scale =
        scale_for(style.node_map, style.scale, style.node_range.or_else(|| values_range(input.node_values)));
    let any_lit = input.any_lit();
    let emphasis = |lit: Option<&bool>| match (any_lit, lit.copied().unwrap_or(false)) {
        (false, _) => Emphasis::Normal,
        (true, true) => Emphasis::Lit,
        (true, false) => Emphasis::Dim,
    };
    let fade = |c: Rgba, e: Emphasis| if e == Emphasis::Dim { c.lerp(BACKGROUND, DIM_FADE) } else { c };
    let pos = |i: usize| layout.positions.get(i).copied().flatten();

    let (mut halves, mut lit_halves) = (Vec::with_capacity(net.links.len()), Vec::new());
    for (i, link) in net.links.iter().enumerate() {
        let (Some(a), Some(b)) = (pos(link.source), pos(link.target)) else { continue };
        if !input.link_passes(i) {
            continue;
        }
        let e = emphasis(input.link_lit.get(i));
        let value = input.link_values.get(i).copied().flatten();
        let colour = value.map_or(NO_DATA, |v| link_scale.colour(v));
        let mid = Position { x: (a.x + b.x) / 2.0, y: (a.y + b.y) / 2.0 };
        let half = Half { from: a, to: mid, colour: fade(colour, e), rail: 0, end: end_of(i), emphasis: e };
        let keyed = (super::draw_key(value), half);
        if e == Emphasis::Lit { lit_halves.push(keyed) } else { halves.push(keyed) }
    }
    let halves = super::in_draw_order(halves, lit_halves);

    let coloured_nodes = input.node_values.iter().any(Option::is_some);
    let (mut marks, mut lit_marks) = (Vec::with_capacity(net.nodes.len()), Vec::new());
    for i in 0..net.nodes.len() {
        let Some(at) = pos(i) else { continue };
        let e = emphasis(input.node_lit.get(i));
        let value = input.node_values.get(i).copied().flatten().filter(|_| input.node_passes(i));
        let colour = match value {
            Some(v) => node_scale.colour(v),
            None if coloured_nodes => NO_DATA,
            None => NEUTRAL,
        };
        let mark = Mark { at, colour: fade(colour, e), of: MarkOf::Node(i), emphasis: e };
        if e == Emphasis::Lit { lit_marks.push(mark) } else { marks.push(mark) }
    }
    marks.extend(lit_marks);

    Scene {
        title: if style.title.is_empty() { "generic 2D".into() } else { style.title.clone() },
        background: BACKGROUND,
        bounds: world_box(layout, aspect),
        slot: layout.spacing * 0.5,
        halves,
        marks,
        labels: Vec::new(),
        brackets: Vec::new(),
        legends: vec![
            value_legend("N", &style.node_caption, node_scale, style.node_bytes),
            value_legend("L", &style.link_caption, link_scale, style.link_bytes),
        ],
        health: Vec::new(),
    }
}

/// The placed nodes' box padded by one spacing, widened to `aspect` unless elongated.
fn world_box(layout: &PlaneLayout, aspect: f32) -> Bounds {
    let mut b =
        Bounds { min: Position { x: f32::MAX, y: f32::MAX }, max: Position { x: f32::MIN, y: f32::MIN } };
    for p in layout.positions.iter().flatten() {
        b.min = Position { x: b.min.x.min(p.x), y: b.min.y.min(p.y) };
        b.max = Position { x: b.max.x.max(p.x), y: b.max.y.max(p.y) };
    }
    if b.min.x > b.max.x {
        return Bounds { min: Position { x: -1.0, y: -1.0 }, max: Position { x: 1.0, y: 1.0 } };
    }
    let tiny = layout.spacing.max(1e-3) * 0.01;
    let own = (b.width() + tiny) / (b.height() + tiny);
    let keep = aspect.is_finite() && aspect > 0.0 && (1.0 / STRETCH_ABOVE..=STRETCH_ABOVE).contains(&own);
    let (w, h) = if keep {
        // A margin of one spacing, at most 8 % of the larger side, then widened to the plot.
        let pad = layout.spacing.min(0.08 * b.width().max(b.height())).max(tiny);
        let (w, h) = (b.width() + 2.0 * pad, b.height() + 2.0 * pad);
        if w / h < aspect { (h * aspect, h) } else { (w, w / aspect) }
    } else {
        // Each axis fills the plot, with a margin of a tenth of its own extent.
        let margin = |extent: f32| if extent > tiny { extent * 1.2 } else { 2.0 * layout.spacing.max(1e-3) };
        (margin(b.width()), margin(b.height()))
    };
    let c = b.centre();
    Bounds {
        min: Position { x: c.x - w / 2.0, y: c.y - h / 2.0 },
        max: Position { x: c.x + w / 2.0, y: c.y + h / 2.0 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::generic2d::layout_plane;
    use crate::model::network::Shape;

    /// A 4×3 mesh given as a plane (both directions of each neighbour link).
    fn mesh() -> Network {
        let mut net = Network::torus(&["x", "y"], &[4, 3]);
        net.shape = Shape::Plane;
        net.links.retain(|l| {
            let (a, b) = (&net.nodes[l.source].coords, &net.nodes[l.target].coords);
            (a[0] - b[0]).abs() + (a[1] - b[1]).abs() == 1.0
        });
        net
    }

    #[test]
    fn each_direction_is_a_half_to_the_midpoint_in_its_own_colour() {
        let net = mesh();
        let layout = layout_plane(&net);
        let values: Vec<Option<f64>> = (0..net.links.len()).map(|i| Some(i as f64)).collect();
        let input = NetworkInput { link_values: &values, ..Default::default() };
        let scene = build_plane_scene(&net, &layout, &input, &NetworkStyle::default(), 1.0);
        assert_eq!(scene.halves.len(), 2 * (3 * 3 + 4 * 2));
        assert_eq!(scene.marks.len(), 12);
        for h in &scene.halves {
            let link = net.links[h.end.index()];
            let (a, b) = (layout.positions[link.source].unwrap(), layout.positions[link.target].unwrap());
            assert_eq!(h.from, a);
            assert_eq!(h.to, Position { x: (a.x + b.x) / 2.0, y: (a.y + b.y) / 2.0 });
            assert_eq!(h.colour, scene.legends[1].scale.colour(h.end.index() as f64));
        }
        let b = scene.bounds;
        assert!((b.width() / b.height() - 1.0).abs() < 1e-4, "a mesh keeps its shape on a square plot");
    }

    #[test]
    fn filtered_links_hide_and_missing_values_are_neutral() {
        let net = mesh();
        let layout = layout_plane(&net);
        let pass: Vec<bool> = (0..net.links.len()).map(|i| i % 2 == 0).collect();
        let values: Vec<Option<f64>> = (0..net.links.len()).map(|i| (i % 4 == 0).then_some(1.0)).collect();
        let input = NetworkInput { link_values: &values, link_pass: &pass, ..Default::default() };
        let scene = build_plane_scene(&net, &layout, &input, &NetworkStyle::default(), 2.0);
        assert_eq!(scene.halves.len(), net.links.len().div_ceil(2));
        let neutral = scene.halves.iter().filter(|h| h.colour == NO_DATA).count();
        assert_eq!(neutral, scene.halves.iter().filter(|h| h.end.index() % 4 == 2).count());
    }

    #[test]
    fn an_elongated_layout_fills_the_plot_on_each_axis() {
        let mut net = mesh();
        for n in &mut net.nodes {
            n.coords[0] *= 20.0;
        }
        let layout = layout_plane(&net);
        let b = world_box(&layout, 1.0);
        assert!(b.width() / b.height() > 2.0, "not widened to a square: {b:?}");
    }
}
