//! Planes: the rails inside one subnet of a rail-optimized cluster.
//!
//! A GPU node carries several HCAs (`gpu01 mlx5_0` … `gpu01 mlx5_7`) and HCA k of every node is
//! cabled to the leaf switches of plane k. Within one subnet a plane is found as a connected
//! group of adapter names and the leaf switches their CAs hang from: adapter name `mlx5_3` and
//! every leaf any `… mlx5_3` CA is cabled to belong to one plane, and two adapter names that share
//! a leaf merge into one. So a single-HCA fabric (every CA named `HCA-1`), or one whose hosts'
//! HCAs share leaves, has one plane; a rail-optimized one has one plane per HCA index.

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;

use super::fabric::{Fabric, NodeKind};
use super::natural::natural_cmp;

/// One plane of a subnet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plane {
    /// The adapter names of its CAs, in natural order (`mlx5_3`; empty for one-word descriptions).
    pub adapters: Vec<String>,
    /// Its leaf switches (those cabled to its CAs), in node-index order.
    pub leaves: Vec<NodeIndex>,
    /// How many CAs hang from it.
    pub cas: usize,
}

impl Plane {
    /// A short name for legends: its adapter names joined (`mlx5_3`), or `plane N`.
    pub fn label(&self, index: usize) -> String {
        let named: Vec<&str> = self.adapters.iter().map(String::as_str).filter(|a| !a.is_empty()).collect();
        if named.is_empty() { format!("plane {index}") } else { named.join("+") }
    }
}

/// The planes of one subnet, and which plane each CA and each leaf switch belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RailPlanes {
    /// Ordered by their first adapter name, naturally (`mlx5_2` before `mlx5_10`).
    pub planes: Vec<Plane>,
    /// Indexed by node index: the plane of a CA or a leaf switch; `None` for other nodes.
    pub plane_of: Vec<Option<u16>>,
}

impl RailPlanes {
    /// Finds the planes of a subnet (see the module comment).
    pub fn detect(fabric: &Fabric) -> RailPlanes {
        let n = fabric.graph.node_count();
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        for ca in fabric.cas() {
            let next = names.len();
            names.entry(fabric.node(ca).adapter_name()).or_insert(next);
        }
        // Union-find over adapter names (0..names) and nodes (names + node index).
        let mut sets = UnionFind::new(names.len() + n);
        for ca in fabric.cas() {
            let a = names[fabric.node(ca).adapter_name()];
            for other in fabric.graph.neighbors(ca) {
                if fabric.node(other).kind != NodeKind::Ca {
                    sets.union(a, names.len() + other.index());
                }
            }
        }
        let mut name_list: Vec<(&str, usize)> = names.iter().map(|(&k, &v)| (k, v)).collect();
        name_list.sort_by(|a, b| natural_cmp(a.0, b.0));
        let mut plane_of_root: BTreeMap<usize, u16> = BTreeMap::new();
        let mut planes: Vec<Plane> = Vec::new();
        for &(name, id) in &name_list {
            let root = sets.find(id);
            let p = *plane_of_root.entry(root).or_insert_with(|| {
                planes.push(Plane::default());
                (planes.len() - 1) as u16
            });
            planes[usize::from(p)].adapters.push(name.to_string());
        }
        let mut plane_of = vec![None; n];
        for ca in fabric.cas() {
            let p = plane_of_root.get(&sets.find(names[fabric.node(ca).adapter_name()])).copied();
            plane_of[ca.index()] = p;
            if let Some(p) = p {
                planes[usize::from(p)].cas += 1;
                for other in fabric.graph.neighbors(ca) {
                    if fabric.node(other).kind != NodeKind::Ca && plane_of[other.index()].is_none() {
                        plane_of[other.index()] = Some(p);
                    }
                }
            }
        }
        for node in fabric.graph.node_indices() {
            if fabric.node(node).kind != NodeKind::Ca
                && let Some(p) = plane_of[node.index()]
            {
                planes[usize::from(p)].leaves.push(node);
            }
        }
        RailPlanes { planes, plane_of }
    }

    /// More than one plane: the subnet is rail-optimized.
    pub fn is_multi_plane(&self) -> bool {
        self.planes.len() > 1
    }

    pub fn plane(&self, node: NodeIndex) -> Option<u16> {
        self.plane_of.get(node.index()).copied().flatten()
    }
}

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind { parent: (0..n).collect() }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra.max(rb)] = ra.min(rb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::{RailOptimized, TwoLevel};

    #[test]
    fn each_hca_index_of_a_rail_optimized_fabric_is_a_plane_with_its_leaves() {
        let fabric = RailOptimized::new(2, 3, 4, 2).build();
        let planes = RailPlanes::detect(&fabric);
        assert_eq!(planes.planes.len(), 4);
        for (k, plane) in planes.planes.iter().enumerate() {
            assert_eq!(plane.adapters, [format!("mlx5_{k}")]);
            assert_eq!(plane.label(k), format!("mlx5_{k}"));
            assert_eq!(plane.cas, 6);
            let names: Vec<&str> =
                plane.leaves.iter().map(|&l| fabric.node(l).description.as_str()).collect();
            assert_eq!(names, [format!("leaf-su00-p{k}"), format!("leaf-su01-p{k}")]);
        }
        let spine = fabric.switches().find(|&s| fabric.node(s).description.starts_with("spine")).unwrap();
        assert_eq!(planes.plane(spine), None);
    }

    #[test]
    fn a_single_hca_fabric_is_one_plane() {
        let planes = RailPlanes::detect(&TwoLevel::new(4, 3, 2).build());
        assert_eq!(planes.planes.len(), 1);
        assert!(!planes.is_multi_plane());
        assert_eq!(planes.planes[0].leaves.len(), 4);
    }

    #[test]
    fn adapters_sharing_a_leaf_merge_into_one_plane() {
        let mut fabric = RailOptimized::new(1, 2, 3, 1).build();
        // gpu0001's HCA on plane 1's leaf, named mlx5_2, ties the names mlx5_1 and mlx5_2.
        let ca = fabric.cas().find(|&c| fabric.node(c).description == "gpu0001 mlx5_1").unwrap();
        fabric.graph[ca].description = "gpu0001 mlx5_2".into();
        let planes = RailPlanes::detect(&fabric);
        assert_eq!(planes.planes.len(), 2, "{:?}", planes.planes);
        assert_eq!(planes.planes[1].adapters, ["mlx5_1", "mlx5_2"]);
    }
}
