//! The pair table's hop classes looked up from the switch counts a data set keeps, and its rows
//! merged without a sort, against walking the tables and sorting: the same table, on tables
//! with a loop and a hole.

use super::*;
use crate::model::test_fabric::{TwoLeaves, set_row, two_leaves};
use crate::model::{LftEntry, PeerBytes, PortNum, RankSection};
use crate::routing::switch_count::{keep_switch_counts, kept_count};
use crate::routing::{FlowBuilder, HostMap, RailPolicy, RankTraffic, trace};

/// Two ranks on each of the four hosts of `two_leaves`, rank r on host r / 2; every rank sends
/// to every rank (its own host's included, intra-node), r * 10 + peer bytes.
fn all_to_all(cluster: &Cluster) -> FlowSet {
    let hosts = ["n0001", "n0002", "n0003", "n0004"];
    let sections: Vec<RankSection> = (0..8u32)
        .map(|r| RankSection { rank: r, host: hosts[r as usize / 2].to_string(), ..Default::default() })
        .collect();
    let peers: Vec<Vec<PeerBytes>> = (0..8u64)
        .map(|r| {
            (0..8u32)
                .filter(|&p| u64::from(p) != r)
                .map(|peer| PeerBytes { peer, sent: r * 10 + u64::from(peer), recv: 0 })
                .collect()
        })
        .collect();
    let traffic: Vec<RankTraffic> = sections
        .iter()
        .zip(&peers)
        .map(|(section, peers)| RankTraffic { section, peers, lids: &[] })
        .collect();
    FlowBuilder::new(cluster, RailPolicy::Split, &HostMap::default()).keep_origins(true).flows(&traffic)
}

/// `two_leaves` with a loop (the spine sends n0004's LID back down to leaf 0) and a hole
/// (leaf 1 has no row for n0003's LID).
fn broken() -> Cluster {
    let TwoLeaves { mut fabric, leaf, spine, .. } = two_leaves();
    set_row(&mut fabric, spine, Lid(0x13), LftEntry::Port(PortNum(1)));
    set_row(&mut fabric, leaf[1], Lid(0x12), LftEntry::Missing);
    Cluster::new(vec![fabric])
}

#[test]
fn kept_switch_counts_are_what_tracing_each_flow_finds_on_tables_with_a_loop_and_a_hole() {
    let cluster = broken();
    let mut set = all_to_all(&cluster);
    keep_switch_counts(&cluster, &mut set);
    let fabric = &cluster.rails[0];
    assert_eq!(set.hops[0].len(), set.flows[0].len());
    let traced: Vec<Option<u32>> = set.flows[0]
        .iter()
        .map(|f| {
            let path = trace(fabric, f.src, f.dst);
            let switches = path.hops.iter().filter(|h| fabric.node(h.node).kind == NodeKind::Switch);
            path.delivered().then_some(switches.count() as u32)
        })
        .collect();
    let kept: Vec<Option<u32>> = set.hops[0].iter().map(|&b| kept_count(b)).collect();
    assert_eq!(kept, traced);
    assert!(kept.contains(&None) && kept.contains(&Some(3)) && kept.contains(&Some(1)));
}

#[test]
fn a_table_from_kept_switch_counts_is_the_table_from_walking_the_tables() {
    let cluster = broken();
    let walked = all_to_all(&cluster);
    let mut kept = walked.clone();
    keep_switch_counts(&cluster, &mut kept);
    for by in [Granularity::Rank, Granularity::Host, Granularity::Leaf] {
        let table = pair_table(&cluster, &kept, by);
        assert_eq!(table, pair_table(&cluster, &walked, by), "{by:?}");
        assert!(table.rows.iter().any(|r| r.hops.is_none()) && table.rows.iter().any(|r| r.hops == Some(0)));
    }
}

#[test]
fn flows_out_of_sender_order_give_the_table_flows_in_order_give() {
    let cluster = broken();
    let mut ordered = all_to_all(&cluster);
    keep_switch_counts(&cluster, &mut ordered);
    let mut shuffled = ordered.clone();
    shuffled.flows[0].reverse();
    shuffled.origins[0].reverse();
    shuffled.hops[0].reverse();
    shuffled.intra_node_pairs.reverse();
    // At rank granularity the ordered flows are merged, the shuffled ones sorted.
    let merged = |set: &FlowSet| {
        let counts = vec![Some(RailCounts::of(&cluster.rails[0], set, 0))];
        merged_rows(&cluster, set, Granularity::Rank, &counts).is_some()
    };
    assert!(merged(&ordered) && !merged(&shuffled));
    for by in [Granularity::Rank, Granularity::Host, Granularity::Leaf] {
        let table = pair_table(&cluster, &ordered, by);
        assert_eq!(table, pair_table(&cluster, &shuffled, by), "{by:?}");
        assert!(
            table.rows.windows(2).all(|w| (w[0].src, w[0].dst, w[0].rail) < (w[1].src, w[1].dst, w[1].rail))
        );
    }
}
