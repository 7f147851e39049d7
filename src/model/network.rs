//! A network given by its nodes' coordinates and its directed links: what the torus and the
//! generic-2D modules draw, whatever file it came from (Boxfish run data, a `nodes.csv` +
//! `links.csv` pair, or `shoal convert`'s output).
//!
//! This is the seam between the attribute tables (which say what each node and link *measured*)
//! and the views (which say where they *are*). Values travel beside it as plain vectors indexed
//! like [`Network::nodes`] and [`Network::links`], so one network serves every region,
//! attribute and filter.
//!
//! A link is **directed**: Boxfish lists `A → B` and `B → A` as two rows with two link ids, and
//! each is one independently coloured end, as a fat-tree link's two [`super::LinkEnd`]s are.

use std::collections::HashMap;

/// What the coordinates mean.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A torus (or mesh) with these extents per axis; coordinates are integers `0..dims[axis]`.
    /// Links between neighbours that differ by `dims[axis] - 1` on one axis wrap around.
    Torus { dims: Vec<u32> },
    /// Positions given as they are (a mesh, a dragonfly by groups, another tool's layout).
    Plane,
}

#[derive(Clone, Debug, PartialEq)]
pub struct NetNode {
    /// The id the tables use (`nodeid`).
    pub id: i64,
    /// A display name, when the input has one.
    pub name: Option<String>,
    /// One value per axis of [`Network::axes`].
    pub coords: Vec<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NetLink {
    /// The id the tables use (`linkid`).
    pub id: i64,
    /// Index into [`Network::nodes`] of the sending node.
    pub source: usize,
    /// Index into [`Network::nodes`] of the receiving node.
    pub target: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub shape: Shape,
    /// Coordinate names, e.g. `x y z` or BG/Q's `a b c d e`; `x y` for a plane.
    pub axes: Vec<String>,
    pub nodes: Vec<NetNode>,
    pub links: Vec<NetLink>,
}

impl Network {
    /// Index of each node id into [`Network::nodes`].
    pub fn node_index(&self) -> HashMap<i64, usize> {
        self.nodes.iter().enumerate().map(|(i, n)| (n.id, i)).collect()
    }

    /// Index of each link id into [`Network::links`].
    pub fn link_index(&self) -> HashMap<i64, usize> {
        self.links.iter().enumerate().map(|(i, l)| (l.id, i)).collect()
    }

    /// A full torus with one node per coordinate (ids in row-major order, last axis fastest) and
    /// both directions of every neighbour link (ids in order of source, axis, + then −). Extents
    /// of 1 have no links; extents of 2 have one neighbour per direction, listed once.
    pub fn torus(axes: &[&str], dims: &[u32]) -> Network {
        let count: usize = dims.iter().map(|&d| d as usize).product();
        let mut nodes = Vec::with_capacity(count);
        for id in 0..count {
            let mut rest = id;
            let mut coords = vec![0.0; dims.len()];
            for axis in (0..dims.len()).rev() {
                let d = dims[axis] as usize;
                coords[axis] = (rest % d) as f64;
                rest /= d;
            }
            nodes.push(NetNode { id: id as i64, name: None, coords });
        }
        let stride = |axis: usize| dims[axis + 1..].iter().map(|&d| d as usize).product::<usize>();
        let mut links = Vec::new();
        for (source, node) in nodes.iter().enumerate() {
            for (axis, (&d, &c)) in dims.iter().zip(&node.coords).enumerate() {
                let (d, c) = (d as usize, c as usize);
                if d < 2 {
                    continue;
                }
                let plus = (c + 1) % d;
                let minus = (c + d - 1) % d;
                let mut targets = vec![plus];
                if minus != plus {
                    targets.push(minus);
                }
                for t in targets {
                    let target = source - c * stride(axis) + t * stride(axis);
                    links.push(NetLink { id: links.len() as i64, source, target });
                }
            }
        }
        Network {
            shape: Shape::Torus { dims: dims.to_vec() },
            axes: axes.iter().map(|a| a.to_string()).collect(),
            nodes,
            links,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torus_has_every_node_and_both_directions_of_every_neighbour_link() {
        let net = Network::torus(&["x", "y", "z"], &[4, 3, 2]);
        assert_eq!(net.nodes.len(), 24);
        // x and y: two directions each; z has extent 2, so one neighbour.
        assert_eq!(net.links.len(), 24 * (2 + 2 + 1));
        assert_eq!(net.nodes[1].coords, vec![0.0, 0.0, 1.0]);
        assert_eq!(net.nodes[23].coords, vec![3.0, 2.0, 1.0]);
        for link in &net.links {
            let (a, b) = (&net.nodes[link.source].coords, &net.nodes[link.target].coords);
            let differing: Vec<usize> = (0..3).filter(|&i| a[i] != b[i]).collect();
            assert_eq!(differing.len(), 1, "{a:?} -> {b:?}");
        }
        let reversed = net
            .links
            .iter()
            .filter(|l| net.links.iter().any(|m| m.source == l.target && m.target == l.source));
        assert_eq!(reversed.count(), net.links.len(), "every link has its reverse");
    }

    #[test]
    fn indexes_find_nodes_and_links_by_id() {
        let net = Network::torus(&["x", "y"], &[3, 3]);
        assert_eq!(net.node_index()[&4], 4);
        assert_eq!(net.link_index().len(), net.links.len());
    }
}
