//! Engines on small built fabrics; the sample dumps and random trees are in `tests/route.rs`.

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;

use super::*;
use crate::model::synthetic::ThreeLevel;
use crate::model::test_fabric::{TwoLeaves, two_leaves};
use crate::model::{FabricBuilder, Guid, Lid, Node, NodeKind, PortInfo, RailId};
use crate::routing::trace;

/// Two 6-port switches (GUIDs 0x100, 0x101), each with `hosts` CAs on ports 1.., cabled to each
/// other by `isls` parallel links on the ports after the hosts: the thesis's testbed, small.
fn two_switches(hosts: u8, isls: u8) -> Fabric {
    let mut b = FabricBuilder::new(RailId(0));
    let add = |b: &mut FabricBuilder, guid: u64, kind: NodeKind, desc: String, lid: u16| {
        let port = if kind == NodeKind::Switch { PortNum(0) } else { PortNum(1) };
        let info = PortInfo { guid: Some(Guid(guid)), lid: Lid(lid), lmc: 0 };
        let ports = BTreeMap::from([(port, info)]);
        let num_ports = if kind == NodeKind::Switch { hosts + isls } else { 1 };
        b.add_node(Node { guid: Guid(guid), system_guid: None, kind, description: desc, num_ports, ports })
            .unwrap()
    };
    let switches = [0, 1].map(|i| add(&mut b, 0x100 + i, NodeKind::Switch, format!("sw{i}"), 1 + i as u16));
    for (i, &sw) in switches.iter().enumerate() {
        for h in 0..hosts {
            let n = i as u16 * u16::from(hosts) + u16::from(h);
            let ca = add(&mut b, 0x1000 + u64::from(n), NodeKind::Ca, format!("n{n:04} HCA-1"), 0x10 + n);
            b.add_link((sw, PortNum(h + 1)), (ca, PortNum(1)), None, None).unwrap();
        }
    }
    for l in 0..isls {
        let port = PortNum(hosts + 1 + l);
        b.add_link((switches[0], port), (switches[1], port), None, None).unwrap();
    }
    b.build()
}

fn ca_lids(fabric: &Fabric) -> Vec<Lid> {
    let mut lids: Vec<Lid> = fabric
        .cas()
        .flat_map(|ca| {
            fabric.node(ca).ports.values().flat_map(|i| (0..1u16 << i.lmc).map(move |k| Lid(i.lid.0 + k)))
        })
        .collect();
    lids.sort_unstable();
    lids
}

/// Traces every CA pair; returns the switch hops of each path, panicking on any undelivered.
fn every_pair_delivered(fabric: &Fabric) -> Vec<(Lid, Lid, usize)> {
    let lids = ca_lids(fabric);
    let mut paths = Vec::new();
    for &src in &lids {
        for &dst in &lids {
            let (a, b) = (fabric.owner_of_lid(src).unwrap(), fabric.owner_of_lid(dst).unwrap());
            if a.node == b.node {
                continue;
            }
            let path = trace(fabric, src, dst);
            assert!(path.delivered(), "{src} → {dst}: {:?}", path.outcome);
            paths.push((src, dst, path.hops.len() - 2));
        }
    }
    paths
}

fn switch_named(fabric: &Fabric, name: &str) -> NodeIndex {
    fabric.switches().find(|&s| fabric.node(s).description == name).unwrap()
}

#[test]
fn dmodk_on_a_k_ary_tree_rebuilds_the_generators_d_mod_k_rows_for_every_host() {
    let fabric = ThreeLevel::k_ary(4).build();
    let (routed, warnings) = route(&fabric, Engine::Dmodk, "k4").unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let hosts = ca_lids(&fabric);
    for s in fabric.switches() {
        for &lid in &hosts {
            assert_eq!(routed.lft(s).unwrap().get(lid), fabric.lft(s).unwrap().get(lid), "{lid} at {s:?}");
        }
    }
}

#[test]
fn every_engine_delivers_every_pair_of_a_pruned_three_level_tree_dmodk_and_minhop_shortest() {
    let fabric = ThreeLevel::new(3, 2, 3, 2, 2).build();
    let topology = Topology::new(&fabric, "t");
    for engine in Engine::ALL {
        let (routed, warnings) = route(&fabric, engine, "t").unwrap();
        // up*/down* finds no legal path between roots of different core groups: switch LIDs only.
        assert!(warnings.iter().all(|w| w.message.contains("switch-to-switch")), "{engine}: {warnings:?}");
        assert_eq!(warnings.is_empty(), engine != Engine::UpDown, "{engine}: {warnings:?}");
        let check = check_routes(&routed, &topology);
        assert!(check.all_delivered() && check.loops == 0, "{engine}: {check:?}");
        if engine != Engine::UpDown {
            assert_eq!((check.shortest, check.switch_rows_undelivered), (check.rows, 0), "{engine}");
        }
        for (src, dst, hops) in every_pair_delivered(&routed) {
            let (a, b) = (routed.owner_of_lid(src).unwrap().node, routed.owner_of_lid(dst).unwrap().node);
            let leaf =
                |n: NodeIndex| topology.switch_of[routed.graph.neighbors(n).next().unwrap().index()].unwrap();
            let least = usize::from(topology.hops(leaf(a), leaf(b))) + 1;
            if engine != Engine::UpDown {
                assert_eq!(hops, least, "{engine}: {src} → {dst}");
            }
        }
    }
}

#[test]
fn dmodk_refuses_two_leaves_cabled_to_each_other_and_names_them() {
    let fabric = two_switches(3, 2);
    let error = route(&fabric, Engine::Dmodk, "t").unwrap_err();
    assert!(
        matches!(&error, RouteError::NotAFatTree { why, .. } if why.contains("sw0") && why.contains("sw1"))
    );
    assert!(error.to_string().contains("--engine minhop"), "{error}");
}

#[test]
fn minhop_spreads_remote_hosts_round_robin_over_parallel_links() {
    let fabric = two_switches(4, 3);
    let (routed, _) = route(&fabric, Engine::MinHop, "t").unwrap();
    let sw0 = switch_named(&routed, "sw0");
    // sw1's hosts (LIDs 0x14..0x17) leave sw0 by ports 5, 6, 7, 5.
    let ports: Vec<LftEntry> = (0x14..0x18).map(|l| routed.lft(sw0).unwrap().get(Lid(l))).collect();
    let expected: Vec<LftEntry> = [5, 6, 7, 5].map(|p| LftEntry::Port(PortNum(p))).to_vec();
    assert_eq!(ports, expected);
    every_pair_delivered(&routed);
}

#[test]
fn updn_without_spines_takes_the_farthest_switches_as_roots_and_says_so() {
    let fabric = two_switches(3, 2);
    let (routed, warnings) = route(&fabric, Engine::UpDown, "t").unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("OpenSM would give up on updn"), "{warnings:?}");
    every_pair_delivered(&routed);
}

#[test]
fn the_lids_of_an_lmc_range_leave_a_leaf_by_different_spines_under_every_engine() {
    let TwoLeaves { fabric, leaf, .. } = two_leaves();
    for engine in Engine::ALL {
        let (routed, _) = route(&fabric, engine, "t").unwrap();
        let lft = routed.lft(leaf[0]).unwrap();
        // h3 owns 0x13 and 0x14; leaf 0 reaches it through spine0 (port 3) or spine1 (port 4).
        let (first, second) = (lft.get(Lid(0x13)), lft.get(Lid(0x14)));
        assert_ne!(first, second, "{engine}");
        assert!([first, second].iter().all(|e| matches!(e, LftEntry::Port(PortNum(3 | 4)))), "{engine}");
        every_pair_delivered(&routed);
    }
}

#[test]
fn a_ca_cabled_to_no_switch_is_unreachable_everywhere_with_a_warning() {
    let mut fabric = two_switches(2, 1);
    let mut b = FabricBuilder::new(RailId(0));
    // Rebuild with one more CA that has a LID and no cable.
    for n in fabric.graph.node_indices() {
        b.add_node(fabric.node(n).clone()).unwrap();
    }
    for e in fabric.graph.edge_indices() {
        let (x, y) = fabric.graph.edge_endpoints(e).unwrap();
        let link = &fabric.graph[e];
        b.add_link((x, link.a_port), (y, link.b_port), None, None).unwrap();
    }
    let info = PortInfo { guid: Some(Guid(0x9999)), lid: Lid(0x40), lmc: 0 };
    let lonely = Node {
        guid: Guid(0x9998),
        system_guid: None,
        kind: NodeKind::Ca,
        description: "lonely HCA-1".into(),
        num_ports: 1,
        ports: BTreeMap::from([(PortNum(1), info)]),
    };
    b.add_node(lonely).unwrap();
    fabric = b.build();
    let (routed, warnings) = route(&fabric, Engine::MinHop, "t").unwrap();
    assert!(warnings.iter().any(|w| w.message.contains("lonely HCA-1 port 1")), "{warnings:?}");
    for s in routed.switches() {
        assert_eq!(routed.lft(s).unwrap().get(Lid(0x40)), LftEntry::Unreachable);
    }
}
