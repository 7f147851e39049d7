//! A two-level (leaf/spine) fat tree with D-mod-k forwarding tables.

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;

use crate::model::{
    Fabric, FabricBuilder, Guid, Lft, LftEntry, Lid, Node, NodeKind, PortInfo, PortNum, RailId,
};

/// A two-level fat tree: `leaves` leaf switches with `hosts_per_leaf` hosts each, every leaf
/// cabled once to each of `spines` spines. Hosts are named `{prefix}{0001..}` with `HCA-1`.
#[derive(Clone, Debug)]
pub struct TwoLevel {
    pub leaves: usize,
    pub hosts_per_leaf: usize,
    pub spines: usize,
    pub host_prefix: String,
    /// Added to every GUID, so rails get distinct GUIDs.
    pub guid_base: u64,
    pub rail: RailId,
}

impl TwoLevel {
    pub fn new(leaves: usize, hosts_per_leaf: usize, spines: usize) -> Self {
        TwoLevel { leaves, hosts_per_leaf, spines, host_prefix: "n".into(), guid_base: 0, rail: RailId(0) }
    }

    pub fn rail(mut self, rail: RailId, guid_base: u64) -> Self {
        self.rail = rail;
        self.guid_base = guid_base;
        self
    }

    /// Builds the fabric. LIDs: spines from 1, then leaves, then hosts; D-mod-k up-routing.
    pub fn build(&self) -> Fabric {
        let mut b = FabricBuilder::new(self.rail);
        let mut next_lid = 1u16;
        let mut add = |b: &mut FabricBuilder, guid: u64, kind: NodeKind, desc: String, ports: u8| {
            let port = if kind == NodeKind::Switch { PortNum(0) } else { PortNum(1) };
            let info = PortInfo { guid: Some(Guid(guid)), lid: Lid(next_lid), lmc: 0 };
            next_lid += 1;
            let node = Node {
                guid: Guid(guid),
                system_guid: None,
                kind,
                description: desc,
                num_ports: ports,
                ports: BTreeMap::from([(port, info)]),
            };
            b.add_node(node).ok()
        };
        let radix = (self.hosts_per_leaf + self.spines).max(self.leaves) as u8;
        let g = self.guid_base;
        let spines: Vec<NodeIndex> = (0..self.spines)
            .filter_map(|s| add(&mut b, g + 0x1000 + s as u64, NodeKind::Switch, format!("L2-{s:03}"), radix))
            .collect();
        let leaves: Vec<NodeIndex> = (0..self.leaves)
            .filter_map(|l| add(&mut b, g + 0x2000 + l as u64, NodeKind::Switch, format!("L1-{l:03}"), radix))
            .collect();
        let mut hosts = Vec::new();
        for l in 0..self.leaves {
            for d in 0..self.hosts_per_leaf {
                let i = l * self.hosts_per_leaf + d;
                let desc = format!("{}{:04} HCA-1", self.host_prefix, i + 1);
                if let Some(h) = add(&mut b, g + 0x10_0000 + i as u64, NodeKind::Ca, desc, 1) {
                    hosts.push((h, l, d));
                }
            }
        }
        for &(h, l, d) in &hosts {
            let _ = b.add_link((leaves[l], PortNum(d as u8 + 1)), (h, PortNum(1)), None, None);
        }
        let up = |s: usize| PortNum((self.hosts_per_leaf + s + 1) as u8);
        for (l, &leaf) in leaves.iter().enumerate() {
            for (s, &spine) in spines.iter().enumerate() {
                let _ = b.add_link((leaf, up(s)), (spine, PortNum(l as u8 + 1)), None, None);
            }
        }
        self.route_d_mod_k(&mut b, &spines, &leaves, &hosts);
        b.build()
    }

    /// D-mod-k tables: a leaf sends its own hosts' LIDs down and any other LID up to spine
    /// (LID mod k), a spine's LID to that spine; a spine sends down to the destination's leaf.
    fn route_d_mod_k(
        &self,
        b: &mut FabricBuilder,
        spines: &[NodeIndex],
        leaves: &[NodeIndex],
        hosts: &[(NodeIndex, usize, usize)],
    ) {
        let up = |s: usize| PortNum((self.hosts_per_leaf + s + 1) as u8);
        let lid_of = |b: &FabricBuilder, n: NodeIndex| b.fabric().node(n).base_lid().unwrap_or_default();
        let all: Vec<(Lid, Option<usize>, Option<usize>)> = spines
            .iter()
            .enumerate()
            .map(|(s, &n)| (lid_of(b, n), None, Some(s)))
            .chain(leaves.iter().enumerate().map(|(l, &n)| (lid_of(b, n), Some(l), None)))
            .chain(hosts.iter().map(|&(n, l, _)| (lid_of(b, n), Some(l), None)))
            .collect();
        let host_port: BTreeMap<Lid, PortNum> =
            hosts.iter().map(|&(n, _, d)| (lid_of(b, n), PortNum(d as u8 + 1))).collect();
        for (l, &leaf) in leaves.iter().enumerate() {
            let mut lft = Lft::new();
            for &(lid, leaf_of, spine_of) in &all {
                let port = match (leaf_of, spine_of) {
                    (_, Some(s)) => up(s),
                    (Some(x), None) if x == l => host_port.get(&lid).copied().unwrap_or(PortNum(0)),
                    _ => up(usize::from(lid.0) % self.spines.max(1)),
                };
                lft.set(lid, LftEntry::Port(port));
            }
            let _ = b.set_lft(b.fabric().node(leaf).guid, lft);
        }
        for (s, &spine) in spines.iter().enumerate() {
            let mut lft = Lft::new();
            for &(lid, leaf_of, spine_of) in &all {
                let port = match (leaf_of, spine_of) {
                    (_, Some(x)) if x == s => PortNum(0),
                    // Spine to spine goes down through leaf 0.
                    (None, Some(_)) => PortNum(1),
                    (Some(l), _) => PortNum(l as u8 + 1),
                    (None, None) => PortNum(0),
                };
                lft.set(lid, LftEntry::Port(port));
            }
            let _ = b.set_lft(b.fabric().node(spine).guid, lft);
        }
    }
}
