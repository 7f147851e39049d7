//! Torus coordinates → 3D positions, and the identity of each torus link.
//!
//! Conventions: one unit between neighbours on every axis, the grid centred on the origin (a node
//! at coordinate `c` of an axis with extent `d` sits at `c − (d − 1) / 2`). The first kept axis
//! is x (right), the second y (up), the third z (toward the viewer before any rotation).
//!
//! **Link identity.** A torus link joins two nodes that differ by one step on one axis. It is
//! named by its *lower end* (the node it leaves in the + direction: `c` for `c ↔ c + 1`, and
//! `d − 1` for the wrap-around `d − 1 ↔ 0`), its axis, and its direction: `+` runs from the lower
//! end to the upper, `−` back. Each direction is one directed link, one independently coloured
//! end. On an axis of extent 2 the two neighbours coincide; the link is then the plain one, not
//! a wrap-around.
//!
//! **Projection and aggregation.** A [`TorusLayout`] keeps 2 or 3 of the network's axes
//! ([`KeptAxes`]); nodes that share the kept coordinates merge into one *cell*. A 5D BG/Q
//! torus shown through 3 of its axes merges the 4×2 (say) nodes of the other two; the flattened
//! 2D view, looking down one axis, merges each column along it. Directed links merge when they
//! join the same two cells in the same direction, which is exactly when they share their
//! projected identity; links along an aggregated axis join a cell to itself and are not drawn.
//! Values of merged nodes and links combine by an [`Aggregate`] rule (mean by default, so the
//! colour scale reads like the unprojected data's; sum or max on request), over the members
//! that have a value and pass the filter.

use std::collections::HashMap;

use crate::model::network::{Network, Shape};

/// `+` from the lower end to the upper, `−` back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Plus,
    Minus,
}

impl Direction {
    pub fn sign(self) -> f32 {
        match self {
            Direction::Plus => 1.0,
            Direction::Minus => -1.0,
        }
    }

    pub fn symbol(self) -> char {
        match self {
            Direction::Plus => '+',
            Direction::Minus => '−',
        }
    }
}

/// The identity of one directed torus link.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TorusLink {
    /// Coordinates of the lower end.
    pub lower: Vec<u32>,
    pub axis: usize,
    pub direction: Direction,
    /// Joins `d − 1` and `0`: drawn as a short stub at each end.
    pub wraps: bool,
}

/// The identity of the directed link `from → to` on a torus of extents `dims`, or `None` if the
/// two nodes are not neighbours along exactly one axis.
pub fn torus_link(dims: &[u32], from: &[u32], to: &[u32]) -> Option<TorusLink> {
    if from.len() != dims.len() || to.len() != dims.len() {
        return None;
    }
    let mut differing = (0..dims.len()).filter(|&i| from[i] != to[i]);
    let axis = differing.next()?;
    if differing.next().is_some() {
        return None;
    }
    let (a, b, d) = (from[axis], to[axis], dims[axis]);
    let with = |c: u32| {
        let mut lower = from.to_vec();
        lower[axis] = c;
        lower
    };
    let (lower, direction, wraps) = if b == a + 1 {
        (a, Direction::Plus, false)
    } else if a == b + 1 {
        (b, Direction::Minus, false)
    } else if d >= 2 && a == d - 1 && b == 0 {
        (a, Direction::Plus, true)
    } else if d >= 2 && a == 0 && b == d - 1 {
        (b, Direction::Minus, true)
    } else {
        return None;
    };
    Some(TorusLink { lower: with(lower), axis, direction, wraps })
}

/// Integer torus coordinates of a node, if every one is a whole number inside its extent.
pub fn grid_coords(coords: &[f64], dims: &[u32]) -> Option<Vec<u32>> {
    if coords.len() != dims.len() {
        return None;
    }
    coords
        .iter()
        .zip(dims)
        .map(|(&c, &d)| (c.fract() == 0.0 && c >= 0.0 && c < f64::from(d)).then_some(c as u32))
        .collect()
}

/// How merged nodes and links combine: the one aggregation of the view model.
pub use crate::model::table::Aggregate;

/// Which axes a torus view keeps: 3 for the 3D view, 2 for the flattened one. The 3D torus
/// class's parameters (`torus: {kept: [0, 1, 2]}` in a session).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct KeptAxes {
    pub kept: Vec<usize>,
}

/// The flattened torus class's parameters: the axis it looks down (`torus_flat: {down: 2}`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct LookingDown {
    pub down: usize,
}

impl KeptAxes {
    /// The first three axes (all of a 3D torus), or both of a 2D one.
    pub fn first_three(axes: usize) -> KeptAxes {
        KeptAxes { kept: (0..axes.min(3)).collect() }
    }

    /// The flattened view looking down `axis`: the first two other axes.
    pub fn looking_down(axes: usize, axis: usize) -> KeptAxes {
        KeptAxes { kept: (0..axes).filter(|&a| a != axis).take(2).collect() }
    }
}

/// One merged directed link between two cells.
#[derive(Clone, Debug, PartialEq)]
pub struct CellLink {
    pub from: usize,
    pub to: usize,
    /// Its identity in the kept axes; `None` for a link that is not a torus step there.
    pub id: Option<TorusLink>,
    /// Indices into [`Network::links`].
    pub members: Vec<usize>,
}

/// A torus network placed in 3D through a [`KeptAxes`].
#[derive(Clone, Debug, PartialEq)]
pub struct TorusLayout {
    pub projection: KeptAxes,
    /// Extents of the kept axes, padded with 1 to three.
    pub dims: [u32; 3],
    /// Kept coordinates of each cell (merged node).
    pub cells: Vec<[u32; 3]>,
    /// Indices into [`Network::nodes`] of each cell's members.
    pub cell_members: Vec<Vec<usize>>,
    /// Cell of each network node; `None` if its coordinates are not on the grid.
    pub node_cell: Vec<Option<usize>>,
    /// Merged links, in order of their first member, so with nothing aggregated link `i` of the
    /// layout is link `i` of the network.
    pub links: Vec<CellLink>,
    /// Merged link of each network link; `None` if hidden (inside a cell) or an end is off-grid.
    pub link_of: Vec<Option<usize>>,
    /// Network nodes whose coordinates are not on the grid.
    pub off_grid: usize,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TorusError {
    #[error("the network has no torus extents (it is a plane): use the generic-2D module")]
    NotATorus,
    #[error("keep 2 or 3 distinct axes out of {axes}, not {kept:?}")]
    BadProjection { axes: usize, kept: Vec<usize> },
}

impl TorusLayout {
    pub fn new(net: &Network, projection: KeptAxes) -> Result<TorusLayout, TorusError> {
        let Shape::Torus { dims } = &net.shape else { return Err(TorusError::NotATorus) };
        let kept = &projection.kept;
        let distinct = kept.iter().enumerate().all(|(i, a)| !kept[..i].contains(a));
        if !(2..=3).contains(&kept.len()) || kept.iter().any(|&a| a >= dims.len()) || !distinct {
            return Err(TorusError::BadProjection { axes: dims.len(), kept: kept.clone() });
        }
        let mut kept_dims = [1u32; 3];
        for (i, &a) in kept.iter().enumerate() {
            kept_dims[i] = dims[a];
        }
        let mut cell_index: HashMap<[u32; 3], usize> = HashMap::new();
        let (mut cells, mut cell_members, mut node_cell) = (Vec::new(), Vec::new(), Vec::new());
        let mut off_grid = 0;
        for (n, node) in net.nodes.iter().enumerate() {
            let Some(grid) = grid_coords(&node.coords, dims) else {
                off_grid += 1;
                node_cell.push(None);
                continue;
            };
            let mut key = [0u32; 3];
            for (i, &a) in kept.iter().enumerate() {
                key[i] = grid[a];
            }
            let c = *cell_index.entry(key).or_insert_with(|| {
                cells.push(key);
                cell_members.push(Vec::new());
                cells.len() - 1
            });
            cell_members[c].push(n);
            node_cell.push(Some(c));
        }
        let mut link_index: HashMap<(usize, usize), usize> = HashMap::new();
        let (mut links, mut link_of) = (Vec::<CellLink>::new(), Vec::with_capacity(net.links.len()));
        for (l, link) in net.links.iter().enumerate() {
            let ends = (
                node_cell.get(link.source).copied().flatten(),
                node_cell.get(link.target).copied().flatten(),
            );
            let (Some(from), Some(to)) = ends else {
                link_of.push(None);
                continue;
            };
            if from == to {
                link_of.push(None);
                continue;
            }
            let m = *link_index.entry((from, to)).or_insert_with(|| {
                let id = torus_link(
                    &kept_dims[..kept.len()],
                    &cells[from][..kept.len()],
                    &cells[to][..kept.len()],
                );
                links.push(CellLink { from, to, id, members: Vec::new() });
                links.len() - 1
            });
            links[m].members.push(l);
            link_of.push(Some(m));
        }
        Ok(TorusLayout {
            projection,
            dims: kept_dims,
            cells,
            cell_members,
            node_cell,
            links,
            link_of,
            off_grid,
        })
    }

    /// A cell's position, centred on the origin, one unit between neighbours.
    pub fn position(&self, cell: usize) -> [f32; 3] {
        let c = self.cells[cell];
        std::array::from_fn(|i| c[i] as f32 - (self.dims[i] as f32 - 1.0) / 2.0)
    }

    /// The drawn half of a merged link: from its source cell to the midpoint, or for a
    /// wrap-around link a stub of [`STUB`] units pointing out of the grid along its direction.
    pub fn half(&self, link: usize) -> ([f32; 3], [f32; 3]) {
        let l = &self.links[link];
        let a = self.position(l.from);
        match &l.id {
            Some(id) if id.wraps => {
                // A wrap-around leaves the high end (d − 1) outward in +, the low end (0) in −.
                let outward = if self.cells[l.from][id.axis] == 0 { -1.0 } else { 1.0 };
                let mut b = a;
                b[id.axis] += outward * STUB;
                (a, b)
            }
            _ => {
                let b = self.position(l.to);
                (a, std::array::from_fn(|i| (a[i] + b[i]) / 2.0))
            }
        }
    }

    /// The radius of a sphere around the origin holding every cell and stub.
    pub fn radius(&self) -> f32 {
        let half: Vec<f32> = self.dims.iter().map(|&d| (d as f32 - 1.0) / 2.0 + STUB).collect();
        (half.iter().map(|h| h * h).sum::<f32>()).sqrt().max(1.0)
    }

    /// Merged values per cell, from per-node values (`None`: no value), over passing nodes.
    pub fn cell_values(&self, values: &[Option<f64>], pass: &[bool], rule: Aggregate) -> Vec<Option<f64>> {
        self.cell_members.iter().map(|m| combine_members(m, values, pass, rule)).collect()
    }

    /// Merged values per drawn link, from per-link values, over passing links.
    pub fn link_values(&self, values: &[Option<f64>], pass: &[bool], rule: Aggregate) -> Vec<Option<f64>> {
        self.links.iter().map(|l| combine_members(&l.members, values, pass, rule)).collect()
    }
}

/// Length of a wrap-around stub, in units between neighbours (a plain half is 0.5).
pub const STUB: f32 = 0.3;

fn combine_members(members: &[usize], values: &[Option<f64>], pass: &[bool], rule: Aggregate) -> Option<f64> {
    let passes = |i: usize| pass.get(i).copied().unwrap_or(true);
    rule.combine(members.iter().filter(|&&i| passes(i)).filter_map(|&i| values.get(i).copied().flatten()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_named_by_lower_end_axis_and_direction() {
        let dims = [8, 8, 8];
        let plus = torus_link(&dims, &[2, 5, 1], &[3, 5, 1]).unwrap();
        assert_eq!(
            (plus.lower, plus.axis, plus.direction, plus.wraps),
            (vec![2, 5, 1], 0, Direction::Plus, false)
        );
        let minus = torus_link(&dims, &[3, 5, 1], &[2, 5, 1]).unwrap();
        assert_eq!(
            (minus.lower, minus.axis, minus.direction, minus.wraps),
            (vec![2, 5, 1], 0, Direction::Minus, false)
        );
    }

    #[test]
    fn wrap_around_links_have_the_last_coordinate_as_lower_end() {
        let dims = [8, 4, 8];
        let plus = torus_link(&dims, &[0, 3, 6], &[0, 0, 6]).unwrap();
        assert_eq!(
            (plus.lower, plus.axis, plus.direction, plus.wraps),
            (vec![0, 3, 6], 1, Direction::Plus, true)
        );
        let minus = torus_link(&dims, &[0, 0, 6], &[0, 3, 6]).unwrap();
        assert_eq!((minus.lower, minus.direction, minus.wraps), (vec![0, 3, 6], Direction::Minus, true));
    }

    #[test]
    fn an_extent_of_two_has_no_wrap_around_and_non_neighbours_have_no_identity() {
        let dims = [2, 8];
        let back = torus_link(&dims, &[1, 0], &[0, 0]).unwrap();
        assert_eq!((back.lower, back.direction, back.wraps), (vec![0, 0], Direction::Minus, false));
        assert_eq!(torus_link(&dims, &[0, 0], &[1, 1]), None, "two axes differ");
        assert_eq!(torus_link(&dims, &[0, 1], &[0, 3]), None, "two steps");
        assert_eq!(torus_link(&dims, &[0, 1], &[0, 1, 2]), None);
    }

    #[test]
    fn a_full_torus_keeps_every_link_in_order_and_stubs_its_wrap_arounds() {
        let net = Network::torus(&["x", "y", "z"], &[4, 3, 5]);
        let layout = TorusLayout::new(&net, KeptAxes::first_three(3)).unwrap();
        assert_eq!(layout.cells.len(), 60);
        assert_eq!(layout.links.len(), net.links.len());
        for (i, l) in layout.links.iter().enumerate() {
            assert_eq!(l.members, vec![i]);
            let id = l.id.as_ref().expect("every torus link has an identity");
            let (a, b) = layout.half(i);
            let length = a.iter().zip(&b).map(|(p, q)| (p - q).powi(2)).sum::<f32>().sqrt();
            if id.wraps {
                assert!((length - STUB).abs() < 1e-6);
                // The stub points out of the grid, away from the centre.
                assert!(b[id.axis].abs() > a[id.axis].abs(), "{a:?} → {b:?}");
            } else {
                assert!((length - 0.5).abs() < 1e-6);
            }
        }
        let wraps = layout.links.iter().filter(|l| l.id.as_ref().is_some_and(|id| id.wraps)).count();
        // Per axis: both directions of one wrap link per line of nodes along it.
        assert_eq!(wraps, 2 * (60 / 4 + 60 / 3 + 60 / 5));
        assert!(layout.position(0) == [-1.5, -1.0, -2.0]);
    }

    #[test]
    fn a_5d_torus_through_three_axes_merges_the_others() {
        let net = Network::torus(&["a", "b", "c", "d", "e"], &[4, 4, 4, 4, 2]);
        let layout = TorusLayout::new(&net, KeptAxes { kept: vec![0, 2, 4] }).unwrap();
        assert_eq!(layout.cells.len(), 4 * 4 * 2);
        assert!(layout.cell_members.iter().all(|m| m.len() == 16));
        // b and d links join a cell to itself: hidden.
        let hidden = layout.link_of.iter().filter(|l| l.is_none()).count();
        assert_eq!(hidden, 512 * 4, "two b and two d links per node");
        // a, c (two directions) and e (one neighbour): 32 cells × 5 merged links of 16 members.
        assert_eq!(layout.links.len(), 32 * 5);
        assert!(layout.links.iter().all(|l| l.members.len() == 16));
        let values: Vec<Option<f64>> = (0..net.links.len()).map(|i| Some(i as f64)).collect();
        let l = &layout.links[0];
        let mean = l.members.iter().sum::<usize>() as f64 / 16.0;
        assert_eq!(layout.link_values(&values, &[], Aggregate::Mean)[0], Some(mean));
        let mut pass = vec![true; net.links.len()];
        pass[l.members[0]] = false;
        let sum: usize = l.members[1..].iter().sum();
        assert_eq!(layout.link_values(&values, &pass, Aggregate::Sum)[0], Some(sum as f64));
    }

    #[test]
    fn the_flat_view_looks_down_one_axis() {
        let net = Network::torus(&["x", "y", "z"], &[8, 8, 8]);
        let layout = TorusLayout::new(&net, KeptAxes::looking_down(3, 2)).unwrap();
        assert_eq!(layout.projection.kept, vec![0, 1]);
        assert_eq!(layout.dims, [8, 8, 1]);
        assert_eq!(layout.cells.len(), 64);
        assert_eq!(layout.links.len(), 64 * 4);
        assert!(layout.links.iter().all(|l| l.members.len() == 8));
        assert!(layout.position(9)[2] == 0.0);
    }

    #[test]
    fn bad_projections_and_planes_are_refused() {
        let net = Network::torus(&["x", "y", "z"], &[2, 2, 2]);
        assert!(TorusLayout::new(&net, KeptAxes { kept: vec![0, 0, 1] }).is_err());
        assert!(TorusLayout::new(&net, KeptAxes { kept: vec![0, 3] }).is_err());
        let plane = Network { shape: Shape::Plane, ..net };
        assert_eq!(TorusLayout::new(&plane, KeptAxes::first_three(3)), Err(TorusError::NotATorus));
    }

    #[test]
    fn aggregates_combine_or_say_nothing() {
        assert_eq!(Aggregate::Mean.combine([1.0, 2.0, 6.0]), Some(3.0));
        assert_eq!(Aggregate::Max.combine([1.0, 7.0]), Some(7.0));
        assert_eq!(Aggregate::Sum.combine(std::iter::empty()), None);
        assert_eq!(Aggregate::parse("SUM"), Some(Aggregate::Sum));
    }
}
