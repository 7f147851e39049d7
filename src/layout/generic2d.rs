//! Given positions → world positions: the generic-2D layout.
//!
//! The network's nodes carry their own `x y` (its first two coordinates): a 2D mesh, a dragonfly
//! drawn by groups, or another tool's layout such as `shoal convert`'s fat tree. They are scaled
//! uniformly (the aspect ratio kept) so the larger extent spans [`WORLD`] units, and moved so the
//! box starts at the origin. y grows upward, as everywhere in the layout layer: a file whose y
//! grows downward shows upside down, as it would in any plot.

use crate::model::network::Network;

use super::Position;

/// The world extent of the larger side of the box.
pub const WORLD: f32 = 100.0;

/// Where every node of a plane network goes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlaneLayout {
    /// Indexed like [`Network::nodes`]; `None`: fewer than two finite coordinates.
    pub positions: Vec<Option<Position>>,
    /// World distance between typical neighbours (the median length of the drawn links), for
    /// sizing marks and lines.
    pub spacing: f32,
    /// Nodes without a usable position.
    pub unplaced: usize,
}

/// Normalises the nodes' given positions into the world box.
pub fn layout_plane(net: &Network) -> PlaneLayout {
    let raw: Vec<Option<(f64, f64)>> = net
        .nodes
        .iter()
        .map(|n| match n.coords.as_slice() {
            [x, y, ..] if x.is_finite() && y.is_finite() => Some((*x, *y)),
            _ => None,
        })
        .collect();
    let placed = raw.iter().flatten();
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    for &(x, y) in placed {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    let extent = (hi.0 - lo.0).max(hi.1 - lo.1);
    let scale = if extent > 0.0 { f64::from(WORLD) / extent } else { 1.0 };
    let positions: Vec<Option<Position>> = raw
        .iter()
        .map(|p| p.map(|(x, y)| Position { x: ((x - lo.0) * scale) as f32, y: ((y - lo.1) * scale) as f32 }))
        .collect();
    let mut lengths: Vec<f32> = net
        .links
        .iter()
        .filter_map(|l| {
            let (a, b) =
                (positions.get(l.source).copied().flatten()?, positions.get(l.target).copied().flatten()?);
            let d = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
            (d > 0.0).then_some(d)
        })
        .collect();
    lengths.sort_unstable_by(f32::total_cmp);
    let count = positions.iter().flatten().count();
    let spacing = match lengths.get(lengths.len() / 2) {
        Some(&d) => d,
        None => WORLD / (count.max(1) as f32).sqrt(),
    };
    // Nodes in rows closer than their links are long (a fat tree's hosts): size by the rows.
    let spacing = row_gap(&positions).map_or(spacing, |gap| spacing.min(gap));
    PlaneLayout { unplaced: positions.len() - count, positions, spacing }
}

/// The median gap between neighbours on one row (nodes sharing a y), if any row has two.
fn row_gap(positions: &[Option<Position>]) -> Option<f32> {
    let mut placed: Vec<Position> = positions.iter().flatten().copied().collect();
    placed.sort_unstable_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
    let mut gaps: Vec<f32> =
        placed.windows(2).filter(|w| w[0].y == w[1].y && w[1].x > w[0].x).map(|w| w[1].x - w[0].x).collect();
    gaps.sort_unstable_by(f32::total_cmp);
    gaps.get(gaps.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::network::{NetLink, NetNode, Shape};

    fn node(id: i64, coords: Vec<f64>) -> NetNode {
        NetNode { id, name: None, coords }
    }

    #[test]
    fn positions_scale_uniformly_into_the_box() {
        let net = Network {
            shape: Shape::Plane,
            axes: vec!["x".into(), "y".into()],
            nodes: vec![node(0, vec![10.0, 5.0]), node(1, vec![30.0, 5.0]), node(2, vec![30.0, 15.0])],
            links: vec![NetLink { id: 0, source: 0, target: 1 }, NetLink { id: 1, source: 1, target: 2 }],
        };
        let l = layout_plane(&net);
        assert_eq!(l.positions[0], Some(Position { x: 0.0, y: 0.0 }));
        assert_eq!(l.positions[1], Some(Position { x: 100.0, y: 0.0 }));
        assert_eq!(l.positions[2], Some(Position { x: 100.0, y: 50.0 }), "aspect ratio kept");
        assert_eq!(l.spacing, 100.0, "the median of 100 and 50 (upper)");
    }

    #[test]
    fn rows_denser_than_the_links_size_the_marks() {
        // Eight hosts one unit apart under a switch four units up: the links are long, the
        // hosts' row is dense.
        let mut nodes: Vec<NetNode> = (0..8).map(|i| node(i, vec![i as f64, 0.0])).collect();
        nodes.push(node(8, vec![3.5, 4.0]));
        let links = (0..8).map(|i| NetLink { id: i, source: i as usize, target: 8 }).collect();
        let net = Network { shape: Shape::Plane, axes: vec!["x".into(), "y".into()], nodes, links };
        let l = layout_plane(&net);
        let unit = WORLD / 7.0;
        assert!((l.spacing - unit).abs() < 1e-3, "{} against one host gap {unit}", l.spacing);
    }

    #[test]
    fn nodes_without_two_finite_coordinates_are_unplaced() {
        let net = Network {
            shape: Shape::Plane,
            axes: vec!["x".into(), "y".into()],
            nodes: vec![node(0, vec![1.0]), node(1, vec![f64::NAN, 2.0]), node(2, vec![3.0, 3.0])],
            links: vec![],
        };
        let l = layout_plane(&net);
        assert_eq!(l.unplaced, 2);
        assert_eq!(l.positions[2], Some(Position { x: 0.0, y: 0.0 }), "a single point sits at the origin");
    }
}
