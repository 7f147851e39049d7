//! Up*/down* routing as OpenSM's `updn` engine sets it up, made deadlock-free by construction.
//!
//! - **Roots** are found as OpenSM does (`updn_find_root_nodes_by_min_hop`): a switch is a root
//!   when, counting each CA at the fewest hops from the switch to the CA's switch, one hop
//!   count holds more than 90 % of the CAs and no other more than 5 % (the spines of a fat
//!   tree). When no switch qualifies (OpenSM then gives up on updn and falls back to minhop),
//!   the switches farthest from the CAs are taken, with a warning.
//! - **Ranks** count hops from the nearest root; a switch is *above* another when its rank is
//!   lower, or equal with a lower GUID. A legal path climbs, then only descends.
//! - **Tables**: a switch that can reach the destination switch by descending alone always
//!   descends (by a shortest descent); otherwise it climbs to the neighbour above it with the
//!   shortest legal path on. Every switch that can be entered descending therefore keeps
//!   descending, so no route turns up after going down: the channel dependencies are acyclic.
//!   Paths are not always the shortest the cabling allows. Among equal ports the least-used
//!   one is taken, as in minhop.

use rayon::prelude::*;

use crate::model::Warning;

use super::minhop::fill_switch;
use super::topology::{NO_HOPS, Peer, Topology};
use super::{RouteError, Routes, RoutingEngine};

/// OpenSM's `updn` with its automatic root detection.
#[derive(Clone, Copy, Debug, Default)]
pub struct UpDown;

const FAR: u32 = u32::MAX;

impl RoutingEngine for UpDown {
    fn name(&self) -> &'static str {
        "updn"
    }

    fn route(&self, topology: &Topology) -> Result<Routes, RouteError> {
        let mut warnings = Vec::new();
        let roots = match opensm_roots(topology) {
            roots if !roots.is_empty() => roots,
            _ => {
                let roots = farthest_from_cas(topology);
                warnings.push(Warning::in_file(
                    "updn",
                    format!(
                        "no switch sees 90% of the CAs at one hop count (OpenSM would give up on updn \
                         here and route by minhop); took the {} switches farthest from the CAs as roots",
                        roots.len()
                    ),
                ));
                roots
            }
        };
        let height = heights(topology, &roots);
        let order = topology.opensm_order();
        let n = topology.switches.len();
        let mut targets: Vec<usize> = topology.destinations.iter().map(|d| d.target).collect();
        targets.sort_unstable();
        targets.dedup();
        // Per target switch: the shortest descent and the shortest legal path of every switch.
        let mut by_height: Vec<usize> = (0..n).collect();
        by_height.sort_unstable_by_key(|&s| height[s]);
        let mut descend = vec![FAR; n * n];
        let mut legal = vec![FAR; n * n];
        descend.par_chunks_mut(n).zip(legal.par_chunks_mut(n)).enumerate().for_each(|(t, (down, any))| {
            if targets.binary_search(&t).is_ok() {
                legal_distances(topology, &height, &by_height, t, down, any);
            }
        });
        let ports = (0..n)
            .into_par_iter()
            .map(|s| {
                fill_switch(topology, s, &order, |t, candidates| {
                    let (down, any) = (&descend[t * n..(t + 1) * n], &legal[t * n..(t + 1) * n]);
                    let descending = down[s] != FAR;
                    candidates.extend(topology.ports[s].iter().filter(|p| match p.peer {
                        Peer::Switch(m) if descending => {
                            height[m] > height[s] && down[m] != FAR && down[m] + 1 == down[s]
                        }
                        Peer::Switch(m) => height[m] < height[s] && any[m] != FAR && any[m] + 1 == any[s],
                        Peer::Endpoint => false,
                    }));
                })
            })
            .collect();
        Ok(Routes { ports, warnings })
    }
}

/// OpenSM's root test: one hop count holds > 90 % of the CAs and no other > 5 %.
fn opensm_roots(topology: &Topology) -> Vec<usize> {
    let cas = topology.endpoint_links();
    let total: usize = cas.iter().sum();
    let (above, also) = (total as f64 * 0.9, total as f64 * 0.05);
    (0..topology.switches.len())
        .filter(|&s| {
            let mut histogram = [0usize; 256];
            for (t, &count) in cas.iter().enumerate().filter(|(_, c)| **c > 0) {
                let hops = topology.hops(s, t);
                if hops != NO_HOPS {
                    histogram[usize::from(hops)] += count;
                }
            }
            let over = |limit: f64| histogram.iter().filter(|&&h| h as f64 > limit).count();
            over(above) == 1 && over(also) == 1
        })
        .collect()
}

/// The switches at the greatest hop count from the nearest CA-carrying switch.
fn farthest_from_cas(topology: &Topology) -> Vec<usize> {
    let cas = topology.endpoint_links();
    let leaves: Vec<usize> = (0..cas.len()).filter(|&s| cas[s] > 0).collect();
    let level: Vec<u8> = (0..cas.len())
        .map(|s| leaves.iter().map(|&t| topology.hops(s, t)).min().unwrap_or(0))
        .map(|h| if h == NO_HOPS { 0 } else { h })
        .collect();
    let top = level.iter().copied().max().unwrap_or(0);
    (0..cas.len()).filter(|&s| level[s] == top).collect()
}

/// A total order on switches, lowest = highest up: (rank from the roots, GUID) position.
fn heights(topology: &Topology, roots: &[usize]) -> Vec<usize> {
    let n = topology.switches.len();
    let rank: Vec<u8> =
        (0..n).map(|s| roots.iter().map(|&r| topology.hops(s, r)).min().unwrap_or(NO_HOPS)).collect();
    let mut by_height: Vec<usize> = (0..n).collect();
    // Switches are already in GUID order, so a stable sort by rank breaks ties by GUID.
    by_height.sort_by_key(|&s| rank[s]);
    let mut height = vec![0; n];
    for (h, s) in by_height.into_iter().enumerate() {
        height[s] = h;
    }
    height
}

/// For target switch `t`: `down[s]`, the fewest hops from `s` to `t` descending only, and
/// `any[s]`, the hops of the path the tables take (descend if possible, else climb first);
/// `by_height` lists the switches from the top down.
fn legal_distances(
    topology: &Topology,
    height: &[usize],
    by_height: &[usize],
    t: usize,
    down: &mut [u32],
    any: &mut [u32],
) {
    down[t] = 0;
    let mut frontier = vec![t];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &x in &frontier {
            for p in &topology.ports[x] {
                // s → x descends when s is above x.
                if let Peer::Switch(s) = p.peer
                    && height[s] < height[x]
                    && down[s] == FAR
                {
                    down[s] = down[x] + 1;
                    next.push(s);
                }
            }
        }
        frontier = next;
    }
    for &s in by_height {
        any[s] = if down[s] != FAR {
            down[s]
        } else {
            topology.ports[s]
                .iter()
                .filter_map(|p| match p.peer {
                    Peer::Switch(m) if height[m] < height[s] && any[m] != FAR => Some(any[m] + 1),
                    _ => None,
                })
                .min()
                .unwrap_or(FAR)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::ThreeLevel;
    use crate::model::{Fabric, LftEntry};
    use crate::routing::engines::{Engine, route};

    /// Walks every destination from every switch and fails on a climb after a descent.
    fn assert_no_turn_up_after_down(fabric: &Fabric) {
        let topology = Topology::new(fabric, "t");
        let (routed, _) = route(fabric, Engine::UpDown, "t").unwrap();
        let height = heights(&topology, &opensm_roots(&topology));
        for dest in &topology.destinations {
            for start in 0..topology.switches.len() {
                let (mut at, mut descended) = (start, false);
                while at != dest.target {
                    let node = topology.switches[at];
                    let LftEntry::Port(port) = routed.lft(node).unwrap().get(dest.lid) else { break };
                    let (_, far, _) = routed.out_through(node, port).unwrap();
                    let next = topology.switch_of[far.index()].unwrap();
                    let down = height[next] > height[at];
                    assert!(down || !descended, "{} climbs after descending at {at}", dest.lid);
                    descended |= down;
                    at = next;
                }
            }
        }
    }

    #[test]
    fn the_cores_of_a_three_level_tree_are_its_roots() {
        let fabric = ThreeLevel::new(3, 2, 3, 2, 2).build();
        let topology = Topology::new(&fabric, "t");
        let roots: Vec<String> = opensm_roots(&topology)
            .into_iter()
            .map(|s| fabric.node(topology.switches[s]).description.clone())
            .collect();
        assert_eq!(roots.len(), 4, "{roots:?}");
        assert!(roots.iter().all(|r| r.starts_with("ft-core")), "{roots:?}");
    }

    #[test]
    fn no_route_climbs_after_it_descended() {
        assert_no_turn_up_after_down(&ThreeLevel::new(3, 2, 3, 2, 2).build());
        assert_no_turn_up_after_down(&ThreeLevel::new(2, 3, 1, 3, 1).build());
    }
}
