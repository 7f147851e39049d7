//! Highlights and their projection across domains, for every data set alike.
//!
//! A highlight is a set of [`Seed`]s, each picked in one domain (a search hit, a click) or a
//! route between two nodes. [`project`] lights what each seed reaches through the view model's
//! projections: a rank lights its node and that node's links, a node its links, a link its
//! nodes. A route asks the fabric's forwarding tables ([`route`]) and lights the link ends and
//! switches on the traced path on every rail.

use std::collections::{BTreeSet, HashMap, HashSet};

use petgraph::graph::NodeIndex;

use crate::model::{Domain, Guid, Lid};
use crate::routing::trace;

pub use super::dataset::RankHosts;
use super::dataset::{Dataset, FabricData};
use super::filter::glob_match;

/// One picked thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seed {
    /// An id of a domain (node and link ids are the view model's).
    Id { domain: Domain, id: i64 },
    /// The traced path from one node (a host) to another, on every rail both are cabled to.
    Route { src: i64, dst: i64 },
}

impl Seed {
    pub fn node(id: usize) -> Seed {
        Seed::Id { domain: Domain::Nodes, id: id as i64 }
    }

    pub fn link(id: usize) -> Seed {
        Seed::Id { domain: Domain::Links, id: id as i64 }
    }

    pub fn rank(id: i64) -> Seed {
        Seed::Id { domain: Domain::Ranks, id }
    }
}

/// The highlight set a link group shares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Highlight {
    pub seeds: BTreeSet<Seed>,
}

impl Highlight {
    pub fn is_empty(&self) -> bool {
        self.seeds.is_empty()
    }

    pub fn clear(&mut self) {
        self.seeds.clear();
    }
}

/// What a highlight lights: masks over the view model's node and link positions (empty when
/// nothing is highlighted), and the ids it reaches in every domain. The default lights nothing
/// and dims nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Lit {
    pub nodes: Vec<bool>,
    pub links: Vec<bool>,
    pub reached: Vec<(Domain, Vec<i64>)>,
    /// True when nothing is highlighted at all (then nothing is dimmed).
    pub none: bool,
}

impl Default for Lit {
    fn default() -> Self {
        Lit { nodes: Vec::new(), links: Vec::new(), reached: Vec::new(), none: true }
    }
}

impl Lit {
    pub fn node(&self, position: usize) -> bool {
        self.nodes.get(position).copied().unwrap_or(false)
    }

    pub fn link(&self, position: usize) -> bool {
        self.links.get(position).copied().unwrap_or(false)
    }

    /// The ids reached in a domain, ascending.
    pub fn ids(&self, domain: Domain) -> &[i64] {
        self.reached.iter().find(|(d, _)| *d == domain).map_or(&[], |(_, ids)| ids.as_slice())
    }
}

/// Projects every seed into every domain.
pub fn project(dataset: &Dataset, highlight: &Highlight) -> Lit {
    if highlight.is_empty() {
        return Lit::default();
    }
    let run = &dataset.run;
    let mut reached: HashMap<Domain, HashSet<i64>> = HashMap::new();
    let mut by_domain: HashMap<Domain, HashSet<i64>> = HashMap::new();
    for seed in &highlight.seeds {
        match *seed {
            Seed::Id { domain, id } => {
                by_domain.entry(domain).or_default().insert(id);
            }
            Seed::Route { src, dst } => {
                if let Some(fabric) = &dataset.fabric {
                    let (links, nodes) = route(fabric, src, dst);
                    reached.entry(Domain::Links).or_default().extend(links);
                    reached.entry(Domain::Nodes).or_default().extend(nodes);
                }
            }
        }
    }
    for (domain, ids) in by_domain {
        for (to, set) in super::query::highlight(run, domain, &ids) {
            reached.entry(to).or_default().extend(set);
        }
    }
    let mask = |d: Domain| reached.get(&d).map(|set| run.mask_of(d, set)).unwrap_or_default();
    let mut list: Vec<(Domain, Vec<i64>)> = reached
        .iter()
        .map(|(d, set)| {
            let mut ids: Vec<i64> = set.iter().copied().collect();
            ids.sort_unstable();
            (*d, ids)
        })
        .collect();
    list.sort();
    Lit { nodes: mask(Domain::Nodes), links: mask(Domain::Links), reached: list, none: false }
}

/// The link and node ids on the traced path from host `src` to host `dst`, on every rail both
/// are cabled to (the fabric's forwarding tables answer; ids as in the view model).
pub fn route(fabric: &FabricData, src: i64, dst: i64) -> (Vec<i64>, Vec<i64>) {
    let cluster = &fabric.cluster;
    let host = |id: i64| usize::try_from(id).ok().and_then(|h| cluster.hosts.get(h));
    let (Some(s), Some(d)) = (host(src), host(dst)) else { return (Vec::new(), Vec::new()) };
    let (mut links, mut nodes): (Vec<i64>, Vec<i64>) = (Vec::new(), vec![src, dst]);
    for (rail, f) in cluster.rails.iter().enumerate() {
        let lid = |cas: &[NodeIndex]| cas.first().and_then(|&ca| f.node(ca).base_lid());
        let (Some(a), Some(b)) = (lid(s.on_rail(rail)), lid(d.on_rail(rail))) else { continue };
        let path = trace(f, a, b);
        let index = &fabric.index;
        links.extend(path.link_ends.iter().filter_map(|&e| index.link_position(rail, e)).map(|p| p as i64));
        nodes.extend(path.hops.iter().filter_map(|h| index.node_position(rail, h.node)).map(|p| p as i64));
    }
    (links, nodes)
}

/// What a search text finds, in any data set:
/// - `DOMAIN ID[,ID…]` (`rank 12`, `node 3`, `links 40,41`; also `r12`);
/// - in a fabric, a LID (`0x1a`, up to 4 hex digits, or `lid 26` in decimal as `ibtracert`
///   reads it) or a GUID (`0x` and more digits; node, port or system GUID);
/// - else a node name pattern (`*` wildcards; a bare word matches names starting with it).
pub fn search(dataset: &Dataset, text: &str) -> Vec<Seed> {
    let text = text.trim();
    if text.is_empty() {
        return Vec::new();
    }
    let run = &dataset.run;
    if let Some((domain, ids)) = domain_ids(text) {
        return ids
            .into_iter()
            .filter(|&id| run.position(domain, id).is_some())
            .map(|id| Seed::Id { domain, id })
            .collect();
    }
    let lower = text.to_ascii_lowercase();
    if let (Some(job), Some(fabric)) = (text.strip_prefix("job ").map(str::trim), &dataset.fabric)
        && let Some(seeds) = footprint_seeds(fabric, job)
    {
        return seeds;
    }
    if let Some(job) = text.strip_prefix("job ").map(str::trim).filter(|_| !dataset.jobs().is_empty()) {
        return job_ranks(run, job).into_iter().map(|id| Seed::Id { domain: Domain::Ranks, id }).collect();
    }
    if let (Some(hex), Some(fabric)) = (lower.strip_prefix("0x"), &dataset.fabric) {
        return hex_search(fabric, hex).into_iter().map(Seed::node).collect();
    }
    if let (Some(typed), Some(fabric)) = (lower.strip_prefix("lid "), &dataset.fabric) {
        let lid = Lid::parse_typed(typed);
        return lid
            .map(|lid| lid_search(fabric, lid))
            .unwrap_or_default()
            .into_iter()
            .map(Seed::node)
            .collect();
    }
    let pattern = if text.contains('*') { text.to_string() } else { format!("{text}*") };
    run.network()
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.name.as_deref().is_some_and(|name| glob_match(&pattern, name)))
        .map(|(i, n)| Seed::Id {
            domain: Domain::Nodes,
            id: run.ids(Domain::Nodes).get(i).copied().unwrap_or(n.id),
        })
        .collect()
}

/// A scheduler job's footprint (by JobID or name, issue 26): its link ends and its hosts' CAs on
/// every rail; `None` when no scheduler job has that id or name.
fn footprint_seeds(fabric: &FabricData, job: &str) -> Option<Vec<Seed>> {
    let found = fabric.scheduled.iter().find(|j| j.id == job || j.name == job)?;
    let index = &fabric.index;
    let links = (found.footprint.rails.iter().enumerate())
        .flat_map(|(rail, ends)| ends.iter().filter_map(move |&e| index.link_position(rail, e)))
        .map(Seed::link);
    let cluster = &fabric.cluster;
    let hosts = found.hosts.iter().flat_map(|&h| {
        (0..cluster.rails.len()).flat_map(move |rail| {
            cluster.hosts[h].on_rail(rail).iter().filter_map(move |&ca| index.node_position(rail, ca))
        })
    });
    Some(links.chain(hosts.map(Seed::node)).collect())
}

/// The rank ids of one job (the ranks table's `job` column, issue 12).
fn job_ranks(run: &crate::model::Run, job: &str) -> Vec<i64> {
    let mut ids = Vec::new();
    for table in run.tables_of(Domain::Ranks) {
        let (Some(jobs), Some(keys)) = (table.column("job"), table.column("mpirank")) else { continue };
        ids.extend(
            (0..jobs.len()).filter(|&r| jobs.text(r) == job).filter_map(|r| keys.number(r)).map(|v| v as i64),
        );
    }
    ids
}

/// `rank 12`, `r12`, `nodes 3,4`, `link 40 41`: a domain word (or `r`) and ids.
fn domain_ids(text: &str) -> Option<(Domain, Vec<i64>)> {
    let lower = text.to_ascii_lowercase();
    let split = lower.find(|c: char| c.is_ascii_digit() || c == '-')?;
    let (word, rest) = lower.split_at(split);
    let domain = match word.trim() {
        "r" => Domain::Ranks,
        w => Domain::parse(w)?,
    };
    let ids: Option<Vec<i64>> =
        rest.split([',', ' ']).filter(|w| !w.trim().is_empty()).map(|w| w.trim().parse().ok()).collect();
    ids.filter(|v| !v.is_empty()).map(|ids| (domain, ids))
}

/// Node positions owning `lid`, on every rail.
fn lid_search(fabric: &FabricData, lid: Lid) -> Vec<usize> {
    let mut found: Vec<usize> = (fabric.cluster.rails.iter().enumerate())
        .filter_map(|(rail, f)| f.owner_of_lid(lid).and_then(|o| fabric.index.node_position(rail, o.node)))
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// Node positions owning a LID (≤ 4 hex digits) or carrying a GUID, on every rail.
fn hex_search(fabric: &FabricData, hex: &str) -> Vec<usize> {
    if hex.len() <= 4 {
        return Lid::parse_hex(hex).map(|lid| lid_search(fabric, lid)).unwrap_or_default();
    }
    let mut found = Vec::new();
    for (rail, f) in fabric.cluster.rails.iter().enumerate() {
        let hit = Guid::parse_hex(hex).and_then(|guid| {
            f.node_by_guid(guid).or_else(|| {
                f.graph.node_indices().find(|&n| {
                    let node = f.node(n);
                    node.ports.values().any(|p| p.guid == Some(guid)) || node.system_guid == Some(guid)
                })
            })
        });
        if let Some(p) = hit.and_then(|n| fabric.index.node_position(rail, n)) {
            found.push(p);
        }
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// How a seed reads in the highlight list.
pub fn describe(dataset: &Dataset, seed: Seed) -> String {
    let net = dataset.run.network();
    // Network links name their nodes by position in `net.nodes`; seeds name ids.
    let node_at = |p: usize| match net.nodes.get(p) {
        Some(n) => n.name.clone().unwrap_or_else(|| format!("node {}", n.id)),
        None => format!("node #{p}"),
    };
    let node = |id: i64| match dataset.run.position(Domain::Nodes, id) {
        Some(p) => node_at(p),
        None => format!("node {id}"),
    };
    match seed {
        Seed::Id { domain: Domain::Nodes, id } => node(id),
        Seed::Id { domain: Domain::Links, id } => {
            let ends = dataset.run.position(Domain::Links, id).and_then(|p| net.links.get(p));
            match ends {
                Some(l) => format!("link {id}: {} -> {}", node_at(l.source), node_at(l.target)),
                None => format!("link {id}"),
            }
        }
        Seed::Id { domain, id } => format!("{} {id}", domain.name().trim_end_matches('s')),
        Seed::Route { src, dst } => format!("route {} -> {}", node(src), node(dst)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_highlighted_host_lights_its_links_on_every_rail() {
        let d = Dataset::synthetic(2, 2, 2, 2);
        let h = d.fabric.as_ref().unwrap().cluster.host_index("n0001").unwrap();
        let lit = project(&d, &Highlight { seeds: [Seed::node(h)].into() });
        assert_eq!(lit.links.iter().filter(|&&x| x).count(), 4, "one host link per rail, two halves each");
        assert!(lit.node(h));
        assert!(!lit.none);
    }

    #[test]
    fn a_route_lights_the_traced_path_on_each_rail() {
        let d = Dataset::synthetic(2, 2, 2, 2);
        let c = &d.fabric.as_ref().unwrap().cluster;
        let (a, b) = (c.host_index("n0001").unwrap(), c.host_index("n0004").unwrap());
        let lit = project(&d, &Highlight { seeds: [Seed::Route { src: a as i64, dst: b as i64 }].into() });
        // host → leaf → spine → leaf → host: four link ends per rail
        assert_eq!(lit.links.iter().filter(|&&x| x).count(), 8);
    }

    #[test]
    fn seeds_read_by_their_ids_whatever_the_positions() {
        use crate::model::network::{NetLink, NetNode, Network, Shape};
        let node =
            |id: i64, name: &str, x: f64| NetNode { id, name: Some(name.into()), coords: vec![x, 0.0] };
        // Ids from 1, not positions: link 7 runs from the node at position 1 to position 0.
        let net = Network {
            shape: Shape::Plane,
            axes: vec!["x".into(), "y".into()],
            nodes: vec![node(10, "ten", 0.0), node(20, "twenty", 1.0)],
            links: vec![NetLink { id: 7, source: 1, target: 0 }],
        };
        let d = Dataset::from_run(crate::model::Run::new("ids", net, Vec::new(), Vec::new()), Vec::new());
        assert_eq!(describe(&d, Seed::Id { domain: Domain::Links, id: 7 }), "link 7: twenty -> ten");
        assert_eq!(describe(&d, Seed::Id { domain: Domain::Nodes, id: 20 }), "twenty");
        assert_eq!(search(&d, "twen"), vec![Seed::Id { domain: Domain::Nodes, id: 20 }]);
    }

    #[test]
    fn search_finds_names_domain_ids_lids_and_guids() {
        let d = Dataset::synthetic(2, 2, 2, 2);
        let f = d.fabric.as_ref().unwrap();
        let h = f.cluster.host_index("n0002").unwrap();
        assert_eq!(search(&d, "n0002"), vec![Seed::node(h)]);
        assert_eq!(search(&d, "link 3"), vec![Seed::link(3)]);
        assert_eq!(search(&d, "rank 7"), vec![], "the synthetic set has no profile");
        assert_eq!(search(&d, "0x0001").len(), 2, "LID 1 exists on both rails");
        let guid = f.cluster.rails[1].node(f.cluster.rails[1].switches().next().unwrap()).guid;
        assert_eq!(search(&d, &guid.to_string()).len(), 1);
        assert_eq!(search(&d, "L2-*").len(), 4);
    }

    #[test]
    fn a_lid_typed_after_lid_is_decimal_and_after_0x_hexadecimal() {
        let d = Dataset::synthetic(4, 4, 2, 1);
        let ten = search(&d, "lid 10");
        assert!(!ten.is_empty(), "LID 10 is owned on some rail");
        assert_eq!(ten, search(&d, "0x000a"));
        assert_eq!(search(&d, "lid 0x0a"), ten);
        assert_eq!(search(&d, "lid 1a"), vec![], "bare digits after `lid` are decimal");
    }
}
