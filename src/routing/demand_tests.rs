//! Specifications: tracing regions together through the demand matrix gives exactly what
//! tracing each region's flow list on its own gives, broken tables included.

use super::*;
use crate::model::synthetic::TwoLevel;
use crate::model::test_fabric::set_row;
use crate::model::{Cluster, Guid, LftEntry, LidBytes, LocalPort, PeerBytes, PortNum, RailId, RankSection};
use crate::routing::flows::{HostMap, RailPolicy, RankTraffic};
use crate::routing::profile_loads::region_loads;

/// Rail 0: n0001..n0012; rail 1: n0001..n0009, so three hosts are on rail 0 only.
fn cluster() -> Cluster {
    Cluster::new(vec![
        TwoLevel::new(4, 3, 2).build(),
        TwoLevel::new(3, 3, 2).rail(RailId(1), 0x9000_0000).build(),
    ])
}

/// Two ranks per host (so some traffic is intra-node), plus a rank on an unknown host.
fn sections(cluster: &Cluster) -> Vec<RankSection> {
    let mut ranks: Vec<RankSection> = (0..cluster.hosts.len() * 2)
        .map(|r| RankSection {
            rank: r as u32,
            host: cluster.hosts[r / 2].name.clone(),
            ..Default::default()
        })
        .collect();
    let port_guid = cluster.rails[0].node(cluster.hosts[0].on_rail(0)[0]).ports[&PortNum(1)].guid;
    ranks[0].ports =
        vec![LocalPort { index: 0, guid: port_guid.unwrap_or(Guid(0)), lid: Lid(0), ..Default::default() }];
    ranks.push(RankSection { rank: ranks.len() as u32, host: "elsewhere".into(), ..Default::default() });
    ranks
}

/// Region `region`'s counters: everyone to everyone, with bytes varying by pair and region.
fn counters(ranks: usize, region: u64) -> Vec<(Vec<PeerBytes>, Vec<LidBytes>)> {
    (0..ranks)
        .map(|r| {
            let peers = (0..ranks as u32)
                .filter(|&p| p as usize != r)
                .map(|p| PeerBytes {
                    peer: p,
                    sent: (r as u64 * 7 + u64::from(p) * 3 + region) % 11 * 100,
                    recv: 0,
                })
                .collect();
            // Rank 0 also counts port-level traffic: to a host, to a switch LID, to a LID no port owns.
            let lids = if r == 0 {
                [0x1, 0x9, 0x12, 0x7777]
                    .into_iter()
                    .map(|lid| LidBytes { port: 0, lid: Lid(lid), sent: 1000 + region, recv: 10 * region })
                    .collect()
            } else {
                Vec::new()
            };
            (peers, lids)
        })
        .collect()
}

/// Traces three regions both ways, under both rail policies; returns the split policy's loads.
fn assert_together_equals_one_by_one(cluster: &Cluster) -> Vec<RegionLoads> {
    let sections = sections(cluster);
    let regions: Vec<_> = (0..3).map(|region| counters(sections.len(), region)).collect();
    let inputs: Vec<RegionInput<'_>> = regions
        .iter()
        .enumerate()
        .map(|(n, counters)| RegionInput {
            region: Some(n as u32 + 1),
            ranks: sections
                .iter()
                .zip(counters)
                .map(|(section, (peers, lids))| RankTraffic { section, peers, lids })
                .collect(),
            ..Default::default()
        })
        .collect();
    let refs: Vec<&RegionInput<'_>> = inputs.iter().collect();
    let map = HostMap::default();
    let mut split = Vec::new();
    for policy in [RailPolicy::Rail(0), RailPolicy::Split] {
        let mut builder = FlowBuilder::new(cluster, policy, &map);
        let together = trace_together(cluster, &mut builder, &refs).expect("a small matrix");
        let mut builder = FlowBuilder::new(cluster, policy, &map);
        let one_by_one: Vec<RegionLoads> =
            inputs.iter().map(|input| region_loads(cluster, input, &builder.flows(&input.ranks))).collect();
        assert_eq!(together, one_by_one, "{policy:?}");
        assert!(together.iter().all(|r| r.rails.iter().all(RailLoad::is_conserved)));
        assert!(together.iter().all(|r| r.intra_node_bytes > 0 && r.unplaced_bytes > 0));
        split = together;
    }
    split
}

#[test]
fn regions_traced_together_equal_each_region_traced_alone() {
    assert_together_equals_one_by_one(&cluster());
}

#[test]
fn loops_and_holes_are_credited_as_a_per_pair_trace_would() {
    let mut cluster = cluster();
    let fabric = &mut cluster.rails[0];
    let switches: Vec<NodeIndex> = fabric.switches().collect();
    let dst = fabric.node(cluster.hosts[11].on_rail(0)[0]).base_lid().unwrap();
    // Find a leaf that sends `dst` up to a spine, and bounce it back down from there: a loop.
    let (leaf, spine) = switches
        .iter()
        .find_map(|&s| {
            let port = next_port(fabric, s, dst).ok()?;
            let (_, up, _) = fabric.out_through(s, port)?;
            let is_spine_bound = fabric.node(up).kind == NodeKind::Switch;
            is_spine_bound.then_some((s, up)).filter(|(s, up)| {
                fabric.node(*up).description.starts_with("L2")
                    && fabric.node(*s).description.starts_with("L1")
            })
        })
        .expect("a leaf routing up");
    let back = (1..=fabric.node(spine).num_ports)
        .map(PortNum)
        .find(|&p| fabric.out_through(spine, p).is_some_and(|(_, n, _)| n == leaf))
        .expect("the spine's port to the leaf");
    set_row(fabric, spine, dst, LftEntry::Port(back));
    // And a hole for another destination.
    let other = fabric.node(cluster.hosts[5].on_rail(0)[0]).base_lid().unwrap();
    set_row(fabric, spine, other, LftEntry::Missing);
    let loads = assert_together_equals_one_by_one(&cluster);
    let reasons: Vec<DropReason> = loads[0].rails[0].undelivered_detail.iter().map(|u| u.reason).collect();
    assert!(reasons.contains(&DropReason::Loop), "{reasons:?}");
    assert!(reasons.contains(&DropReason::MissingEntry), "{reasons:?}");
    assert!(reasons.contains(&DropReason::UnknownDestination), "{reasons:?}");
}
