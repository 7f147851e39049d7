//! Specifications of profile → flow placement.

use super::*;
use crate::model::synthetic::TwoLevel;
use crate::model::{Cluster, Guid, LidBytes, LocalPort, PeerBytes, RailId, RankSection};

/// Rail 0: n0001..n0008; rail 1: n0001..n0006, so n0007 and n0008 are on rail 0 only.
fn cluster() -> Cluster {
    Cluster::new(vec![
        TwoLevel::new(4, 2, 2).build(),
        TwoLevel::new(3, 2, 2).rail(RailId(1), 0x9000_0000).build(),
    ])
}

fn rank(rank: u32, host: &str) -> RankSection {
    RankSection { rank, host: host.into(), ..Default::default() }
}

fn traffic<'a>(section: &'a RankSection, peers: &'a [PeerBytes], lids: &'a [LidBytes]) -> RankTraffic<'a> {
    RankTraffic { section, peers, lids }
}

fn sent(peer: u32, bytes: u64) -> PeerBytes {
    PeerBytes { peer, sent: bytes, recv: 0 }
}

fn rail_bytes(set: &FlowSet) -> Vec<u64> {
    set.flows.iter().map(|f| f.iter().map(|x| x.bytes).sum()).collect()
}

#[test]
fn split_policy_spreads_bytes_evenly_over_shared_rails_without_losing_any() {
    let cluster = cluster();
    let (a, b) = (rank(0, "n0001"), rank(1, "n0005"));
    let peers = [sent(1, 1001)];
    let map = HostMap::default();
    let mut builder = FlowBuilder::new(&cluster, RailPolicy::Split, &map);
    let set = builder.flows(&[traffic(&a, &peers, &[]), traffic(&b, &[], &[])]);
    assert_eq!(rail_bytes(&set), vec![501, 500]);
}

#[test]
fn split_policy_over_eleven_rails_spreads_over_every_shared_one() {
    // Rail 5 lacks n0005, so the pair shares 10 of 11 rails.
    let rails: Vec<_> = (0..11u8)
        .map(|r| {
            let hosts = if r == 5 { 4 } else { 8 };
            TwoLevel::new(hosts / 2, 2, 2).rail(RailId(r), 0x1000_0000 * (u64::from(r) + 1)).build()
        })
        .collect();
    let cluster = Cluster::new(rails);
    let (a, b) = (rank(0, "n0001"), rank(1, "n0005"));
    let peers = [sent(1, 1003)];
    let map = HostMap::default();
    let set = FlowBuilder::new(&cluster, RailPolicy::Split, &map)
        .flows(&[traffic(&a, &peers, &[]), traffic(&b, &[], &[])]);
    assert_eq!(rail_bytes(&set), vec![101, 101, 101, 100, 100, 0, 100, 100, 100, 100, 100]);
}

#[test]
fn a_host_on_one_rail_only_sends_everything_on_that_rail() {
    let cluster = cluster();
    let (a, b) = (rank(0, "n0001"), rank(1, "n0008"));
    let peers = [sent(1, 1000)];
    let map = HostMap::default();
    let set = FlowBuilder::new(&cluster, RailPolicy::Split, &map)
        .flows(&[traffic(&a, &peers, &[]), traffic(&b, &[], &[])]);
    assert_eq!(rail_bytes(&set), vec![1000, 0]);
}

#[test]
fn rail_policy_pins_traffic_and_counts_what_it_cannot_place() {
    let cluster = cluster();
    let (a, b, c) = (rank(0, "n0001"), rank(1, "n0002"), rank(2, "n0008"));
    let peers = [sent(1, 300), sent(2, 50)];
    let map = HostMap::default();
    let mut builder = FlowBuilder::new(&cluster, RailPolicy::Rail(1), &map);
    let set = builder.flows(&[traffic(&a, &peers, &[]), traffic(&b, &[], &[]), traffic(&c, &[], &[])]);
    assert_eq!(rail_bytes(&set), vec![0, 300]);
    assert_eq!(set.unplaced_bytes, 50);
    let warnings = builder.warnings("p.ibprof");
    assert!(
        warnings.iter().any(|w| w.message.contains("n0008") && w.message.contains("rail 1")),
        "{warnings:?}"
    );
}

#[test]
fn ranks_on_the_same_host_are_intra_node_and_not_traced() {
    let cluster = cluster();
    let (a, b) = (rank(0, "n0003"), rank(1, "n0003"));
    let peers = [sent(1, 77)];
    let map = HostMap::default();
    let set = FlowBuilder::new(&cluster, RailPolicy::Split, &map)
        .flows(&[traffic(&a, &peers, &[]), traffic(&b, &[], &[])]);
    assert_eq!(set.intra_node_bytes, 77);
    assert_eq!(rail_bytes(&set), vec![0, 0]);
}

#[test]
fn unknown_hosts_are_unplaced_and_named_once_until_mapped() {
    let cluster = cluster();
    let (a, b) = (rank(0, "node-a"), rank(1, "n0002"));
    let peers = [sent(1, 10)];
    let ranks = [traffic(&a, &peers, &[]), traffic(&b, &[], &[])];
    let map = HostMap::default();
    let mut builder = FlowBuilder::new(&cluster, RailPolicy::Split, &map);
    builder.flows(&ranks);
    let set = builder.flows(&ranks);
    assert_eq!(set.unplaced_bytes, 10);
    let warnings = builder.warnings("p.ibprof");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.contains("node-a") && warnings[0].message.contains("20 bytes"));

    let map = HostMap { hosts: [("node-a".to_string(), "n0001".to_string())].into(), ..Default::default() };
    let set = FlowBuilder::new(&cluster, RailPolicy::Split, &map).flows(&ranks);
    assert_eq!(set.unplaced_bytes, 0);
    assert_eq!(rail_bytes(&set).iter().sum::<u64>(), 10);
}

#[test]
fn port_level_counters_flow_from_the_port_and_reads_flow_toward_it() {
    let cluster = cluster();
    let fabric = &cluster.rails[1];
    let host = cluster.host_index("n0002").unwrap();
    let ca = cluster.hosts[host].on_rail(1)[0];
    let info = *fabric.node(ca).ports.values().next().unwrap();
    let mut section = rank(0, "n0002");
    section.ports =
        vec![LocalPort { index: 0, guid: info.guid.unwrap(), lid: info.lid, ..Default::default() }];
    let far =
        fabric.node(cluster.hosts[cluster.host_index("n0005").unwrap()].on_rail(1)[0]).base_lid().unwrap();
    let lids = [LidBytes { port: 0, lid: far, sent: 40, recv: 2 }];
    let map = HostMap::default();
    let set = FlowBuilder::new(&cluster, RailPolicy::Split, &map).keep_origins(true).flows(&[traffic(
        &section,
        &[],
        &lids,
    )]);
    assert!(set.flows[0].is_empty());
    assert_eq!(
        set.flows[1],
        vec![Flow { src: info.lid, dst: far, bytes: 40 }, Flow { src: far, dst: info.lid, bytes: 2 }]
    );
    assert_eq!(set.origins[1][1].src_host_index(), cluster.host_index("n0005"));
}

#[test]
fn a_port_guid_in_no_fabric_is_unplaced_with_a_warning() {
    let cluster = cluster();
    let mut section = rank(0, "n0002");
    section.ports = vec![LocalPort { index: 0, guid: Guid(0xdead), ..Default::default() }];
    let lids = [LidBytes { port: 0, lid: crate::model::Lid(5), sent: 9, recv: 0 }];
    let map = HostMap::default();
    let mut builder = FlowBuilder::new(&cluster, RailPolicy::Split, &map);
    let set = builder.flows(&[traffic(&section, &[], &lids)]);
    assert_eq!(set.unplaced_bytes, 9);
    assert!(builder.warnings("p").iter().any(|w| w.message.contains("0x000000000000dead")));
}

#[test]
fn a_rank_entry_in_the_host_map_places_that_rank_whatever_its_host_name() {
    let cluster = cluster();
    let (a, b) = (rank(0, "vm"), rank(1, "vm"));
    let peers = [sent(1, 10)];
    let ranks = [traffic(&a, &peers, &[]), traffic(&b, &[], &[])];
    let map = HostMap { hosts: [("vm".to_string(), "n0001".to_string())].into(), ..Default::default() };
    let set = FlowBuilder::new(&cluster, RailPolicy::Split, &map).flows(&ranks);
    assert_eq!(set.intra_node_bytes, 10, "both ranks on one host");
    let map = HostMap { ranks: [(1, "n0005".to_string())].into(), ..map };
    let set = FlowBuilder::new(&cluster, RailPolicy::Split, &map).flows(&ranks);
    assert_eq!((set.intra_node_bytes, rail_bytes(&set).iter().sum::<u64>()), (0, 10));
}
