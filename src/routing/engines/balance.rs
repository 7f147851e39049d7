//! How OpenSM picks one port among several equally good ones (`osm_switch_recommend_path`,
//! default options): the port that already routes the fewest CA LIDs, the lowest-numbered on a
//! tie, scanning from a start port. With LMC > 0 the LIDs of one range prefer a port whose far
//! end is a system, then a node, that the range does not use yet, so that the range's paths
//! differ. Counts are per switch: one [`Balancer`] fills one switch's table.

use petgraph::graph::NodeIndex;

use crate::model::{Fabric, Guid};

use super::topology::SwitchPort;

/// A far end a destination port's LIDs already leave by, and how often.
#[derive(Clone, Copy, Debug)]
struct Remote {
    system: Guid,
    node: NodeIndex,
    forwarded_to: u32,
}

/// One switch's running port counts while its table is filled.
#[derive(Debug)]
pub struct Balancer<'f> {
    fabric: &'f Fabric,
    /// CA LIDs routed out of each port number so far.
    paths: Vec<u32>,
    /// LMC-aware mode: far ends used per destination port (`port_id`).
    used: Option<Vec<Vec<Remote>>>,
}

impl<'f> Balancer<'f> {
    /// `ports` destination ports; `lmc_aware` when any port has LMC > 0 (OpenSM's `lmc` option).
    pub fn new(fabric: &'f Fabric, ports: usize, lmc_aware: bool) -> Balancer<'f> {
        Balancer { fabric, paths: vec![0; 256], used: lmc_aware.then(|| vec![Vec::new(); ports]) }
    }

    /// Picks among `candidates` (in port order) for a LID of destination port `port_id`,
    /// scanning from port number `start_from` round to the lowest.
    pub fn pick(&self, candidates: &[SwitchPort], start_from: u8, port_id: usize) -> Option<SwitchPort> {
        let first = candidates.iter().position(|c| c.port.0 >= start_from).unwrap_or(0);
        let Some(used) = self.used.as_ref().map(|u| u[port_id].as_slice()) else {
            return self.least_used(&candidates[first..], &candidates[..first]);
        };
        let scan = candidates[first..].iter().chain(&candidates[..first]);
        let mut best: Option<(SwitchPort, u32)> = None;
        let mut other_system: Option<(SwitchPort, u32)> = None;
        let mut other_node: Option<(SwitchPort, u32)> = None;
        let mut least_forwarded = u32::MAX;
        for &candidate in scan {
            let count = self.paths[usize::from(candidate.port.0)];
            let mut remote = None;
            let far = self.fabric.node(candidate.peer_node);
            let system = far.system_guid.unwrap_or(far.guid);
            if !used.iter().any(|r| r.system == system) {
                if other_system.is_none_or(|(_, c)| count < c) {
                    other_system = Some((candidate, count));
                    least_forwarded = 0;
                }
            } else {
                remote = used.iter().find(|r| r.node == candidate.peer_node);
                if remote.is_none() && other_node.is_none_or(|(_, c)| count < c) {
                    other_node = Some((candidate, count));
                    least_forwarded = 0;
                }
            }
            match best {
                Some((_, least)) if count > least => {}
                Some((_, least)) if count == least => {
                    if let Some(r) = remote.filter(|r| r.forwarded_to < least_forwarded) {
                        least_forwarded = r.forwarded_to;
                        best = Some((candidate, count));
                    }
                }
                _ => {
                    best = Some((candidate, count));
                    if let Some(r) = remote.filter(|r| r.forwarded_to < least_forwarded) {
                        least_forwarded = r.forwarded_to;
                    }
                }
            }
        }
        let best = best?.0;
        Some(other_system.or(other_node).map_or(best, |(c, _)| c))
    }

    /// Without LMC: the least used of `from` then `round` (the first scanned on a tie), in two
    /// plain loops (minhop asks this for every row of every switch: 21.5 million on k = 36).
    fn least_used(&self, from: &[SwitchPort], round: &[SwitchPort]) -> Option<SwitchPort> {
        let mut best: Option<(SwitchPort, u32)> = None;
        let mut consider = |&candidate: &SwitchPort| {
            let count = self.paths[usize::from(candidate.port.0)];
            if best.is_none_or(|(_, least)| count < least) {
                best = Some((candidate, count));
            }
        };
        from.iter().for_each(&mut consider);
        round.iter().for_each(&mut consider);
        best.map(|(candidate, _)| candidate)
    }

    /// Records that a LID of `port_id` leaves by `chosen`. Switch LIDs are not counted, as in
    /// OpenSM without `port_profile_switch_nodes`.
    pub fn count(&mut self, chosen: SwitchPort, port_id: usize, to_switch: bool) {
        if to_switch {
            return;
        }
        self.paths[usize::from(chosen.port.0)] += 1;
        let fabric = self.fabric;
        if let Some(used) = self.used.as_mut() {
            let list = &mut used[port_id];
            match list.iter_mut().find(|r| r.node == chosen.peer_node) {
                Some(r) => r.forwarded_to += 1,
                None => {
                    let far = fabric.node(chosen.peer_node);
                    let system = far.system_guid.unwrap_or(far.guid);
                    list.push(Remote { system, node: chosen.peer_node, forwarded_to: 1 });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PortNum;
    use crate::model::test_fabric::{TwoLeaves, two_leaves};
    use crate::routing::engines::topology::Peer;

    fn port(n: u8, peer: NodeIndex) -> SwitchPort {
        SwitchPort { port: PortNum(n), peer: Peer::Switch(0), peer_node: peer }
    }

    #[test]
    fn the_least_used_port_wins_and_ties_go_to_the_first_scanned() {
        let TwoLeaves { fabric, leaf, spine, .. } = two_leaves();
        let candidates = [port(3, spine), port(4, leaf[1])];
        let mut balancer = Balancer::new(&fabric, 4, false);
        assert_eq!(balancer.pick(&candidates, 1, 0).unwrap().port, PortNum(3));
        assert_eq!(balancer.pick(&candidates, 4, 0).unwrap().port, PortNum(4));
        balancer.count(candidates[0], 0, false);
        assert_eq!(balancer.pick(&candidates, 1, 1).unwrap().port, PortNum(4));
        balancer.count(candidates[1], 1, true);
        assert_eq!(balancer.pick(&candidates, 1, 2).unwrap().port, PortNum(4), "switch LIDs are not counted");
    }

    #[test]
    fn with_lmc_a_range_prefers_a_far_end_it_does_not_use_yet() {
        let TwoLeaves { fabric, leaf, spine, .. } = two_leaves();
        let candidates = [port(3, spine), port(4, leaf[1])];
        let mut balancer = Balancer::new(&fabric, 2, true);
        balancer.count(candidates[0], 0, false);
        balancer.count(candidates[1], 1, false);
        balancer.count(candidates[1], 1, false);
        // Port 4 is the busier one, but port 0's range already leaves by the spine.
        assert_eq!(balancer.pick(&candidates, 1, 0).unwrap().port, PortNum(4));
        assert_eq!(balancer.pick(&candidates, 1, 1).unwrap().port, PortNum(3));
    }
}
