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
        let mut targets: Vec<usize> = topology.destinations.iter().map(|d| d.target).collect();
        targets.sort_unstable();
        targets.dedup();
        let mut warnings = Vec::new();
        let plan = choose_plan(topology, &targets, &mut warnings);
        let Plan { height, descend, legal } = &plan;
        let order = topology.opensm_order();
        let n = topology.switches.len();
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

/// The order of the switches and, per target switch, every switch's shortest descent and
/// shortest legal path to it (`n × n`, row `t`).
struct Plan {
    height: Vec<usize>,
    descend: Vec<u32>,
    legal: Vec<u32>,
}

impl Plan {
    fn new(topology: &Topology, roots: &[usize], targets: &[usize]) -> Plan {
        let height = heights(topology, roots);
        let n = topology.switches.len();
        let mut by_height: Vec<usize> = (0..n).collect();
        by_height.sort_unstable_by_key(|&s| height[s]);
        let mut descend = vec![FAR; n * n];
        let mut legal = vec![FAR; n * n];
        descend.par_chunks_mut(n).zip(legal.par_chunks_mut(n)).enumerate().for_each(|(t, (down, any))| {
            if targets.binary_search(&t).is_ok() {
                legal_distances(topology, &height, &by_height, t, down, any);
            }
        });
        Plan { height, descend, legal }
    }

    /// (switch, CA-carrying switch) pairs the cabling joins but no up*/down* path does. (A
    /// switch's own LID may stay unreachable from another: up*/down* leaves some management
    /// paths, as OpenSM's does.)
    fn stranded_pairs(&self, topology: &Topology) -> usize {
        let n = topology.switches.len();
        let mut ca_targets: Vec<usize> =
            topology.destinations.iter().filter(|d| !d.to_switch).map(|d| d.target).collect();
        ca_targets.sort_unstable();
        ca_targets.dedup();
        ca_targets
            .iter()
            .map(|&t| {
                (0..n).filter(|&s| topology.hops(s, t) != NO_HOPS && self.legal[t * n + s] == FAR).count()
            })
            .sum()
    }
}

/// Roots as OpenSM finds them, while they join every switch to every target by a legal path.
///
/// Why not always OpenSM's roots (issue 24): in a three-level fat tree of k >= 18 the leaves
/// pass OpenSM's test too (a leaf sees (k − 1)/k of the CAs at 4 hops, > 90 %, and the rest of
/// its pod's at 2 hops, under 5 % once k >= 18); with leaves and cores as roots of equal rank, a
/// leaf can only descend to its aggregation switches and on to the cores, never down into
/// another pod, and `updn` delivered 2.5–22 % of the CA rows. Then the switches farthest from
/// the CAs are taken (the cores); if even they strand a pair (a topology that is no fat tree),
/// one of them alone, with which every switch of its component reaches every other: climb to
/// the root by decreasing rank, descend from it by increasing rank.
fn choose_plan(topology: &Topology, targets: &[usize], warnings: &mut Vec<Warning>) -> Plan {
    let opensm = opensm_roots(topology);
    if !opensm.is_empty() {
        let plan = Plan::new(topology, &opensm, targets);
        let stranded = plan.stranded_pairs(topology);
        if stranded == 0 {
            return plan;
        }
        warnings.push(Warning::in_file(
            "updn",
            format!(
                "OpenSM's root test chose {} switches (some of them leaves), with which {stranded} \
                 (switch, CA switch) pairs have no up*/down* path; took the switches \
                 farthest from the CAs as roots instead",
                opensm.len()
            ),
        ));
    } else {
        warnings.push(Warning::in_file(
            "updn",
            "no switch sees 90% of the CAs at one hop count (OpenSM would give up on updn here and \
             route by minhop); took the switches farthest from the CAs as roots",
        ));
    }
    let farthest = farthest_from_cas(topology);
    let plan = Plan::new(topology, &farthest, targets);
    if plan.stranded_pairs(topology) == 0 || farthest.len() < 2 {
        return plan;
    }
    warnings.push(Warning::in_file(
        "updn",
        format!(
            "the {} switches farthest from the CAs leave pairs without an up*/down* path; took \
             one of them alone as the root",
            farthest.len()
        ),
    ));
    Plan::new(topology, &farthest[..1], targets)
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
        let mut targets: Vec<usize> = topology.destinations.iter().map(|d| d.target).collect();
        targets.sort_unstable();
        targets.dedup();
        let height = choose_plan(&topology, &targets, &mut Vec::new()).height;
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

    /// Every (switch, CA LID) row of `fabric` routed by updn arrives; the warnings.
    fn updn_delivers_every_ca_row(fabric: &Fabric) -> Vec<Warning> {
        let (routed, warnings) = route(fabric, Engine::UpDown, "t").unwrap();
        let topology = Topology::new(&routed, "t");
        let check = crate::routing::engines::check::check_routes(&routed, &topology);
        assert!(check.all_delivered(), "{check:?}");
        warnings
    }

    #[test]
    fn at_k_18_the_leaves_pass_opensms_root_test_so_the_cores_are_taken_and_every_row_delivers() {
        let fabric = ThreeLevel::k_ary(18).build();
        let topology = Topology::new(&fabric, "t");
        let leaves_as_roots = opensm_roots(&topology)
            .into_iter()
            .filter(|&s| fabric.node(topology.switches[s]).description.starts_with("ft-leaf"))
            .count();
        assert!(leaves_as_roots > 0, "the cause: OpenSM's test takes leaves at k = 18");
        let warnings = updn_delivers_every_ca_row(&fabric);
        assert!(warnings.iter().any(|w| w.message.contains("OpenSM's root test chose")), "{warnings:?}");
        assert_no_turn_up_after_down(&fabric);
    }

    #[test]
    fn updn_delivers_every_ca_row_of_k_ary_three_level_trees_from_4_to_20() {
        for k in (4..=20).step_by(2) {
            updn_delivers_every_ca_row(&ThreeLevel::k_ary(k).build());
        }
    }

    /// k up to 36 (5,832 hosts, 1,620 switches): minutes in a debug build, so run on demand:
    /// `cargo test --release --lib updn_delivers_up_to_k_36 -- --ignored`.
    #[test]
    #[ignore]
    fn updn_delivers_every_ca_row_up_to_k_36() {
        for k in (22..=36).step_by(2) {
            updn_delivers_every_ca_row(&ThreeLevel::k_ary(k).build());
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// Random connected three-level trees, full or with pods left out: every CA row arrives.
        #[test]
        fn updn_delivers_every_ca_row_of_random_three_level_trees(
            pods in 1usize..=6,
            leaves in 1usize..=5,
            hosts in 1usize..=4,
            aggs in 1usize..=4,
            cores in 1usize..=3,
        ) {
            updn_delivers_every_ca_row(&ThreeLevel::new(pods, leaves, hosts, aggs, cores).build());
        }

        #[test]
        fn updn_delivers_every_ca_row_of_random_pruned_k_ary_trees(half in 1usize..=9, cut in 0usize..=17) {
            let k = 2 * half;
            let pods = k - cut.min(k - 1);
            updn_delivers_every_ca_row(&ThreeLevel::k_ary_pods(k, pods).build());
        }
    }
}
