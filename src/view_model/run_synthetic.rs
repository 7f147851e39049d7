//! A synthetic torus (or 2D mesh) run, built in memory, for tests, benchmarks and the GUI's
//! tests: what [`super::dataset::Dataset::synthetic`] is for the fat tree.
//!
//! The traffic model (two `code_region`s, deterministic):
//! - region 1, a shift along the first axis: each + link on axis 0 carries `1000 + 100·c0`
//!   packets (`c0`: its source's coordinate on axis 0), each − link on axis 0 carries 200, and
//!   the links of the other axes 50;
//! - region 2, an exchange along the last axis: + links there carry `400 + 50·c_last`, − links
//!   `2000`, the others 20.
//!
//! Tables: links (`linkid code_region packets`, one row per link and region), nodes (`nodeid
//! code_region muls`, `muls = 10 + nodeid % 7` in region 1, twice that in region 2), and ranks
//! (`mpirank code_region sends`), two ranks per node by a rank → node map; nodes ↔ links by
//! the sending node.

use crate::model::network::Network;
use crate::model::{Column, Domain, Policy, Projection, Run, Table};

/// Packets of directed link `l` of `net` in `region` (1 or 2), per the module's model.
pub fn packets(net: &Network, l: usize, region: i64) -> f64 {
    let link = net.links[l];
    let (a, b) = (&net.nodes[link.source].coords, &net.nodes[link.target].coords);
    let Some(axis) = (0..a.len()).find(|&i| a[i] != b[i]) else { return 0.0 };
    let plus = b[axis] == a[axis] + 1.0 || (a[axis] > 1.0 && b[axis] == 0.0);
    let last = a.len() - 1;
    match (region, axis) {
        (1, 0) if plus => 1000.0 + 100.0 * a[0],
        (1, 0) => 200.0,
        (1, _) => 50.0,
        (_, x) if x == last && plus => 400.0 + 50.0 * a[last],
        (_, x) if x == last => 2000.0,
        _ => 20.0,
    }
}

/// A full torus of `dims` with the module's two-region traffic.
pub fn synthetic_run(axes: &[&str], dims: &[u32]) -> Run {
    let dims_text: Vec<String> = dims.iter().map(u32::to_string).collect();
    run_of(Network::torus(axes, dims), format!("synthetic {}", dims_text.join("×")))
}

/// A `width`×`height` 2D mesh given as a plane (what the generic-2D module draws): both
/// directions of each neighbour link, `4·w·h − 2·(w + h)` directed links, the same traffic.
pub fn synthetic_mesh_run(width: u32, height: u32) -> Run {
    let mut net = Network::torus(&["x", "y"], &[width, height]);
    net.shape = crate::model::network::Shape::Plane;
    let coords: Vec<Vec<f64>> = net.nodes.iter().map(|n| n.coords.clone()).collect();
    net.links.retain(|l| {
        let (a, b) = (&coords[l.source], &coords[l.target]);
        (a[0] - b[0]).abs() + (a[1] - b[1]).abs() == 1.0
    });
    for (i, l) in net.links.iter_mut().enumerate() {
        l.id = i as i64;
    }
    run_of(net, format!("synthetic mesh {width}×{height}"))
}

fn run_of(net: Network, name: String) -> Run {
    let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let regions = [1i64, 2];

    let mut link_cols = (Vec::new(), Vec::new(), Vec::new());
    for region in regions {
        for (l, link) in net.links.iter().enumerate() {
            link_cols.0.push(link.id);
            link_cols.1.push(region);
            link_cols.2.push(packets(&net, l, region));
        }
    }
    let links = Table::new(
        "links.txt",
        Domain::Links,
        "linkid",
        names(&["linkid", "code_region", "packets"]),
        vec![Column::Int(link_cols.0), Column::Int(link_cols.1), Column::Float(link_cols.2)],
    );
    let mut node_cols = (Vec::new(), Vec::new(), Vec::new());
    for region in regions {
        for n in &net.nodes {
            node_cols.0.push(n.id);
            node_cols.1.push(region);
            node_cols.2.push(region * (10 + n.id % 7));
        }
    }
    let nodes = Table::new(
        "nodes.txt",
        Domain::Nodes,
        "nodeid",
        names(&["nodeid", "code_region", "muls"]),
        vec![Column::Int(node_cols.0), Column::Int(node_cols.1), Column::Int(node_cols.2)],
    );
    let ranks_n = net.nodes.len() as i64 * 2;
    let mut rank_cols = (Vec::new(), Vec::new(), Vec::new());
    for region in regions {
        for r in 0..ranks_n {
            rank_cols.0.push(r);
            rank_cols.1.push(region);
            rank_cols.2.push((r % 5 + 1) as f64 * region as f64);
        }
    }
    let ranks = Table::new(
        "ranks.txt",
        Domain::Ranks,
        "mpirank",
        names(&["mpirank", "code_region", "sends"]),
        vec![Column::Int(rank_cols.0), Column::Int(rank_cols.1), Column::Float(rank_cols.2)],
    );
    let tables: Vec<Table> = [links, nodes, ranks].into_iter().filter_map(Result::ok).collect();
    let map = Projection::File {
        name: "rank_to_node.txt".into(),
        from: Domain::Ranks,
        to: Domain::Nodes,
        pairs: (0..ranks_n).map(|r| (r, r / 2)).collect(),
    };
    let node_link = Projection::NodeLink { node_policy: Policy::Source, link_policy: Policy::Source };
    Run::new(name, net, tables, vec![map, node_link])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_synthetic_run_has_three_tables_and_reaches_links_from_ranks() {
        let run = synthetic_run(&["x", "y", "z"], &[4, 4, 4]);
        assert_eq!(run.tables().len(), 3);
        assert_eq!(run.ids(Domain::Ranks).len(), 128);
        let one: std::collections::HashSet<i64> = [5].into();
        let links = run.project(Domain::Ranks, &one, Domain::Links).unwrap();
        assert_eq!(links.len(), 6, "rank 5 is on node 2, which sends on six links");
    }

    #[test]
    fn the_synthetic_mesh_is_a_plane_with_both_directions_of_each_neighbour_link() {
        let run = synthetic_mesh_run(5, 3);
        let net = run.network();
        assert_eq!(net.shape, crate::model::network::Shape::Plane);
        assert_eq!(net.links.len(), 2 * (4 * 3 + 5 * 2));
        assert_eq!(run.ids(Domain::Links).len(), net.links.len());
    }
}
