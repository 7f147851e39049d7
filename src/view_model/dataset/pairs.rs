//! The `pairs` domain of a fabric's run (issue 23): one row per host pair, rail and region with
//! its bytes and `hops` (the switches its path crosses in the real tables, INTAP-MPI's
//! hop class), so clauses can name them: `pairs.hops >= 5` keeps the link ends that 5-hop paths
//! cross, through the projection of each pair onto its route's link ends.
//!
//! - A pair's id is the same in every region (as a link end's is); intra-node rows (no rail)
//!   have rail −1 and no link ends.
//! - The route projection costs about ten entries per pair: past [`MAX_PAIRS`] host pairs the
//!   domain is left out, and a note says so (`shoal matrix` still writes every pair).
//! - Tracing every pair takes seconds on a large profile, so the domain is lazy
//!   ([`crate::model::run::LazyDomain`]): it is built by the first clause, query, highlight or
//!   projection that names `pairs`, not when the fabric opens.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use rayon::prelude::*;

use super::LazyFlows;
use crate::model::bytes::add_bytes;
use crate::model::run::LazyDomain;
use crate::model::{Cluster, Column, Domain, Lid, LinkEnd, NodeKind, Projection, Table, Warning};
use crate::routing::{FlowSet, RegionFlows, RegionKey, trace};

/// Traced rank pairs (each rail counted) a profile may have for the domain to be built: a fixed
/// bound of this build, so its table and route projection stay within tens of MB whatever the
/// profile claims.
pub const MAX_PAIRS: usize = 400_000;

/// What the domain adds to a run: its table, and its projections onto link ends and hosts.
pub struct PairDomain {
    pub table: Option<Table>,
    pub links: Vec<(i64, i64)>,
    pub hosts: Vec<(i64, i64)>,
}

/// The attributes of the `pairs` table.
const COLUMNS: [&str; 7] = ["pairid", "src", "dst", "rail", "region", "bytes", "hops"];

/// The pairs domain of `flows` as a run's lazy domain (issue 23): traced when a clause, query,
/// highlight or projection first names it, so opening a fabric costs what it did without it.
/// `None` without flows; a note when there are too many pairs (counted now, without tracing).
pub fn lazy_pairs(
    cluster: &Arc<Cluster>,
    link_position: impl Fn(usize, LinkEnd) -> Option<usize> + Send + Sync + 'static,
    flows: &LazyFlows,
) -> Result<Option<LazyDomain>, Warning> {
    // Flows are rank pairs per rail, at least as many as host pairs: counted before tracing,
    // without building the flows.
    match flows.most_pairs_past(MAX_PAIRS) {
        None => return Ok(None),
        Some(n) if n > MAX_PAIRS => return Err(too_many()),
        Some(_) => {}
    }
    let (cluster, flows) = (Arc::clone(cluster), flows.clone());
    let build = move || {
        let domain = pair_domain(&cluster, &link_position, flows.all());
        let file = |name: &str, to: Domain, pairs| Projection::File {
            name: name.into(),
            from: Domain::Pairs,
            to,
            pairs,
        };
        let projections = vec![
            file("pair routes", Domain::Links, domain.links),
            file("pair hosts", Domain::Nodes, domain.hosts),
        ];
        (domain.table.into_iter().collect(), projections)
    };
    Ok(Some(LazyDomain {
        domain: Domain::Pairs,
        attributes: COLUMNS.iter().map(|c| c.to_string()).collect(),
        neighbours: vec![Domain::Links, Domain::Nodes],
        build: Arc::new(build),
    }))
}

/// The pairs of every region of `flows`, traced.
pub fn pair_domain(cluster: &Cluster, link_position: &LinkPosition<'_>, flows: &RegionFlows) -> PairDomain {
    let routes = Routes::traced(cluster, link_position, flows);
    let mut ids: HashMap<PairKey, i64> = HashMap::new();
    let mut ends: Vec<(i64, i64)> = Vec::new();
    let (mut key, mut src, mut dst, mut rail, mut region) = (vec![], vec![], vec![], vec![], vec![]);
    let (mut bytes, mut hops) = (vec![], vec![]);
    for (region_key, set) in flows {
        let number = match region_key {
            RegionKey::Total => -1,
            RegionKey::Region(n) => i64::from(*n),
        };
        for (pair, (sum, worst, used)) in routes.fold(set) {
            let next = ids.len() as i64;
            let id = *ids.entry(pair).or_insert(next);
            // The whole run holds every region's pairs and routes (a host pair's flows may leave
            // from several CAs): its routes are the pair's, listed once.
            if *region_key == RegionKey::Total || !flows.contains_key(&RegionKey::Total) {
                ends.extend(used.iter().flat_map(|&r| routes.ends[r].iter().map(move |&e| (id, e))));
            }
            key.push(id);
            src.push(i64::from(pair.0));
            dst.push(i64::from(pair.1));
            rail.push(pair.2.map_or(-1, i64::from));
            region.push(number);
            bytes.push(sum as f64);
            hops.push(worst.map_or(f64::NAN, f64::from));
        }
    }
    let hosts: Vec<(i64, i64)> =
        ids.iter().flat_map(|(&(s, d, _), &id)| [(id, i64::from(s)), (id, i64::from(d))]).collect();
    let columns = vec![
        Column::Int(key),
        Column::Int(src),
        Column::Int(dst),
        Column::Int(rail),
        Column::Int(region),
        Column::Float(bytes),
        Column::Float(hops),
    ];
    let names = COLUMNS.iter().map(|s| s.to_string()).collect();
    // Equal-length columns with an integer key: this cannot fail.
    let table = Table::new("pairs", Domain::Pairs, "pairid", names, columns).ok();
    PairDomain { table, links: ends, hosts }
}

/// A link end's position in the run (the fabric index's), by rail.
pub type LinkPosition<'a> = dyn Fn(usize, LinkEnd) -> Option<usize> + Sync + 'a;

/// (source host, destination host, rail; `None` for intra-node bytes).
type PairKey = (u32, u32, Option<u8>);

/// Every distinct (rail, source LID, destination LID) of the flows, traced once (the regions
/// repeat the whole run's pairs): its switches crossed and its link-end positions.
struct Routes {
    at: HashMap<(usize, Lid, Lid), usize>,
    hops: Vec<Option<u32>>,
    ends: Vec<Vec<i64>>,
}

impl Routes {
    fn traced(cluster: &Cluster, link_position: &LinkPosition<'_>, flows: &RegionFlows) -> Routes {
        let mut at = HashMap::new();
        for set in flows.values() {
            for (rail, rail_flows) in set.flows.iter().enumerate() {
                for flow in rail_flows {
                    let next = at.len();
                    at.entry((rail, flow.src, flow.dst)).or_insert(next);
                }
            }
        }
        let mut order: Vec<((usize, Lid, Lid), usize)> = at.iter().map(|(k, v)| (*k, *v)).collect();
        order.sort_unstable_by_key(|x| x.1);
        let traced: Vec<(Option<u32>, Vec<i64>)> = order
            .par_iter()
            .map(|&((rail, a, b), _)| {
                let Some(fabric) = cluster.rails.get(rail) else { return (None, Vec::new()) };
                let path = trace(fabric, a, b);
                let switches =
                    path.hops.iter().filter(|h| fabric.node(h.node).kind == NodeKind::Switch).count();
                let ends = path.link_ends.iter().filter_map(|&e| link_position(rail, e)).map(|p| p as i64);
                (path.delivered().then_some(switches as u32), ends.collect())
            })
            .collect();
        let (hops, ends) = traced.into_iter().unzip();
        Routes { at, hops, ends }
    }

    /// One region's host pairs: bytes summed, the most switches any of its flows crosses
    /// (`None` if one is not delivered), and the routes used.
    fn fold(&self, set: &FlowSet) -> BTreeMap<PairKey, (u64, Option<u32>, Vec<usize>)> {
        let mut pairs: BTreeMap<PairKey, (u64, Option<u32>, Vec<usize>)> = BTreeMap::new();
        for (rail, (rail_flows, origins)) in set.flows.iter().zip(&set.origins).enumerate() {
            for (flow, origin) in rail_flows.iter().zip(origins) {
                let (Some(s), Some(d)) = (origin.src_host, origin.dst_host) else { continue };
                let Some(&route) = self.at.get(&(rail, flow.src, flow.dst)) else { continue };
                let pair = pairs.entry((s, d, u8::try_from(rail).ok())).or_insert((0, Some(0), Vec::new()));
                add_bytes(&mut pair.0, flow.bytes);
                pair.1 = pair.1.zip(self.hops[route]).map(|(a, b)| a.max(b));
                if !pair.2.contains(&route) {
                    pair.2.push(route);
                }
            }
        }
        for (origin, bytes) in &set.intra_node_pairs {
            let (Some(s), Some(d)) = (origin.src_host, origin.dst_host) else { continue };
            add_bytes(&mut pairs.entry((s, d, None)).or_insert((0, Some(0), Vec::new())).0, *bytes);
        }
        pairs
    }
}

fn too_many() -> Warning {
    Warning::info_in_file(
        "pairs",
        format!(
            "the pairs domain is left out: more traced rank pairs than the {MAX_PAIRS} it holds \
             (shoal matrix writes every pair)"
        ),
    )
}
