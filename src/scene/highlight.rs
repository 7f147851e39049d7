//! Highlights and their projection across domains: rank ↔ host ↔ CA port ↔ link ↔ switch.
//!
//! A highlight is a set of [`Seed`]s, each picked in one domain (a search hit, a click, a route).
//! [`project`] lights everything each seed reaches in the other domains: a rank lights its host,
//! the host its CAs on every rail, their links and leaf switches; a switch lights its links; a
//! link end lights its two nodes; a route lights the link ends and switches on its traced path.

use std::collections::{BTreeSet, HashMap};

use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;

use crate::model::{Cluster, Guid, Lid, LinkEnd, NodeKind, Side};
use crate::routing::trace;

use super::filter::glob_match;

/// One picked thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seed {
    Rank(u32),
    /// An index into `Cluster::hosts`.
    Host(usize),
    Node {
        rail: usize,
        node: NodeIndex,
    },
    LinkEnd {
        rail: usize,
        end: LinkEnd,
    },
    /// The traced path from one host to another, on every rail both are cabled to.
    Route {
        src: usize,
        dst: usize,
    },
}

/// The highlight set a view (or its link group) shares.
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

/// Which rank runs on which host, from the profile's rank sections.
pub type RankHosts = HashMap<u32, usize>;

/// What a highlight lights, per domain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lit {
    pub hosts: Vec<bool>,
    /// `nodes[rail][node index]`
    pub nodes: Vec<Vec<bool>>,
    /// `ends[rail][LinkEnd::index]`
    pub ends: Vec<Vec<bool>>,
    pub ranks: BTreeSet<u32>,
    /// True when nothing is highlighted at all (then nothing is dimmed).
    pub none: bool,
}

impl Lit {
    pub fn host(&self, h: usize) -> bool {
        self.hosts.get(h).copied().unwrap_or(false)
    }

    pub fn node(&self, rail: usize, node: NodeIndex) -> bool {
        self.nodes.get(rail).and_then(|n| n.get(node.index())).copied().unwrap_or(false)
    }

    pub fn end(&self, rail: usize, end: LinkEnd) -> bool {
        self.ends.get(rail).and_then(|e| e.get(end.index())).copied().unwrap_or(false)
    }

    pub fn lit_end_count(&self) -> usize {
        self.ends.iter().flatten().filter(|&&x| x).count()
    }
}

/// Projects every seed into every domain.
pub fn project(cluster: &Cluster, rank_hosts: &RankHosts, highlight: &Highlight) -> Lit {
    let mut lit = Lit {
        hosts: vec![false; cluster.hosts.len()],
        nodes: cluster.rails.iter().map(|f| vec![false; f.graph.node_count()]).collect(),
        ends: cluster.rails.iter().map(|f| vec![false; f.link_end_count()]).collect(),
        ranks: BTreeSet::new(),
        none: highlight.is_empty(),
    };
    for &seed in &highlight.seeds {
        match seed {
            Seed::Rank(r) => {
                lit.ranks.insert(r);
                if let Some(&h) = rank_hosts.get(&r) {
                    light_host(cluster, &mut lit, h);
                }
            }
            Seed::Host(h) => light_host(cluster, &mut lit, h),
            Seed::Node { rail, node } => {
                if let Some(h) = cluster.host_of(rail, node) {
                    light_host(cluster, &mut lit, h);
                } else {
                    light_node_and_links(cluster, &mut lit, rail, node);
                }
            }
            Seed::LinkEnd { rail, end } => {
                let Some(fabric) = cluster.rails.get(rail) else { continue };
                if let Some(((s, _), (d, _))) = fabric.link_end_nodes(end) {
                    set(&mut lit.ends, rail, end.index());
                    for n in [s, d] {
                        set(&mut lit.nodes, rail, n.index());
                        if let Some(h) = cluster.host_of(rail, n) {
                            lit.hosts[h] = true;
                        }
                    }
                }
            }
            Seed::Route { src, dst } => light_route(cluster, &mut lit, src, dst),
        }
    }
    for (&rank, &h) in rank_hosts {
        if lit.host(h) {
            lit.ranks.insert(rank);
        }
    }
    lit
}

fn set(v: &mut [Vec<bool>], rail: usize, i: usize) {
    if let Some(slot) = v.get_mut(rail).and_then(|r| r.get_mut(i)) {
        *slot = true;
    }
}

fn light_host(cluster: &Cluster, lit: &mut Lit, h: usize) {
    let Some(host) = cluster.hosts.get(h) else { return };
    lit.hosts[h] = true;
    for rail in 0..cluster.rails.len() {
        for &ca in host.on_rail(rail) {
            light_node_and_links(cluster, lit, rail, ca);
        }
    }
}

/// Lights a node, both ends of its links, and the nodes at the far ends.
fn light_node_and_links(cluster: &Cluster, lit: &mut Lit, rail: usize, node: NodeIndex) {
    let Some(fabric) = cluster.rails.get(rail) else { return };
    if fabric.graph.node_weight(node).is_none() {
        return;
    }
    set(&mut lit.nodes, rail, node.index());
    for e in fabric.graph.edges(node) {
        for side in [Side::A, Side::B] {
            set(&mut lit.ends, rail, LinkEnd { edge: e.id(), side }.index());
        }
        let other = if e.source() == node { e.target() } else { e.source() };
        set(&mut lit.nodes, rail, other.index());
    }
}

fn light_route(cluster: &Cluster, lit: &mut Lit, src: usize, dst: usize) {
    let (Some(s), Some(d)) = (cluster.hosts.get(src), cluster.hosts.get(dst)) else { return };
    lit.hosts[src] = true;
    lit.hosts[dst] = true;
    for (rail, fabric) in cluster.rails.iter().enumerate() {
        let lid = |cas: &[NodeIndex]| cas.first().and_then(|&ca| fabric.node(ca).base_lid());
        let (Some(a), Some(b)) = (lid(s.on_rail(rail)), lid(d.on_rail(rail))) else { continue };
        let path = trace(fabric, a, b);
        for end in &path.link_ends {
            set(&mut lit.ends, rail, end.index());
        }
        for hop in &path.hops {
            set(&mut lit.nodes, rail, hop.node.index());
        }
    }
}

/// What a search text finds: `rank 12` (or `r12`), a LID (`0x1a`, up to 4 hex digits), a GUID
/// (`0x` and more than 4 hex digits; node or port GUID), else a host or switch name pattern
/// (`*` wildcards; a bare word matches names starting with it).
pub fn search(cluster: &Cluster, rank_hosts: &RankHosts, text: &str) -> Vec<Seed> {
    let text = text.trim();
    if text.is_empty() {
        return Vec::new();
    }
    let lower = text.to_ascii_lowercase();
    let rank = lower.strip_prefix("rank").or_else(|| lower.strip_prefix('r')).map(str::trim);
    if let Some(r) = rank.and_then(|r| r.parse::<u32>().ok()) {
        return if rank_hosts.contains_key(&r) { vec![Seed::Rank(r)] } else { Vec::new() };
    }
    if let Some(hex) = lower.strip_prefix("0x") {
        let mut found = Vec::new();
        if hex.len() <= 4 {
            if let Some(lid) = Lid::parse_hex(hex) {
                for (rail, fabric) in cluster.rails.iter().enumerate() {
                    if let Some(owner) = fabric.owner_of_lid(lid) {
                        found.push(Seed::Node { rail, node: owner.node });
                    }
                }
            }
        } else if let Some(guid) = Guid::parse_hex(hex) {
            for (rail, fabric) in cluster.rails.iter().enumerate() {
                let hit = fabric.node_by_guid(guid).or_else(|| {
                    fabric.graph.node_indices().find(|&n| {
                        fabric.node(n).ports.values().any(|p| p.guid == Some(guid))
                            || fabric.node(n).system_guid == Some(guid)
                    })
                });
                if let Some(node) = hit {
                    found.push(Seed::Node { rail, node });
                }
            }
        }
        return found;
    }
    let pattern = if text.contains('*') { text.to_string() } else { format!("{text}*") };
    let mut found: Vec<Seed> = cluster
        .hosts
        .iter()
        .enumerate()
        .filter(|(_, h)| glob_match(&pattern, &h.name))
        .map(|(i, _)| Seed::Host(i))
        .collect();
    for (rail, fabric) in cluster.rails.iter().enumerate() {
        for n in fabric.graph.node_indices() {
            let node = fabric.node(n);
            if node.kind != NodeKind::Ca && glob_match(&pattern, &node.description) {
                found.push(Seed::Node { rail, node: n });
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RailId;
    use crate::model::synthetic::TwoLevel;

    fn cluster() -> Cluster {
        Cluster::new(vec![
            TwoLevel::new(2, 2, 2).build(),
            TwoLevel::new(2, 2, 2).rail(RailId(1), 1 << 32).build(),
        ])
    }

    #[test]
    fn a_highlighted_host_lights_its_links_on_every_rail() {
        let c = cluster();
        let h = c.host_index("n0001").unwrap();
        let hl = Highlight { seeds: [Seed::Host(h)].into() };
        let lit = project(&c, &RankHosts::new(), &hl);
        for (rail, fabric) in c.rails.iter().enumerate() {
            let ca = c.hosts[h].on_rail(rail)[0];
            let edge = fabric.graph.edges(ca).next().unwrap().id();
            assert!(lit.end(rail, LinkEnd { edge, side: Side::A }));
            assert!(lit.end(rail, LinkEnd { edge, side: Side::B }));
            assert!(lit.node(rail, ca));
        }
        // one host link per rail, two halves each
        assert_eq!(lit.lit_end_count(), 4);
        assert!(!lit.none);
    }

    #[test]
    fn a_rank_projects_to_its_host_and_a_host_back_to_its_ranks() {
        let c = cluster();
        let h = c.host_index("n0003").unwrap();
        let ranks: RankHosts = [(0, h), (1, h), (2, 0)].into();
        let lit = project(&c, &ranks, &Highlight { seeds: [Seed::Rank(0)].into() });
        assert!(lit.host(h));
        assert_eq!(lit.ranks, [0, 1].into());
    }

    #[test]
    fn a_route_lights_the_traced_path_on_each_rail() {
        let c = cluster();
        let (a, b) = (c.host_index("n0001").unwrap(), c.host_index("n0004").unwrap());
        let lit =
            project(&c, &RankHosts::new(), &Highlight { seeds: [Seed::Route { src: a, dst: b }].into() });
        // host → leaf → spine → leaf → host: four link ends per rail
        assert_eq!(lit.lit_end_count(), 8);
    }

    #[test]
    fn search_finds_hosts_ranks_lids_and_guids() {
        let c = cluster();
        let ranks: RankHosts = [(7, 2)].into();
        assert_eq!(search(&c, &ranks, "n0002"), vec![Seed::Host(c.host_index("n0002").unwrap())]);
        assert_eq!(search(&c, &ranks, "rank 7"), vec![Seed::Rank(7)]);
        assert_eq!(search(&c, &ranks, "r8"), vec![]);
        assert_eq!(search(&c, &ranks, "0x0001").len(), 2, "LID 1 exists on both rails");
        let guid = c.rails[1].node(c.rails[1].switches().next().unwrap()).guid;
        assert_eq!(search(&c, &ranks, &guid.to_string()).len(), 1);
        assert_eq!(search(&c, &ranks, "L2-*").len(), 4);
    }
}
