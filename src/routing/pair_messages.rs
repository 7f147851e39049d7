//! The `messages` of a traffic matrix's rows (issue 23 items 3-4): each rank pair's messages,
//! from the profile's counts ([`crate::model::message_counts`]), go where the pair's bytes go.
//!
//! - A pair's bytes are split over the rails by the rail policy; its messages follow the same
//!   split, rounded by largest remainder (ties to the lower rail), so a pair's messages add up
//!   exactly over its rows and a matrix of every rail sums to the profile's count. (Whether one
//!   message was striped over two rails is not known: a message is counted once.)
//! - Intra-node pairs' messages go whole to their row (no rail).
//! - Only the bytes that reached a row carry messages: port-level counters name no rank pair.
//! - With counts, every row has `Some` (possibly 0); without, the caller leaves them `None`.

use std::collections::BTreeMap;

use crate::model::Cluster;
use crate::model::message_counts::RankPairMessages;

use super::flows::FlowSet;
use super::pair_table::{PairTable, flow_key, intra_node_key};

/// A row key: (src entity, dst entity, rail).
type RowKey = (u32, u32, Option<u8>);

/// Fills `table`'s `messages` from `messages` (made from the same profile and region as `flows`).
pub fn add_messages(table: &mut PairTable, cluster: &Cluster, flows: &FlowSet, messages: &RankPairMessages) {
    for row in &mut table.rows {
        row.messages = Some(0);
    }
    for ((src, dst), parts) in bytes_per_row(table, cluster, flows) {
        let count = messages.get(src, dst);
        if count == 0 {
            continue;
        }
        for (key, share) in split(count, &parts) {
            let found = table.rows.binary_search_by_key(&key, |r| (r.src, r.dst, r.rail));
            if let Ok(at) = found {
                let cell = table.rows[at].messages.get_or_insert(0);
                *cell = cell.saturating_add(share);
            }
        }
    }
}

/// Each rank pair's bytes per row, rows in key order.
fn bytes_per_row(
    table: &PairTable,
    cluster: &Cluster,
    flows: &FlowSet,
) -> BTreeMap<(u32, u32), Vec<(RowKey, u64)>> {
    let mut pairs: BTreeMap<(u32, u32), BTreeMap<RowKey, u64>> = BTreeMap::new();
    let mut add = |pair, key, bytes: u64| {
        let cell = pairs.entry(pair).or_default().entry(key).or_default();
        *cell = cell.saturating_add(bytes);
    };
    for (r, (rail_flows, origins)) in flows.flows.iter().zip(&flows.origins).enumerate() {
        let (Some(fabric), Ok(rail)) = (cluster.rails.get(r), u8::try_from(r)) else { continue };
        for (flow, origin) in rail_flows.iter().zip(origins) {
            let Some(dst_rank) = origin.dst_rank else { continue };
            if let Some((src, dst)) = flow_key(fabric, table.by, flow, origin) {
                add((origin.src_rank, dst_rank), (src, dst, Some(rail)), flow.bytes);
            }
        }
    }
    for (origin, bytes) in &flows.intra_node_pairs {
        let Some(dst_rank) = origin.dst_rank else { continue };
        if let Some(key) = intra_node_key(cluster, table.by, origin) {
            add((origin.src_rank, dst_rank), key, *bytes);
        }
    }
    pairs.into_iter().map(|(pair, rows)| (pair, rows.into_iter().collect())).collect()
}

/// `count` split in proportion to the parts' bytes, by largest remainder (ties to the first).
fn split(count: u64, parts: &[(RowKey, u64)]) -> Vec<(RowKey, u64)> {
    let total: u128 = parts.iter().map(|p| u128::from(p.1)).sum();
    if total == 0 {
        return parts.first().map(|p| vec![(p.0, count)]).unwrap_or_default();
    }
    let mut shares: Vec<(RowKey, u64, u128)> = parts
        .iter()
        .map(|&(key, bytes)| {
            let exact = u128::from(count) * u128::from(bytes);
            (key, (exact / total) as u64, exact % total)
        })
        .collect();
    let given: u64 = shares.iter().map(|s| s.1).sum();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|&a, &b| shares[b].2.cmp(&shares[a].2).then(a.cmp(&b)));
    for &i in order.iter().take(count.saturating_sub(given) as usize) {
        shares[i].1 += 1;
    }
    shares.into_iter().map(|(key, share, _)| (key, share)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_follow_the_bytes_and_add_up_exactly() {
        let parts = [((0, 1, Some(0)), 300), ((0, 1, Some(1)), 100)];
        assert_eq!(split(4, &parts), vec![((0, 1, Some(0)), 3), ((0, 1, Some(1)), 1)]);
        assert_eq!(split(1, &parts), vec![((0, 1, Some(0)), 1), ((0, 1, Some(1)), 0)]);
        let even = [((0, 1, Some(0)), 5), ((0, 1, Some(1)), 5)];
        assert_eq!(split(3, &even), vec![((0, 1, Some(0)), 2), ((0, 1, Some(1)), 1)]);
        let total: u64 = split(u64::MAX, &parts).iter().map(|p| p.1).sum();
        assert_eq!(total, u64::MAX);
    }
}
