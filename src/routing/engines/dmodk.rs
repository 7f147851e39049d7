//! D-mod-k routing for fat trees (Zahavi's destination-mod-k, as `shoal gen` writes it): every
//! LID goes out of a port on a shortest path, and which of the equal ports is chosen depends
//! only on the destination, so all traffic to one CA converges on one tree.
//!
//! Levels are counted from the CAs: switches with CAs are level 0, then breadth-first. A fat tree
//! has cables only between adjacent levels; anything else (two leaves cabled to each other) is
//! refused. A destination's key numbers the CA LIDs leaf by leaf (every LID of an LMC range its
//! own key; switch LIDs after the CAs), as D-mod-k numbers hosts by their place in the tree. A level-`l` switch takes candidate
//! `(key / w_0 / … / w_{l-1}) mod candidates`, with `w_i` the most up-links of a level-`i`
//! switch: on a k-ary tree a leaf picks aggregation switch `key mod k/2` and that one core
//! `(key div k/2) mod k/2`, and consecutive LIDs (hosts of one leaf, LIDs of one range) spread
//! over different up-links. The same digits, applied from the destination's own leaf upwards,
//! give its *chain* (the aggregation switch, core, … its traffic climbs to). Going down is
//! forced in a full tree; where a pruned tree offers several ways down, the one onto the
//! destination's chain is taken, so that all traffic to one CA meets on one tree (as in OpenSM's
//! ftree) instead of every key of a pod taking the first port down.

use rayon::prelude::*;

use super::topology::{NO_HOPS, Peer, Topology};
use super::{NO_ROUTE, RouteError, Routes, RoutingEngine};

/// D-mod-k for fat trees.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dmodk;

impl RoutingEngine for Dmodk {
    fn name(&self) -> &'static str {
        "dmodk"
    }

    fn route(&self, topology: &Topology) -> Result<Routes, RouteError> {
        let plan = Plan::new(topology).map_err(|why| RouteError::NotAFatTree { engine: "dmodk", why })?;
        let ports = (0..topology.switches.len()).into_par_iter().map(|s| plan.row(topology, s)).collect();
        Ok(Routes { ports, warnings: Vec::new() })
    }
}

/// What the rows are computed from: levels, divisors, keys, and each destination's chain.
struct Plan {
    levels: Vec<u32>,
    divisors: Vec<usize>,
    keys: Vec<usize>,
    /// Destinations grouped by target switch, so a switch finds its candidates once per target.
    by_target: Vec<Vec<usize>>,
    /// `chains[d * stride + l]`: the level-`l` switch that destination `d`'s traffic climbs to
    /// from its leaf by the D-mod-k digits (`u32::MAX` above the top).
    chains: Vec<u32>,
    stride: usize,
}

impl Plan {
    fn new(topology: &Topology) -> Result<Plan, String> {
        let levels = fat_tree_levels(topology)?;
        let divisors = divisors(topology, &levels);
        let keys = keys(topology);
        let mut by_target: Vec<Vec<usize>> = vec![Vec::new(); topology.switches.len()];
        for (d, dest) in topology.destinations.iter().enumerate() {
            by_target[dest.target].push(d);
        }
        let ups: Vec<Vec<usize>> = (0..topology.switches.len())
            .map(|s| {
                let up = |p: &super::topology::SwitchPort| match p.peer {
                    Peer::Switch(m) if levels[m] > levels[s] => Some(m),
                    _ => None,
                };
                topology.ports[s].iter().filter_map(up).collect()
            })
            .collect();
        let stride = divisors.len();
        let mut chains = vec![u32::MAX; topology.destinations.len() * stride];
        for (d, dest) in topology.destinations.iter().enumerate() {
            let mut at = dest.target;
            loop {
                let level = levels[at] as usize;
                chains[d * stride + level] = at as u32;
                if ups[at].is_empty() {
                    break;
                }
                at = ups[at][(keys[d] / divisors[level]) % ups[at].len()];
            }
        }
        Ok(Plan { levels, divisors, keys, by_target, chains, stride })
    }

    /// Switch `s`'s port for every destination.
    fn row(&self, topology: &Topology, s: usize) -> Vec<u8> {
        let mut row = vec![NO_ROUTE; topology.destinations.len()];
        let level = self.levels[s] as usize;
        let up_divisor = self.divisors[level];
        let down_divisor = self.divisors[level.saturating_sub(2)];
        let mut candidates: Vec<(u8, usize)> = Vec::with_capacity(64);
        let mut on_chain: Vec<u8> = Vec::with_capacity(8);
        for (target, dests) in self.by_target.iter().enumerate().filter(|(_, d)| !d.is_empty()) {
            if target == s {
                for &d in dests {
                    row[d] = topology.destinations[d].exit.0;
                }
                continue;
            }
            let hops = topology.hops_to(target);
            if hops[s] == NO_HOPS {
                continue;
            }
            candidates.clear();
            candidates.extend(topology.ports[s].iter().filter_map(|p| match p.peer {
                Peer::Switch(n) if hops[n] != NO_HOPS && hops[n] + 1 == hops[s] => Some((p.port.0, n)),
                _ => None,
            }));
            let down = self.levels[candidates[0].1] < self.levels[s];
            for &d in dests {
                let key = self.keys[d];
                row[d] = if !down {
                    candidates[(key / up_divisor) % candidates.len()].0
                } else {
                    // Down, follow the destination's chain where it can be reached.
                    let want = self.chains[d * self.stride + level - 1];
                    on_chain.clear();
                    on_chain.extend(candidates.iter().filter(|c| c.1 as u32 == want).map(|c| c.0));
                    match on_chain.len() {
                        0 => candidates[(key / down_divisor) % candidates.len()].0,
                        n => on_chain[(key / down_divisor) % n],
                    }
                };
            }
        }
        row
    }
}

/// Each switch's level counted from the CAs, or why the cabling is not a fat tree.
fn fat_tree_levels(topology: &Topology) -> Result<Vec<u32>, String> {
    let n = topology.switches.len();
    let mut level = vec![u32::MAX; n];
    let mut frontier: Vec<usize> =
        (0..n).filter(|&s| topology.ports[s].iter().any(|p| p.peer == Peer::Endpoint)).collect();
    if frontier.is_empty() {
        return Err("no switch has a CA".into());
    }
    for &s in &frontier {
        level[s] = 0;
    }
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for &s in &frontier {
            for p in &topology.ports[s] {
                if let Peer::Switch(m) = p.peer
                    && level[m] == u32::MAX
                {
                    level[m] = depth;
                    next.push(m);
                }
            }
        }
        frontier = next;
    }
    let name = |s: usize| topology.fabric.node(topology.switches[s]).description.clone();
    for s in 0..n {
        if level[s] == u32::MAX {
            return Err(format!("switch {} reaches no CA", name(s)));
        }
        for p in &topology.ports[s] {
            if let Peer::Switch(m) = p.peer
                && level[m] == level[s]
            {
                return Err(format!(
                    "switches {} and {} are both at level {} (counted from the CAs) and cabled to each other",
                    name(s),
                    name(m),
                    level[s]
                ));
            }
        }
    }
    Ok(level)
}

/// `divisors[l]`: the product of the widest up-link count of every level below `l`.
fn divisors(topology: &Topology, levels: &[u32]) -> Vec<usize> {
    let top = levels.iter().copied().max().unwrap_or(0) as usize;
    let mut widest = vec![1usize; top + 1];
    for (s, &l) in levels.iter().enumerate() {
        let up =
            topology.ports[s].iter().filter(|p| matches!(p.peer, Peer::Switch(m) if levels[m] > l)).count();
        widest[l as usize] = widest[l as usize].max(up);
    }
    let mut divisors = vec![1usize; top + 1];
    for l in 1..=top {
        divisors[l] = divisors[l - 1].saturating_mul(widest[l - 1]).max(1);
    }
    divisors
}

/// Each destination's key: CA LIDs numbered from 0 leaf by leaf (leaves in GUID order, then the
/// port a CA hangs off, then the LID's place in its LMC range), then switch LIDs in LID order.
/// So the CAs of one leaf have consecutive keys, whatever LIDs the subnet manager handed out.
fn keys(topology: &Topology) -> Vec<usize> {
    let mut keys = vec![0; topology.destinations.len()];
    let (switches, mut cas): (Vec<usize>, Vec<usize>) =
        (0..topology.destinations.len()).partition(|&d| topology.destinations[d].to_switch);
    cas.sort_by_key(|&d| {
        let dest = &topology.destinations[d];
        (dest.target, dest.exit, dest.offset)
    });
    for (key, d) in cas.into_iter().chain(switches).enumerate() {
        keys[d] = key;
    }
    keys
}
