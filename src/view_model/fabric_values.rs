//! A fabric view's values read straight from its loads (issues 13 and 21): the same rows the
//! query engine aggregates — the adapter's `traffic` and `node_traffic` tables — taken from the
//! storage they were written from, [`FabricData::traffic_sets`], instead of scanned. With
//! 20,000 regions those tables hold one row per link end and region; stepping from one region
//! to the next must cost the region's own link ends, not the whole run's rows.
//!
//! It is one value engine over two storages, not a second meaning: the row sources, which rows
//! exist ([`link_row_kept`], [`node_row_kept`]), a row's value ([`link_row_bytes`]), how a
//! condition tests a cell ([`query::text_passes`]), the conditions a selection stands for
//! ([`selection_conditions`], jobs included) and the aggregation ([`query::Accumulator`]) are
//! the query engine's own. Taken when nothing but the selection decides the rows: a fabric,
//! link colour `bytes` (or none), node colour `bytes_sent` / `bytes_received` (or none), and
//! no clause in the view's or its group's filter. `prepare_tests.rs` and `tests/properties.rs`
//! pin both roads to each other for random views.

use crate::model::LinkEnd;
use crate::routing::RegionLoads;

use super::dataset::{
    Dataset, FabricData, TrafficSet, link_row_bytes, link_row_kept, node_row_kept, sparse_rows,
};
use super::filter::Filter;
use super::query::{self, Accumulator, Aggregate, Condition};
use super::relation::parse_number;
use super::view::{ViewSpec, selection_conditions};

/// Values per view-model link and node, the diff's two sides, and the masks (ids with a row
/// in side A's selection, as the query engine's masks).
pub struct FabricValues {
    pub links: Vec<Option<f64>>,
    pub nodes: Vec<Option<f64>>,
    pub link_sides: Option<[Vec<Option<f64>>; 2]>,
    pub link_pass: Vec<bool>,
    pub node_pass: Vec<bool>,
}

/// What to read: the link `bytes`, and the node column (`Some(true)`: `bytes_sent`).
struct Wanted {
    links: bool,
    node_sent: Option<bool>,
}

/// The values, or `None` when the query engine must answer (see the module comment).
pub fn fabric_values(dataset: &Dataset, spec: &ViewSpec, group: &Filter) -> Option<FabricValues> {
    let fabric = dataset.fabric.as_ref()?;
    if !spec.filter.clauses.is_empty() || !group.clauses.is_empty() {
        return None;
    }
    let wanted = Wanted {
        links: match spec.link_attribute.as_deref() {
            Some("bytes") => true,
            None => false,
            Some(_) => return None,
        },
        node_sent: match spec.node_attribute.as_deref() {
            Some("bytes_sent") => Some(true),
            Some("bytes_received") => Some(false),
            None => None,
            Some(_) => return None,
        },
    };
    let sets = fabric.traffic_sets();
    let agg = spec.rows_aggregate();
    let mut sides: Vec<SideValues> = selection_conditions(dataset, spec)
        .iter()
        .map(|conditions| side_values(fabric, &sets, conditions, agg, wanted.node_sent.unwrap_or(true)))
        .collect::<Option<_>>()?;
    let b = (sides.len() == 2).then(|| sides.pop()).flatten();
    let a = sides.pop()?;
    // The masks are side A's, as the query engine's.
    let (links, nodes, link_sides) = match b {
        Some(b) => {
            let links = super::values::difference(&a.links, &b.links);
            let nodes = super::values::difference(&a.nodes, &b.nodes);
            (links, nodes, Some([a.links, b.links]))
        }
        None => (a.links, a.nodes, None),
    };
    Some(FabricValues {
        links: if wanted.links { links } else { Vec::new() },
        nodes: if wanted.node_sent.is_some() { nodes } else { Vec::new() },
        link_sides: if wanted.links { link_sides } else { None },
        link_pass: a.link_pass,
        node_pass: a.node_pass,
    })
}

/// One side's values and masks.
struct SideValues {
    links: Vec<Option<f64>>,
    nodes: Vec<Option<f64>>,
    link_pass: Vec<bool>,
    node_pass: Vec<bool>,
}

/// Aggregates the rows of every (set, region) that passes `conditions`, as the query engine
/// aggregates the table rows those regions were written to. `None` if a condition names
/// something other than the region or the job (then the rows must be scanned).
fn side_values(
    fabric: &FabricData,
    sets: &[TrafficSet<'_>],
    conditions: &[Condition],
    agg: Aggregate,
    node_sent: bool,
) -> Option<SideValues> {
    let sparse = sparse_rows(fabric.index.link_count(), sets.iter().map(|s| s.regions.len()).sum());
    let (n_links, n_nodes) = (fabric.index.link_count(), fabric.index.node_count());
    let mut rows = Rows {
        links: vec![Accumulator::default(); n_links],
        nodes: vec![Accumulator::default(); n_nodes],
        link_pass: vec![false; n_links],
        node_pass: vec![false; n_nodes],
    };
    for set in sets {
        for (k, &(number, region)) in set.regions.iter().enumerate() {
            if !row_passes(conditions, number, set.job)? {
                continue;
            }
            let ar = set.ar.as_ref().and_then(|a| a.get(k)).map(|(_, r)| *r);
            rows.add_region(fabric, set, (number, region, ar), sparse, node_sent);
        }
    }
    Some(SideValues {
        links: rows.links.into_iter().map(|a| a.value(agg)).collect(),
        nodes: rows.nodes.into_iter().map(|a| a.value(agg)).collect(),
        link_pass: rows.link_pass,
        node_pass: rows.node_pass,
    })
}

/// Whether a row of region `number` and job `job` passes every condition; `None` for a
/// condition on another attribute.
fn row_passes(conditions: &[Condition], number: i64, job: Option<&str>) -> Option<bool> {
    let mut all = true;
    for c in conditions {
        all &= match c.attribute.as_str() {
            "region" => parse_number(&c.value).is_some_and(|v| c.relation.compare_numbers(number as f64, v)),
            // Rows without a job column: the engine's answer (an unknown attribute) stands.
            "job" => query::text_passes(c.relation, job?, &c.value),
            _ => return None,
        };
    }
    Some(all)
}

/// The accumulators of one side, per view-model link and node.
struct Rows {
    links: Vec<Accumulator>,
    nodes: Vec<Accumulator>,
    link_pass: Vec<bool>,
    node_pass: Vec<bool>,
}

impl Rows {
    /// Adds one region's rows: a link end's bytes where it has a row (a missing value counts
    /// no row to the aggregate but passes the mask), and each node's bytes sent or received.
    fn add_region(
        &mut self,
        fabric: &FabricData,
        set: &TrafficSet<'_>,
        (number, region, ar): (i64, &RegionLoads, Option<&RegionLoads>),
        sparse: bool,
        node_sent: bool,
    ) {
        let index = &fabric.index;
        let mut sent = vec![0.0f64; self.nodes.len()];
        let mut received = vec![0.0f64; self.nodes.len()];
        for (rail, f) in fabric.cluster.rails.iter().enumerate() {
            let range = index.rail_links(rail);
            let bytes = region.rails.get(rail).map(|r| r.bytes.to_dense()).unwrap_or_default();
            for position in range.clone() {
                let i = position - range.start;
                let b = bytes.get(i).copied().unwrap_or(0) as f64;
                let end = LinkEnd::from_index(i);
                let ar_b = ar.map(|r| r.rails.get(rail).map_or(0, |l| l.at(end)) as f64);
                if link_row_kept(sparse, number, b, ar_b) {
                    self.link_pass[position] = true;
                    let cell = link_row_bytes(set.job, b);
                    if !cell.is_nan() {
                        self.links[position].add(cell);
                    }
                }
                let Some(((s, _), (d, _))) = f.link_end_nodes(end) else { continue };
                if let Some(p) = index.node_position(rail, s) {
                    sent[p] += b;
                }
                if let Some(p) = index.node_position(rail, d) {
                    received[p] += b;
                }
            }
        }
        for (n, (s, r)) in sent.into_iter().zip(received).enumerate() {
            if node_row_kept(sparse, number, s, r) {
                self.node_pass[n] = true;
                self.nodes[n].add(if node_sent { s } else { r });
            }
        }
    }
}

#[cfg(test)]
#[path = "fabric_values_tests.rs"]
mod tests;
