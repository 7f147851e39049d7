//! Who sent how much to whom, per rail, at rank, host or leaf-switch granularity, with the
//! number of switches the pair's path crosses on that rail: INTAP-MPI's hop class, taken from
//! the real forwarding tables (issue 23).
//!
//! - A row's bytes are the flows' bytes, so they are split over the rails by the rail policy
//!   exactly as the link-end loads are.
//! - `hops` counts the switches on the traced path (0: two ranks of one host, no rail; 1: one
//!   leaf; 3: up to a spine and down; …). A pair whose path is not delivered has no hop count.
//! - At host or leaf granularity several paths fold into one cell; the cell keeps the most
//!   switches any of them crosses (the worse class), its bytes are the sum.
//! - Intra-node rows have no rail. At leaf granularity their leaf is the host's leaf on rail 0
//!   (a host not cabled to rail 0 has no leaf there: its intra-node bytes are counted apart).

use petgraph::graph::NodeIndex;
use rayon::prelude::*;

use crate::model::bytes::add_bytes;
use crate::model::{Cluster, Fabric, Lid, NodeKind};

use super::accumulate::Flow;
use super::flows::{FlowOrigin, FlowSet};
use super::pair_merge::{Item, merge};
use super::pair_stretch::{Stretch, stretches};
use super::switch_count::RailCounts;

/// What the rows and columns of a traffic matrix are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Granularity {
    #[default]
    Rank,
    Host,
    Leaf,
}

impl Granularity {
    pub fn parse(text: &str) -> Option<Granularity> {
        match text {
            "rank" => Some(Granularity::Rank),
            "host" => Some(Granularity::Host),
            "leaf" => Some(Granularity::Leaf),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Granularity::Rank => "rank",
            Granularity::Host => "host",
            Granularity::Leaf => "leaf",
        }
    }
}

/// One cell of the matrix on one rail. `src` and `dst` are rank numbers, host indices into
/// `Cluster::hosts`, or leaf switches' node indices on `rail` (on the lowest rail for
/// intra-node rows), by the table's granularity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairRow {
    pub src: u32,
    pub dst: u32,
    /// `None`: intra-node bytes, which cross no rail.
    pub rail: Option<u8>,
    pub bytes: u64,
    /// Messages sent, where the profile counts them.
    pub messages: Option<u64>,
    /// Switches crossed on `rail`'s path; `None` where the path is not delivered.
    pub hops: Option<u32>,
}

/// A region's traffic matrix as rows, sorted by (src, dst, rail), no two with the same key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairTable {
    pub by: Granularity,
    pub rows: Vec<PairRow>,
    /// Bytes whose entity is unknown at this granularity (port-level counters name a LID, not
    /// a rank): counted, not in any row.
    pub without_entity_bytes: u64,
}

/// One flow's contribution before folding: (src, dst, rail) and what it adds.
type Part = ((u32, u32, Option<u8>), u64, Option<u32>);

/// The pair table of one region's flows (kept with their origins, see
/// [`super::FlowBuilder::keep_origins`]). The switch counts are the set's kept ones (see
/// [`super::switch_count::keep_switch_counts`]) or walked now.
pub fn pair_table(cluster: &Cluster, flows: &FlowSet, by: Granularity) -> PairTable {
    let counts: Vec<Option<RailCounts<'_>>> = (0..flows.flows.len())
        .map(|r| cluster.rails.get(r).map(|fabric| RailCounts::of(fabric, flows, r)))
        .collect();
    let (rows, without_entity_bytes) =
        merged_rows(cluster, flows, by, &counts).unwrap_or_else(|| sorted_rows(cluster, flows, by, &counts));
    PairTable { by, rows, without_entity_bytes }
}

/// The rows by merging the rails' and the intra-node pairs' parts, when each list is in
/// (src, dst) order (see [`super::pair_merge`]); `None` when one is not.
fn merged_rows(
    cluster: &Cluster,
    flows: &FlowSet,
    by: Granularity,
    counts: &[Option<RailCounts<'_>>],
) -> Option<(Vec<PairRow>, u64)> {
    let parts = flows.flows.iter().map(Vec::len).sum::<usize>() + flows.intra_node_pairs.len();
    let mut rows: Vec<PairRow> = Vec::with_capacity(parts);
    let without = merge_rows(cluster, flows, by, counts, &Stretch::whole(flows), |row| rows.push(row))?;
    rows.shrink_to_fit();
    Some((rows, without))
}

/// Hands the rows of `flows` on the rails `wanted` keeps (intra-node rows always), in the
/// table's order, as [`pair_table`] would hold them, without holding them: what a traffic
/// matrix folds on its first build. The senders are cut into stretches
/// ([`super::pair_stretch`]) merged on every core; each stretch's rows, in order, go to its own
/// `start(parts)` (`parts`: how many rows it may have at most) through `row`. Returns the
/// stretches' results in sender order and the bytes without an entity; `None` when a list is
/// not in (src, dst) order, as at host or leaf granularity, where only [`pair_table`]'s sort
/// gives the rows.
pub fn fold_merged_stretches<S: Send>(
    cluster: &Cluster,
    flows: &FlowSet,
    by: Granularity,
    wanted: impl Fn(usize) -> bool + Sync,
    start: impl Fn(usize) -> S + Sync,
    row: impl Fn(&mut S, PairRow) + Sync,
) -> Option<(Vec<S>, u64)> {
    let counts = wanted_counts(cluster, flows, &wanted);
    let cut = stretches(flows, by == Granularity::Rank, rayon::current_num_threads());
    let folded: Option<Vec<(S, u64)>> = cut
        .par_iter()
        .map(|stretch| {
            let parts = stretch.intra.len() + stretch.rails.iter().map(|r| r.len()).sum::<usize>();
            let mut state = start(parts);
            let without = merge_rows(cluster, flows, by, &counts, stretch, |r| row(&mut state, r))?;
            Some((state, without))
        })
        .collect();
    let (mut states, mut without) = (Vec::new(), 0);
    for (state, bytes) in folded? {
        states.push(state);
        add_bytes(&mut without, bytes);
    }
    Some((states, without))
}

/// The switch counts of the rails `wanted` keeps.
fn wanted_counts<'a>(
    cluster: &Cluster,
    flows: &'a FlowSet,
    wanted: &impl Fn(usize) -> bool,
) -> Vec<Option<RailCounts<'a>>> {
    (0..flows.flows.len())
        .map(|r| cluster.rails.get(r).filter(|_| wanted(r)).map(|fabric| RailCounts::of(fabric, flows, r)))
        .collect()
}

/// [`merged_rows`]'s merge of one stretch of senders: parts of one key folded into one row (see
/// [`add`]) as they come.
fn merge_rows(
    cluster: &Cluster,
    flows: &FlowSet,
    by: Granularity,
    counts: &[Option<RailCounts<'_>>],
    stretch: &Stretch,
    mut row: impl FnMut(PairRow),
) -> Option<u64> {
    // Intra-node rows have no rail, which sorts before every rail: their list comes first, then
    // the rails in order, so that a pair's rows leave the merge in (src, dst, rail) order.
    let intra = flows.intra_node_pairs.get(stretch.intra.clone())?;
    let mut lists = vec![(None, Parts::Intra { cluster, by, pairs: intra.iter() })];
    for (r, (rail_flows, origins)) in flows.flows.iter().zip(&flows.origins).enumerate() {
        let (Some(fabric), Some(Some(counts))) = (cluster.rails.get(r), counts.get(r)) else { continue };
        // A rail number past a byte would key as intra-node: the sort handles that.
        let rail = Some(u8::try_from(r).ok()?);
        let range = stretch.rails.get(r)?.clone();
        lists.push((
            rail,
            Parts::Rail { fabric, by, flows: rail_flows, origins, counts, at: range.start, end: range.end },
        ));
    }
    let (mut pending, mut outside): (Option<PairRow>, bool) = (None, false);
    let without = merge(lists, |rail, (key, bytes, hops)| {
        outside |= !stretch.holds(key);
        let (src, dst) = ((key >> 32) as u32, key as u32);
        match &mut pending {
            Some(last) if (last.src, last.dst, last.rail) == (src, dst, rail) => add_part(last, bytes, hops),
            _ => {
                let next = PairRow { src, dst, rail, bytes, messages: None, hops };
                if let Some(done) = pending.replace(next) {
                    row(done);
                }
            }
        }
    })?;
    if outside {
        return None; // a sender outside its stretch: the lists are not in sender order
    }
    if let Some(last) = pending {
        row(last);
    }
    Some(without)
}

/// One list of the merge, keyed at a granularity: the intra-node pairs, or one rail's flows
/// with their switch counts. A concrete list (no boxed iterator) that the merge inlines.
enum Parts<'a> {
    Intra {
        cluster: &'a Cluster,
        by: Granularity,
        pairs: std::slice::Iter<'a, (FlowOrigin, u64)>,
    },
    Rail {
        fabric: &'a Fabric,
        by: Granularity,
        flows: &'a [Flow],
        origins: &'a [FlowOrigin],
        counts: &'a RailCounts<'a>,
        at: usize,
        end: usize,
    },
}

/// (src, dst) as one word, src high: the merge's key.
fn word((src, dst): (u32, u32)) -> u64 {
    (u64::from(src) << 32) | u64::from(dst)
}

impl Iterator for Parts<'_> {
    /// A part, or the bytes of one without an entity.
    type Item = Result<Item, u64>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Parts::Intra { cluster, by, pairs } => {
                let (origin, bytes) = pairs.next()?;
                let key = intra_node_key(cluster, *by, origin);
                Some(key.map(|(src, dst, _)| (word((src, dst)), *bytes, Some(0))).ok_or(*bytes))
            }
            Parts::Rail { fabric, by, flows, origins, counts, at, end } => {
                let i = *at;
                if i >= *end {
                    return None;
                }
                let (flow, origin) = (flows.get(i)?, origins.get(i)?);
                *at += 1;
                let key = flow_key(fabric, *by, flow, origin);
                Some(key.map(|key| (word(key), flow.bytes, counts.get(i))).ok_or(flow.bytes))
            }
        }
    }
}

/// The rows by sorting every part, whatever order the flows come in.
fn sorted_rows(
    cluster: &Cluster,
    flows: &FlowSet,
    by: Granularity,
    counts: &[Option<RailCounts<'_>>],
) -> (Vec<PairRow>, u64) {
    let mut without_entity_bytes = 0;
    let mut all: Vec<Part> = Vec::new();
    for (r, (rail_flows, origins)) in flows.flows.iter().zip(&flows.origins).enumerate() {
        let (Some(fabric), Some(Some(counts))) = (cluster.rails.get(r), counts.get(r)) else { continue };
        let rail = u8::try_from(r).ok();
        let traced: Vec<Result<Part, u64>> = rail_flows
            .par_iter()
            .zip(origins.par_iter())
            .enumerate()
            .map(|(i, (flow, origin))| {
                flow_key(fabric, by, flow, origin)
                    .map(|(src, dst)| ((src, dst, rail), flow.bytes, counts.get(i)))
                    .ok_or(flow.bytes)
            })
            .collect();
        for part in traced {
            match part {
                Ok(part) => all.push(part),
                Err(bytes) => {
                    add_bytes(&mut without_entity_bytes, bytes);
                }
            }
        }
    }
    for (origin, bytes) in &flows.intra_node_pairs {
        match intra_node_key(cluster, by, origin) {
            Some(key) => all.push((key, *bytes, Some(0))),
            None => {
                add_bytes(&mut without_entity_bytes, *bytes);
            }
        }
    }
    (fold(all), without_entity_bytes)
}

/// The (src, dst) entities of a flow at granularity `by`, `None` where one end has none.
#[inline]
pub(super) fn flow_key(
    fabric: &Fabric,
    by: Granularity,
    flow: &Flow,
    origin: &FlowOrigin,
) -> Option<(u32, u32)> {
    match by {
        Granularity::Rank => Some(origin.src_rank).zip(origin.dst_rank),
        Granularity::Host => origin.src_host.zip(origin.dst_host),
        Granularity::Leaf => leaf_of_lid(fabric, flow.src).zip(leaf_of_lid(fabric, flow.dst)),
    }
}

/// The leaf switch of the CA that owns a LID, as a node index.
fn leaf_of_lid(fabric: &Fabric, lid: Lid) -> Option<u32> {
    let owner = fabric.owner_of_lid(lid)?;
    let leaf = if fabric.node(owner.node).kind == NodeKind::Switch {
        owner.node
    } else {
        leaf_of(fabric, owner.node)?
    };
    u32::try_from(leaf.index()).ok()
}

/// The cell of an intra-node pair: no rail; at leaf granularity the host's leaf on its lowest rail.
#[inline]
pub(super) fn intra_node_key(
    cluster: &Cluster,
    by: Granularity,
    origin: &FlowOrigin,
) -> Option<(u32, u32, Option<u8>)> {
    match by {
        Granularity::Rank => Some((origin.src_rank, origin.dst_rank?, None)),
        Granularity::Host => Some((origin.src_host?, origin.dst_host?, None)),
        Granularity::Leaf => {
            let host = cluster.hosts.get(origin.src_host_index()?)?;
            let leaf = leaf_of(cluster.rails.first()?, *host.on_rail(0).first()?)?;
            let leaf = u32::try_from(leaf.index()).ok()?;
            Some((leaf, leaf, None))
        }
    }
}

/// How a row's entity is written: the rank number, the host's name, or the leaf switch's node
/// description (on rail 0 for intra-node rows).
pub fn entity_name(cluster: &Cluster, by: Granularity, rail: Option<u8>, id: u32) -> String {
    match by {
        Granularity::Rank => id.to_string(),
        Granularity::Host => {
            cluster.hosts.get(id as usize).map_or_else(|| id.to_string(), |h| h.name.clone())
        }
        Granularity::Leaf => cluster
            .rails
            .get(usize::from(rail.unwrap_or(0)))
            .and_then(|f| f.graph.node_weight(NodeIndex::new(id as usize)))
            .map_or_else(|| id.to_string(), |n| n.description.clone()),
    }
}

/// The switch a CA is cabled to.
pub fn leaf_of(fabric: &Fabric, ca: NodeIndex) -> Option<NodeIndex> {
    fabric.graph.neighbors(ca).find(|&n| fabric.node(n).kind == NodeKind::Switch)
}

/// Sorts the parts by key and folds equal keys: bytes summed, the most hops kept.
fn fold(mut parts: Vec<Part>) -> Vec<PairRow> {
    // Each rail's flows come sender by sender: a run-merging sort takes the runs as they are.
    parts.sort_by_key(|p| p.0);
    let mut rows: Vec<PairRow> = Vec::new();
    for (key, bytes, hops) in parts {
        add(&mut rows, key, bytes, hops);
    }
    rows
}

/// Adds a part to the rows: to the last row if it has the same key, else as a new row.
fn add(rows: &mut Vec<PairRow>, (src, dst, rail): (u32, u32, Option<u8>), bytes: u64, hops: Option<u32>) {
    match rows.last_mut() {
        Some(last) if (last.src, last.dst, last.rail) == (src, dst, rail) => add_part(last, bytes, hops),
        _ => rows.push(PairRow { src, dst, rail, bytes, messages: None, hops }),
    }
}

/// A part of a row's key added to it: bytes summed, the most hops kept, none if either path is
/// not delivered.
fn add_part(row: &mut PairRow, bytes: u64, hops: Option<u32>) {
    add_bytes(&mut row.bytes, bytes);
    row.hops = match (row.hops, hops) {
        (Some(a), Some(b)) => Some(a.max(b)),
        _ => None,
    };
}

/// The bytes-weighted mean of switches crossed (INTAP-MPI's locality): 0 when every byte stays
/// in its host, 1 within a leaf, 3 over a spine. Rows without a hop count are left out; `None`
/// when no byte has one.
pub fn locality(rows: &[PairRow]) -> Option<f64> {
    let (weighted, bytes) = rows
        .iter()
        .filter_map(|r| Some((r.hops? as f64 * r.bytes as f64, r.bytes as f64)))
        .fold((0.0, 0.0), |(w, b), (rw, rb)| (w + rw, b + rb));
    (bytes > 0.0).then(|| weighted / bytes)
}

/// The rows' bytes by hop class (`None`: paths not delivered), summed saturating: the split
/// `shoal matrix` and `shoal locality` print beside the locality score.
pub fn bytes_by_class(rows: &[PairRow]) -> std::collections::BTreeMap<Option<u32>, u64> {
    let mut classes = std::collections::BTreeMap::new();
    for row in rows {
        add_bytes(classes.entry(row.hops).or_default(), row.bytes);
    }
    classes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::TwoLevel;
    use crate::model::{PeerBytes, RailId, RankSection};
    use crate::routing::{FlowBuilder, HostMap, RailPolicy, RankTraffic};

    /// Two rails of 4 leaves × 2 hosts (n0001..n0008), 2 spines each.
    fn cluster() -> Cluster {
        Cluster::new(vec![
            TwoLevel::new(4, 2, 2).build(),
            TwoLevel::new(4, 2, 2).rail(RailId(1), 0x9000_0000).build(),
        ])
    }

    /// Ranks 0, 1 on n0001; 2 on n0002 (same leaf); 3 on n0005 (another leaf). Rank 0 sends
    /// 100 to rank 1, 10 to rank 2 and 1001 to rank 3.
    fn flows(cluster: &Cluster, policy: RailPolicy) -> FlowSet {
        let hosts = ["n0001", "n0001", "n0002", "n0005"];
        let sections: Vec<RankSection> = hosts
            .iter()
            .enumerate()
            .map(|(r, h)| RankSection { rank: r as u32, host: h.to_string(), ..Default::default() })
            .collect();
        let peers = [(1, 100), (2, 10), (3, 1001)].map(|(peer, sent)| PeerBytes { peer, sent, recv: 0 });
        let traffic: Vec<RankTraffic> = sections
            .iter()
            .map(|s| RankTraffic { section: s, peers: if s.rank == 0 { &peers } else { &[] }, lids: &[] })
            .collect();
        let map = HostMap::default();
        FlowBuilder::new(cluster, policy, &map).keep_origins(true).flows(&traffic)
    }

    fn cells(table: &PairTable) -> Vec<(u32, u32, Option<u8>, u64, Option<u32>)> {
        table.rows.iter().map(|r| (r.src, r.dst, r.rail, r.bytes, r.hops)).collect()
    }

    #[test]
    fn rank_pairs_get_the_switches_their_rail_path_crosses_and_intra_node_pairs_none() {
        let cluster = cluster();
        let table = pair_table(&cluster, &flows(&cluster, RailPolicy::Split), Granularity::Rank);
        assert_eq!(
            cells(&table),
            vec![
                (0, 1, None, 100, Some(0)),
                (0, 2, Some(0), 5, Some(1)),
                (0, 2, Some(1), 5, Some(1)),
                (0, 3, Some(0), 501, Some(3)),
                (0, 3, Some(1), 500, Some(3)),
            ]
        );
        assert_eq!(table.without_entity_bytes, 0);
    }

    #[test]
    fn a_rail_policy_puts_every_byte_on_its_rail_as_the_loads_do() {
        let cluster = cluster();
        let table = pair_table(&cluster, &flows(&cluster, RailPolicy::Rail(1)), Granularity::Rank);
        let rails: Vec<Option<u8>> = table.rows.iter().map(|r| r.rail).collect();
        assert_eq!(rails, vec![None, Some(1), Some(1)]);
        assert_eq!(table.rows.iter().map(|r| r.bytes).sum::<u64>(), 1111);
    }

    #[test]
    fn hosts_fold_their_ranks_and_leaves_fold_their_hosts() {
        let cluster = cluster();
        let set = flows(&cluster, RailPolicy::Rail(0));
        let host = |name: &str| cluster.host_index(name).unwrap() as u32;
        let by_host = pair_table(&cluster, &set, Granularity::Host);
        assert_eq!(
            cells(&by_host),
            vec![
                (host("n0001"), host("n0001"), None, 100, Some(0)),
                (host("n0001"), host("n0002"), Some(0), 10, Some(1)),
                (host("n0001"), host("n0005"), Some(0), 1001, Some(3)),
            ]
        );
        let by_leaf = pair_table(&cluster, &set, Granularity::Leaf);
        let fabric = &cluster.rails[0];
        let name = |n: u32| fabric.node(NodeIndex::new(n as usize)).description.clone();
        let named: Vec<_> =
            by_leaf.rows.iter().map(|r| (name(r.src), name(r.dst), r.rail, r.bytes)).collect();
        let leaf = |s: &str| s.to_string();
        assert_eq!(
            named,
            vec![
                (leaf("L1-000"), leaf("L1-000"), None, 100),
                (leaf("L1-000"), leaf("L1-000"), Some(0), 10),
                (leaf("L1-000"), leaf("L1-002"), Some(0), 1001),
            ]
        );
    }

    #[test]
    fn locality_is_the_bytes_weighted_mean_of_switches_crossed() {
        let cluster = cluster();
        let table = pair_table(&cluster, &flows(&cluster, RailPolicy::Split), Granularity::Rank);
        let expected = (100.0 * 0.0 + 10.0 * 1.0 + 1001.0 * 3.0) / 1111.0;
        assert!((locality(&table.rows).unwrap() - expected).abs() < 1e-12);
        assert_eq!(locality(&[]), None);
    }

    #[test]
    fn a_path_without_tables_has_no_hop_count() {
        let mut cluster = cluster();
        let switches: Vec<NodeIndex> = cluster.rails[0].switches().collect();
        for s in switches {
            cluster.rails[0].replace_lft(s, None);
        }
        let table = pair_table(&cluster, &flows(&cluster, RailPolicy::Rail(0)), Granularity::Rank);
        assert_eq!(table.rows.iter().map(|r| r.hops).collect::<Vec<_>>(), vec![Some(0), None, None]);
    }
}

#[cfg(test)]
#[path = "pair_table_tests.rs"]
mod kept_tests;
