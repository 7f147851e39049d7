//! D-mod-k routing for fat trees (Zahavi's destination-mod-k, as `shoal gen` writes it): every
//! LID goes out of a port on a shortest path, and which of the equal ports is chosen depends
//! only on the destination, so all traffic to one CA converges on one tree.
//!
//! Levels are counted from the CAs: switches with CAs are level 0, then breadth-first. A fat tree
//! has cables only between adjacent levels; anything else (two leaves cabled to each other) is
//! refused. A destination's key is its position among the CA LIDs (LID order, every LID of an
//! LMC range its own key, switch LIDs after the CAs). A level-`l` switch takes candidate
//! `(key / w_0 / … / w_{l-1}) mod candidates`, with `w_i` the most up-links of a level-`i`
//! switch: on a k-ary tree a leaf picks aggregation switch `key mod k/2` and that one core
//! `(key div k/2) mod k/2`, and consecutive LIDs (hosts of one leaf, LIDs of one range) spread
//! over different up-links.

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
        let levels =
            fat_tree_levels(topology).map_err(|why| RouteError::NotAFatTree { engine: "dmodk", why })?;
        let divisors = divisors(topology, &levels);
        let keys = keys(topology);
        // Destinations grouped by target switch, so each switch finds its candidates once per
        // target, not once per LID.
        let mut by_target: Vec<Vec<usize>> = vec![Vec::new(); topology.switches.len()];
        for (d, dest) in topology.destinations.iter().enumerate() {
            by_target[dest.target].push(d);
        }
        let ports = (0..topology.switches.len())
            .into_par_iter()
            .map(|s| {
                let mut row = vec![NO_ROUTE; topology.destinations.len()];
                let divisor = divisors[levels[s] as usize];
                let mut candidates: Vec<u8> = Vec::with_capacity(64);
                for (target, dests) in by_target.iter().enumerate().filter(|(_, d)| !d.is_empty()) {
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
                        Peer::Switch(n) if hops[n] != NO_HOPS && hops[n] + 1 == hops[s] => Some(p.port.0),
                        _ => None,
                    }));
                    for &d in dests {
                        row[d] = candidates[(keys[d] / divisor) % candidates.len()];
                    }
                }
                row
            })
            .collect();
        Ok(Routes { ports, warnings: Vec::new() })
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

/// Each destination's key: CA LIDs numbered from 0 in LID order, then switch LIDs.
fn keys(topology: &Topology) -> Vec<usize> {
    let mut keys = vec![0; topology.destinations.len()];
    let (switches, cas): (Vec<usize>, Vec<usize>) =
        (0..topology.destinations.len()).partition(|&d| topology.destinations[d].to_switch);
    for (key, d) in cas.into_iter().chain(switches).enumerate() {
        keys[d] = key;
    }
    keys
}
