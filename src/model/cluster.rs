//! A multi-rail cluster: one [`Fabric`] per subnet, with hosts matched across rails by host name.

use std::collections::BTreeMap;

use petgraph::graph::NodeIndex;

use super::fabric::{Fabric, NodeKind};
use super::ids::RailId;
use super::planes::RailPlanes;

/// A host and its channel adapters on each rail (empty where it is not cabled to that rail,
/// as storage and management nodes often are not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Host {
    pub name: String,
    /// `cas[rail]` lists the host's CA nodes on that rail, in node-index order.
    pub cas: Vec<Vec<NodeIndex>>,
}

impl Host {
    pub fn on_rail(&self, rail: usize) -> &[NodeIndex] {
        self.cas.get(rail).map(Vec::as_slice).unwrap_or(&[])
    }
}

#[derive(Clone, Debug, Default)]
pub struct Cluster {
    pub rails: Vec<Fabric>,
    /// Hosts sorted by name.
    pub hosts: Vec<Host>,
    /// Indexed by rail: the planes found in each subnet (see [`RailPlanes`]).
    pub planes: Vec<RailPlanes>,
    by_name: BTreeMap<String, usize>,
}

impl Cluster {
    /// Matches hosts across rails by the first word of each CA's node description.
    pub fn new(mut rails: Vec<Fabric>) -> Self {
        for (i, rail) in rails.iter_mut().enumerate() {
            rail.rail = RailId(i as u8);
        }
        let mut by_host: BTreeMap<String, Vec<Vec<NodeIndex>>> = BTreeMap::new();
        for (r, fabric) in rails.iter().enumerate() {
            for ca in fabric.cas() {
                let name = fabric.node(ca).host_name();
                let name = if name.is_empty() { fabric.node(ca).guid.to_string() } else { name.to_string() };
                let slots = by_host.entry(name).or_insert_with(|| vec![Vec::new(); rails.len()]);
                slots[r].push(ca);
            }
        }
        let hosts: Vec<Host> = by_host.into_iter().map(|(name, cas)| Host { name, cas }).collect();
        let by_name = hosts.iter().enumerate().map(|(i, h)| (h.name.clone(), i)).collect();
        let planes = rails.iter().map(RailPlanes::detect).collect();
        Cluster { rails, hosts, planes, by_name }
    }

    /// Whether some subnet has several planes and some host several CAs in it: a
    /// rail-optimized cluster, whose hosts the plane layout expands into their CAs.
    pub fn has_planes(&self) -> bool {
        self.planes
            .iter()
            .enumerate()
            .any(|(r, p)| p.is_multi_plane() && self.hosts.iter().any(|h| h.on_rail(r).len() > 1))
    }

    /// The plane of a CA or leaf switch on a rail.
    pub fn plane_of(&self, rail: usize, node: NodeIndex) -> Option<u16> {
        self.planes.get(rail)?.plane(node)
    }

    pub fn host_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The host index of a CA node on a rail.
    pub fn host_of(&self, rail: usize, node: NodeIndex) -> Option<usize> {
        let fabric = self.rails.get(rail)?;
        let n = fabric.graph.node_weight(node)?;
        if n.kind != NodeKind::Ca {
            return None;
        }
        let name = n.host_name();
        let name = if name.is_empty() { n.guid.to_string() } else { name.to_string() };
        self.host_index(&name)
    }
}
