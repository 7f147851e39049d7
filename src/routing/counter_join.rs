//! Placing a counter snapshot's ports on the fabric: a port named by GUID (node or port GUID) is
//! looked up on every rail, one named by LID on its rail only (rail 0 unless the user said
//! otherwise). A placed port is a (rail, node, port) with a link plugged in; the rest are
//! reported, never dropped silently.

use std::collections::HashMap;

use petgraph::graph::NodeIndex;

use crate::model::counters::{DataCounter, PortOwner, PortSample, Snapshot};
use crate::model::port_counters::OtherCounters;
use crate::model::{Cluster, Fabric, Guid, LinkEnd, PortNum};

/// Where a port sits: rail, node, port.
pub type PortPlace = (usize, NodeIndex, PortNum);

/// A snapshot's ports that have a link, by place, with their counters and source line.
#[derive(Clone, Debug, Default)]
pub struct PlacedSnapshot {
    pub source: String,
    pub ports: HashMap<PortPlace, PlacedPort>,
    /// Ports that name no node of the fabric, or a port with no link, described for a warning.
    pub unmatched: Vec<String>,
    /// When the snapshot was taken, if known.
    pub taken: Option<crate::model::counters::TakenAt>,
    /// The snapshot's other counters ([`PlacedPort::other`] indexes them).
    pub other: Vec<OtherCounters>,
    /// `PortSamplesControl.Tick` of the ports it records, by rail and the link end each sends into.
    pub ticks: Vec<(usize, LinkEnd, u8)>,
}

#[derive(Clone, Copy, Debug)]
pub struct PlacedPort {
    /// The link end this port sends into, and the one it receives from.
    pub sends: LinkEnd,
    pub receives: LinkEnd,
    pub xmit: Option<DataCounter>,
    pub rcv: Option<DataCounter>,
    pub line: usize,
    /// Index into [`PlacedSnapshot::other`].
    pub other: Option<u32>,
}

impl PlacedSnapshot {
    /// A placed port's other counters, if it has any.
    pub fn other_of(&self, port: &PlacedPort) -> Option<&OtherCounters> {
        self.other.get(usize::try_from(port.other?).ok()?)
    }

    /// The rails this snapshot's ports were placed on, ascending.
    pub fn rails(&self) -> Vec<usize> {
        let mut rails: Vec<usize> = self.ports.keys().map(|p| p.0).collect();
        rails.sort_unstable();
        rails.dedup();
        rails
    }
}

/// Port GUID → (node, port), per rail: node GUIDs are in the fabric's own index.
pub struct PortGuids {
    rails: Vec<HashMap<Guid, (NodeIndex, PortNum)>>,
}

impl PortGuids {
    pub fn new(cluster: &Cluster) -> Self {
        let rails = cluster
            .rails
            .iter()
            .map(|fabric| {
                fabric
                    .graph
                    .node_indices()
                    .flat_map(|n| {
                        fabric.node(n).ports.iter().filter_map(move |(p, info)| Some((info.guid?, (n, *p))))
                    })
                    .collect()
            })
            .collect();
        PortGuids { rails }
    }
}

/// Places every port of `snapshot`; `rail` restricts it to one rail (LID-named ports always are:
/// to `rail`, or rail 0).
pub fn place(
    cluster: &Cluster,
    guids: &PortGuids,
    snapshot: &Snapshot,
    rail: Option<usize>,
) -> PlacedSnapshot {
    let mut placed = PlacedSnapshot {
        source: snapshot.source.clone(),
        taken: snapshot.taken,
        other: snapshot.other.clone(),
        ..Default::default()
    };
    placed.ports.reserve(snapshot.ports.len());
    for sample in &snapshot.ports {
        match locate(cluster, guids, sample, rail) {
            Some((r, node, port)) => match cluster.rails[r].out_through(node, port) {
                Some((sends, _, _)) => {
                    let receives = LinkEnd { edge: sends.edge, side: other(sends.side) };
                    let (xmit, rcv, line, other) = (sample.xmit, sample.rcv, sample.line, sample.other);
                    let entry = PlacedPort { sends, receives, xmit, rcv, line, other };
                    placed.ports.insert((r, node, port), entry);
                }
                None => placed.unmatched.push(describe(&cluster.rails[r], sample, Some(node))),
            },
            None => placed.unmatched.push(describe_unknown(sample)),
        }
    }
    for tick in &snapshot.ticks {
        let sample = PortSample {
            owner: tick.owner,
            port: tick.port,
            xmit: None,
            rcv: None,
            line: tick.line,
            other: None,
        };
        let sends = locate(cluster, guids, &sample, rail)
            .and_then(|(r, node, port)| Some((r, cluster.rails[r].out_through(node, port)?.0)));
        match sends {
            Some((r, sends)) => placed.ticks.push((r, sends, tick.tick)),
            None => placed.unmatched.push(describe_unknown(&sample)),
        }
    }
    placed
}

fn other(side: crate::model::Side) -> crate::model::Side {
    match side {
        crate::model::Side::A => crate::model::Side::B,
        crate::model::Side::B => crate::model::Side::A,
    }
}

pub(crate) fn locate(
    cluster: &Cluster,
    guids: &PortGuids,
    sample: &PortSample,
    rail: Option<usize>,
) -> Option<PortPlace> {
    match sample.owner {
        PortOwner::Lid(lid) => {
            let r = rail.unwrap_or(0);
            let owner = cluster.rails.get(r)?.owner_of_lid(lid)?;
            Some((r, owner.node, sample.port))
        }
        PortOwner::Guid(guid) => {
            let rails: Vec<usize> = match rail {
                Some(r) => vec![r],
                None => (0..cluster.rails.len()).collect(),
            };
            rails.into_iter().find_map(|r| {
                let fabric = cluster.rails.get(r)?;
                if let Some(node) = fabric.node_by_guid(guid) {
                    return Some((r, node, sample.port));
                }
                let &(node, _) = guids.rails.get(r)?.get(&guid)?;
                Some((r, node, sample.port))
            })
        }
    }
}

fn owner_text(sample: &PortSample) -> String {
    match sample.owner {
        PortOwner::Guid(g) => format!("GUID {g}"),
        PortOwner::Lid(l) => format!("LID {l}"),
    }
}

fn describe_unknown(sample: &PortSample) -> String {
    format!("{} port {} (line {}): no such node", owner_text(sample), sample.port, sample.line)
}

fn describe(fabric: &Fabric, sample: &PortSample, node: Option<NodeIndex>) -> String {
    let name = node.map(|n| fabric.node(n).description.as_str()).unwrap_or("?");
    format!("\"{name}\" port {} (line {}): no link on that port", sample.port, sample.line)
}
