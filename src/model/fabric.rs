//! One subnet (rail) of a cluster: nodes, ports, physical links and the switches' forwarding tables.
//!
//! The graph is a petgraph `UnGraph`; an edge's stored endpoint order fixes its orientation, so a
//! link has an **A end** (`edge_endpoints().0`) and a **B end**. Traffic is credited per link end:
//! bytes the A node sends into the link count on the A end (see [`LinkEnd`]).

use std::collections::{BTreeMap, HashMap};

use petgraph::graph::{EdgeIndex, NodeIndex, UnGraph};

use super::ar::ArTable;
use super::ids::{DROP_PORT, Guid, Lid, PortNum, RailId};
use super::lft::Lft;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    Switch,
    /// A channel adapter (HCA) port on a host, storage or management node.
    Ca,
    Router,
}

impl NodeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Switch => "SW",
            NodeKind::Ca => "CA",
            NodeKind::Router => "RT",
        }
    }
}

/// What a port knows about itself: its GUID and its LID range (base LID .. base + 2^LMC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortInfo {
    pub guid: Option<Guid>,
    pub lid: Lid,
    pub lmc: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub guid: Guid,
    pub system_guid: Option<Guid>,
    pub kind: NodeKind,
    /// The node description, e.g. `n0001 HCA-1` or `L1-00-03`.
    pub description: String,
    /// The number of physical ports the node reports.
    pub num_ports: u8,
    /// Ports that have a LID or a link. A switch's LID lives on port 0.
    pub ports: BTreeMap<PortNum, PortInfo>,
}

impl Node {
    /// The host name: the first word of the node description (`n0001 HCA-1` → `n0001`).
    pub fn host_name(&self) -> &str {
        self.description.split_whitespace().next().unwrap_or("")
    }

    /// The adapter's name on its host: the node description after the host name
    /// (`gpu01 mlx5_3` → `mlx5_3`), empty when the description is one word.
    pub fn adapter_name(&self) -> &str {
        let d = self.description.trim_start();
        d.find(char::is_whitespace).map_or("", |i| d[i..].trim())
    }

    /// The node's base LID: port 0 for a switch, else its lowest-numbered port with a LID.
    pub fn base_lid(&self) -> Option<Lid> {
        self.ports.values().map(|p| p.lid).find(|lid| lid.0 != 0)
    }
}

/// One physical cable: the A end is `(edge source, a_port)`, the B end `(edge target, b_port)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub a_port: PortNum,
    pub b_port: PortNum,
    /// `PHY=` width (`4x`), if given.
    pub width: Option<String>,
    /// `SPD=` speed (`10`, `FDR`), if given.
    pub speed: Option<String>,
    /// The widest width both ends support (`4x`), where the topology records it (db_csv).
    pub supported_width: Option<&'static str>,
    /// The fastest speed both ends support, as `SPD=` writes it (`100`), where recorded.
    pub supported_speed: Option<&'static str>,
}

/// Which end of a link: the A end sends A → B, the B end sends B → A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    A,
    B,
}

/// A link end: the bytes it carries are the bytes its node sent into the link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkEnd {
    pub edge: EdgeIndex,
    pub side: Side,
}

impl LinkEnd {
    /// A dense index (`2 * edge + side`) for per-link-end arrays.
    pub fn index(self) -> usize {
        self.edge.index() * 2 + usize::from(self.side == Side::B)
    }

    pub fn from_index(index: usize) -> LinkEnd {
        let side = if index.is_multiple_of(2) { Side::A } else { Side::B };
        LinkEnd { edge: EdgeIndex::new(index / 2), side }
    }
}

/// Where a LID leads: a node and the port that owns the LID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LidOwner {
    pub node: NodeIndex,
    pub port: PortNum,
}

/// One rail: the graph plus lookups by GUID, by LID and by (node, port).
#[derive(Clone, Debug, Default)]
pub struct Fabric {
    pub rail: RailId,
    pub graph: UnGraph<Node, Link>,
    /// Foldhash, seeded per process: a rail's build looks up every node here once per link.
    by_guid: HashMap<Guid, NodeIndex, foldhash::fast::RandomState>,
    /// Indexed by LID; covers every LID of every LMC range.
    by_lid: Vec<Option<LidOwner>>,
    /// `port_links[node][port]`: the link plugged into that port. Dense, because tracing asks
    /// this once per hop.
    port_links: Vec<Vec<Option<EdgeIndex>>>,
    /// Forwarding tables, indexed by node index; `None` for non-switches and switches without one.
    lfts: Vec<Option<Lft>>,
    /// Adaptive-routing tables, indexed by node index; empty when the dumps hold none.
    ar: Vec<Option<ArTable>>,
}

impl Fabric {
    pub fn new(rail: RailId) -> Self {
        Fabric { rail, ..Default::default() }
    }

    pub fn node(&self, index: NodeIndex) -> &Node {
        &self.graph[index]
    }

    pub fn node_by_guid(&self, guid: Guid) -> Option<NodeIndex> {
        self.by_guid.get(&guid).copied()
    }

    pub fn owner_of_lid(&self, lid: Lid) -> Option<LidOwner> {
        self.by_lid.get(usize::from(lid.0)).copied().flatten()
    }

    /// Every LID owned by a port (LMC ranges included) is below this.
    pub fn lid_end(&self) -> usize {
        self.by_lid.len()
    }

    /// The link plugged into `(node, port)`, if any.
    pub fn link_at(&self, node: NodeIndex, port: PortNum) -> Option<EdgeIndex> {
        self.port_links.get(node.index())?.get(usize::from(port.0)).copied().flatten()
    }

    /// One past the highest port of `node` that a link is plugged into (0 if none).
    pub fn port_slots(&self, node: NodeIndex) -> usize {
        self.port_links.get(node.index()).map_or(0, Vec::len)
    }

    /// The link end through which `node` sends out of `port`, and the node and port at the far end.
    pub fn out_through(&self, node: NodeIndex, port: PortNum) -> Option<(LinkEnd, NodeIndex, PortNum)> {
        let edge = self.link_at(node, port)?;
        let (a, b) = self.graph.edge_endpoints(edge)?;
        let link = &self.graph[edge];
        if a == node && link.a_port == port {
            Some((LinkEnd { edge, side: Side::A }, b, link.b_port))
        } else {
            Some((LinkEnd { edge, side: Side::B }, a, link.a_port))
        }
    }

    /// The node at the sending end and the one at the receiving end of a link end.
    pub fn link_end_nodes(&self, end: LinkEnd) -> Option<((NodeIndex, PortNum), (NodeIndex, PortNum))> {
        let (a, b) = self.graph.edge_endpoints(end.edge)?;
        let link = &self.graph[end.edge];
        Some(match end.side {
            Side::A => ((a, link.a_port), (b, link.b_port)),
            Side::B => ((b, link.b_port), (a, link.a_port)),
        })
    }

    pub fn lft(&self, switch: NodeIndex) -> Option<&Lft> {
        self.lfts.get(switch.index()).and_then(Option::as_ref)
    }

    /// The switch's adaptive-routing table, if the dumps gave one.
    pub fn ar(&self, switch: NodeIndex) -> Option<&ArTable> {
        self.ar.get(switch.index()).and_then(Option::as_ref)
    }

    /// Replaces a switch's AR table (what-if edits, and tests that enable AR by hand).
    pub fn replace_ar(&mut self, switch: NodeIndex, table: Option<ArTable>) {
        if self.ar.len() <= switch.index() {
            self.ar.resize(switch.index() + 1, None);
        }
        self.ar[switch.index()] = table;
    }

    /// Whether any switch has an AR-enabled destination.
    pub fn has_adaptive_routing(&self) -> bool {
        self.ar.iter().flatten().any(|t| t.adaptive_lids() > 0)
    }

    /// For what-if edits of a table (and tests that break one on purpose).
    pub fn lft_mut(&mut self, switch: NodeIndex) -> Option<&mut Lft> {
        self.lfts.get_mut(switch.index()).and_then(Option::as_mut)
    }

    /// Puts a new forwarding table on a switch (or removes it), for tables computed from the
    /// topology (`shoal route`). Returns the table it replaces; a non-switch keeps none.
    pub fn replace_lft(&mut self, switch: NodeIndex, lft: Option<Lft>) -> Option<Lft> {
        if self.graph.node_weight(switch).is_none_or(|n| n.kind != NodeKind::Switch) {
            return None;
        }
        if self.lfts.len() <= switch.index() {
            self.lfts.resize(self.graph.node_count(), None);
        }
        std::mem::replace(&mut self.lfts[switch.index()], lft)
    }

    pub fn link_count(&self) -> usize {
        self.graph.edge_count()
    }

    pub fn link_end_count(&self) -> usize {
        self.graph.edge_count() * 2
    }

    pub fn switches(&self) -> impl Iterator<Item = NodeIndex> + '_ {
        self.graph.node_indices().filter(|&n| self.graph[n].kind == NodeKind::Switch)
    }

    pub fn cas(&self) -> impl Iterator<Item = NodeIndex> + '_ {
        self.graph.node_indices().filter(|&n| self.graph[n].kind == NodeKind::Ca)
    }

    /// Switches that have a forwarding table.
    pub fn switches_with_lft(&self) -> usize {
        self.lfts.iter().filter(|l| l.is_some()).count()
    }
}

/// Why a fact from a dump could not be added to the fabric. The parser turns it into a [`Warning`]
/// with the file and line it came from.
///
/// [`Warning`]: super::Warning
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildIssue {
    #[error("node {guid} was described before as a {was:?}, now as a {now:?}; kept the first")]
    KindConflict { guid: Guid, was: NodeKind, now: NodeKind },
    #[error("LID {lid} is claimed by {first} and by {second}; kept the first")]
    DuplicateLid { lid: Lid, first: Guid, second: Guid },
    #[error("LID {lid} with LMC {lmc} runs past the unicast range; skipped")]
    LidOutOfRange { lid: Lid, lmc: u8 },
    #[error("node {guid} is cabled to itself (port {port} to port {peer_port}); link skipped")]
    SelfCable { guid: Guid, port: PortNum, peer_port: PortNum },
    #[error("port {guid}/{port} is already linked to {peer}/{peer_port}; second link skipped")]
    PortAlreadyLinked { guid: Guid, port: PortNum, peer: Guid, peer_port: PortNum },
    #[error("unknown node {guid}; skipped")]
    UnknownNode { guid: Guid },
    #[error("node {guid} is not a switch; its forwarding table is ignored")]
    NotASwitch { guid: Guid },
    #[error("switch {guid} got a second forwarding table; it replaces the first")]
    LftReplaced { guid: Guid },
}

/// Builds a [`Fabric`] from facts in any order, merging repeats (OpenSM lists every link twice).
#[derive(Debug, Default)]
pub struct FabricBuilder {
    fabric: Fabric,
}

impl FabricBuilder {
    pub fn new(rail: RailId) -> Self {
        FabricBuilder { fabric: Fabric::new(rail) }
    }

    /// Adds a node, or returns the existing one with that GUID (filling in what it lacked).
    pub fn add_node(&mut self, node: Node) -> Result<NodeIndex, BuildIssue> {
        if let Some(&index) = self.fabric.by_guid.get(&node.guid) {
            let existing = &mut self.fabric.graph[index];
            if existing.kind != node.kind {
                return Err(BuildIssue::KindConflict { guid: node.guid, was: existing.kind, now: node.kind });
            }
            existing.num_ports = existing.num_ports.max(node.num_ports);
            if existing.description.is_empty() {
                existing.description = node.description;
            }
            if existing.system_guid.is_none() {
                existing.system_guid = node.system_guid;
            }
            let ports = node.ports;
            for (port, info) in ports {
                self.set_port(index, port, info)?;
            }
            return Ok(index);
        }
        let ports = node.ports.clone();
        let index = self.fabric.graph.add_node(Node { ports: BTreeMap::new(), ..node });
        self.fabric.by_guid.insert(self.fabric.graph[index].guid, index);
        for (port, info) in ports {
            self.set_port(index, port, info)?;
        }
        Ok(index)
    }

    /// Records a port's GUID and LID range, and indexes every LID in the range.
    pub fn set_port(&mut self, node: NodeIndex, port: PortNum, info: PortInfo) -> Result<(), BuildIssue> {
        let guid = self.fabric.graph[node].guid;
        let count = 1u32 << info.lmc.min(7);
        if info.lid.0 != 0 {
            let last = u32::from(info.lid.0) + count - 1;
            if last >= u32::from(super::ids::MULTICAST_START) {
                return Err(BuildIssue::LidOutOfRange { lid: info.lid, lmc: info.lmc });
            }
            let by_lid = &mut self.fabric.by_lid;
            if by_lid.len() <= last as usize {
                // The whole unicast range at once (49,151 LIDs, under 600 KB): growing by doubling
                // would hold the old and the new index together, and overshoot the range.
                by_lid.reserve_exact(usize::from(super::ids::MULTICAST_START) - by_lid.len());
                by_lid.resize(last as usize + 1, None);
            }
            for value in u32::from(info.lid.0)..=last {
                let slot = &mut by_lid[value as usize];
                match slot {
                    Some(owner) if owner.node != node => {
                        let first = self.fabric.graph[owner.node].guid;
                        return Err(BuildIssue::DuplicateLid { lid: Lid(value as u16), first, second: guid });
                    }
                    _ => *slot = Some(LidOwner { node, port }),
                }
            }
        }
        let entry = self.fabric.graph[node].ports.entry(port).or_insert(info);
        if entry.guid.is_none() {
            entry.guid = info.guid;
        }
        if entry.lid.0 == 0 {
            entry.lid = info.lid;
            entry.lmc = info.lmc;
        }
        Ok(())
    }

    /// Adds a link once; the same link seen from the other end (or again) is merged.
    pub fn add_link(
        &mut self,
        a: (NodeIndex, PortNum),
        b: (NodeIndex, PortNum),
        width: Option<String>,
        speed: Option<String>,
    ) -> Result<Option<EdgeIndex>, BuildIssue> {
        let graph = &self.fabric.graph;
        // A loopback cable (same port, or two ports of one switch) carries no traffic anyone
        // routes, and a self-loop would confuse the layout's levels.
        if a.0 == b.0 {
            return Err(BuildIssue::SelfCable { guid: graph[a.0].guid, port: a.1, peer_port: b.1 });
        }
        let existing_a = self.fabric.link_at(a.0, a.1);
        let existing_b = self.fabric.link_at(b.0, b.1);
        if let (Some(ea), Some(eb)) = (existing_a, existing_b)
            && ea == eb
        {
            return Ok(None); // the same cable, listed again
        }
        for (end, existing) in [(a, existing_a), (b, existing_b)] {
            if let Some(edge) = existing {
                let (peer, peer_port) = self.peer_of(edge, end);
                return Err(BuildIssue::PortAlreadyLinked {
                    guid: graph[end.0].guid,
                    port: end.1,
                    peer: graph[peer].guid,
                    peer_port,
                });
            }
        }
        let edge = self.fabric.graph.add_edge(
            a.0,
            b.0,
            Link { a_port: a.1, b_port: b.1, width, speed, supported_width: None, supported_speed: None },
        );
        for (node, port) in [a, b] {
            let links = &mut self.fabric.port_links;
            if links.len() <= node.index() {
                links.resize(node.index() + 1, Vec::new());
            }
            let ports = &mut links[node.index()];
            if ports.len() <= usize::from(port.0) {
                ports.resize(usize::from(port.0) + 1, None);
            }
            ports[usize::from(port.0)] = Some(edge);
        }
        Ok(Some(edge))
    }

    /// Records what both ends of a link support (db_csv `PORTS` and `EXTENDED_PORT_INFO`).
    pub fn set_supported(
        &mut self,
        edge: EdgeIndex,
        width: Option<&'static str>,
        speed: Option<&'static str>,
    ) {
        if let Some(link) = self.fabric.graph.edge_weight_mut(edge) {
            (link.supported_width, link.supported_speed) = (width, speed);
        }
    }

    fn peer_of(&self, edge: EdgeIndex, end: (NodeIndex, PortNum)) -> (NodeIndex, PortNum) {
        let (x, y) = self.fabric.graph.edge_endpoints(edge).unwrap_or((end.0, end.0));
        let link = &self.fabric.graph[edge];
        if (x, link.a_port) == end { (y, link.b_port) } else { (x, link.a_port) }
    }

    pub fn node_by_guid(&self, guid: Guid) -> Option<NodeIndex> {
        self.fabric.node_by_guid(guid)
    }

    pub fn fabric(&self) -> &Fabric {
        &self.fabric
    }

    /// Attaches a switch's forwarding table.
    pub fn set_lft(&mut self, switch_guid: Guid, lft: Lft) -> Result<(), BuildIssue> {
        let node =
            self.fabric.node_by_guid(switch_guid).ok_or(BuildIssue::UnknownNode { guid: switch_guid })?;
        if self.fabric.graph[node].kind != NodeKind::Switch {
            return Err(BuildIssue::NotASwitch { guid: switch_guid });
        }
        let lfts = &mut self.fabric.lfts;
        if lfts.len() <= node.index() {
            lfts.resize(node.index() + 1, None);
        }
        let mut lft = lft;
        // A table is complete once attached: its room for growth would be kept for good.
        lft.shrink_to_fit();
        let replaced = lfts[node.index()].replace(lft).is_some();
        if replaced { Err(BuildIssue::LftReplaced { guid: switch_guid }) } else { Ok(()) }
    }

    /// Attaches a switch's adaptive-routing table.
    pub fn set_ar(&mut self, switch_guid: Guid, table: ArTable) -> Result<(), BuildIssue> {
        let node =
            self.fabric.node_by_guid(switch_guid).ok_or(BuildIssue::UnknownNode { guid: switch_guid })?;
        if self.fabric.graph[node].kind != NodeKind::Switch {
            return Err(BuildIssue::NotASwitch { guid: switch_guid });
        }
        let ar = &mut self.fabric.ar;
        if ar.len() <= node.index() {
            ar.resize(node.index() + 1, None);
        }
        ar[node.index()] = Some(table);
        Ok(())
    }

    /// Drops a switch's AR table (AR disabled on it): whether it had one.
    pub fn clear_ar(&mut self, switch_guid: Guid) -> Result<bool, BuildIssue> {
        let node =
            self.fabric.node_by_guid(switch_guid).ok_or(BuildIssue::UnknownNode { guid: switch_guid })?;
        Ok(self.fabric.ar.get_mut(node.index()).and_then(Option::take).is_some())
    }

    pub fn build(mut self) -> Fabric {
        let nodes = self.fabric.graph.node_count();
        self.fabric.lfts.resize(nodes, None);
        self.fabric
    }
}

/// The port value that [`Lft`] stores for "drop this LID".
pub const DROP: PortNum = PortNum(DROP_PORT);
