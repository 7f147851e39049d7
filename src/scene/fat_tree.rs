//! The fat-tree scene: a multi-rail layout drawn as two-half links, coloured nodes, level labels
//! (`1a 2a 3a` above the hosts for rail 0, `1b 2b 3b` below for rail 1, as in the thesis) and
//! the N and L legends.

use rayon::prelude::*;

use crate::layout::{ClusterLayout, Position};
use crate::model::{Cluster, LinkEnd, Side};

use super::colour::{ColourMap, ColourScale, Rgba, ScaleKind};
use super::highlight::Lit;
use super::legend::Legend;
use super::values::{LinkValues, NodeAttribute, NodeValues};
use super::{Bounds, Emphasis, Half, LevelLabel, Mark, MarkOf, Scene};

/// The canvas colour of every view and export.
pub const BACKGROUND: Rgba = Rgba::rgb(250, 250, 247);
/// Nodes when no attribute colours them.
pub const NEUTRAL: Rgba = Rgba::rgb(110, 110, 120);

/// How to colour a scene. The defaults: copper links and nodes, linear scale, nodes by bytes
/// injected, ranges from the data.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneOptions {
    pub title: String,
    pub link_map: ColourMap,
    pub node_map: ColourMap,
    /// For signed values (a diff); sequential maps are swapped for this one.
    pub diverging_map: ColourMap,
    pub scale: ScaleKind,
    pub node_attribute: NodeAttribute,
    /// The link colour range; `None`: from these values. A link group sets its union here.
    pub link_range: Option<(f64, f64)>,
    pub node_range: Option<(f64, f64)>,
}

impl Default for SceneOptions {
    fn default() -> Self {
        SceneOptions {
            title: String::new(),
            link_map: ColourMap::Copper,
            node_map: ColourMap::Copper,
            diverging_map: ColourMap::RdBu,
            scale: ScaleKind::Linear,
            node_attribute: NodeAttribute::Injected,
            link_range: None,
            node_range: None,
        }
    }
}

/// What a fat-tree scene is built from.
pub struct SceneInput<'a> {
    pub cluster: &'a Cluster,
    pub layout: &'a ClusterLayout,
    pub values: &'a LinkValues,
    /// `mask[rail][LinkEnd::index]`: which halves pass the filters (see [`super::filter::link_mask`]).
    pub mask: &'a [Vec<bool>],
    pub lit: &'a Lit,
}

/// The default colour range of some values: `[0, max]`, or symmetric for signed values.
pub fn value_range(values: &LinkValues) -> (f64, f64) {
    if values.signed {
        let m = values.max_abs();
        (-m, m)
    } else {
        (0.0, values.range().1.max(0.0))
    }
}

/// The default node colour range: `[0, max]`, or symmetric for signed values.
pub fn node_range(nodes: &NodeValues, signed: bool) -> (f64, f64) {
    let (a, b) = nodes.range();
    if signed {
        let m = a.abs().max(b.abs());
        (-m, m)
    } else {
        (0.0, b.max(0.0))
    }
}

pub fn build_fat_tree_scene(input: &SceneInput<'_>, options: &SceneOptions) -> Scene {
    let SceneInput { cluster, layout, values, mask, lit } = *input;
    let signed = values.signed;
    let pick_map = |m: ColourMap| if signed && !m.is_diverging() { options.diverging_map } else { m };
    let (lo, hi) = options.link_range.unwrap_or_else(|| value_range(values));
    let link_scale = ColourScale::new(pick_map(options.link_map), options.scale, lo, hi);

    let node_values = NodeValues::compute(cluster, values, options.node_attribute);
    let node_scale = {
        let (lo, hi) = options.node_range.unwrap_or_else(|| node_range(&node_values, signed));
        ColourScale::new(pick_map(options.node_map), options.scale, lo, hi)
    };
    let emphasis = |is_lit: bool| match (lit.none, is_lit) {
        (true, _) => Emphasis::Normal,
        (false, true) => Emphasis::Lit,
        (false, false) => Emphasis::Dim,
    };
    let fade = |c: Rgba, e: Emphasis| if e == Emphasis::Dim { c.lerp(BACKGROUND, 0.8) } else { c };

    // Rails in parallel: each yields its unlit and lit halves; lit ones go last, on top.
    let per_rail: Vec<(Vec<Half>, Vec<Half>)> = cluster
        .rails
        .par_iter()
        .enumerate()
        .map(|(r, fabric)| {
            let (mut plain, mut lit_halves) = (Vec::with_capacity(fabric.link_end_count()), Vec::new());
            let Some(rail_layout) = layout.rails.get(r) else { return (plain, lit_halves) };
            let pos = |i: usize| rail_layout.positions.get(i).copied().flatten();
            let rail_mask = mask.get(r);
            for edge in fabric.graph.edge_indices() {
                let Some((a, b)) = fabric.graph.edge_endpoints(edge) else { continue };
                let (Some(pa), Some(pb)) = (pos(a.index()), pos(b.index())) else { continue };
                let mid = Position { x: (pa.x + pb.x) / 2.0, y: (pa.y + pb.y) / 2.0 };
                for (side, from) in [(Side::A, pa), (Side::B, pb)] {
                    let end = LinkEnd { edge, side };
                    if !rail_mask.and_then(|m| m.get(end.index())).copied().unwrap_or(true) {
                        continue;
                    }
                    let e = emphasis(lit.end(r, end));
                    let colour = fade(link_scale.colour(values.at(r, end)), e);
                    let half = Half { from, to: mid, colour, rail: r as u8, end, emphasis: e };
                    if e == Emphasis::Lit { lit_halves.push(half) } else { plain.push(half) }
                }
            }
            (plain, lit_halves)
        })
        .collect();
    let total: usize = per_rail.iter().map(|(p, l)| p.len() + l.len()).sum();
    let mut halves = Vec::with_capacity(total);
    let mut lit_halves = Vec::new();
    for (plain, lit_part) in per_rail {
        halves.extend(plain);
        lit_halves.extend(lit_part);
    }
    halves.extend(lit_halves);

    let node_colour = |v: f64| {
        if options.node_attribute == NodeAttribute::None { NEUTRAL } else { node_scale.colour(v) }
    };
    let mut marks = Vec::new();
    for (h, &at) in layout.hosts.iter().enumerate() {
        let e = emphasis(lit.host(h));
        let colour = fade(node_colour(node_values.hosts.get(h).copied().unwrap_or(0.0)), e);
        marks.push(Mark { at, colour, of: MarkOf::Host(h), emphasis: e });
    }
    let mut labels = vec![LevelLabel { y: 0.0, text: "hosts".into() }];
    for (r, fabric) in cluster.rails.iter().enumerate() {
        let Some(rail_layout) = layout.rails.get(r) else { continue };
        let mut level_y: Vec<Option<f32>> = vec![None; rail_layout.max_level as usize + 1];
        for node in fabric.switches() {
            let i = node.index();
            let (Some(at), Some(level)) =
                (rail_layout.positions.get(i).copied().flatten(), rail_layout.levels[i])
            else {
                continue;
            };
            if let Some(slot) = level_y.get_mut(level as usize) {
                *slot = Some(at.y);
            }
            let e = emphasis(lit.node(r, node));
            let colour = fade(node_colour(node_values.rails[r][i]), e);
            marks.push(Mark { at, colour, of: MarkOf::Switch { rail: r as u8, node }, emphasis: e });
        }
        let letter = char::from(b'a' + (r % 26) as u8);
        for (level, y) in level_y.iter().enumerate().skip(1) {
            if let Some(y) = y {
                labels.push(LevelLabel { y: *y, text: format!("{level}{letter}") });
            }
        }
    }

    let bounds = bounds_of(marks.iter().map(|m| m.at));
    let slot = if layout.hosts.len() > 1 {
        let (lo, hi) =
            layout.hosts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p.x), hi.max(p.x)));
        (hi - lo) / (layout.hosts.len() - 1) as f32
    } else {
        1.0
    };
    let padded = Bounds {
        min: Position { x: bounds.min.x - slot, y: bounds.min.y - 0.4 },
        max: Position { x: bounds.max.x + slot, y: bounds.max.y + 0.4 },
    };
    let node_caption = match options.node_attribute {
        NodeAttribute::None => "not coloured".to_string(),
        a => a.name().to_string(),
    };
    let link_caption = if signed { "bytes sent, A − B" } else { "bytes sent" };
    Scene {
        title: options.title.clone(),
        background: BACKGROUND,
        bounds: padded,
        slot,
        halves,
        marks,
        labels,
        legends: vec![
            Legend::new("N", &node_caption, node_scale),
            Legend::new("L", link_caption, link_scale),
        ],
    }
}

fn bounds_of(points: impl Iterator<Item = Position>) -> Bounds {
    let mut b =
        Bounds { min: Position { x: f32::MAX, y: f32::MAX }, max: Position { x: f32::MIN, y: f32::MIN } };
    let mut any = false;
    for p in points {
        any = true;
        b.min.x = b.min.x.min(p.x);
        b.min.y = b.min.y.min(p.y);
        b.max.x = b.max.x.max(p.x);
        b.max.y = b.max.y.max(p.y);
    }
    if any { b } else { Bounds { min: Position { x: -1.0, y: -1.0 }, max: Position { x: 1.0, y: 1.0 } } }
}

#[cfg(test)]
#[path = "fat_tree_tests.rs"]
mod tests;
