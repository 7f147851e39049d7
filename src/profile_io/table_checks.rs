//! Checks of the forwarding tables against the links, once the rail is built. Real dumps are
//! dirty: a switch table may lack a range of LIDs (a dump cut short, a switch that was being
//! reprogrammed), or route LIDs out of a port whose cable is missing from the topology (an uplink
//! that was down when the fabric was discovered). Tracing still runs; these warnings say in
//! advance where traffic will be dropped, naming the table's file and header line.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::model::{Fabric, Guid, LftEntry, Lid, LidSet, PortNum, Warning};

/// Warns, per table (`(file, switch, header line)`), about CA LIDs it has no row for and about
/// ports it routes to that have no link.
pub fn check_tables(fabric: &Fabric, tables: &[(&str, Guid, usize)]) -> Vec<Warning> {
    let ca_lids: LidSet = fabric
        .cas()
        .flat_map(|ca| fabric.node(ca).ports.values())
        .filter(|p| p.lid.0 != 0)
        .flat_map(|p| {
            (0..1u32 << p.lmc.min(7)).filter_map(move |i| u16::try_from(u32::from(p.lid.0) + i).ok())
        })
        .map(Lid)
        .collect();
    // Each switch's table on its own (a k = 36 rail has 1,620 of 23,000 rows), on every core.
    let per_table: Vec<Vec<Warning>> = tables
        .par_iter()
        .map(|&(file, guid, line)| table_warnings(fabric, &ca_lids, (file, guid, line)))
        .collect();
    per_table.into_iter().flatten().collect()
}

/// [`check_tables`] of one table.
fn table_warnings(
    fabric: &Fabric,
    ca_lids: &LidSet,
    (file, guid, line): (&str, Guid, usize),
) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let Some(node) = fabric.node_by_guid(guid) else { return warnings };
    let Some(lft) = fabric.lft(node) else { return warnings };
    let name = format!("switch {guid} ({})", fabric.node(node).description);
    let missing = lft.missing(ca_lids);
    if !missing.is_empty() {
        let message = format!(
            "{name} has no route to {} CA LIDs ({}); traffic to them is dropped at this switch",
            missing.len(),
            ranges(&missing)
        );
        warnings.push(Warning::at(file, line, message));
    }
    // Which ports have a cable, looked up once per switch rather than once per row.
    let mut linked = [false; 256];
    for (port, slot) in linked.iter_mut().enumerate() {
        *slot = port == 0 || fabric.link_at(node, PortNum(port as u8)).is_some();
    }
    let mut dead: BTreeMap<PortNum, Vec<u16>> = BTreeMap::new();
    // Most tables route only out of linked ports, which one pass over their ports tells.
    let used = lft.ports_used();
    if used.iter().zip(&linked).any(|(&used, &linked)| used && !linked) {
        for (lid, entry) in lft.entries() {
            if let LftEntry::Port(port) = entry
                && !linked[usize::from(port.0)]
            {
                dead.entry(port).or_default().push(lid.0);
            }
        }
    }
    for (port, lids) in dead {
        let message = format!(
            "{name} routes {} LIDs ({}) out of port {port}, which has no link (a missing cable?); \
             they are dropped there",
            lids.len(),
            ranges(&lids)
        );
        warnings.push(Warning::at(file, line, message));
    }
    warnings
}

/// `[1, 2, 3, 7]` → `0x0001-0x0003, 0x0007` (at most five ranges, then a count).
pub fn ranges(sorted: &[u16]) -> String {
    let mut spans: Vec<(u16, u16)> = Vec::new();
    for &lid in sorted {
        match spans.last_mut() {
            Some((_, end)) if u32::from(*end) + 1 == u32::from(lid) => *end = lid,
            _ => spans.push((lid, lid)),
        }
    }
    let shown: Vec<String> = spans
        .iter()
        .take(5)
        .map(|&(a, b)| if a == b { Lid(a).to_string() } else { format!("{}-{}", Lid(a), Lid(b)) })
        .collect();
    let more = if spans.len() > 5 { format!(" and {} more ranges", spans.len() - 5) } else { String::new() };
    format!("{}{more}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_fabric::{TwoLeaves, set_row, two_leaves};

    #[test]
    fn lid_ranges_are_joined_and_capped() {
        assert_eq!(ranges(&[1, 2, 3, 7]), "0x0001-0x0003, 0x0007");
        assert_eq!(
            ranges(&[1, 3, 5, 7, 9, 11, 13]),
            "0x0001, 0x0003, 0x0005, 0x0007, 0x0009 and 2 more ranges"
        );
    }

    #[test]
    fn a_table_without_rows_for_ca_lids_and_one_routing_into_an_empty_port_are_named() {
        let TwoLeaves { mut fabric, leaf, .. } = two_leaves();
        let guid = fabric.node(leaf[0]).guid;
        set_row(&mut fabric, leaf[0], Lid(0x12), LftEntry::Missing);
        set_row(&mut fabric, leaf[0], Lid(0x13), LftEntry::Port(PortNum(9)));
        let warnings = check_tables(&fabric, &[("t.fdbs", guid, 4)]);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings.iter().all(|w| w.file == "t.fdbs" && w.line == Some(4)));
        assert!(warnings[0].message.contains("no route to 1 CA LIDs (0x0012)"), "{}", warnings[0]);
        assert!(warnings[1].message.contains("out of port 9, which has no link"), "{}", warnings[1]);
    }

    #[test]
    fn complete_tables_raise_nothing() {
        let TwoLeaves { fabric, leaf, spine, .. } = two_leaves();
        let tables: Vec<_> =
            [leaf[0], leaf[1], spine].iter().map(|&n| ("t", fabric.node(n).guid, 1)).collect();
        assert!(check_tables(&fabric, &tables).is_empty());
    }
}
