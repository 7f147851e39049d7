//! The fabric adapter: a multi-rail cluster, its fat-tree layout, its link-end loads and its
//! ranks enter the one view model ([`Run`]) as domains, typed attribute tables and projections,
//! so the query engine, the highlight projection and every panel treat a fabric exactly as they
//! treat a Boxfish run.
//!
//! Ids are positions, so a value vector of the view model indexes a fabric directly:
//! - **nodes**: hosts first (`0..hosts`, one node per host for all its CAs, as the fat tree draws
//!   it), then each rail's switches in node-index order;
//! - **links**: every link end, rail by rail: rail `r`'s end `e` is `link_offset[r] + e.index()`.
//!   A link end is a directed link from the node that sends into it to the node at the far end.
//!
//! Tables (`region` is the region number, `-1` for the whole run, as `shoal convert` writes it):
//! - `nodes` (nodes): `nodeid name kind rail plane level guid lid` (`kind` is `host`, `switch` or
//!   `router`; a host's rail and plane are −1: it spans them; `plane` is a leaf switch's plane in
//!   a rail-optimized subnet, see [`crate::model::RailPlanes`], else −1);
//! - `link_ends` (links): `linkid rail plane level direction from to from_port to_port` (a
//!   link's plane is that of its lower end: a CA's, or a leaf's for its uplinks);
//! - `traffic` (links): `linkid region bytes`, one row per link end and region (above
//!   [`super::DENSE_ROWS`] rows, a region's rows only for the ends that carried bytes); where the dumps
//!   hold adaptive-routing tables also `bytes_ar` (the same flows spread over AR groups,
//!   modelled) and `ar_minus_static`;
//! - `node_traffic` (nodes): `nodeid region bytes_sent bytes_received` (likewise);
//! - `ranks` (ranks): `mpirank nodeid`;
//! - with jobs (issue 12), `traffic` and `node_traffic` gain a `job` column: each job's rows
//!   (its regions and −1), job `all` (−1: the sum over the jobs) and job `contention` (−1: the
//!   second-largest job's bytes at each end, 0 where one job or none sent); `ranks` gains `job`
//!   and `rank` (the job's own rank number; `mpirank` then numbers every job's ranks in turn);
//! - `ports` (ports): `portid nodeid rail plane adapter port lid guid`, every CA port (a host's adapters on
//!   every rail), numbered in rail then node order.
//!
//! Projections: nodes ↔ links through both ends of each link (a node reaches every link touching
//! it, a link both its nodes, as Boxfish's node filter reaches links), ranks → nodes by the
//! profile's rank placement, ports → nodes (their host) and ports → links (both ends of the link
//! cabled to the port). Routes (the path of a pair, the pairs crossing a link end) stay in
//! `routing`; [`super::FabricData`] offers them beside the run.

use petgraph::graph::NodeIndex;

use crate::layout::ClusterLayout;
use crate::model::network::{NetLink, NetNode, Network, Shape};
use crate::model::{Cluster, Column, Domain, LinkEnd, NodeKind, Policy, Projection, Run, Table, TextColumn};
use crate::routing::RegionLoads;

use super::RankHosts;
use super::fabric_index::FabricIndex;
use super::rows::{link_row_bytes, link_row_kept, node_row_kept, sparse_rows};

/// The view model of a fabric: its run (network, tables, projections) and the index that maps
/// the run's positions back onto rails, nodes and link ends.
/// One set of traffic rows: a job's regions (or the only profile's, `job: None`), `-1` for its
/// total.
#[derive(Clone, Debug)]
pub struct TrafficSet<'a> {
    pub job: Option<&'a str>,
    pub regions: Vec<(i64, &'a RegionLoads)>,
    /// The same regions' adaptive-routing loads (modelled), where the dumps hold AR tables.
    pub ar: Option<Vec<(i64, &'a RegionLoads)>>,
}

/// A rank's job and its number within the job, by view-model rank id.
pub type RankJobs = std::collections::HashMap<u32, (String, u32)>;

pub fn fabric_run(
    name: &str,
    cluster: &std::sync::Arc<Cluster>,
    layout: &ClusterLayout,
    traffic: &[TrafficSet<'_>],
    rank_hosts: &RankHosts,
    (rank_jobs, flows): (&RankJobs, &super::LazyFlows),
) -> (Run, FabricIndex, Option<crate::model::Warning>) {
    let index = FabricIndex::new(cluster);
    let level_of = |rail: usize, n: NodeIndex| -> Option<u32> {
        layout.rails.get(rail).and_then(|l| l.levels.get(n.index()).copied().flatten())
    };
    // The tables are independent of each other: built on both sides of a join (0.2 s of a
    // k = 36 open was this step alone, on one core).
    let (
        (network, nodes, (ranks, rank_table)),
        (links, traffic_tables, (port_table, port_hosts, port_links)),
    ) = rayon::join(
        || {
            let mut ranks: Vec<(i64, i64)> =
                rank_hosts.iter().map(|(&r, &h)| (i64::from(r), h as i64)).collect();
            ranks.sort_unstable();
            let rank_table = rank_table(&ranks, rank_jobs);
            (network(cluster, layout, &index), node_table(cluster, &index, &level_of), (ranks, rank_table))
        },
        || {
            let links = link_table(cluster, &index, &level_of);
            (links, traffic_tables(cluster, &index, traffic), ports(cluster, &index))
        },
    );
    let mut tables: Vec<Table> = [nodes, links].into_iter().flatten().collect();
    tables.extend(traffic_tables);
    tables.extend(rank_table);
    tables.extend(port_table);
    let file = |name: &str, from: Domain, to: Domain, pairs: Pairs| Projection::File {
        name: name.into(),
        from,
        to,
        pairs,
    };
    let projections = vec![
        Projection::NodeLink { node_policy: Policy::Both, link_policy: Policy::Both },
        file("rank placement", Domain::Ranks, Domain::Nodes, ranks),
        file("port hosts", Domain::Ports, Domain::Nodes, port_hosts),
        file("port links", Domain::Ports, Domain::Links, port_links),
    ];
    let run = Run::new(name, network, tables, projections);
    let positions = index.clone();
    let link_position = move |rail, end| positions.link_position(rail, end);
    let (run, note) = match super::pairs::lazy_pairs(cluster, link_position, flows) {
        Ok(Some(pairs)) => (run.with_lazy_domain(pairs), None),
        Ok(None) => (run, None),
        Err(note) => (run, Some(note)),
    };
    (run, index, note)
}

type Pairs = Vec<(i64, i64)>;

/// `mpirank nodeid`, plus `job rank` when the ranks belong to jobs.
fn rank_table(ranks: &Pairs, rank_jobs: &RankJobs) -> Option<Table> {
    if ranks.is_empty() {
        return None;
    }
    let mut columns = vec![
        Column::Int(ranks.iter().map(|p| p.0).collect()),
        Column::Int(ranks.iter().map(|p| p.1).collect()),
    ];
    if rank_jobs.is_empty() {
        return table("ranks", Domain::Ranks, "mpirank", &["mpirank", "nodeid"], columns);
    }
    let of = |id: i64| rank_jobs.get(&(id as u32));
    columns
        .push(Column::Text(ranks.iter().map(|p| of(p.0).map_or(String::new(), |j| j.0.clone())).collect()));
    columns.push(Column::Int(ranks.iter().map(|p| of(p.0).map_or(-1, |j| i64::from(j.1))).collect()));
    table("ranks", Domain::Ranks, "mpirank", &["mpirank", "nodeid", "job", "rank"], columns)
}

/// The CA ports: their table, port → host pairs and port → link-end pairs (both ends).
fn ports(cluster: &Cluster, index: &FabricIndex) -> (Option<Table>, Pairs, Pairs) {
    let (mut ids, mut host, mut rail, mut number, mut lid, mut guid) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut plane, mut adapter) = (Vec::new(), Vec::new());
    let (mut hosts, mut links) = (Vec::new(), Vec::new());
    for (r, fabric) in cluster.rails.iter().enumerate() {
        for ca in fabric.cas() {
            let Some(h) = index.node_position(r, ca) else { continue };
            let node = fabric.node(ca);
            for (&port, info) in &node.ports {
                let id = ids.len() as i64;
                ids.push(id);
                host.push(h as i64);
                rail.push(r as i64);
                plane.push(cluster.plane_of(r, ca).map_or(-1, i64::from));
                adapter.push(node.adapter_name().to_string());
                number.push(i64::from(port.0));
                lid.push(info.lid.to_string());
                guid.push(info.guid.map_or(String::new(), |g| g.to_string()));
                hosts.push((id, h as i64));
                if let Some(edge) = fabric.link_at(ca, port) {
                    for side in [crate::model::Side::A, crate::model::Side::B] {
                        if let Some(p) = index.link_position(r, LinkEnd { edge, side }) {
                            links.push((id, p as i64));
                        }
                    }
                }
            }
        }
    }
    let columns = vec![
        Column::Int(ids),
        Column::Int(host),
        Column::Int(rail),
        Column::Int(plane),
        Column::Text(adapter.into()),
        Column::Int(number),
        Column::Text(lid.into()),
        Column::Text(guid.into()),
    ];
    let names = ["portid", "nodeid", "rail", "plane", "adapter", "port", "lid", "guid"];
    (table("ports", Domain::Ports, "portid", &names, columns), hosts, links)
}

fn table(name: &str, domain: Domain, key: &str, names: &[&str], columns: Vec<Column>) -> Option<Table> {
    let names = names.iter().map(|s| s.to_string()).collect();
    // The adapter builds equal-length columns with an integer key: this cannot fail.
    Table::new(name, domain, key, names, columns).ok()
}

/// Nodes at their fat-tree positions (x, y), so a generic-2D view of a fabric draws the thesis
/// layout; links from each end's sending node to its receiving node.
fn network(cluster: &Cluster, layout: &ClusterLayout, index: &FabricIndex) -> Network {
    let mut nodes = Vec::with_capacity(index.node_count());
    for (h, host) in cluster.hosts.iter().enumerate() {
        let at = layout.hosts.get(h).copied().unwrap_or_default();
        nodes.push(NetNode {
            id: h as i64,
            name: Some(host.name.clone()),
            coords: vec![f64::from(at.x), f64::from(at.y)],
        });
    }
    for (k, &(rail, n)) in index.switches().iter().enumerate() {
        let at = layout.rails.get(rail).and_then(|l| l.positions.get(n.index()).copied().flatten());
        let coords = at.map_or(vec![f64::NAN, f64::NAN], |p| vec![f64::from(p.x), f64::from(p.y)]);
        let name = Some(cluster.rails[rail].node(n).description.clone());
        nodes.push(NetNode { id: (index.hosts + k) as i64, name, coords });
    }
    let mut links = Vec::with_capacity(index.link_count());
    for (rail, fabric) in cluster.rails.iter().enumerate() {
        for position in index.rail_links(rail) {
            let end = LinkEnd::from_index(position - index.rail_links(rail).start);
            let ends = fabric.link_end_nodes(end).and_then(|((s, _), (d, _))| {
                Some((index.node_position(rail, s)?, index.node_position(rail, d)?))
            });
            // An end with no nodes cannot exist in a built fabric; keep ids dense regardless.
            let (source, target) = ends.unwrap_or((0, 0));
            links.push(NetLink { id: position as i64, source, target });
        }
    }
    Network { shape: Shape::Plane, axes: vec!["x".into(), "y".into()], nodes, links }
}

fn node_table(
    cluster: &Cluster,
    index: &FabricIndex,
    level_of: &dyn Fn(usize, NodeIndex) -> Option<u32>,
) -> Option<Table> {
    let n = index.node_count();
    let mut plane: Vec<i64> = Vec::with_capacity(n);
    let (mut name, mut kind, mut rail, mut level, mut guid, mut lid) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for host in &cluster.hosts {
        name.push(host.name.clone());
        kind.push("host".to_string());
        rail.push(-1);
        plane.push(-1);
        level.push(0);
        let first = (0..cluster.rails.len()).find_map(|r| host.on_rail(r).first().map(|&ca| (r, ca)));
        let node = first.map(|(r, ca)| cluster.rails[r].node(ca));
        guid.push(node.map_or(String::new(), |n| n.guid.to_string()));
        lid.push(node.and_then(|n| n.base_lid()).map_or(String::new(), |l| l.to_string()));
    }
    for &(r, n) in index.switches() {
        let node = cluster.rails[r].node(n);
        name.push(node.description.clone());
        kind.push(
            match node.kind {
                NodeKind::Router => "router",
                _ => "switch",
            }
            .to_string(),
        );
        rail.push(r as i64);
        plane.push(cluster.plane_of(r, n).map_or(-1, i64::from));
        level.push(level_of(r, n).map_or(-1, i64::from));
        guid.push(node.guid.to_string());
        lid.push(node.base_lid().map_or(String::new(), |l| l.to_string()));
    }
    let columns = vec![
        Column::Int((0..n as i64).collect()),
        Column::Text(name.into()),
        Column::Text(kind.into()),
        Column::Int(rail),
        Column::Int(plane),
        Column::Int(level),
        Column::Text(guid.into()),
        Column::Text(lid.into()),
    ];
    let names = ["nodeid", "name", "kind", "rail", "plane", "level", "guid", "lid"];
    table("nodes", Domain::Nodes, "nodeid", &names, columns)
}

/// The `link_ends` table's columns after the key, row by row.
#[derive(Default)]
struct LinkColumns {
    rail: Vec<i64>,
    plane: Vec<i64>,
    level: Vec<i64>,
    direction: TextColumn,
    from: TextColumn,
    to: TextColumn,
    from_port: Vec<i64>,
    to_port: Vec<i64>,
}

impl LinkColumns {
    /// One row; `ends` are the two nodes' codes in `from` and `to` and their port numbers.
    fn push(
        &mut self,
        rail: usize,
        plane: Option<u16>,
        level: Option<u32>,
        direction: &str,
        ends: [(u32, i64); 2],
    ) {
        let [(from, from_port), (to, to_port)] = ends;
        self.rail.push(rail as i64);
        self.plane.push(plane.map_or(-1, i64::from));
        self.level.push(level.map_or(-1, i64::from));
        self.direction.push(direction);
        self.from.push_code(from);
        self.to.push_code(to);
        self.from_port.push(from_port);
        self.to_port.push(to_port);
    }
}

fn link_table(
    cluster: &Cluster,
    index: &FabricIndex,
    level_of: &dyn Fn(usize, NodeIndex) -> Option<u32>,
) -> Option<Table> {
    let n = index.link_count();
    let mut cols = LinkColumns::default();
    for (rail, fabric) in cluster.rails.iter().enumerate() {
        // A node names the ends of all its links: its name is hashed once, not once a row.
        let nodes = fabric.graph.node_count();
        let (mut from_codes, mut to_codes) = (vec![None; nodes], vec![None; nodes]);
        let code = |codes: &mut [Option<u32>], column: &mut TextColumn, node: NodeIndex| {
            *codes[node.index()].get_or_insert_with(|| {
                let x = fabric.node(node);
                column.intern(if x.kind == NodeKind::Ca { x.host_name() } else { &x.description })
            })
        };
        for position in index.rail_links(rail) {
            let end = LinkEnd::from_index(position - index.rail_links(rail).start);
            match fabric.link_end_nodes(end) {
                Some(((s, sp), (d, dp))) => {
                    let (ls, ld) = (level_of(rail, s), level_of(rail, d));
                    let direction = if ls < ld { "up" } else { "down" };
                    let from = code(&mut from_codes, &mut cols.from, s);
                    let to = code(&mut to_codes, &mut cols.to, d);
                    let ends = [(from, i64::from(sp.0)), (to, i64::from(dp.0))];
                    // A link is in the plane of its lower end (a CA, or a leaf under a spine).
                    let lower = if ls <= ld { s } else { d };
                    cols.push(rail, cluster.plane_of(rail, lower), ls.max(ld), direction, ends);
                }
                // A built fabric has no end without nodes; keep the rows dense regardless.
                None => {
                    let ends = [(cols.from.intern(""), 0), (cols.to.intern(""), 0)];
                    cols.push(rail, None, None, "", ends);
                }
            }
        }
    }
    let columns = vec![
        Column::Int((0..n as i64).collect()),
        Column::Int(cols.rail),
        Column::Int(cols.plane),
        Column::Int(cols.level),
        Column::Text(cols.direction),
        Column::Text(cols.from),
        Column::Text(cols.to),
        Column::Int(cols.from_port),
        Column::Int(cols.to_port),
    ];
    let names = ["linkid", "rail", "plane", "level", "direction", "from", "to", "from_port", "to_port"];
    table("link_ends", Domain::Links, "linkid", &names, columns)
}

/// Bytes per link end and per node, one row per region and one for the whole run (region −1),
/// for each traffic set; a `job` column when the sets are jobs', `bytes_ar` and
/// `ar_minus_static` when a set carries AR loads. Without loads (no profile) every end carries 0
/// bytes in the whole run.
fn traffic_tables(cluster: &Cluster, index: &FabricIndex, sets: &[TrafficSet<'_>]) -> Vec<Table> {
    let (links, nodes) = (index.link_count(), index.node_count());
    let regions: usize = sets.iter().map(|s| s.regions.len()).sum();
    let sparse = sparse_rows(links, regions);
    let rows = if sparse { links } else { links * regions };
    let node_capacity = if sparse { nodes } else { nodes * regions };
    let mut link_rows = Rows::with_capacity(rows);
    let mut node_rows = Rows::with_capacity(node_capacity);
    let (mut sent, mut received) = (Vec::with_capacity(node_capacity), Vec::with_capacity(node_capacity));
    let with_ar = sets.iter().any(|s| s.ar.is_some());
    let mut ar_bytes = Vec::with_capacity(if with_ar { rows } else { 0 });
    for set in sets {
        for (k, (number, region)) in set.regions.iter().enumerate() {
            // The AR loads mirror the static ones region by region (see `routing::ar::ar_loads`).
            let ar_region = set.ar.as_ref().and_then(|a| a.get(k));
            let mut node_sent = vec![0.0f64; nodes];
            let mut node_received = vec![0.0f64; nodes];
            for (rail, fabric) in cluster.rails.iter().enumerate() {
                let rail_bytes = region.rails.get(rail).map(|r| r.bytes.to_dense()).unwrap_or_default();
                for position in index.rail_links(rail) {
                    let i = position - index.rail_links(rail).start;
                    let b = rail_bytes.get(i).copied().unwrap_or(0) as f64;
                    let ar_b = ar_region
                        .map(|(_, r)| r.rails.get(rail).map_or(0, |l| l.at(LinkEnd::from_index(i))) as f64);
                    if link_row_kept(sparse, *number, b, ar_b) {
                        link_rows.push(position as i64, *number, set.job, link_row_bytes(set.job, b));
                        if with_ar {
                            ar_bytes.push(ar_b.unwrap_or(b));
                        }
                    }
                    if let Some(((s, _), (d, _))) = fabric.link_end_nodes(LinkEnd::from_index(i)) {
                        if let Some(p) = index.node_position(rail, s) {
                            node_sent[p] += b;
                        }
                        if let Some(p) = index.node_position(rail, d) {
                            node_received[p] += b;
                        }
                    }
                }
            }
            for (n, (s, r)) in node_sent.into_iter().zip(node_received).enumerate() {
                if node_row_kept(sparse, *number, s, r) {
                    node_rows.push(n as i64, *number, set.job, s);
                    sent.push(s);
                    received.push(r);
                }
            }
        }
    }
    let with_jobs = sets.iter().any(|s| s.job.is_some());
    let ar_diff: Option<Vec<f64>> = (with_ar && ar_bytes.len() == link_rows.bytes.len())
        .then(|| ar_bytes.iter().zip(&link_rows.bytes).map(|(a, s)| a - s).collect());
    let (mut link_columns, mut link_names) = link_rows.columns("linkid", with_jobs);
    if let Some(diff) = ar_diff {
        link_columns.extend([Column::Float(ar_bytes), Column::Float(diff)]);
        link_names.extend(["bytes_ar", "ar_minus_static"]);
    }
    let traffic = table("traffic", Domain::Links, "linkid", &link_names, link_columns);
    let (mut node_columns, mut node_names) = node_rows.columns("nodeid", with_jobs);
    node_columns.pop();
    node_names.pop();
    node_columns.extend([Column::Float(sent), Column::Float(received)]);
    node_names.extend(["bytes_sent", "bytes_received"]);
    let node_traffic = table("node_traffic", Domain::Nodes, "nodeid", &node_names, node_columns);
    traffic.into_iter().chain(node_traffic).collect()
}

/// Traffic rows being built: id, region, job, bytes.
struct Rows {
    id: Vec<i64>,
    region: Vec<i64>,
    job: TextColumn,
    bytes: Vec<f64>,
}

impl Rows {
    fn with_capacity(n: usize) -> Rows {
        Rows {
            id: Vec::with_capacity(n),
            region: Vec::with_capacity(n),
            job: TextColumn::new(),
            bytes: Vec::with_capacity(n),
        }
    }

    fn push(&mut self, id: i64, region: i64, job: Option<&str>, bytes: f64) {
        self.id.push(id);
        self.region.push(region);
        if let Some(job) = job {
            self.job.push(job);
        }
        self.bytes.push(bytes);
    }

    /// `KEY region [job] bytes`.
    fn columns(self, key: &'static str, with_jobs: bool) -> (Vec<Column>, Vec<&'static str>) {
        let mut columns = vec![Column::Int(self.id), Column::Int(self.region)];
        let mut names = vec![key, "region"];
        if with_jobs {
            columns.push(Column::Text(self.job));
            names.push("job");
        }
        columns.push(Column::Float(self.bytes));
        names.push("bytes");
        (columns, names)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::view_model::dataset::Dataset;
    use crate::view_model::query::{Aggregate, Condition, values};

    #[test]
    fn every_link_end_is_a_link_of_the_view_model_carrying_its_own_bytes() {
        let d = Dataset::synthetic(4, 4, 2, 2);
        let fabric = d.fabric.as_ref().unwrap();
        let run = &d.run;
        assert_eq!(run.ids(Domain::Links).len(), fabric.index.link_count());
        let region2 = [Condition::parse("region = 2").unwrap()];
        let v = values(run, Domain::Links, &region2, Aggregate::Sum, "bytes").unwrap();
        let loads = fabric.loads.get(crate::routing::RegionKey::Region(2)).unwrap();
        for (rail, load) in loads.rails.iter().enumerate() {
            for (i, b) in load.bytes.to_dense().into_iter().enumerate() {
                let p = fabric.index.link_position(rail, LinkEnd::from_index(i)).unwrap();
                assert_eq!(v[p], Some(b as f64), "rail {rail} end {i}");
                assert_eq!(fabric.index.link(p), Some((rail, LinkEnd::from_index(i))));
            }
        }
    }

    #[test]
    fn a_host_is_one_node_reaching_its_links_on_every_rail() {
        let d = Dataset::synthetic(2, 2, 2, 2);
        let fabric = d.fabric.as_ref().unwrap();
        let h = fabric.cluster.host_index("n0001").unwrap();
        let links = d.run.project(Domain::Nodes, &HashSet::from([h as i64]), Domain::Links).unwrap();
        assert_eq!(links.len(), 4, "one link per rail, both ends");
        for l in links {
            let (rail, end) = fabric.index.link(l as usize).unwrap();
            let ((s, _), (t, _)) = fabric.cluster.rails[rail].link_end_nodes(end).unwrap();
            assert!([s, t].iter().any(|&n| fabric.index.node_position(rail, n) == Some(h)));
        }
    }

    #[test]
    fn a_ca_port_reaches_its_host_and_the_link_cabled_to_it_on_its_rail_only() {
        let d = Dataset::synthetic(2, 2, 2, 2);
        let f = d.fabric.as_ref().unwrap();
        let ports = d.run.ids(Domain::Ports);
        assert_eq!(ports.len(), 2 * f.cluster.hosts.len(), "one CA port per host per rail");
        let first = HashSet::from([ports[0]]);
        let nodes = d.run.project(Domain::Ports, &first, Domain::Nodes).unwrap();
        assert_eq!(nodes.len(), 1);
        let links = d.run.project(Domain::Ports, &first, Domain::Links).unwrap();
        assert_eq!(links.len(), 2, "both ends of one link");
        assert!(links.iter().all(|&l| f.index.link(l as usize).unwrap().0 == 0), "rail 0 only");
    }

    #[test]
    fn node_clauses_reach_link_ends_through_both_nodes() {
        let d = Dataset::synthetic(2, 2, 2, 1);
        let spine = [Condition::parse("kind = switch").unwrap(), Condition::parse("level = 2").unwrap()];
        let mask = crate::view_model::query::mask(&d.run, Domain::Nodes, &spine).unwrap();
        assert_eq!(mask.iter().filter(|&&m| m).count(), 2, "two spines");
        let up = [Condition::parse("direction = up").unwrap()];
        let mask = crate::view_model::query::mask(&d.run, Domain::Links, &up).unwrap();
        assert_eq!(mask.iter().filter(|&&m| m).count(), mask.len() / 2, "half of the ends go up");
    }
}
