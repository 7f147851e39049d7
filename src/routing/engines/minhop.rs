//! Min-hop routing as OpenSM's default engine does it: every LID goes out of a port on a
//! shortest path to it, and among those the port that routes the fewest CA LIDs so far
//! ([`Balancer`]), the LIDs taken in OpenSM's order ([`Topology::opensm_order`]). Each switch's
//! table depends only on its own counts, so switches are filled in parallel.

use rayon::prelude::*;

use super::balance::Balancer;
use super::topology::{Peer, SwitchPort, Topology};
use super::{NO_ROUTE, RouteError, Routes, RoutingEngine};

/// OpenSM's `minhop`.
#[derive(Clone, Copy, Debug, Default)]
pub struct MinHop;

impl RoutingEngine for MinHop {
    fn name(&self) -> &'static str {
        "minhop"
    }

    fn route(&self, topology: &Topology) -> Result<Routes, RouteError> {
        let order = topology.opensm_order();
        let ports = (0..topology.switches.len())
            .into_par_iter()
            .map(|s| {
                fill_switch(topology, s, &order, |target, candidates| {
                    let hops = topology.hops_to(target);
                    let least = hops[s];
                    candidates.extend(topology.ports[s].iter().filter(|p| match p.peer {
                        Peer::Switch(n) => hops[n] != super::NO_HOPS && hops[n] + 1 == least,
                        Peer::Endpoint => false,
                    }));
                })
            })
            .collect();
        Ok(Routes { ports, warnings: Vec::new() })
    }
}

/// Fills switch `s`'s row for every destination in `order`: the destination's own handover port
/// at its target switch, else the [`Balancer`]'s pick among the ports `candidates_of` lists for
/// the target switch. Shared by minhop and up*/down*, which differ only in their candidates.
pub(super) fn fill_switch(
    topology: &Topology,
    s: usize,
    order: &[usize],
    mut candidates_of: impl FnMut(usize, &mut Vec<SwitchPort>),
) -> Vec<u8> {
    let mut row = vec![NO_ROUTE; topology.destinations.len()];
    let mut balancer = Balancer::new(topology.fabric, topology.port_guids.len(), topology.max_lmc > 0);
    let mut candidates: Vec<SwitchPort> = Vec::with_capacity(64);
    let mut cached_target = usize::MAX;
    for &d in order {
        let dest = topology.destinations[d];
        if dest.target == s {
            row[d] = dest.exit.0;
            if let Some(&port) = topology.ports[s].iter().find(|p| p.port == dest.exit) {
                balancer.count(port, dest.port_id, dest.to_switch);
            }
            continue;
        }
        if cached_target != dest.target {
            candidates.clear();
            candidates_of(dest.target, &mut candidates);
            cached_target = dest.target;
        }
        // The LIDs of a range after the first start scanning past the port the previous took.
        let start_from = match dest.offset {
            0 => 1,
            _ => d.checked_sub(1).map_or(1, |prev| row[prev].wrapping_add(1)),
        };
        if let Some(chosen) = balancer.pick(&candidates, start_from, dest.port_id) {
            row[d] = chosen.port.0;
            balancer.count(chosen, dest.port_id, dest.to_switch);
        }
    }
    row
}
