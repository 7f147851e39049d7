//! The fat-tree scene: a multi-rail layout drawn as two-half links, coloured nodes, level labels
//! (`1a 2a 3a` above the hosts for rail 0, `1b 2b 3b` below for rail 1, as in the thesis) and
//! the N and L legends.

use crate::layout::{ClusterLayout, Position};
use crate::model::{Cluster, Side};

use super::colour::{ColourMap, ColourScale, Rgba, ScaleKind};
use super::legend::Legend;
use super::network::{NO_DATA, NetworkInput, NetworkStyle, value_legend};
use super::{Bounds, Bracket, Emphasis, Half, LevelLabel, Mark, MarkOf, Scene};
use crate::view_model::dataset::{FabricData, FabricIndex};
use crate::view_model::values::draw_order;

/// The canvas colour of every view and export.
pub const BACKGROUND: Rgba = Rgba::rgb(250, 250, 247);
/// Nodes when no attribute colours them.
pub const NEUTRAL: Rgba = Rgba::rgb(110, 110, 120);

/// How to colour a fat-tree scene: the network style's maps (already swapped to the diverging
/// map for a diff), scale, agreed ranges and captions.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneOptions {
    pub title: String,
    pub link_map: ColourMap,
    pub node_map: ColourMap,
    pub scale: ScaleKind,
    /// False: nodes are drawn neutral.
    pub colour_nodes: bool,
    pub link_range: Option<(f64, f64)>,
    pub node_range: Option<(f64, f64)>,
    pub link_caption: String,
    pub node_caption: String,
    /// The values are bytes: legends in binary units, else plain numbers.
    pub link_bytes: bool,
    pub node_bytes: bool,
}

impl SceneOptions {
    pub fn from_style(style: &NetworkStyle, colour_nodes: bool) -> SceneOptions {
        SceneOptions {
            title: style.title.clone(),
            link_map: style.link_map,
            node_map: style.node_map,
            scale: style.scale,
            colour_nodes,
            link_range: style.link_range,
            node_range: style.node_range,
            link_caption: style.link_caption.clone(),
            node_caption: if colour_nodes { style.node_caption.clone() } else { "not coloured".into() },
            link_bytes: style.link_bytes,
            node_bytes: style.node_bytes,
        }
    }
}

/// What a fat-tree scene is built from: the fabric, and the view's values, link mask and
/// highlight indexed like the view model's nodes and links (see [`FabricIndex`]). Every node is
/// drawn (as in the thesis); the mask hides link ends. As in every module, the rest dims only
/// when the highlight lights something.
pub struct FatTreeInput<'a> {
    pub cluster: &'a Cluster,
    pub layout: &'a ClusterLayout,
    pub index: &'a FabricIndex,
    pub network: NetworkInput<'a>,
    /// Nothing is highlighted: nothing is dimmed.
    pub none_lit: bool,
}

impl<'a> FatTreeInput<'a> {
    pub fn new(fabric: &'a FabricData, network: &NetworkInput<'a>) -> Self {
        FatTreeInput {
            cluster: &fabric.cluster,
            layout: &fabric.layout,
            index: &fabric.index,
            network: *network,
            none_lit: !network.any_lit(),
        }
    }
}

fn value_at(values: &[Option<f64>], i: Option<usize>) -> f64 {
    i.and_then(|i| values.get(i).copied().flatten()).unwrap_or(0.0)
}

fn flag(flags: &[bool], i: Option<usize>, default: bool) -> bool {
    i.and_then(|i| flags.get(i).copied()).unwrap_or(default)
}

/// How glyphs are coloured and emphasised.
struct Paint {
    links: ColourScale,
    /// The link scale's table faded as dimmed halves are (a highlight fades most halves).
    links_dim: [Rgba; 256],
    nodes: ColourScale,
    colour_nodes: bool,
    none_lit: bool,
}

impl Paint {
    fn emphasis(&self, is_lit: bool) -> Emphasis {
        match (self.none_lit, is_lit) {
            (true, _) => Emphasis::Normal,
            (false, true) => Emphasis::Lit,
            (false, false) => Emphasis::Dim,
        }
    }

    fn fade(c: Rgba, e: Emphasis) -> Rgba {
        if e == Emphasis::Dim { c.lerp(BACKGROUND, 0.8) } else { c }
    }

    /// A link end's colour: its value's, or neutral without one; faded when dimmed.
    fn link(&self, value: Option<f64>, e: Emphasis) -> Rgba {
        match value {
            None => Paint::fade(NO_DATA, e),
            Some(v) if e == Emphasis::Dim => self.links_dim[self.links.lut_index(v)],
            Some(v) => self.links.colour(v),
        }
    }

    fn node(&self, value: f64, e: Emphasis) -> Rgba {
        let c = if self.colour_nodes { self.nodes.colour(value) } else { NEUTRAL };
        Paint::fade(c, e)
    }
}

pub fn build_fat_tree_scene(input: &FatTreeInput<'_>, options: &SceneOptions) -> Scene {
    let scale = |map, range: Option<(f64, f64)>| {
        let (lo, hi) = range.unwrap_or((0.0, 0.0));
        ColourScale::new(map, options.scale, lo, hi)
    };
    let links = scale(options.link_map, options.link_range);
    let paint = Paint {
        links_dim: links.lut().map(|c| Paint::fade(c, Emphasis::Dim)),
        links,
        nodes: scale(options.node_map, options.node_range),
        colour_nodes: options.colour_nodes,
        none_lit: input.none_lit,
    };
    let halves = halves(input, &paint);
    let (marks, labels) = marks_and_labels(input, &paint);
    let brackets = brackets(input, &marks);
    let layout = input.layout;
    let bounds = bounds_of(marks.iter().map(|m| m.at));
    let slot = if let Some(planes) = &layout.planes {
        planes.slot
    } else if layout.hosts.len() > 1 {
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
    Scene {
        title: options.title.clone(),
        background: BACKGROUND,
        bounds: padded,
        slot,
        halves,
        marks,
        labels,
        brackets,
        legends: vec![
            node_legend(options, paint.nodes),
            value_legend("L", &options.link_caption, paint.links, options.link_bytes),
        ],
        health: Vec::new(),
    }
}

/// The nodes' legend; with nodes not coloured, its caption alone (no bar, no ticks).
fn node_legend(options: &SceneOptions, scale: ColourScale) -> Legend {
    let mut legend = value_legend("N", &options.node_caption, scale, options.node_bytes);
    if !options.colour_nodes {
        legend.ticks.clear();
    }
    legend
}

/// Every passing link end as a half, in draw order: busier ends on top, lit ones last. A
/// prepared view brings its ends in that order already ([`NetworkInput::link_order`]);
/// otherwise it is sorted here, by the same rule.
fn halves(input: &FatTreeInput<'_>, paint: &Paint) -> Vec<Half> {
    let net = input.network;
    let ends = input.index.link_count();
    let sorted_here;
    let order = if net.link_order.len() == ends {
        net.link_order
    } else {
        let values: Vec<Option<f64>> = (0..ends).map(|p| net.link_values.get(p).copied().flatten()).collect();
        sorted_here = draw_order(&values);
        &sorted_here
    };
    let (mut plain, mut lit) = (Vec::with_capacity(ends), Vec::new());
    for &p in order {
        if let Some(half) = half_at(input, paint, p as usize) {
            if half.emphasis == Emphasis::Lit { lit.push(half) } else { plain.push(half) }
        }
    }
    plain.extend(lit);
    plain
}

/// The half of the view model's link `p`, if it is placed and passes the view's mask.
fn half_at(input: &FatTreeInput<'_>, paint: &Paint, p: usize) -> Option<Half> {
    let FatTreeInput { cluster, layout, index, network: net, .. } = *input;
    if !flag(net.link_pass, Some(p), true) {
        return None;
    }
    let (r, end) = index.link(p)?;
    let fabric = cluster.rails.get(r)?;
    let positions = &layout.rails.get(r)?.positions;
    let (a, b) = fabric.graph.edge_endpoints(end.edge)?;
    let (pa, pb) =
        (positions.get(a.index()).copied().flatten()?, positions.get(b.index()).copied().flatten()?);
    let mid = Position { x: (pa.x + pb.x) / 2.0, y: (pa.y + pb.y) / 2.0 };
    let from = if end.side == Side::A { pa } else { pb };
    let e = paint.emphasis(flag(net.link_lit, Some(p), false));
    // An end with no value (no row passed: a contention view's single-job end) is neutral, as
    // in the other modules.
    let value = net.link_values.get(p).copied().flatten();
    let colour = paint.link(value, e);
    Some(Half { from, to: mid, colour, rail: r as u8, end, emphasis: e })
}

/// Hosts once for all rails, each rail's placed switches, and the level labels (`1a 2a` above,
/// `1b 2b` below).
fn marks_and_labels(input: &FatTreeInput<'_>, paint: &Paint) -> (Vec<Mark>, Vec<LevelLabel>) {
    let FatTreeInput { cluster, layout, index, network: net, .. } = *input;
    let switches: usize = cluster.rails.iter().map(|f| f.graph.node_count()).sum();
    let mut marks = Vec::with_capacity(layout.hosts.len() + switches);
    for (h, &at) in layout.hosts.iter().enumerate() {
        let e = paint.emphasis(flag(net.node_lit, Some(h), false));
        let colour = paint.node(value_at(net.node_values, Some(h)), e);
        let mark = |at| Mark { at, colour, of: MarkOf::Host(h), emphasis: e };
        // One spot per host unless CAs are laid out by plane (no list per host then).
        if layout.planes.is_none() {
            marks.push(mark(at));
        } else {
            marks.extend(plane_spots(input, h).into_iter().map(mark));
        }
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
            let p = index.node_position(r, node);
            let e = paint.emphasis(flag(net.node_lit, p, false));
            let colour = paint.node(value_at(net.node_values, p), e);
            marks.push(Mark { at, colour, of: MarkOf::Switch { rail: r as u8, node }, emphasis: e });
        }
        let letter = char::from(b'a' + (r % 26) as u8);
        for (level, y) in level_y.iter().enumerate().skip(1) {
            if let Some(y) = y {
                labels.push(LevelLabel { y: *y, text: format!("{level}{letter}") });
            }
        }
    }
    (marks, labels)
}

/// Where host `h` is drawn in the plane layout: each of its CAs' spots, left to right.
fn plane_spots(input: &FatTreeInput<'_>, h: usize) -> Vec<Position> {
    let (cluster, layout) = (input.cluster, input.layout);
    let Some(host) = cluster.hosts.get(h) else { return Vec::new() };
    let mut spots: Vec<Position> = (0..cluster.rails.len())
        .flat_map(|r| {
            let rail = layout.rails.get(r);
            host.on_rail(r).iter().filter_map(move |ca| rail?.positions.get(ca.index()).copied().flatten())
        })
        .collect();
    spots.sort_by(|a, b| a.x.total_cmp(&b.x));
    spots
}

/// Most highlighted hosts that get a bracket of their own; more would only stack into a band.
const HOST_BRACKETS: usize = 6;

/// In the plane layout: a bracket under each plane's block, and one under the CAs of each
/// highlighted host (a few at most), so a host reads as one thing across the planes.
fn brackets(input: &FatTreeInput<'_>, marks: &[Mark]) -> Vec<Bracket> {
    let Some(planes) = &input.layout.planes else { return Vec::new() };
    let mut out: Vec<Bracket> = planes
        .blocks
        .iter()
        .map(|b| Bracket {
            x_min: b.x_min,
            x_max: b.x_max,
            y: 0.0,
            row: 0,
            ticks: Vec::new(),
            text: b.label.clone(),
            emphasis: Emphasis::Normal,
        })
        .collect();
    let mut lit: Vec<usize> = marks
        .iter()
        .filter(|m| m.emphasis == Emphasis::Lit)
        .filter_map(|m| if let MarkOf::Host(h) = m.of { Some(h) } else { None })
        .collect();
    lit.dedup();
    for (row, &h) in lit.iter().take(HOST_BRACKETS).enumerate() {
        let ticks: Vec<f32> = marks.iter().filter(|m| m.of == MarkOf::Host(h)).map(|m| m.at.x).collect();
        let (Some(&x_min), Some(&x_max)) = (ticks.first(), ticks.last()) else { continue };
        out.push(Bracket {
            x_min,
            x_max,
            y: 0.0,
            row: row as u8 + 1,
            ticks,
            text: input.cluster.hosts.get(h).map_or_else(String::new, |x| x.name.clone()),
            emphasis: Emphasis::Lit,
        });
    }
    out
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
#[path = "fat_tree_planes_tests.rs"]
mod planes_tests;
