//! Turns a profile's counters into LID → LID flows on each rail.
//!
//! - Rank-level counters (`peer R sent B`) map rank → host → that host's CA on each rail. The
//!   [`RailPolicy`] decides the rail: `Split` spreads the bytes evenly over the rails both hosts
//!   share (the remainder goes to the lowest rails, so no byte is lost); `Rail(n)` uses one rail.
//!   Only `sent` is used, so a transfer counted by both ends is routed once.
//! - Port-level counters (`lid I 0xL sent/recv`) already name a port and a LID: the port is found
//!   on its rail by GUID; `sent` flows port → L, `recv` (an RDMA read) flows L → port.
//! - Bytes between ranks on one host are intra-node: counted, not traced.
//! - Bytes that cannot be placed (unknown host, no shared rail) are counted as unplaced and named
//!   in a warning, never dropped silently.

use std::collections::{BTreeMap, HashMap};

use crate::model::{Cluster, Guid, Lid, LidBytes, PeerBytes, RankSection, Warning};

use super::accumulate::Flow;

/// Which rail carries rank-level traffic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RailPolicy {
    /// Evenly over the rails both hosts share.
    #[default]
    Split,
    /// Only this rail.
    Rail(u8),
}

/// One rank's counters for one region (or the cumulative total).
#[derive(Clone, Copy, Debug)]
pub struct RankTraffic<'a> {
    pub section: &'a RankSection,
    pub peers: &'a [PeerBytes],
    pub lids: &'a [LidBytes],
}

/// Who sent a flow's bytes to whom: host indices into `Cluster::hosts`, and ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowOrigin {
    pub src_rank: u32,
    /// `None` for port-level counters, which name a LID rather than a rank.
    pub dst_rank: Option<u32>,
    pub src_host: Option<usize>,
    pub dst_host: Option<usize>,
}

/// Flows per rail (with their origins alongside), plus what was not traced.
#[derive(Clone, Debug, Default)]
pub struct FlowSet {
    pub flows: Vec<Vec<Flow>>,
    pub origins: Vec<Vec<FlowOrigin>>,
    pub intra_node_bytes: u64,
    pub unplaced_bytes: u64,
}

/// Maps profile host names onto fabric host names (`--host-map`); identity where absent.
#[derive(Clone, Debug, Default)]
pub struct HostMap(pub HashMap<String, String>);

impl HostMap {
    pub fn fabric_name<'a>(&'a self, profile_name: &'a str) -> &'a str {
        self.0.get(profile_name).map_or(profile_name, String::as_str)
    }
}

/// Where a port GUID lives: (rail, LID of that port).
type PortIndex = HashMap<Guid, (usize, Lid)>;

fn port_index(cluster: &Cluster) -> PortIndex {
    let mut index = HashMap::new();
    for (r, fabric) in cluster.rails.iter().enumerate() {
        for ca in fabric.cas() {
            for info in fabric.node(ca).ports.values() {
                if let Some(guid) = info.guid {
                    index.insert(guid, (r, info.lid));
                }
            }
        }
    }
    index
}

/// Builds flows from the given ranks' counters. `warnings` collects one warning per distinct
/// problem (not per counter), so a thousand-rank profile with one unknown host says so once.
pub struct FlowBuilder<'c> {
    cluster: &'c Cluster,
    policy: RailPolicy,
    host_map: &'c HostMap,
    ports: PortIndex,
    /// Problems seen, keyed by message, with the bytes they cost.
    problems: BTreeMap<String, u64>,
}

impl<'c> FlowBuilder<'c> {
    pub fn new(cluster: &'c Cluster, policy: RailPolicy, host_map: &'c HostMap) -> Self {
        FlowBuilder { cluster, policy, host_map, ports: port_index(cluster), problems: BTreeMap::new() }
    }

    /// Flows for one region, given every rank's counters for it.
    pub fn flows(&mut self, ranks: &[RankTraffic<'_>]) -> FlowSet {
        let rails = self.cluster.rails.len();
        let mut set = FlowSet {
            flows: vec![Vec::new(); rails],
            origins: vec![Vec::new(); rails],
            ..Default::default()
        };
        let host_of_rank: HashMap<u32, Option<usize>> =
            ranks.iter().map(|t| (t.section.rank, self.host_index(&t.section.host))).collect();
        for traffic in ranks {
            let src_rank = traffic.section.rank;
            let src_host = host_of_rank.get(&src_rank).copied().flatten();
            for peer in traffic.peers {
                if peer.sent == 0 {
                    continue;
                }
                let dst_host = match host_of_rank.get(&peer.peer) {
                    Some(h) => *h,
                    None => {
                        self.problem(
                            format!(
                                "rank {} is not in the profile; bytes sent to it are unplaced",
                                peer.peer
                            ),
                            peer.sent,
                        );
                        set.unplaced_bytes += peer.sent;
                        continue;
                    }
                };
                let origin = FlowOrigin { src_rank, dst_rank: Some(peer.peer), src_host, dst_host };
                self.add_rank_flow(&mut set, origin, &traffic.section.host, peer.sent);
            }
            for lid in traffic.lids {
                self.add_port_flows(&mut set, traffic, src_host, lid);
            }
        }
        set
    }

    fn host_index(&self, profile_host: &str) -> Option<usize> {
        self.cluster.host_index(self.host_map.fabric_name(profile_host))
    }

    fn add_rank_flow(&mut self, set: &mut FlowSet, origin: FlowOrigin, host_name: &str, bytes: u64) {
        let (Some(src), Some(dst)) = (origin.src_host, origin.dst_host) else {
            let name = if origin.src_host.is_none() {
                host_name.to_string()
            } else {
                format!("of rank {:?}", origin.dst_rank)
            };
            self.problem(
                format!("host {name} is not in any fabric (use --host-map); its bytes are unplaced"),
                bytes,
            );
            set.unplaced_bytes += bytes;
            return;
        };
        if src == dst {
            set.intra_node_bytes += bytes;
            return;
        }
        let hosts = &self.cluster.hosts;
        let lid_on = |h: usize, r: usize| {
            hosts[h].on_rail(r).first().and_then(|&ca| self.cluster.rails[r].node(ca).base_lid())
        };
        let shared: Vec<(usize, Lid, Lid)> = (0..self.cluster.rails.len())
            .filter(|&r| match self.policy {
                RailPolicy::Split => true,
                RailPolicy::Rail(n) => r == usize::from(n),
            })
            .filter_map(|r| Some((r, lid_on(src, r)?, lid_on(dst, r)?)))
            .collect();
        if shared.is_empty() {
            let what = match self.policy {
                RailPolicy::Split => "share no rail".to_string(),
                RailPolicy::Rail(n) => format!("are not both on rail {n}"),
            };
            self.problem(
                format!("hosts {} and {} {what}; their bytes are unplaced", hosts[src].name, hosts[dst].name),
                bytes,
            );
            set.unplaced_bytes += bytes;
            return;
        }
        let k = shared.len() as u64;
        for (i, &(r, s, d)) in shared.iter().enumerate() {
            let share = bytes / k + u64::from((i as u64) < bytes % k);
            if share > 0 {
                set.flows[r].push(Flow { src: s, dst: d, bytes: share });
                set.origins[r].push(origin);
            }
        }
    }

    fn add_port_flows(
        &mut self,
        set: &mut FlowSet,
        traffic: &RankTraffic<'_>,
        src_host: Option<usize>,
        lid: &LidBytes,
    ) {
        let section = traffic.section;
        let Some(port) = section.ports.iter().find(|p| p.index == lid.port) else {
            self.problem(
                format!(
                    "rank {} counts traffic on port {} but declares no such port",
                    section.rank, lid.port
                ),
                lid.sent + lid.recv,
            );
            set.unplaced_bytes += lid.sent + lid.recv;
            return;
        };
        let Some(&(rail, own_lid)) = self.ports.get(&port.guid) else {
            self.problem(
                format!(
                    "port GUID {} (rank {}, port {}) is in no fabric; its bytes are unplaced",
                    port.guid, section.rank, port.index
                ),
                lid.sent + lid.recv,
            );
            set.unplaced_bytes += lid.sent + lid.recv;
            return;
        };
        if own_lid != port.lid {
            self.problem(
                format!(
                    "port GUID {} has LID {} in the profile but {} in the fabric; using the fabric's",
                    port.guid, port.lid, own_lid
                ),
                0,
            );
        }
        let fabric = &self.cluster.rails[rail];
        let dst_host = fabric.owner_of_lid(lid.lid).and_then(|o| self.cluster.host_of(rail, o.node));
        let origin = FlowOrigin { src_rank: section.rank, dst_rank: None, src_host, dst_host };
        if lid.sent > 0 {
            set.flows[rail].push(Flow { src: own_lid, dst: lid.lid, bytes: lid.sent });
            set.origins[rail].push(origin);
        }
        if lid.recv > 0 {
            let pulled = FlowOrigin { src_host: dst_host, dst_host: src_host, ..origin };
            set.flows[rail].push(Flow { src: lid.lid, dst: own_lid, bytes: lid.recv });
            set.origins[rail].push(pulled);
        }
    }

    fn problem(&mut self, message: String, bytes: u64) {
        *self.problems.entry(message).or_insert(0) += bytes;
    }

    /// One warning per distinct problem, with the bytes it affected over every region.
    pub fn warnings(&self, source: &str) -> Vec<Warning> {
        self.problems
            .iter()
            .map(|(message, bytes)| {
                if *bytes > 0 {
                    Warning::in_file(source, format!("{message} ({bytes} bytes over all regions)"))
                } else {
                    Warning::in_file(source, message.clone())
                }
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "flows_tests.rs"]
mod tests;
