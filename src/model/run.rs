//! A run: one measured job on a network, as Boxfish's meta file describes it. The [`Network`]
//! says where things are, the [`Table`]s what they measured, and the [`Projection`]s how ids of
//! one [`Domain`] relate to ids of another (rank → node by a map file, node ↔ link by
//! coordinates), so a filter or a highlight made in one domain reaches every other.
//!
//! Projections are hash joins built once in [`Run::new`]: projecting a set of ids costs one
//! lookup per id, whatever the tables' sizes. (Boxfish rebuilds lists per query; its node filter
//! onto links is quadratic and takes 15 s on its `bgpc` example.)

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::id_index::IdIndex;
use super::join_map::JoinMap;
use super::network::Network;
use super::table::{Domain, Table};

/// Which end of a link a node–link projection uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The sending node: a node maps to the links leaving it, a link to its source.
    #[default]
    Source,
    /// The receiving node: a node maps to the links arriving at it, a link to its target.
    Destination,
    /// Both ends.
    Both,
}

impl Policy {
    /// `Source`, `destination`, `BOTH` (any case).
    pub fn parse(text: &str) -> Option<Policy> {
        match text.trim().to_ascii_lowercase().as_str() {
            "source" => Some(Policy::Source),
            "destination" => Some(Policy::Destination),
            "both" => Some(Policy::Both),
            _ => None,
        }
    }
}

/// How the ids of two domains relate. Projections work both ways.
#[derive(Clone, Debug, PartialEq)]
pub enum Projection {
    /// A map table: each pair relates an id in `from` to an id in `to` (many-to-many allowed).
    File { name: String, from: Domain, to: Domain, pairs: Vec<(i64, i64)> },
    /// The same id in both domains (e.g. one rank per node, numbered alike).
    Identity { from: Domain, to: Domain },
    /// Nodes ↔ links through the network's link ends: `node_policy` says which links a node
    /// maps to, `link_policy` which nodes a link maps to. (Boxfish reads `link_policy` but then
    /// inverts the node map instead; we apply it as documented.)
    NodeLink { node_policy: Policy, link_policy: Policy },
}

impl Projection {
    pub fn domains(&self) -> (Domain, Domain) {
        match self {
            Projection::File { from, to, .. } | Projection::Identity { from, to } => (*from, *to),
            Projection::NodeLink { .. } => (Domain::Nodes, Domain::Links),
        }
    }
}

/// One direction of one projection, ready to look up.
#[derive(Clone, Debug)]
enum Join {
    Identity,
    Map(JoinMap),
}

/// Makes a lazy domain's tables and projections.
pub type DomainBuilder = Arc<dyn Fn() -> (Vec<Table>, Vec<Projection>) + Send + Sync>;

/// A domain whose tables and projections are made the first time something names it (issue 23:
/// the pairs domain traces every pair, seconds on a large profile, for a domain few views use).
/// See [`Run::with_lazy_domain`].
#[derive(Clone)]
pub struct LazyDomain {
    pub domain: Domain,
    /// Its tables' attributes, so that a clause naming one builds it and no other does.
    pub attributes: Vec<String>,
    /// The domains its projections will reach, to say how far it is before it is built.
    pub neighbours: Vec<Domain>,
    pub build: DomainBuilder,
}

impl std::fmt::Debug for LazyDomain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyDomain")
            .field("domain", &self.domain)
            .field("attributes", &self.attributes)
            .field("neighbours", &self.neighbours)
            .finish_non_exhaustive()
    }
}

/// A lazy domain and, once built, the whole run with it.
#[derive(Clone, Debug)]
struct Lazy {
    part: LazyDomain,
    built: Arc<OnceLock<Run>>,
}

/// One measured job: its network, tables and projections, with the joins built.
///
/// A lazy domain ([`Run::with_lazy_domain`]) is built by the first call that names it (its ids,
/// positions, tables, a projection or path from or to it, an attribute it declares); from then
/// on every call answers from the run with it, its tables after the others.
#[derive(Clone, Debug)]
pub struct Run {
    name: String,
    network: Network,
    tables: Vec<Table>,
    projections: Vec<Projection>,
    /// Every id of each domain, in [`Run::ids`] order.
    ids: HashMap<Domain, Vec<i64>>,
    positions: HashMap<Domain, IdIndex>,
    joins: HashMap<(Domain, Domain), Join>,
    /// Per table, per row: the row's id's position in [`Run::ids`], or [`Run::NO_POSITION`].
    row_positions: Vec<Vec<u32>>,
    lazy: Option<Lazy>,
}

impl Run {
    /// Builds the id lists and the joins. Several projections between the same two domains:
    /// the first one listed wins.
    pub fn new(
        name: impl Into<String>,
        network: Network,
        tables: Vec<Table>,
        projections: Vec<Projection>,
    ) -> Run {
        let ids = ids_of(&network, &tables, &projections);
        let positions: HashMap<Domain, IdIndex> =
            ids.iter().map(|(d, list)| (*d, IdIndex::new(list))).collect();
        let row_positions = row_positions_of(&tables, &positions);
        let joins = joins_of(&network, &projections);
        Run {
            name: name.into(),
            network,
            tables,
            projections,
            ids,
            positions,
            joins,
            row_positions,
            lazy: None,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The same run with one more table (or a table of the same name replaced), joins rebuilt.
    /// A lazy domain stays lazy (built again when next named).
    pub fn with_table(self, table: Table) -> Run {
        let Run { name, network, mut tables, projections, lazy, .. } = self;
        tables.retain(|t| t.name != table.name);
        tables.push(table);
        let run = Run::new(name, network, tables, projections);
        match lazy {
            Some(l) => run.with_lazy_domain(l.part),
            None => run,
        }
    }

    /// The same run with `part`'s domain to be built when first named (one lazy domain a run).
    pub fn with_lazy_domain(mut self, part: LazyDomain) -> Run {
        self.lazy = Some(Lazy { part, built: Arc::new(OnceLock::new()) });
        self
    }

    /// Whether `domain` is lazy and not built yet: its ids and tables do not exist so far.
    pub fn is_pending(&self, domain: Domain) -> bool {
        self.lazy.as_ref().is_some_and(|l| l.part.domain == domain && l.built.get().is_none())
    }

    /// The run every call answers from: with the lazy domain once it is built.
    fn current(&self) -> &Run {
        self.lazy.as_ref().and_then(|l| l.built.get()).unwrap_or(self)
    }

    /// The run with `domain` in it: builds a lazy domain named here the first time.
    fn naming(&self, domain: Domain) -> &Run {
        match &self.lazy {
            Some(l) if l.part.domain == domain => l.built.get_or_init(|| self.built_with(&l.part)),
            _ => self.current(),
        }
    }

    fn built_with(&self, part: &LazyDomain) -> Run {
        let (more_tables, more_projections) = (part.build)();
        let tables = self.tables.iter().cloned().chain(more_tables).collect();
        let projections = self.projections.iter().cloned().chain(more_projections).collect();
        Run::new(self.name.clone(), self.network.clone(), tables, projections)
    }

    /// The position in [`Run::tables`] of the first table of `domain` with attribute `name`;
    /// a lazy domain that declares `name` is built.
    pub fn table_with(&self, domain: Domain, name: &str) -> Option<usize> {
        let declared = self
            .lazy
            .as_ref()
            .is_some_and(|l| l.part.domain == domain && l.part.attributes.iter().any(|a| a == name));
        let run = if declared { self.naming(domain) } else { self.current() };
        run.tables.iter().position(|t| t.domain == domain && t.has(name))
    }

    /// How many domains [`Run::path`] chains from `from` to `to`, without building a lazy
    /// domain: one not built yet is one step past the nearest domain it will project to.
    pub fn distance(&self, from: Domain, to: Domain) -> Option<usize> {
        match &self.lazy {
            Some(l) if self.is_pending(l.part.domain) && (from == l.part.domain || to == l.part.domain) => {
                if from == to {
                    return Some(1);
                }
                let other = if from == l.part.domain { to } else { from };
                l.part.neighbours.iter().filter_map(|&n| self.path(n, other)).map(|p| p.len() + 1).min()
            }
            _ => self.path(from, to).map(|p| p.len()),
        }
    }

    pub fn network(&self) -> &Network {
        &self.network
    }

    pub fn tables(&self) -> &[Table] {
        &self.current().tables
    }

    pub fn projections(&self) -> &[Projection] {
        &self.current().projections
    }

    /// The tables of one domain, in the order the run lists them.
    pub fn tables_of(&self, domain: Domain) -> impl Iterator<Item = &Table> + '_ {
        self.naming(domain).tables.iter().filter(move |t| t.domain == domain)
    }

    /// Every id of a domain. Nodes and links are in [`Network::nodes`] / [`Network::links`]
    /// order (when the run has a network); ranks and communicators ascending. Every value
    /// vector and mask of a domain is indexed like this list.
    pub fn ids(&self, domain: Domain) -> &[i64] {
        self.naming(domain).ids.get(&domain).map_or(&[], Vec::as_slice)
    }

    /// The position of an id in [`Run::ids`].
    pub fn position(&self, domain: Domain, id: i64) -> Option<usize> {
        self.naming(domain).positions.get(&domain).and_then(|p| p.get(id))
    }

    /// What [`Run::row_positions`] gives for a row whose id is not in [`Run::ids`] (a link row
    /// whose ends are at no node's coordinates).
    pub const NO_POSITION: u32 = u32::MAX;

    /// For each row of `self.tables()[table]`, the position of its id in [`Run::ids`] of the
    /// table's domain: what a scan over rows uses instead of one hash lookup per row.
    pub fn row_positions(&self, table: usize) -> &[u32] {
        self.current().row_positions.get(table).map_or(&[], Vec::as_slice)
    }

    /// The domains one projection away from `domain`.
    /// A lazy domain not built yet has none (see [`Run::distance`]).
    pub fn neighbours(&self, domain: Domain) -> Vec<Domain> {
        self.current().neighbours_here(domain)
    }

    fn neighbours_here(&self, domain: Domain) -> Vec<Domain> {
        let mut out: Vec<Domain> = self.joins.keys().filter(|(a, _)| *a == domain).map(|(_, b)| *b).collect();
        out.sort();
        out
    }

    /// The run with both domains in it: builds a lazy one of them.
    fn naming_either(&self, a: Domain, b: Domain) -> &Run {
        if self.is_pending(a) {
            self.naming(a)
        } else if self.is_pending(b) {
            self.naming(b)
        } else {
            self.current()
        }
    }

    /// The shortest chain of domains from `from` to `to` (both included), as Boxfish composes
    /// projections (rank → node → link); `None` if no projection chain connects them.
    pub fn path(&self, from: Domain, to: Domain) -> Option<Vec<Domain>> {
        self.naming_either(from, to).path_here(from, to)
    }

    fn path_here(&self, from: Domain, to: Domain) -> Option<Vec<Domain>> {
        let mut previous: HashMap<Domain, Domain> = HashMap::new();
        let mut queue = VecDeque::from([from]);
        let mut seen = HashSet::from([from]);
        while let Some(d) = queue.pop_front() {
            if d == to {
                let mut chain = vec![to];
                let mut at = to;
                while let Some(&p) = previous.get(&at) {
                    chain.push(p);
                    at = p;
                }
                chain.reverse();
                return Some(chain);
            }
            for n in self.neighbours_here(d) {
                if seen.insert(n) {
                    previous.insert(n, d);
                    queue.push_back(n);
                }
            }
        }
        None
    }

    /// The ids in `to` related to `ids` in `from`, through the shortest chain of projections.
    /// `None` when no chain connects the two domains. The same domain gives the ids back.
    pub fn project(&self, from: Domain, ids: &HashSet<i64>, to: Domain) -> Option<HashSet<i64>> {
        let run = self.naming_either(from, to);
        let chain = run.path_here(from, to)?;
        let mut current = ids.clone();
        for step in chain.windows(2) {
            let join = run.joins.get(&(step[0], step[1]))?;
            current = match join {
                Join::Identity => current,
                Join::Map(map) => current.iter().flat_map(|&id| map.get(id)).copied().collect(),
            };
        }
        Some(current)
    }

    /// A mask over [`Run::ids`] of `domain`: true for the ids in `set`.
    pub fn mask_of(&self, domain: Domain, set: &HashSet<i64>) -> Vec<bool> {
        let ids = self.ids(domain);
        // A highlight lights a few ids among many (each rebuild of a view asks): find those few
        // rather than hash every id of the domain.
        if ids.is_sorted_by(|a, b| a < b) {
            let mut mask = vec![false; ids.len()];
            for id in set {
                if let Ok(i) = ids.binary_search(id) {
                    mask[i] = true;
                }
            }
            return mask;
        }
        ids.iter().map(|id| set.contains(id)).collect()
    }
}

/// Every id of each domain, sorted: the network's nodes and links, else the ids its tables and
/// projection files name.
fn ids_of(network: &Network, tables: &[Table], projections: &[Projection]) -> HashMap<Domain, Vec<i64>> {
    let mut ids: HashMap<Domain, Vec<i64>> = HashMap::new();
    ids.insert(Domain::Nodes, network.nodes.iter().map(|n| n.id).collect());
    ids.insert(Domain::Links, network.links.iter().map(|l| l.id).collect());
    for domain in Domain::ALL {
        let from_network = ids.get(&domain).is_some_and(|v| !v.is_empty());
        if from_network {
            continue;
        }
        let mut all: Vec<i64> =
            tables.iter().filter(|t| t.domain == domain).flat_map(|t| t.ids.iter().copied()).collect();
        for p in projections {
            if let Projection::File { from, to, pairs, .. } = p {
                if *from == domain {
                    all.extend(pairs.iter().map(|p| p.0));
                }
                if *to == domain {
                    all.extend(pairs.iter().map(|p| p.1));
                }
            }
        }
        all.sort_unstable();
        all.dedup();
        ids.insert(domain, all);
    }
    ids
}

/// Per table, per row: the row's id's position in its domain's id list.
fn row_positions_of(tables: &[Table], positions: &HashMap<Domain, IdIndex>) -> Vec<Vec<u32>> {
    let none = IdIndex::default();
    tables
        .iter()
        .map(|t| {
            let at = positions.get(&t.domain).unwrap_or(&none);
            t.ids.iter().map(|&id| at.get(id).map_or(Run::NO_POSITION, |i| i as u32)).collect()
        })
        .collect()
}

/// Each projection's join both ways; the first projection between two domains wins. The joins
/// are built on every core, each direction of a file's pairs apart (a k = 36 fabric's port
/// links are 140,000 pairs).
fn joins_of(network: &Network, projections: &[Projection]) -> HashMap<(Domain, Domain), Join> {
    let mut wanted: Vec<&Projection> = Vec::new();
    let mut seen: HashSet<(Domain, Domain)> = HashSet::new();
    for p in projections {
        let (a, b) = p.domains();
        if a != b && seen.insert((a, b)) {
            seen.insert((b, a));
            wanted.push(p);
        }
    }
    let built: Vec<(Join, Join)> = wanted
        .par_iter()
        .map(|p| match p {
            Projection::Identity { .. } => (Join::Identity, Join::Identity),
            Projection::File { pairs, .. } => {
                let (f, g) =
                    rayon::join(|| join_map(pairs, |&(x, y)| (x, y)), || join_map(pairs, |&(x, y)| (y, x)));
                (Join::Map(f), Join::Map(g))
            }
            Projection::NodeLink { node_policy, link_policy } => {
                node_link_joins(network, *node_policy, *link_policy)
            }
        })
        .collect();
    let mut joins = HashMap::new();
    for (p, (forward, backward)) in wanted.into_iter().zip(built) {
        let (a, b) = p.domains();
        joins.insert((a, b), forward);
        joins.insert((b, a), backward);
    }
    joins
}

/// `pairs` as a map from each pair's key to its values in order, `key_value` picking them.
fn join_map(pairs: &[(i64, i64)], key_value: impl Fn(&(i64, i64)) -> (i64, i64)) -> JoinMap {
    JoinMap::from_pairs(pairs.iter().map(key_value))
}

/// Node → links and link → nodes through the network's directed links.
fn node_link_joins(network: &Network, node_policy: Policy, link_policy: Policy) -> (Join, Join) {
    let mut node_links: Vec<(i64, i64)> = Vec::with_capacity(2 * network.links.len());
    let mut link_nodes: Vec<(i64, i64)> = Vec::with_capacity(2 * network.links.len());
    let uses = |policy: Policy| match policy {
        Policy::Source => (true, false),
        Policy::Destination => (false, true),
        Policy::Both => (true, true),
    };
    let (node_src, node_dst) = uses(node_policy);
    let (link_src, link_dst) = uses(link_policy);
    for link in &network.links {
        let (Some(s), Some(t)) = (network.nodes.get(link.source), network.nodes.get(link.target)) else {
            continue;
        };
        if node_src {
            node_links.push((s.id, link.id));
        }
        if node_dst {
            node_links.push((t.id, link.id));
        }
        if link_src {
            link_nodes.push((link.id, s.id));
        }
        if link_dst && !(link_src && s.id == t.id) {
            link_nodes.push((link.id, t.id));
        }
    }
    let (node_links, link_nodes) = rayon::join(
        || JoinMap::from_pairs(node_links.into_iter()),
        || JoinMap::from_pairs(link_nodes.into_iter()),
    );
    (Join::Map(node_links), Join::Map(link_nodes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::table::Column;

    fn rank_map(pairs: &[(i64, i64)]) -> Projection {
        Projection::File { name: "map".into(), from: Domain::Ranks, to: Domain::Nodes, pairs: pairs.to_vec() }
    }

    fn run(projections: Vec<Projection>) -> Run {
        Run::new("t", Network::torus(&["x"], &[4]), Vec::new(), projections)
    }

    fn set(ids: &[i64]) -> HashSet<i64> {
        ids.iter().copied().collect()
    }

    #[test]
    fn a_rank_projects_through_its_node_onto_the_links_that_node_sends_on() {
        let r = run(vec![
            rank_map(&[(10, 0), (11, 1)]),
            Projection::NodeLink { node_policy: Policy::Source, link_policy: Policy::Source },
        ]);
        assert_eq!(
            r.path(Domain::Ranks, Domain::Links),
            Some(vec![Domain::Ranks, Domain::Nodes, Domain::Links])
        );
        let links = r.project(Domain::Ranks, &set(&[10]), Domain::Links).unwrap();
        let net = r.network();
        let expected: HashSet<i64> = net.links.iter().filter(|l| l.source == 0).map(|l| l.id).collect();
        assert_eq!(links, expected);
        assert_eq!(links.len(), 2);
        // And back: a link lights its source node's rank.
        let one = *expected.iter().next().unwrap();
        assert_eq!(r.project(Domain::Links, &set(&[one]), Domain::Ranks), Some(set(&[10])));
    }

    #[test]
    fn destination_and_both_policies_pick_the_other_or_both_ends() {
        let r =
            run(vec![Projection::NodeLink { node_policy: Policy::Both, link_policy: Policy::Destination }]);
        let links = r.project(Domain::Nodes, &set(&[2]), Domain::Links).unwrap();
        assert_eq!(links.len(), 4, "two leave node 2, two arrive");
        let net = r.network();
        let first = &net.links[0];
        let nodes = r.project(Domain::Links, &set(&[first.id]), Domain::Nodes).unwrap();
        assert_eq!(nodes, set(&[net.nodes[first.target].id]));
    }

    #[test]
    fn unconnected_domains_have_no_projection_and_ids_come_from_tables_and_maps() {
        let table = Table::new(
            "c",
            Domain::Communicators,
            "cid",
            vec!["cid".into()],
            vec![Column::Int(vec![5, 3, 5])],
        )
        .unwrap();
        let r = Run::new("t", Network::torus(&["x"], &[2]), vec![table], vec![rank_map(&[(7, 0), (4, 1)])]);
        assert_eq!(r.ids(Domain::Communicators), &[3, 5]);
        assert_eq!(r.ids(Domain::Ranks), &[4, 7]);
        assert_eq!(r.position(Domain::Ranks, 7), Some(1));
        assert_eq!(r.project(Domain::Ranks, &set(&[7]), Domain::Communicators), None);
        assert_eq!(r.project(Domain::Ranks, &set(&[7]), Domain::Ranks), Some(set(&[7])));
    }
}

#[cfg(test)]
#[path = "run_lazy_tests.rs"]
mod lazy_tests;
