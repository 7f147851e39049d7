//! A tiny two-level fat tree with hand-written forwarding tables, for unit tests.
//!
//! ```text
//!        spine0 (0x1)      spine1 (0x2)
//!   port 1 | \ port 2  port 1 / | port 2
//!        leaf0 (0x3)      leaf1 (0x4)        leaf port 3 → spine0, port 4 → spine1
//!       1 /   \ 2        1 /   \ 2
//!     h0 0x10  h1 0x11   h2 0x12  h3 0x13-0x14 (LMC 1)
//! ```

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;

use crate::model::{
    Fabric, FabricBuilder, Guid, Lft, LftEntry, Lid, Node, NodeKind, PortInfo, PortNum, RailId,
};

pub struct TwoLeaves {
    pub fabric: Fabric,
    pub h: [NodeIndex; 4],
    pub leaf: [NodeIndex; 2],
    /// spine0, the one the tables use for base LIDs.
    pub spine: NodeIndex,
}

fn node(b: &mut FabricBuilder, guid: u64, kind: NodeKind, desc: &str, lid: u16, lmc: u8) -> NodeIndex {
    let port = if kind == NodeKind::Switch { PortNum(0) } else { PortNum(1) };
    let mut ports = BTreeMap::new();
    ports.insert(port, PortInfo { guid: Some(Guid(guid)), lid: Lid(lid), lmc });
    let num_ports = if kind == NodeKind::Switch { 4 } else { 1 };
    let n = Node { guid: Guid(guid), system_guid: None, kind, description: desc.into(), num_ports, ports };
    b.add_node(n).unwrap()
}

fn lft(rows: &[(u16, u8)]) -> Lft {
    let mut lft = Lft::new();
    for &(lid, port) in rows {
        lft.set(Lid(lid), LftEntry::Port(PortNum(port)));
    }
    lft
}

/// Builds the fabric drawn in the module comment, named `rail` 0.
pub fn two_leaves() -> TwoLeaves {
    let mut b = FabricBuilder::new(RailId(0));
    let spine0 = node(&mut b, 0x100, NodeKind::Switch, "spine0", 0x1, 0);
    let spine1 = node(&mut b, 0x101, NodeKind::Switch, "spine1", 0x2, 0);
    let leaf0 = node(&mut b, 0x200, NodeKind::Switch, "leaf0", 0x3, 0);
    let leaf1 = node(&mut b, 0x201, NodeKind::Switch, "leaf1", 0x4, 0);
    let h = [
        node(&mut b, 0x10, NodeKind::Ca, "n0001 HCA-1", 0x10, 0),
        node(&mut b, 0x11, NodeKind::Ca, "n0002 HCA-1", 0x11, 0),
        node(&mut b, 0x12, NodeKind::Ca, "n0003 HCA-1", 0x12, 0),
        node(&mut b, 0x13, NodeKind::Ca, "n0004 HCA-1", 0x13, 1),
    ];
    let p = PortNum;
    for (leaf, hosts) in [(leaf0, [h[0], h[1]]), (leaf1, [h[2], h[3]])] {
        for (i, host) in hosts.into_iter().enumerate() {
            b.add_link((leaf, p(i as u8 + 1)), (host, p(1)), None, None).unwrap();
        }
    }
    for (i, leaf) in [leaf0, leaf1].into_iter().enumerate() {
        b.add_link((leaf, p(3)), (spine0, p(i as u8 + 1)), None, None).unwrap();
        b.add_link((leaf, p(4)), (spine1, p(i as u8 + 1)), None, None).unwrap();
    }
    let down = |to_leaf1: u8| {
        let to_leaf0 = 3 - to_leaf1;
        lft(&[(0x10, to_leaf0), (0x11, to_leaf0), (0x12, to_leaf1), (0x13, to_leaf1), (0x14, to_leaf1)])
    };
    let mut s0 = down(2);
    s0.set(Lid(0x1), LftEntry::Port(p(0)));
    let mut s1 = down(2);
    s1.set(Lid(0x2), LftEntry::Port(p(0)));
    b.set_lft(Guid(0x100), s0).unwrap();
    b.set_lft(Guid(0x101), s1).unwrap();
    let l0 =
        lft(&[(0x1, 3), (0x2, 4), (0x3, 0), (0x4, 3), (0x10, 1), (0x11, 2), (0x12, 3), (0x13, 3), (0x14, 4)]);
    let l1 =
        lft(&[(0x1, 3), (0x2, 4), (0x3, 3), (0x4, 0), (0x10, 3), (0x11, 4), (0x12, 1), (0x13, 2), (0x14, 2)]);
    b.set_lft(Guid(0x200), l0).unwrap();
    b.set_lft(Guid(0x201), l1).unwrap();
    TwoLeaves { fabric: b.build(), h, leaf: [leaf0, leaf1], spine: spine0 }
}

/// Overwrites one row of a switch's table.
pub fn set_row(fabric: &mut Fabric, switch: NodeIndex, lid: Lid, entry: LftEntry) {
    if let Some(lft) = fabric.lft_mut(switch) {
        lft.set(lid, entry);
    }
}
