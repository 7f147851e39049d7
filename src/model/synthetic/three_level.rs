//! A three-level fat tree (leaf / aggregation / core) with D-mod-k forwarding tables: the k-ary
//! fat tree of Al-Fares et al. and its cut-down variants, at sizes ibsim cannot simulate.
//!
//! - `pods` pods, each of `leaves_per_pod` leaf switches with `hosts_per_leaf` hosts and
//!   `aggs_per_pod` aggregation switches; every leaf is cabled once to every aggregation switch
//!   of its pod.
//! - The cores form `aggs_per_pod` groups of `cores_per_agg`; aggregation switch `a` of every pod
//!   is cabled once to each core of group `a`. So a core has one port per pod.
//! - Ports: a leaf's hosts on 1..=H, its aggregation switches on H+1..; an aggregation switch's
//!   leaves on 1..=L, its cores on L+1..; a core's pods on 1..=P; a host's port is 1.
//! - LIDs: hosts 1..=N in pod/leaf/slot order, then leaves, aggregation switches and cores.
//! - Routing is D-mod-k on `key = LID − 1`: going up, a leaf picks aggregation switch
//!   `key mod A` and that one picks core `(key div A) mod C`; going down is forced. Every path is
//!   minimal and loop-free (checked by the property tests).

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;
use rayon::prelude::*;

use crate::model::{
    Fabric, FabricBuilder, Guid, Lft, LftEntry, Lid, Node, NodeKind, PortInfo, PortNum, RailId,
};

/// The shape of a three-level fat tree; see the module doc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreeLevel {
    pub pods: usize,
    pub leaves_per_pod: usize,
    pub hosts_per_leaf: usize,
    pub aggs_per_pod: usize,
    pub cores_per_agg: usize,
    /// Ports every switch reports (`Ports:`), at least what its cables need.
    pub radix: usize,
    /// Hosts are named `{prefix}{00001..}` with ` HCA-1`.
    pub host_prefix: String,
    /// Added to every GUID, so rails get distinct GUIDs.
    pub guid_base: u64,
    pub rail: RailId,
}

/// What a LID belongs to, by position in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Host { pod: usize, leaf: usize, slot: usize },
    Leaf { pod: usize, leaf: usize },
    Agg { pod: usize, agg: usize },
    Core { group: usize, core: usize },
}

impl ThreeLevel {
    pub fn new(
        pods: usize,
        leaves_per_pod: usize,
        hosts_per_leaf: usize,
        aggs_per_pod: usize,
        cores_per_agg: usize,
    ) -> Self {
        let radix = (hosts_per_leaf + aggs_per_pod).max(leaves_per_pod + cores_per_agg).max(pods);
        ThreeLevel {
            pods,
            leaves_per_pod,
            hosts_per_leaf,
            aggs_per_pod,
            cores_per_agg,
            radix,
            host_prefix: "n".into(),
            guid_base: 0x0002_c900_0000_0000,
            rail: RailId(0),
        }
    }

    /// The full k-ary fat tree of `k`-port switches (`k` even): k pods of k/2 leaves, k/2 hosts
    /// per leaf, k/2 aggregation switches, and (k/2)² cores. k = 36: 11,664 hosts, 1,620
    /// switches, 34,992 links; k = 48: 27,648 hosts, 2,880 switches, 82,944 links.
    pub fn k_ary(k: usize) -> Self {
        ThreeLevel::k_ary_pods(k, k)
    }

    /// The k-ary fat tree with only `pods` of its k pods cabled (the cores stay), for scaling.
    pub fn k_ary_pods(k: usize, pods: usize) -> Self {
        let half = k / 2;
        ThreeLevel { radix: k, ..ThreeLevel::new(pods, half, half, half, half) }
    }

    pub fn rail(mut self, rail: RailId, guid_base: u64) -> Self {
        self.rail = rail;
        self.guid_base = guid_base;
        self
    }

    pub fn host_count(&self) -> usize {
        self.pods * self.leaves_per_pod * self.hosts_per_leaf
    }

    /// The host names, in LID order (host `i` has LID `i + 1`): `{prefix}{00001..}`, zero-padded
    /// to the digits of the host count (at least 4). A host's CA description is its name and
    /// ` HCA-1`.
    pub fn host_names(&self) -> Vec<String> {
        let width = self.host_count().to_string().len().max(4);
        (1..=self.host_count()).map(|i| format!("{}{i:0width$}", self.host_prefix)).collect()
    }

    pub fn switch_count(&self) -> usize {
        self.pods * (self.leaves_per_pod + self.aggs_per_pod) + self.core_count()
    }

    fn core_count(&self) -> usize {
        self.aggs_per_pod * self.cores_per_agg
    }

    pub fn link_count(&self) -> usize {
        self.host_count()
            + self.pods * self.leaves_per_pod * self.aggs_per_pod
            + self.pods * self.aggs_per_pod * self.cores_per_agg
    }

    /// Why this shape cannot be built, if it cannot: a switch needs more than 254 ports, or the
    /// tree more LIDs than the unicast range holds.
    pub fn check(&self) -> Result<(), String> {
        let needed = (self.hosts_per_leaf + self.aggs_per_pod).max(self.leaves_per_pod + self.cores_per_agg);
        if needed.max(self.pods).max(self.radix) > 254 {
            return Err(format!(
                "a switch would need {} ports; InfiniBand allows 254",
                needed.max(self.pods)
            ));
        }
        if self.pods == 0 || self.leaves_per_pod == 0 || self.aggs_per_pod == 0 || self.cores_per_agg == 0 {
            return Err("every level needs at least one switch".into());
        }
        let lids = self.host_count() + self.switch_count();
        if lids >= usize::from(crate::model::ids::MULTICAST_START) {
            return Err(format!("{lids} LIDs do not fit the unicast range (at most 49,151)"));
        }
        Ok(())
    }

    /// Every LID's role, indexed by `LID − 1`.
    fn roles(&self) -> Vec<Role> {
        let (p, l, h, a, c) =
            (self.pods, self.leaves_per_pod, self.hosts_per_leaf, self.aggs_per_pod, self.cores_per_agg);
        let hosts = (0..p * l * h).map(|i| Role::Host { pod: i / (l * h), leaf: (i / h) % l, slot: i % h });
        let leaves = (0..p * l).map(|i| Role::Leaf { pod: i / l, leaf: i % l });
        let aggs = (0..p * a).map(|i| Role::Agg { pod: i / a, agg: i % a });
        let cores = (0..a * c).map(|i| Role::Core { group: i / c, core: i % c });
        hosts.chain(leaves).chain(aggs).chain(cores).collect()
    }

    /// The port `switch` forwards the LID with role `dest` and D-mod-k key `key` to.
    fn route(&self, switch: Role, dest: Role, key: usize) -> u8 {
        let (h, l, a, c) = (self.hosts_per_leaf, self.leaves_per_pod, self.aggs_per_pod, self.cores_per_agg);
        let up_agg = key % a;
        let up_core = (key / a) % c;
        let port = match (switch, dest) {
            (s, d) if s == d => 0,
            (Role::Leaf { pod, leaf }, Role::Host { pod: dp, leaf: dl, slot }) if (pod, leaf) == (dp, dl) => {
                1 + slot
            }
            (Role::Leaf { pod, .. }, Role::Agg { pod: dp, agg }) if pod == dp => h + 1 + agg,
            (Role::Leaf { .. }, Role::Core { group, .. }) => h + 1 + group,
            (Role::Leaf { .. }, _) => h + 1 + up_agg,
            (Role::Agg { pod, .. }, Role::Host { pod: dp, leaf, .. } | Role::Leaf { pod: dp, leaf })
                if pod == dp =>
            {
                1 + leaf
            }
            (Role::Agg { pod, .. }, Role::Agg { pod: dp, .. }) if pod == dp => 1 + key % l,
            (Role::Agg { agg, .. }, Role::Core { group, core }) if agg == group => l + 1 + core,
            (Role::Agg { .. }, Role::Core { .. }) => 1 + key % l,
            (Role::Agg { .. }, _) => l + 1 + up_core,
            (Role::Core { .. }, Role::Host { pod, .. } | Role::Leaf { pod, .. } | Role::Agg { pod, .. }) => {
                1 + pod
            }
            (Role::Core { .. }, Role::Core { .. }) => 1 + key % self.pods,
            (Role::Host { .. }, _) => 0,
        };
        port as u8
    }

    /// Builds the fabric with its forwarding tables. Panics on a shape [`ThreeLevel::check`]
    /// refuses (the shape comes from code or validated flags, never from a file).
    pub fn build(&self) -> Fabric {
        let (mut b, roles, nodes) = self.cabled();
        let switches: Vec<usize> =
            (0..roles.len()).filter(|&i| !matches!(roles[i], Role::Host { .. })).collect();
        let tables: Vec<(usize, Lft)> = switches
            .par_iter()
            .map(|&s| {
                let mut lft = Lft::new();
                for (key, &dest) in roles.iter().enumerate() {
                    lft.set(Lid(key as u16 + 1), LftEntry::Port(PortNum(self.route(roles[s], dest, key))));
                }
                (s, lft)
            })
            .collect();
        for (s, lft) in tables {
            let guid = b.fabric().node(nodes[s]).guid;
            b.set_lft(guid, lft).unwrap_or_else(|issue| panic!("one table per synthetic switch: {issue}"));
        }
        b.build()
    }

    /// The fabric as [`ThreeLevel::build`] makes it, but with no forwarding tables: what a
    /// routing engine starts from (`shoal route`'s benchmark), without the 21.5 million D-mod-k
    /// rows of a k = 36 tree that it would drop. Panics as `build` does.
    pub fn build_untabled(&self) -> Fabric {
        self.cabled().0.build()
    }

    /// The nodes and cables, with each node's role and index.
    fn cabled(&self) -> (FabricBuilder, Vec<Role>, Vec<NodeIndex>) {
        if let Err(why) = self.check() {
            panic!("ThreeLevel::build on an impossible shape: {why}");
        }
        let roles = self.roles();
        let mut b = FabricBuilder::new(self.rail);
        let radix = self.radix as u8;
        let host_names = self.host_names();
        let nodes: Vec<NodeIndex> = roles
            .iter()
            .enumerate()
            .map(|(i, &role)| {
                let lid = Lid(i as u16 + 1);
                let g = self.guid_base + ((i as u64) << 8);
                let (kind, description, ports, port) = match role {
                    Role::Host { .. } => (NodeKind::Ca, format!("{} HCA-1", host_names[i]), 1, PortNum(1)),
                    Role::Leaf { pod, leaf } => {
                        (NodeKind::Switch, format!("ft-leaf-p{pod:03}-{leaf:03}"), radix, PortNum(0))
                    }
                    Role::Agg { pod, agg } => {
                        (NodeKind::Switch, format!("ft-agg-p{pod:03}-{agg:03}"), radix, PortNum(0))
                    }
                    Role::Core { group, core } => {
                        (NodeKind::Switch, format!("ft-core-g{group:03}-{core:03}"), radix, PortNum(0))
                    }
                };
                let port_guid = if kind == NodeKind::Ca { g + 1 } else { g };
                let info = PortInfo { guid: Some(Guid(port_guid)), lid, lmc: 0 };
                let node = Node {
                    guid: Guid(g),
                    system_guid: Some(Guid(g)),
                    kind,
                    description,
                    num_ports: ports,
                    ports: BTreeMap::from([(port, info)]),
                };
                b.add_node(node).unwrap_or_else(|issue| panic!("synthetic nodes are distinct: {issue}"))
            })
            .collect();
        self.cable(&mut b, &roles, &nodes);
        (b, roles, nodes)
    }

    fn cable(&self, b: &mut FabricBuilder, roles: &[Role], nodes: &[NodeIndex]) {
        let (p, l, h, a, c) =
            (self.pods, self.leaves_per_pod, self.hosts_per_leaf, self.aggs_per_pod, self.cores_per_agg);
        let (leaf0, agg0) = (p * l * h, p * l * h + p * l);
        let core0 = agg0 + p * a;
        let width = || Some("4x".to_string());
        let speed = || Some("25".to_string());
        let link = |b: &mut FabricBuilder, x: (usize, usize), y: (usize, usize)| {
            let ends = ((nodes[x.0], PortNum(x.1 as u8)), (nodes[y.0], PortNum(y.1 as u8)));
            b.add_link(ends.0, ends.1, width(), speed())
                .unwrap_or_else(|issue| panic!("synthetic cables are distinct: {issue}"));
        };
        for (i, role) in roles.iter().enumerate() {
            if let Role::Host { pod, leaf, slot } = *role {
                link(b, (leaf0 + pod * l + leaf, 1 + slot), (i, 1));
            }
        }
        for pod in 0..p {
            for leaf in 0..l {
                for agg in 0..a {
                    link(b, (leaf0 + pod * l + leaf, h + 1 + agg), (agg0 + pod * a + agg, 1 + leaf));
                }
            }
            for agg in 0..a {
                for core in 0..c {
                    link(b, (agg0 + pod * a + agg, l + 1 + core), (core0 + agg * c + core, 1 + pod));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_untabled_tree_is_the_tree_without_its_tables() {
        let shape = ThreeLevel::k_ary(4);
        let (tabled, untabled) = (shape.build(), shape.build_untabled());
        assert_eq!(tabled.graph.node_count(), untabled.graph.node_count());
        assert_eq!(tabled.link_count(), untabled.link_count());
        for s in tabled.switches() {
            assert!(tabled.lft(s).is_some() && untabled.lft(s).is_none());
            assert_eq!(tabled.node(s).guid, untabled.node(s).guid);
        }
    }

    #[test]
    fn k_ary_trees_have_the_textbook_counts() {
        let k36 = ThreeLevel::k_ary(36);
        assert_eq!((k36.host_count(), k36.switch_count(), k36.link_count()), (11_664, 1_620, 34_992));
        let k48 = ThreeLevel::k_ary(48);
        assert_eq!((k48.host_count(), k48.switch_count(), k48.link_count()), (27_648, 2_880, 82_944));
        assert!(k48.check().is_ok());
        assert!(ThreeLevel::k_ary(256).check().is_err());
    }
}
