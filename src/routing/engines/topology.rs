//! What every engine routes on, taken from the fabric's cabling alone: the switches (in GUID
//! order, as OpenSM walks them), their cabled ports, every destination LID (each LID of an LMC
//! range on its own) with the switch that hands it to its owner, and the fewest switch-to-switch
//! hops between any two switches.

use petgraph::graph::NodeIndex;
use rayon::prelude::*;

use crate::model::{Fabric, Guid, Lid, NodeKind, PortNum, Warning};

/// Hop count meaning "no path".
pub const NO_HOPS: u8 = u8::MAX;

/// What a switch port is cabled to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// Another switch, by its position in [`Topology::switches`].
    Switch(usize),
    /// A CA or router: an end, never a hop.
    Endpoint,
}

/// One cabled port of a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchPort {
    pub port: PortNum,
    pub peer: Peer,
    pub peer_node: NodeIndex,
}

/// One LID that tables must route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Destination {
    pub lid: Lid,
    /// The switch that hands this LID to its owner (the owner itself for a switch's LID).
    pub target: usize,
    /// The port of `target` the LID leaves by: the owner's cable, or 0 for the switch itself.
    pub exit: PortNum,
    pub owner: NodeIndex,
    /// Position inside the owner port's LMC range (0 for the base LID).
    pub offset: u8,
    pub to_switch: bool,
    /// The owning port (LIDs of one LMC range share it), dense from 0.
    pub port_id: usize,
}

/// The routing view of one rail; see the module doc.
#[derive(Debug)]
pub struct Topology<'f> {
    pub fabric: &'f Fabric,
    pub switches: Vec<NodeIndex>,
    /// `switch_of[node index]`: the node's position in `switches`.
    pub switch_of: Vec<Option<usize>>,
    /// Cabled ports of each switch, in port order.
    pub ports: Vec<Vec<SwitchPort>>,
    /// Every LID with an owner cabled to a switch, in LID order.
    pub destinations: Vec<Destination>,
    /// Owned LIDs no switch can hand over (their port has no cable to a switch).
    pub stranded: Vec<Lid>,
    /// Owning ports of destinations in port GUID order, each with its node and port.
    pub port_guids: Vec<(Guid, NodeIndex, PortNum)>,
    /// The largest LMC of any port.
    pub max_lmc: u8,
    /// `hops[t * switches + s]`: fewest switch-to-switch hops from `s` to `t`.
    hops: Vec<u8>,
    pub warnings: Vec<Warning>,
}

impl<'f> Topology<'f> {
    /// Reads the cabling of `fabric`. `source` names the rail in warnings.
    pub fn new(fabric: &'f Fabric, source: &str) -> Topology<'f> {
        let mut switches: Vec<NodeIndex> = fabric.switches().collect();
        switches.sort_by_key(|&s| fabric.node(s).guid);
        let mut switch_of = vec![None; fabric.graph.node_count()];
        for (i, &s) in switches.iter().enumerate() {
            switch_of[s.index()] = Some(i);
        }
        let ports: Vec<Vec<SwitchPort>> = switches
            .iter()
            .map(|&s| {
                (1..=u8::MAX)
                    .map(PortNum)
                    .filter_map(|port| {
                        let (_, peer_node, _) = fabric.out_through(s, port)?;
                        let peer = switch_of[peer_node.index()].map_or(Peer::Endpoint, Peer::Switch);
                        Some(SwitchPort { port, peer, peer_node })
                    })
                    .collect()
            })
            .collect();
        let mut topology = Topology {
            fabric,
            switches,
            switch_of,
            ports,
            destinations: Vec::new(),
            stranded: Vec::new(),
            port_guids: Vec::new(),
            max_lmc: 0,
            hops: Vec::new(),
            warnings: Vec::new(),
        };
        topology.find_destinations(source);
        topology.hops = topology.all_hops();
        topology
    }

    fn find_destinations(&mut self, source: &str) {
        let fabric = self.fabric;
        let mut stranded_ports = Vec::new();
        for node in fabric.graph.node_indices() {
            let n = fabric.node(node);
            for (&port, info) in n.ports.iter().filter(|(_, i)| i.lid.0 != 0) {
                let handover = if n.kind == NodeKind::Switch {
                    self.switch_of[node.index()].map(|s| (s, PortNum(0)))
                } else {
                    fabric
                        .out_through(node, port)
                        .and_then(|(_, peer, peer_port)| self.switch_of[peer.index()].map(|s| (s, peer_port)))
                };
                let count = 1u32 << info.lmc.min(7);
                let lids = (0..count)
                    .filter_map(|k| u16::try_from(u32::from(info.lid.0) + k).ok().map(|l| (k as u8, Lid(l))));
                let Some((target, exit)) = handover else {
                    stranded_ports.push(format!("{} port {port}", n.description));
                    self.stranded.extend(lids.map(|(_, lid)| lid));
                    continue;
                };
                let port_id = self.port_guids.len();
                self.port_guids.push((info.guid.unwrap_or(n.guid), node, port));
                self.max_lmc = self.max_lmc.max(info.lmc);
                self.destinations.extend(lids.map(|(offset, lid)| Destination {
                    lid,
                    target,
                    exit,
                    owner: node,
                    offset,
                    to_switch: n.kind == NodeKind::Switch,
                    port_id,
                }));
            }
        }
        self.destinations.sort_by_key(|d| d.lid);
        self.stranded.sort_unstable();
        if !stranded_ports.is_empty() {
            let shown = stranded_ports.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
            let message = format!(
                "{} ports with a LID are not cabled to a switch (e.g. {shown}); their LIDs are UNREACHABLE",
                stranded_ports.len()
            );
            self.warnings.push(Warning::in_file(source, message));
        }
    }

    /// Breadth-first from every switch at once (in parallel), over switch-to-switch cables.
    fn all_hops(&self) -> Vec<u8> {
        let n = self.switches.len();
        let neighbours: Vec<Vec<usize>> = self
            .ports
            .iter()
            .map(|ports| {
                let mut next: Vec<usize> = ports
                    .iter()
                    .filter_map(|p| match p.peer {
                        Peer::Switch(s) => Some(s),
                        Peer::Endpoint => None,
                    })
                    .collect();
                next.sort_unstable();
                next.dedup();
                next
            })
            .collect();
        let mut hops = vec![NO_HOPS; n * n];
        hops.par_chunks_mut(n.max(1)).enumerate().for_each(|(target, row)| {
            if target >= n {
                return;
            }
            let mut frontier = vec![target];
            row[target] = 0;
            let mut depth = 0u8;
            while !frontier.is_empty() && depth < NO_HOPS - 1 {
                depth += 1;
                let mut next = Vec::new();
                for &s in &frontier {
                    for &m in &neighbours[s] {
                        if row[m] == NO_HOPS {
                            row[m] = depth;
                            next.push(m);
                        }
                    }
                }
                frontier = next;
            }
        });
        hops
    }

    /// Fewest hops from switch `from` to switch `to`, [`NO_HOPS`] when not connected.
    pub fn hops(&self, from: usize, to: usize) -> u8 {
        self.hops[to * self.switches.len() + from]
    }

    /// The hops of every switch to `to`, indexed by switch.
    pub fn hops_to(&self, to: usize) -> &[u8] {
        let n = self.switches.len();
        &self.hops[to * n..(to + 1) * n]
    }

    /// How many CA (or router) ports hang off each switch.
    pub fn endpoint_links(&self) -> Vec<usize> {
        self.ports.iter().map(|ports| ports.iter().filter(|p| p.peer == Peer::Endpoint).count()).collect()
    }

    /// The order OpenSM's unicast manager fills a switch's table in (`ucast_mgr_build_lfts`):
    /// first the ports cabled to switches, the most-loaded switch (most CA links) first and each
    /// switch's ports in order, then every other port by port GUID; all base LIDs (LMC offset 0)
    /// of that list, then all offset-1 LIDs, and so on. Returns destination positions.
    pub fn opensm_order(&self) -> Vec<usize> {
        let mut by_load: Vec<usize> = (0..self.switches.len()).collect();
        let load = self.endpoint_links();
        by_load.sort_by_key(|&s| std::cmp::Reverse(load[s]));
        let mut seen = vec![false; self.port_guids.len()];
        let mut ordered: Vec<usize> = Vec::with_capacity(self.port_guids.len());
        let id_of: std::collections::HashMap<(NodeIndex, PortNum), usize> =
            self.port_guids.iter().enumerate().map(|(i, &(_, node, port))| ((node, port), i)).collect();
        for s in by_load {
            for p in self.ports[s].iter().filter(|p| p.peer == Peer::Endpoint) {
                let Some((_, _, far_port)) = self.fabric.out_through(self.switches[s], p.port) else {
                    continue;
                };
                if let Some(&id) = id_of.get(&(p.peer_node, far_port))
                    && !seen[id]
                {
                    seen[id] = true;
                    ordered.push(id);
                }
            }
        }
        let mut rest: Vec<usize> = (0..self.port_guids.len()).filter(|&i| !seen[i]).collect();
        rest.sort_by_key(|&i| self.port_guids[i].0);
        ordered.extend(rest);
        let mut rank_of_port = vec![0usize; self.port_guids.len()];
        for (rank, &id) in ordered.iter().enumerate() {
            rank_of_port[id] = rank;
        }
        let mut order: Vec<usize> = (0..self.destinations.len()).collect();
        order.sort_by_key(|&d| {
            let dest = &self.destinations[d];
            (dest.offset, rank_of_port[dest.port_id])
        });
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_fabric::{TwoLeaves, two_leaves};

    #[test]
    fn every_lid_of_an_lmc_range_is_a_destination_handed_over_by_its_leaf() {
        let TwoLeaves { fabric, h, leaf, .. } = two_leaves();
        let topology = Topology::new(&fabric, "t");
        let lids: Vec<u16> = topology.destinations.iter().map(|d| d.lid.0).collect();
        assert_eq!(lids, vec![1, 2, 3, 4, 0x10, 0x11, 0x12, 0x13, 0x14]);
        let last = topology.destinations.last().unwrap();
        assert_eq!((last.owner, last.offset, last.exit), (h[3], 1, PortNum(2)));
        assert_eq!(topology.switches[last.target], leaf[1]);
        assert!(topology.warnings.is_empty());
    }

    #[test]
    fn hops_count_switch_to_switch_cables() {
        let TwoLeaves { fabric, leaf, spine, .. } = two_leaves();
        let topology = Topology::new(&fabric, "t");
        let at = |n: NodeIndex| topology.switch_of[n.index()].unwrap();
        assert_eq!(topology.hops(at(leaf[0]), at(leaf[1])), 2);
        assert_eq!(topology.hops(at(leaf[0]), at(spine)), 1);
        assert_eq!(topology.hops(at(spine), at(spine)), 0);
    }

    #[test]
    fn opensm_order_takes_base_lids_of_cabled_ports_first() {
        let TwoLeaves { fabric, .. } = two_leaves();
        let topology = Topology::new(&fabric, "t");
        let lids: Vec<u16> =
            topology.opensm_order().into_iter().map(|d| topology.destinations[d].lid.0).collect();
        // Both leaves carry two CAs; the leaf with the lower GUID goes first. Then switches by
        // port GUID, then the second LID of the LMC-1 port.
        assert_eq!(lids, vec![0x10, 0x11, 0x12, 0x13, 0x1, 0x2, 0x3, 0x4, 0x14]);
    }
}
