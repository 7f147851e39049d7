//! A fabric view's bytes read straight from its loads (issue 13): what the query engine would
//! compute from the adapter's `traffic` and `node_traffic` rows, without scanning them. With
//! 20,000 regions those tables hold one row per link end and region; stepping from one region
//! to the next must cost the region's own link ends, not the whole run's rows.
//!
//! Taken only when nothing but the selection decides the values: a fabric, link colour `bytes`
//! (or none), node colour `bytes_sent` / `bytes_received` (or none), and no clause in the view's
//! or its group's filter. Then every id has exactly one row per region, so any row aggregate
//! of a region is its value, a window sums, and every id passes the (empty) filter; the results
//! equal the query engine's (`prepare_tests.rs` pins both roads to each other).

use crate::model::LinkEnd;

use super::dataset::{Dataset, FabricData};
use super::filter::Filter;
use super::values::{LinkValues, RegionSelection};
use super::view::ViewSpec;

/// Values per view-model link and node, the diff's two sides, and the (all-passing) masks.
pub struct FabricValues {
    pub links: Vec<Option<f64>>,
    pub nodes: Vec<Option<f64>>,
    pub link_sides: Option<[Vec<Option<f64>>; 2]>,
    pub link_pass: Vec<bool>,
    pub node_pass: Vec<bool>,
}

/// The values, or `None` when the query engine must answer (see the module comment).
pub fn fabric_values(dataset: &Dataset, spec: &ViewSpec, group: &Filter) -> Option<FabricValues> {
    let fabric = dataset.fabric.as_ref()?;
    if !spec.filter.clauses.is_empty() || !group.clauses.is_empty() {
        return None;
    }
    let link_on = match spec.link_attribute.as_deref() {
        Some("bytes") => true,
        None => false,
        Some(_) => return None,
    };
    let node_side = match spec.node_attribute.as_deref() {
        Some("bytes_sent") => Some(true),
        Some("bytes_received") => Some(false),
        None => None,
        Some(_) => return None,
    };
    let sides: Vec<RegionSelection> = match spec.selection {
        RegionSelection::Diff(a, b) => vec![RegionSelection::from_key(a), RegionSelection::from_key(b)],
        other => vec![other],
    };
    let select = |s: RegionSelection| {
        LinkValues::select(&fabric.loads, s).unwrap_or_else(|| LinkValues::zeros(&fabric.cluster))
    };
    let per_side: Vec<Vec<f64>> = sides.iter().map(|&s| positions(fabric, &select(s))).collect();
    let nodes_of = |links: &[f64]| node_bytes(fabric, links, node_side.unwrap_or(true));
    let (links, nodes, link_sides) = match per_side.as_slice() {
        [a, b] => {
            let delta: Vec<Option<f64>> = a.iter().zip(b).map(|(x, y)| Some(x - y)).collect();
            let (na, nb) = (nodes_of(a), nodes_of(b));
            let nodes = na.iter().zip(&nb).map(|(x, y)| Some(x - y)).collect();
            let some = |v: &[f64]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
            (delta, nodes, Some([some(a), some(b)]))
        }
        [one] => {
            (one.iter().map(|&x| Some(x)).collect(), nodes_of(one).into_iter().map(Some).collect(), None)
        }
        _ => return None,
    };
    let n_links = fabric.index.link_count();
    let n_nodes = fabric.index.node_count();
    Some(FabricValues {
        links: if link_on { links } else { Vec::new() },
        nodes: if node_side.is_some() { nodes } else { Vec::new() },
        link_sides: if link_on { link_sides } else { None },
        link_pass: vec![true; n_links],
        node_pass: vec![true; n_nodes],
    })
}

/// Per-rail values laid out by view-model link position.
fn positions(fabric: &FabricData, values: &LinkValues) -> Vec<f64> {
    let mut out = vec![0.0; fabric.index.link_count()];
    for (rail, bytes) in values.rails.iter().enumerate() {
        let range = fabric.index.rail_links(rail);
        for (i, &b) in bytes.iter().enumerate().take(range.len()) {
            out[range.start + i] = b;
        }
    }
    out
}

/// Bytes each node sent into its link ends (`sent`) or received from them, summed in the
/// adapter's order (rails, then link ends).
fn node_bytes(fabric: &FabricData, links: &[f64], sent: bool) -> Vec<f64> {
    let mut out = vec![0.0; fabric.index.node_count()];
    for (rail, f) in fabric.cluster.rails.iter().enumerate() {
        let range = fabric.index.rail_links(rail);
        for position in range.clone() {
            let i = position - range.start;
            let Some(((s, _), (d, _))) = f.link_end_nodes(LinkEnd::from_index(i)) else { continue };
            let node = if sent { s } else { d };
            if let Some(p) = fabric.index.node_position(rail, node) {
                out[p] += links[position];
            }
        }
    }
    out
}
