//! A loads file mapped onto a fabric: its rows become [`Loads`] (the same regions and total a
//! profile's trace gives), its comment lines the losses and the top-K attribution.

use std::collections::{BTreeMap, HashMap};

use petgraph::graph::EdgeIndex;

use crate::model::bytes::add_bytes;
use crate::model::{Cluster, EpochMicros, Guid, LinkEnd, NodeKind, Side, Warning};
use crate::profile_io::loads_file::LoadsFile;

use super::loads::{DropReason, Loads, RailLoad, RegionKey, RegionLoads, Undelivered};

/// (source host, destination host, bytes): hosts index `Cluster::hosts` (`None`: a host the
/// fabric does not have).
pub type TopPair = (Option<usize>, Option<usize>, u64);

/// The top-K contributors of link ends, per region, as a loads file carries them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopKTable {
    /// The summary's size (`IBPROF_TOPK`).
    pub k: usize,
    /// Per region, per (rail, link-end index): contributors, largest first. Counts are lower
    /// bounds; see [`super::topk`] for the error bound.
    pub ends: BTreeMap<RegionKey, HashMap<(usize, usize), Vec<TopPair>>>,
}

impl TopKTable {
    /// The contributors of one link end in one region (empty if none were kept).
    pub fn pairs(&self, key: RegionKey, rail: usize, end: LinkEnd) -> &[TopPair] {
        self.ends.get(&key).and_then(|m| m.get(&(rail, end.index()))).map_or(&[], Vec::as_slice)
    }
}

/// Where each row's link is: `(rail, a_guid, a_port, b_guid, b_port)` → edge.
type LinkIndex = HashMap<(u8, Guid, u8, Guid, u8), EdgeIndex>;

fn link_index(cluster: &Cluster) -> LinkIndex {
    let mut index = HashMap::new();
    for (r, fabric) in cluster.rails.iter().enumerate() {
        for edge in fabric.graph.edge_indices() {
            let Some((a, b)) = fabric.graph.edge_endpoints(edge) else { continue };
            let link = &fabric.graph[edge];
            let key = (r as u8, fabric.node(a).guid, link.a_port.0, fabric.node(b).guid, link.b_port.0);
            index.insert(key, edge);
        }
    }
    index
}

/// Rows that name a link the fabric does not have are skipped with one warning (counted); a
/// region whose rows are missing reads as zero bytes. Problems the writer met (`# problem`)
/// become warnings, so they reach the summary and the GUI's panel.
pub fn loads_from_file(cluster: &Cluster, file: &LoadsFile) -> (Loads, Option<TopKTable>, Vec<Warning>) {
    let mut warnings = Vec::new();
    let index = link_index(cluster);
    let find = |rail: u8, a: &str, ap: u8, b: &str, bp: u8| {
        let (a, b) = (Guid::parse_hex(a)?, Guid::parse_hex(b)?);
        index.get(&(rail, a, ap, b, bp)).copied()
    };
    let mut regions: BTreeMap<RegionKey, RegionLoads> = BTreeMap::new();
    // Sparse per (region, rail): a file of many small regions costs its rows, not regions ×
    // link ends (issue 24).
    let mut sparse: BTreeMap<(RegionKey, usize), BTreeMap<u32, u64>> = BTreeMap::new();
    let empty = || empty_region(cluster);
    let (mut unknown, mut first_unknown) = (0usize, None);
    for row in &file.rows {
        let Some(edge) = find(row.rail, &row.a_guid, row.a_port, &row.b_guid, row.b_port) else {
            unknown += 1;
            first_unknown.get_or_insert(row.line);
            continue;
        };
        let key = key_of(row.region);
        region_entry(&mut regions, key, &empty);
        let rail = usize::from(row.rail);
        let load = sparse.entry((key, rail)).or_default();
        for (side, bytes) in [(Side::A, row.bytes_a_to_b), (Side::B, row.bytes_b_to_a)] {
            if bytes > 0 {
                add_bytes(load.entry(LinkEnd { edge, side }.index() as u32).or_insert(0), bytes);
            }
        }
    }
    // Summed end by end while reading, then kept by the ends that carried bytes.
    for ((key, rail), bytes) in sparse {
        let ends = cluster.rails[rail].link_end_count();
        if let Some(load) = region_entry(&mut regions, key, &empty).rails.get_mut(rail) {
            load.bytes = super::LinkBytes::from_sorted(ends, bytes);
        }
    }
    if unknown > 0 {
        warnings.push(Warning::at(
            &file.path,
            first_unknown.unwrap_or(0),
            format!("{unknown} rows name a link these rails do not have (the first here); their bytes are not shown"),
        ));
    }
    apply_notes(cluster, file, &mut regions, &mut warnings);
    for (count, message) in &file.problems {
        warnings.push(Warning::in_file(&file.path, format!("{message} ({count} times while collecting)")));
    }
    let total = regions.remove(&RegionKey::Total);
    let mut loads = Loads { regions: regions.into_values().collect(), total: total.unwrap_or_default() };
    if loads.total.rails.is_empty() {
        warnings
            .push(Warning::in_file(&file.path, "no `total` rows: the whole run is the sum of the regions"));
        loads.total = RegionLoads::sum(&loads.regions);
        loads.total.rails.resize_with(cluster.rails.len(), || RailLoad::with_link_ends(0));
    }
    for region in loads.regions.iter_mut().chain([&mut loads.total]) {
        balance(cluster, region);
    }
    // Sums of the file's rows and notes saturate; a capped one is named, as a profile's is.
    warnings.extend(super::saturation::saturation_warnings(cluster, &loads, &file.path));
    let top = file.top_k.map(|k| top_table(cluster, file, k, &find));
    (loads, top, warnings)
}

/// The `#` notes of a loads file: region names and times, unplaced and intra-node bytes, and
/// undelivered bytes with their reasons.
fn apply_notes(
    cluster: &Cluster,
    file: &LoadsFile,
    regions: &mut BTreeMap<RegionKey, RegionLoads>,
    warnings: &mut Vec<Warning>,
) {
    let empty = || empty_region(cluster);
    for note in &file.regions {
        let r = region_entry(regions, RegionKey::Region(note.number), &empty);
        r.name = note.name.clone();
        r.dumptime = note.dumptime_micros.map(EpochMicros);
    }
    for &(key, bytes) in &file.unplaced {
        add_bytes(&mut region_entry(regions, key_of(key), &empty).unplaced_bytes, bytes);
    }
    for &(key, bytes) in &file.intra_node {
        add_bytes(&mut region_entry(regions, key_of(key), &empty).intra_node_bytes, bytes);
    }
    for note in &file.undelivered {
        let Some(reason) = DropReason::from_word(&note.reason) else {
            warnings
                .push(Warning::in_file(&file.path, format!("unknown undelivered reason `{}`", note.reason)));
            continue;
        };
        let Some(rail) =
            region_entry(regions, key_of(note.region), &empty).rails.get_mut(usize::from(note.rail))
        else {
            continue;
        };
        add_bytes(&mut rail.undelivered, note.bytes);
        rail.undelivered_detail.push(Undelivered {
            at: None,
            destination: crate::model::Lid(0),
            reason,
            bytes: note.bytes,
        });
    }
}

fn empty_region(cluster: &Cluster) -> RegionLoads {
    RegionLoads {
        rails: cluster.rails.iter().map(|f| RailLoad::with_link_ends(f.link_end_count())).collect(),
        ..Default::default()
    }
}

fn region_entry<'a>(
    regions: &'a mut BTreeMap<RegionKey, RegionLoads>,
    key: RegionKey,
    empty: &dyn Fn() -> RegionLoads,
) -> &'a mut RegionLoads {
    regions.entry(key).or_insert_with(|| RegionLoads {
        region: match key {
            RegionKey::Region(n) => Some(n),
            RegionKey::Total => None,
        },
        ..empty()
    })
}

fn key_of(region: Option<u32>) -> RegionKey {
    region.map_or(RegionKey::Total, RegionKey::Region)
}

/// A file says where bytes went, not where they came from: delivered is what entered a CA,
/// injected what was delivered plus what was not.
fn balance(cluster: &Cluster, region: &mut RegionLoads) {
    for (fabric, load) in cluster.rails.iter().zip(region.rails.iter_mut()) {
        let mut delivered = 0u64;
        for (i, bytes) in load.bytes.nonzero() {
            let into_ca = fabric
                .link_end_nodes(LinkEnd::from_index(i))
                .is_some_and(|(_, (to, _))| fabric.node(to).kind == NodeKind::Ca);
            if into_ca {
                delivered = delivered.saturating_add(bytes);
            }
        }
        load.delivered = delivered;
        load.injected = delivered.saturating_add(load.undelivered);
    }
}

/// Finds a link by (rail, GUID of end A, its port, GUID of end B, its port).
type FindLink<'a> = dyn Fn(u8, &str, u8, &str, u8) -> Option<EdgeIndex> + 'a;

fn top_table(cluster: &Cluster, file: &LoadsFile, k: usize, find: &FindLink<'_>) -> TopKTable {
    let mut table = TopKTable { k, ends: BTreeMap::new() };
    for note in &file.top {
        let Some(edge) = find(note.rail, &note.a_guid, note.a_port, &note.b_guid, note.b_port) else {
            continue;
        };
        let side = if note.a_to_b { Side::A } else { Side::B };
        let end = LinkEnd { edge, side }.index();
        let pair = (cluster.host_index(&note.src_host), cluster.host_index(&note.dst_host), note.bytes);
        table
            .ends
            .entry(key_of(note.region))
            .or_default()
            .entry((usize::from(note.rail), end))
            .or_default()
            .push(pair);
    }
    for ends in table.ends.values_mut() {
        for pairs in ends.values_mut() {
            pairs.sort_by_key(|pair| std::cmp::Reverse(pair.2));
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_fabric::two_leaves;
    use crate::profile_io::Input;
    use crate::profile_io::loads_file::parse_loads_file;

    #[test]
    fn comment_sums_past_two_to_the_64_saturate_and_are_named() {
        let text = "# intra_node,total,18446744073709551615\n# intra_node,total,5\n\
                    # undelivered,total,0,unreachable,18446744073709551615\n\
                    # undelivered,total,0,unreachable,5\n\
                    rail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a\n";
        let (file, _) = parse_loads_file(&Input::from_text("l.csv", text)).unwrap();
        let cluster = Cluster::new(vec![two_leaves().fabric]);
        let (loads, _, warnings) = loads_from_file(&cluster, &file);
        assert_eq!(loads.total.intra_node_bytes, u64::MAX, "capped, not 4 B");
        assert_eq!(loads.total.rails[0].undelivered, u64::MAX);
        let overflow: Vec<_> = warnings.iter().filter(|w| w.message.contains("byte sum overflow")).collect();
        assert_eq!(overflow.len(), 2, "the rail's undelivered total and the intra-node bytes: {warnings:?}");
    }
}
