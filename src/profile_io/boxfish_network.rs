//! The network of a Boxfish run, from its `hardware:` block: nodes from the coordinates table
//! (`coords` columns, one node per id), links from the link table (one directed link per
//! distinct link id, its ends found by the `source_coords` and `destination_coords` columns).

use std::collections::HashMap;

use crate::model::{Column, NetLink, NetNode, Network, Shape, Table};

/// The `hardware:` block of a meta file, with the column names it gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hardware {
    /// Axis names, e.g. `x y z` or `a b c d e`.
    pub coords: Vec<String>,
    pub coords_table: Option<String>,
    /// Extent per axis (in `coords` order), when `dim` gives them all.
    pub dims: Option<Vec<u32>>,
    /// Per axis, the link table's column holding the source node's coordinate.
    pub source_coords: Vec<String>,
    pub destination_coords: Vec<String>,
    pub link_coords_table: Option<String>,
}

/// Builds the network; the strings are warnings about the named table.
pub fn build_network(
    hw: &Hardware,
    nodes: Option<&Table>,
    links: Option<&Table>,
) -> (Network, Vec<(String, String)>) {
    let mut warnings = Vec::new();
    let shape = match &hw.dims {
        Some(dims) => Shape::Torus { dims: dims.clone() },
        None => Shape::Plane,
    };
    let mut network = Network { shape, axes: hw.coords.clone(), nodes: Vec::new(), links: Vec::new() };
    let Some(nodes_table) = nodes else { return (network, warnings) };
    let Some(coord_columns) = columns(nodes_table, &hw.coords, &mut warnings) else {
        return (network, warnings);
    };
    // One node per id, at its first row's coordinates, in id order.
    let (ids, moved) = first_rows(&nodes_table.ids, same_in(&coord_columns));
    if moved > 0 {
        warnings.push((
            nodes_table.name.clone(),
            format!(
                "{moved} rows give a node other coordinates than its first row; the first row's are used"
            ),
        ));
    }
    let at = add_nodes(hw, &nodes_table.name, ids, &coord_columns, &mut network, &mut warnings);
    if let Some(links_table) = links {
        add_links(hw, links_table, coord_columns.len(), &at, &mut network, &mut warnings);
    }
    (network, warnings)
}

/// Places one node per id at its coordinates; returns where each coordinate key's node is.
fn add_nodes(
    hw: &Hardware,
    table: &str,
    ids: Vec<(i64, usize)>,
    coord_columns: &[&Column],
    network: &mut Network,
    warnings: &mut Vec<(String, String)>,
) -> HashMap<Vec<u64>, usize> {
    let mut at: HashMap<Vec<u64>, usize> = HashMap::with_capacity(ids.len());
    let mut outside = 0usize;
    for (id, row) in ids {
        let coords: Vec<f64> = coord_columns.iter().map(|c| c.number(row).unwrap_or(f64::NAN)).collect();
        if let Some(dims) = &hw.dims
            && coords.iter().zip(dims).any(|(&c, &d)| !(c >= 0.0 && c < f64::from(d)))
        {
            outside += 1;
        }
        if at.insert(key(&coords), network.nodes.len()).is_some() {
            warnings.push((table.to_string(), format!("node {id} shares its coordinates {coords:?} with another node; links there go to node {id}")));
        }
        network.nodes.push(NetNode { id, name: None, coords });
    }
    if outside > 0 {
        warnings.push((
            table.to_string(),
            format!("{outside} nodes lie outside the torus extents {:?}", hw.dims),
        ));
    }
    at
}

/// Adds a link per link id whose two end coordinates are nodes'; warns about the others.
fn add_links(
    hw: &Hardware,
    links_table: &Table,
    axes: usize,
    at: &HashMap<Vec<u64>, usize>,
    network: &mut Network,
    warnings: &mut Vec<(String, String)>,
) {
    let (Some(src), Some(dst)) = (
        columns(links_table, &hw.source_coords, warnings),
        columns(links_table, &hw.destination_coords, warnings),
    ) else {
        return;
    };
    if src.len() != axes || dst.len() != axes {
        warnings.push((
            links_table.name.clone(),
            "source/destination coordinates do not name one column per axis; no links".into(),
        ));
        return;
    }
    let ends: Vec<&Column> = src.iter().chain(&dst).copied().collect();
    let (order, reused) = first_rows(&links_table.ids, same_in(&ends));
    if reused > 0 {
        warnings.push((
            links_table.name.clone(),
            format!("{reused} rows give a link id other end coordinates than its first row; the first row's are used"),
        ));
    }
    let mut dangling = Vec::new();
    for (id, row) in order {
        let end = |cols: &[&Column]| -> Vec<f64> {
            cols.iter().map(|c| c.number(row).unwrap_or(f64::NAN)).collect()
        };
        let (s, t) = (end(&src), end(&dst));
        match (at.get(&key(&s)), at.get(&key(&t))) {
            (Some(&source), Some(&target)) => network.links.push(NetLink { id, source, target }),
            _ => dangling.push(id),
        }
    }
    if !dangling.is_empty() {
        let shown: Vec<String> = dangling.iter().take(5).map(i64::to_string).collect();
        warnings.push((
            links_table.name.clone(),
            format!(
                "{} link ids have an end at coordinates where no node is (e.g. {}); they are not drawn, their rows stay in the table",
                dangling.len(),
                shown.join(", ")
            ),
        ));
    }
}

/// Each distinct id with its first row, by id; and how many later rows are not `same` as their
/// id's first. Ids spanning at most four times the row count are indexed by array, not hashed.
fn first_rows(ids: &[i64], same: impl Fn(usize, usize) -> bool) -> (Vec<(i64, usize)>, usize) {
    let mut differing = 0;
    let (Some(&min), Some(&max)) = (ids.iter().min(), ids.iter().max()) else { return (Vec::new(), 0) };
    let span = max.checked_sub(min).and_then(|s| usize::try_from(s).ok()).and_then(|s| s.checked_add(1));
    if let Some(span) = span.filter(|&s| s <= ids.len().saturating_mul(4)) {
        let mut first = vec![usize::MAX; span];
        for (row, &id) in ids.iter().enumerate() {
            let slot = &mut first[(id - min) as usize];
            if *slot == usize::MAX {
                *slot = row;
            } else if !same(*slot, row) {
                differing += 1;
            }
        }
        let list =
            first.into_iter().enumerate().filter(|&(_, r)| r != usize::MAX).map(|(k, r)| (min + k as i64, r));
        return (list.collect(), differing);
    }
    let mut first: HashMap<i64, usize> = HashMap::new();
    for (row, &id) in ids.iter().enumerate() {
        match first.get(&id) {
            None => {
                first.insert(id, row);
            }
            Some(&f) => differing += usize::from(!same(f, row)),
        }
    }
    let mut list: Vec<(i64, usize)> = first.into_iter().collect();
    list.sort_unstable();
    (list, differing)
}

/// Whether two rows hold the same values in `columns`. Integer columns (Boxfish's coordinates)
/// are compared as they are: through `Column::number` this check was most of building a
/// 157k-link network.
fn same_in<'c>(columns: &'c [&'c Column]) -> impl Fn(usize, usize) -> bool + 'c {
    let ints: Option<Vec<&[i64]>> =
        columns.iter().map(|c| if let Column::Int(v) = c { Some(v.as_slice()) } else { None }).collect();
    move |a, b| match &ints {
        Some(ints) => ints.iter().all(|v| v.get(a) == v.get(b)),
        None => columns.iter().all(|c| c.number(a) == c.number(b)),
    }
}

/// The named numeric columns, or a warning naming the first missing one.
fn columns<'t>(
    table: &'t Table,
    names: &[String],
    warnings: &mut Vec<(String, String)>,
) -> Option<Vec<&'t Column>> {
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        match table.column(name) {
            Some(c) if c.is_numeric() => out.push(c),
            _ => {
                warnings.push((
                    table.name.clone(),
                    format!("no numeric coordinate column `{name}`; the network is incomplete"),
                ));
                return None;
            }
        }
    }
    Some(out)
}

/// Coordinates as a hashable key (`-0.0` and `0.0` alike).
fn key(coords: &[f64]) -> Vec<u64> {
    coords.iter().map(|&c| (c + 0.0).to_bits()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Domain;

    fn table(domain: Domain, key: &str, names: &[&str], rows: &[&[i64]]) -> Table {
        let columns = (0..names.len()).map(|c| Column::Int(rows.iter().map(|r| r[c]).collect())).collect();
        Table::new("t", domain, key, names.iter().map(|s| s.to_string()).collect(), columns).unwrap()
    }

    fn hardware() -> Hardware {
        Hardware {
            coords: vec!["x".into()],
            dims: Some(vec![3]),
            source_coords: vec!["sx".into()],
            destination_coords: vec!["tx".into()],
            ..Hardware::default()
        }
    }

    #[test]
    fn each_link_id_is_one_directed_link_between_the_nodes_at_its_coordinates() {
        let nodes = table(
            Domain::Nodes,
            "nodeid",
            &["nodeid", "x", "r"],
            &[&[7, 2, 1], &[5, 0, 1], &[6, 1, 1], &[5, 0, 2]],
        );
        let links = table(
            Domain::Links,
            "linkid",
            &["linkid", "sx", "tx"],
            &[&[1, 0, 2], &[0, 0, 1], &[1, 0, 2], &[2, 2, 9]],
        );
        let (net, warnings) = build_network(&hardware(), Some(&nodes), Some(&links));
        assert_eq!(net.nodes.iter().map(|n| n.id).collect::<Vec<_>>(), vec![5, 6, 7]);
        assert_eq!(
            net.links,
            vec![NetLink { id: 0, source: 0, target: 1 }, NetLink { id: 1, source: 0, target: 2 }]
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].1.contains("1 link ids have an end at coordinates where no node is"),
            "{warnings:?}"
        );
    }

    #[test]
    fn first_rows_are_found_alike_for_dense_and_sparse_ids() {
        let same = |a: usize, b: usize| a % 2 == b % 2;
        assert_eq!(first_rows(&[3, 1, 3, 1, 3], same), (vec![(1, 1), (3, 0)], 0));
        assert_eq!(first_rows(&[5, 1_000_000, 5, 1_000_000], same), (vec![(5, 0), (1_000_000, 1)], 0));
        assert_eq!(first_rows(&[7, 7], same).1, 1);
        assert_eq!(first_rows(&[], same), (vec![], 0));
    }

    #[test]
    fn rows_are_the_same_when_every_column_agrees_whatever_its_type() {
        let ints = [Column::Int(vec![1, 1, 1]), Column::Int(vec![4, 4, 5])];
        let mixed = [Column::Int(vec![1, 1, 1]), Column::Float(vec![4.0, 4.0, 4.5])];
        for columns in [&ints, &mixed] {
            let refs: Vec<&Column> = columns.iter().collect();
            let same = same_in(&refs);
            assert!(same(0, 1));
            assert!(!same(1, 2));
            assert!(!same(0, 3), "a row past the end is not the same");
        }
    }

    #[test]
    fn a_missing_coordinate_column_is_a_warning_not_a_panic() {
        let nodes = table(Domain::Nodes, "nodeid", &["nodeid", "y"], &[&[0, 0]]);
        let (net, warnings) = build_network(&hardware(), Some(&nodes), None);
        assert!(net.nodes.is_empty());
        assert!(warnings[0].1.contains("`x`"));
    }
}
