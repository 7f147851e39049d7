//! A rail-optimized GPU cluster in one subnet, with D-mod-k forwarding tables.
//!
//! Hosts come in scalable units (SUs) of `hosts_per_su`. Each host carries `planes` HCAs named
//! `mlx5_0 … mlx5_{planes-1}`; HCA k of every host in SU s is cabled to leaf `(s, k)`, so leaf
//! switch k of each SU forms plane k. Every leaf is cabled `links_per_spine` times to each spine,
//! so any CA reaches any other through one spine. This is the shape NVIDIA's DGX SuperPOD
//! reference designs describe (8 HCAs per node, one leaf per rail per SU).

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;

use crate::model::{
    Fabric, FabricBuilder, Guid, Lft, LftEntry, Lid, Node, NodeKind, PortInfo, PortNum, RailId,
};

/// A LID the tables route: the leaf it hangs from with the leaf's port toward it (port 0 for
/// the leaf itself), or the spine it is.
type Destination = (Lid, Option<(usize, PortNum)>, Option<usize>);

/// The shape of a rail-optimized fabric (see the module comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RailOptimized {
    pub sus: usize,
    pub hosts_per_su: usize,
    /// HCAs per host, and leaves per SU.
    pub planes: usize,
    pub spines: usize,
    /// Parallel cables from each leaf to each spine.
    pub links_per_spine: usize,
    pub guid_base: u64,
}

impl RailOptimized {
    pub fn new(sus: usize, hosts_per_su: usize, planes: usize, spines: usize) -> Self {
        RailOptimized {
            sus,
            hosts_per_su,
            planes,
            spines,
            links_per_spine: 1,
            guid_base: 0x0002_c900_0000_0000,
        }
    }

    pub fn links_per_spine(mut self, links: usize) -> Self {
        self.links_per_spine = links;
        self
    }

    pub fn host_count(&self) -> usize {
        self.sus * self.hosts_per_su
    }

    pub fn switch_count(&self) -> usize {
        self.sus * self.planes + self.spines
    }

    pub fn link_count(&self) -> usize {
        let leaves = self.sus * self.planes;
        leaves * self.hosts_per_su + leaves * self.spines * self.links_per_spine
    }

    /// Why this shape cannot be built (ports past 255, LIDs past the unicast range), if it cannot.
    pub fn check(&self) -> Result<(), String> {
        if self.sus == 0 || self.hosts_per_su == 0 || self.planes == 0 || self.spines == 0 {
            return Err("every count of a rail-optimized fabric must be at least 1".into());
        }
        if self.links_per_spine == 0 {
            return Err("--links-per-spine must be at least 1".into());
        }
        let leaf_ports = self.hosts_per_su + self.spines * self.links_per_spine;
        let spine_ports = self.sus * self.planes * self.links_per_spine;
        if leaf_ports > 254 || spine_ports > 254 {
            return Err(format!(
                "a leaf needs {leaf_ports} ports and a spine {spine_ports}; a switch has at most 254"
            ));
        }
        let lids = self.switch_count() + self.host_count() * self.planes;
        if lids >= 0xbfff {
            return Err(format!("{lids} LIDs do not fit the unicast range (at most 49,150)"));
        }
        Ok(())
    }

    /// Host names in order: `gpu0001`, `gpu0002`, …
    pub fn host_names(&self) -> Vec<String> {
        (0..self.host_count()).map(|h| format!("gpu{:04}", h + 1)).collect()
    }

    fn leaf_port_up(&self, spine: usize, copy: usize) -> PortNum {
        PortNum((self.hosts_per_su + spine * self.links_per_spine + copy + 1) as u8)
    }

    fn spine_port_down(&self, leaf: usize, copy: usize) -> PortNum {
        PortNum((leaf * self.links_per_spine + copy + 1) as u8)
    }

    /// Builds the fabric. LIDs: spines from 1, then leaves (SU by SU, plane by plane), then CAs
    /// (host by host, HCA by HCA). Up-routing picks spine `lid mod spines` and cable
    /// `(lid / spines) mod links_per_spine`, as D-mod-k does.
    pub fn build(&self) -> Fabric {
        let mut b = FabricBuilder::new(RailId(0));
        let mut next_lid = 1u16;
        let g = self.guid_base;
        let mut add = |b: &mut FabricBuilder, guid: u64, kind: NodeKind, description: String, ports: u8| {
            let port = if kind == NodeKind::Switch { PortNum(0) } else { PortNum(1) };
            let info = PortInfo { guid: Some(Guid(guid)), lid: Lid(next_lid), lmc: 0 };
            next_lid = next_lid.wrapping_add(1);
            let ports_map = BTreeMap::from([(port, info)]);
            let node = Node {
                guid: Guid(guid),
                system_guid: None,
                kind,
                description,
                num_ports: ports,
                ports: ports_map,
            };
            b.add_node(node).ok()
        };
        let leaf_radix = (self.hosts_per_su + self.spines * self.links_per_spine).min(254) as u8;
        let spine_radix = (self.sus * self.planes * self.links_per_spine).min(254) as u8;
        let spines: Vec<NodeIndex> = (0..self.spines)
            .filter_map(|s| {
                add(&mut b, g + 0x1000 + s as u64, NodeKind::Switch, format!("spine{s:02}"), spine_radix)
            })
            .collect();
        let mut leaves = Vec::new();
        for su in 0..self.sus {
            for plane in 0..self.planes {
                let guid = g + 0x10_0000 + (su * self.planes + plane) as u64;
                let name = format!("leaf-su{su:02}-p{plane}");
                leaves.extend(add(&mut b, guid, NodeKind::Switch, name, leaf_radix));
            }
        }
        // (CA node, leaf position, down port)
        let mut cas = Vec::new();
        for h in 0..self.host_count() {
            let (su, slot) = (h / self.hosts_per_su, h % self.hosts_per_su);
            for plane in 0..self.planes {
                let guid = g + 0x1000_0000 + (h * self.planes + plane) as u64;
                let name = format!("gpu{:04} mlx5_{plane}", h + 1);
                if let Some(ca) = add(&mut b, guid, NodeKind::Ca, name, 1) {
                    cas.push((ca, su * self.planes + plane, PortNum(slot as u8 + 1)));
                }
            }
        }
        for &(ca, leaf, port) in &cas {
            let _ = b.add_link((leaves[leaf], port), (ca, PortNum(1)), None, None);
        }
        for (l, &leaf) in leaves.iter().enumerate() {
            for (s, &spine) in spines.iter().enumerate() {
                for c in 0..self.links_per_spine {
                    let _ = b.add_link(
                        (leaf, self.leaf_port_up(s, c)),
                        (spine, self.spine_port_down(l, c)),
                        None,
                        None,
                    );
                }
            }
        }
        self.set_tables(&mut b, &spines, &leaves, &cas);
        b.build()
    }

    fn set_tables(
        &self,
        b: &mut FabricBuilder,
        spines: &[NodeIndex],
        leaves: &[NodeIndex],
        cas: &[(NodeIndex, usize, PortNum)],
    ) {
        let lid_of = |b: &FabricBuilder, n: NodeIndex| b.fabric().node(n).base_lid().unwrap_or_default();
        // (LID, the leaf it hangs from with the down port, or the spine it is)
        let mut all: Vec<Destination> = Vec::new();
        all.extend(spines.iter().enumerate().map(|(s, &n)| (lid_of(b, n), None, Some(s))));
        all.extend(leaves.iter().enumerate().map(|(l, &n)| (lid_of(b, n), Some((l, PortNum(0))), None)));
        all.extend(cas.iter().map(|&(n, l, p)| (lid_of(b, n), Some((l, p)), None)));
        let spread = |lid: Lid| {
            let v = usize::from(lid.0);
            (v % self.spines, (v / self.spines) % self.links_per_spine)
        };
        for (l, &leaf) in leaves.iter().enumerate() {
            let mut lft = Lft::new();
            for &(lid, below, spine) in &all {
                let port = match (below, spine) {
                    (_, Some(s)) => self.leaf_port_up(s, 0),
                    (Some((x, port)), None) if x == l => port,
                    _ => {
                        let (s, c) = spread(lid);
                        self.leaf_port_up(s, c)
                    }
                };
                lft.set(lid, LftEntry::Port(port));
            }
            let _ = b.set_lft(b.fabric().node(leaf).guid, lft);
        }
        for (s, &spine) in spines.iter().enumerate() {
            let mut lft = Lft::new();
            for &(lid, below, spine_of) in &all {
                let port = match (below, spine_of) {
                    (_, Some(x)) if x == s => PortNum(0),
                    // Spine to spine goes down through leaf 0.
                    (None, Some(_)) => self.spine_port_down(0, 0),
                    (Some((l, _)), _) => self.spine_port_down(l, spread(lid).1),
                    (None, None) => PortNum(0),
                };
                lft.set(lid, LftEntry::Port(port));
            }
            let _ = b.set_lft(b.fabric().node(spine).guid, lft);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hca_hangs_from_its_planes_leaf() {
        let shape = RailOptimized::new(2, 3, 4, 2).links_per_spine(2);
        shape.check().unwrap();
        let fabric = shape.build();
        assert_eq!(fabric.cas().count(), 2 * 3 * 4);
        assert_eq!(fabric.switches().count(), shape.switch_count());
        assert_eq!(fabric.link_count(), shape.link_count());
        for ca in fabric.cas() {
            let leaf = fabric.graph.neighbors(ca).next().unwrap();
            let plane = fabric.node(ca).description.rsplit('_').next().unwrap().to_string();
            assert!(fabric.node(leaf).description.ends_with(&format!("-p{plane}")));
        }
    }

    #[test]
    fn shapes_past_a_switch_radix_are_refused() {
        assert!(RailOptimized::new(40, 32, 8, 64).check().is_err());
        assert!(RailOptimized::new(16, 64, 8, 64).check().is_ok());
    }
}
