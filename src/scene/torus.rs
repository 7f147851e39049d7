//! The torus scene: a [`TorusLayout`] turned by an [`Orbit`] and projected orthographically onto
//! the scene's 2D world, so the existing painters and exports draw it unchanged.
//!
//! - Each directed link is one half, from its source cell to the link's midpoint (or, for a
//!   wrap-around, a short stub pointing out of the grid), coloured by its own value: the + and −
//!   directions of a link are its two independently coloured ends.
//! - Nodes are small squares. Halves and marks are sorted far to near (painter's algorithm);
//!   highlighted ones go last, on top.
//! - The world box is the sphere that holds the torus, widened to the plot's aspect ratio, so
//!   turning the torus never rescales it and the 2D camera's zoom and pan work as elsewhere.
//! - World y is view y (up); depth is dropped after sorting.

use crate::layout::Position;
use crate::layout::torus::TorusLayout;

use super::colour::{ColourScale, Rgba};
use super::fat_tree::{BACKGROUND, NEUTRAL};
use super::network::{DIM_FADE, NO_DATA, NetworkStyle, end_of, scale_for, value_legend, values_range};
use super::{Bounds, Emphasis, Half, Mark, MarkOf, Scene};
use crate::view_model::orbit::{Orbit, rotate};
pub use crate::view_model::torus_values::TorusValues;

/// World size of marks and lines, relative to the unit between neighbours.
const SLOT: f32 = 0.2;

/// The scene of a torus view: `aspect` is the plot's width over its height.
pub fn build_torus_scene(
    layout: &TorusLayout,
    values: &TorusValues,
    style: &NetworkStyle,
    orbit: &Orbit,
    aspect: f32,
) -> Scene {
    let link_scale =
        scale_for(style.link_map, style.scale, style.link_range.or_else(|| values_range(&values.links)));
    let node_scale =
        scale_for(style.node_map, style.scale, style.node_range.or_else(|| values_range(&values.cells)));
    let any_lit = values.cell_lit.iter().chain(&values.link_lit).any(|&l| l);
    let emphasis = |lit: bool| match (any_lit, lit) {
        (false, _) => Emphasis::Normal,
        (true, true) => Emphasis::Lit,
        (true, false) => Emphasis::Dim,
    };
    let m = orbit.matrix();
    let rotated: Vec<[f32; 3]> = (0..layout.cells.len()).map(|c| rotate(&m, layout.position(c))).collect();
    let flat = |p: [f32; 3]| Position { x: p[0], y: p[1] };

    let halves = torus_halves(layout, values, &link_scale, (&m, &rotated), &emphasis);

    let coloured_nodes = !values.cells.iter().all(Option::is_none);
    let mut marks: Vec<(f32, Mark)> = rotated
        .iter()
        .enumerate()
        .map(|(c, p)| {
            let e = emphasis(values.cell_lit.get(c).copied().unwrap_or(false));
            let colour = match values.cells.get(c).copied().flatten() {
                Some(v) => node_scale.colour(v),
                None if coloured_nodes => NO_DATA,
                None => NEUTRAL,
            };
            let depth = p[2] + if e == Emphasis::Lit { 1e6 } else { 0.0 };
            (depth, Mark { at: flat(*p), colour: fade(colour, e), of: MarkOf::Node(c), emphasis: e })
        })
        .collect();
    marks.sort_by(|a, b| a.0.total_cmp(&b.0));

    let r = layout.radius();
    let aspect = if aspect.is_finite() && aspect > 0.0 { aspect } else { 1.0 };
    let (w, h) = if aspect >= 1.0 { (r * aspect, r) } else { (r, r / aspect) };
    let names: Vec<String> = layout.projection.kept.iter().map(|a| format!("axis {a}")).collect();
    let title =
        if style.title.is_empty() { format!("torus ({})", names.join(", ")) } else { style.title.clone() };
    Scene {
        title,
        background: BACKGROUND,
        bounds: Bounds { min: Position { x: -w, y: -h }, max: Position { x: w, y: h } },
        slot: SLOT,
        halves,
        marks: marks.into_iter().map(|(_, m)| m).collect(),
        labels: Vec::new(),
        brackets: Vec::new(),
        legends: vec![
            value_legend("N", &style.node_caption, node_scale, style.node_bytes),
            value_legend("L", &style.link_caption, link_scale, style.link_bytes),
        ],
        health: Vec::new(),
    }
}

/// Faded when something else is lit.
fn fade(c: Rgba, e: Emphasis) -> Rgba {
    if e == Emphasis::Dim { c.lerp(BACKGROUND, DIM_FADE) } else { c }
}

/// The visible link halves, far to near, lit ones last.
fn torus_halves(
    layout: &TorusLayout,
    values: &TorusValues,
    link_scale: &ColourScale,
    (m, rotated): (&[[f32; 3]; 3], &[[f32; 3]]),
    emphasis: &dyn Fn(bool) -> Emphasis,
) -> Vec<Half> {
    let flat = |p: [f32; 3]| Position { x: p[0], y: p[1] };
    let mut halves: Vec<((f32, f64), Half)> = Vec::with_capacity(layout.links.len());
    let mut lit_halves: Vec<((f32, f64), Half)> = Vec::new();
    for (i, link) in layout.links.iter().enumerate() {
        if !values.link_visible.get(i).copied().unwrap_or(true) {
            continue;
        }
        let (_, to) = layout.half(i);
        let (a, b) = (rotated[link.from], rotate(m, to));
        let e = emphasis(values.link_lit.get(i).copied().unwrap_or(false));
        let value = values.links.get(i).copied().flatten();
        let colour = value.map_or(NO_DATA, |v| link_scale.colour(v));
        let half = Half {
            from: flat(a),
            to: flat(b),
            colour: fade(colour, e),
            rail: 0,
            end: end_of(i),
            emphasis: e,
        };
        // Far to near; at one depth (every half of a flat view), busier on top.
        let key = ((a[2] + b[2]) / 2.0, super::draw_key(value));
        if e == Emphasis::Lit { lit_halves.push((key, half)) } else { halves.push((key, half)) }
    }
    let by_depth = |a: &((f32, f64), Half), b: &((f32, f64), Half)| {
        a.0.0.total_cmp(&b.0.0).then(a.0.1.total_cmp(&b.0.1))
    };
    halves.sort_by(by_depth);
    lit_halves.sort_by(by_depth);
    halves.into_iter().chain(lit_halves).map(|(_, h)| h).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::torus::{KeptAxes, STUB};
    use crate::model::network::Network;
    use crate::view_model::values::NetworkInput;

    fn torus_888() -> (Network, TorusLayout) {
        let net = Network::torus(&["x", "y", "z"], &[8, 8, 8]);
        let layout = TorusLayout::new(&net, KeptAxes::first_three(3)).unwrap();
        (net, layout)
    }

    #[test]
    fn every_directed_link_is_one_half_coloured_by_its_own_value() {
        let (net, layout) = torus_888();
        let link_values: Vec<Option<f64>> = (0..net.links.len()).map(|i| Some(i as f64)).collect();
        let input = NetworkInput { link_values: &link_values, ..Default::default() };
        let style = NetworkStyle::default();
        let values = TorusValues::compute(&layout, &input, style.aggregate);
        let scene = build_torus_scene(&layout, &values, &style, &Orbit::default(), 1.5);
        assert_eq!(scene.halves.len(), 3072);
        assert_eq!(scene.marks.len(), 512);
        let scale = &scene.legends[1].scale;
        assert_eq!((scale.min(), scale.max()), (0.0, 3071.0));
        for h in &scene.halves {
            assert_eq!(h.colour, scale.colour(h.end.index() as f64));
        }
        // + and − of one physical link: two halves with two colours, meeting at one midpoint.
        let plus = 0;
        let back = |l: &&crate::model::network::NetLink| l.source == net.links[0].target && l.target == 0;
        let minus = net.links.iter().position(|l| back(&l)).unwrap();
        let half = |i: usize| scene.halves.iter().find(|h| h.end.index() == i).unwrap();
        assert_ne!(half(plus).colour, half(minus).colour);
        assert!((half(plus).to.x - half(minus).to.x).abs() < 1e-5);
    }

    #[test]
    fn a_quarter_turn_puts_a_known_node_where_expected() {
        let (_, layout) = torus_888();
        let values =
            TorusValues::compute(&layout, &NetworkInput::default(), NetworkStyle::default().aggregate);
        let front = build_torus_scene(&layout, &values, &NetworkStyle::default(), &Orbit::IDENTITY, 1.0);
        let turned = build_torus_scene(
            &layout,
            &values,
            &NetworkStyle::default(),
            &Orbit::from_yaw_pitch(90.0, 0.0),
            1.0,
        );
        // Node 7 is (0, 0, 7): left, bottom, front. A quarter yaw brings the front to the right.
        let at = |s: &Scene, c: usize| s.marks.iter().find(|m| m.of == MarkOf::Node(c)).unwrap().at;
        assert_eq!(at(&front, 7), Position { x: -3.5, y: -3.5 });
        let p = at(&turned, 7);
        assert!((p.x - 3.5).abs() < 1e-5 && (p.y + 3.5).abs() < 1e-5, "{p:?}");
        // Seen from the side, node 0 (0, 0, 0) is behind node 7 and is painted first.
        let order = |c: usize| turned.marks.iter().position(|m| m.of == MarkOf::Node(c)).unwrap();
        assert!(order(0) < order(7));
        assert_eq!(front.bounds, turned.bounds, "turning never rescales");
    }

    #[test]
    fn wrap_arounds_are_stubs_and_filtered_links_are_not_drawn() {
        let (net, layout) = torus_888();
        let pass: Vec<bool> = net.links.iter().map(|l| l.source != 0).collect();
        let input = NetworkInput { link_pass: &pass, ..Default::default() };
        let style = NetworkStyle::default();
        let values = TorusValues::compute(&layout, &input, style.aggregate);
        let scene = build_torus_scene(&layout, &values, &style, &Orbit::IDENTITY, 1.0);
        assert_eq!(scene.halves.len(), 3072 - 6);
        let stubs = scene.halves.iter().filter(|h| {
            let length = ((h.from.x - h.to.x).powi(2) + (h.from.y - h.to.y).powi(2)).sqrt();
            (length - STUB).abs() < 1e-5
        });
        // Seen from the front, z stubs have no length; x and y wrap-arounds: 2 per line of 8,
        // less node 0's two (x− and y−), which the filter hid.
        assert_eq!(stubs.count(), 2 * 64 * 2 - 2);
        assert!(scene.halves.iter().all(|h| h.colour == NO_DATA), "no values: neutral links");
    }

    #[test]
    fn a_highlight_lights_its_glyphs_on_top_and_fades_the_rest() {
        let (net, layout) = torus_888();
        let mut lit = vec![false; net.links.len()];
        lit[5] = true;
        let input = NetworkInput { link_lit: &lit, ..Default::default() };
        let values = TorusValues::compute(&layout, &input, NetworkStyle::default().aggregate);
        let scene = build_torus_scene(&layout, &values, &NetworkStyle::default(), &Orbit::default(), 1.0);
        let last = scene.halves.last().unwrap();
        assert_eq!((last.end.index(), last.emphasis), (5, Emphasis::Lit));
        assert!(scene.halves[..3071].iter().all(|h| h.emphasis == Emphasis::Dim));
    }
}
