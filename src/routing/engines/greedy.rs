//! PFSim's application-aware "dynamic" router (PFAnalyzer, issue 23) on destination-based
//! forwarding tables: the traffic's CA pairs are taken heaviest first, and each goes on the
//! shortest path whose busiest link end (already loaded by the pairs before it) is least
//! loaded ([`Objective::Busiest`], PFSim's `GreedyRouter2`), or whose loads sum least
//! ([`Objective::Sum`], PFSim's `GreedyRouter`). Every (switch, LID) row no pair fixed is then
//! filled as minhop fills it.
//!
//! PFSim installs one flow entry per (source, destination) pair on an undirected graph;
//! InfiniBand forwards by destination alone. So a row a heavier pair already set is followed,
//! not chosen again: the path is the best among the shortest paths that agree with the rows
//! set so far. Loads are per link end (direction counts), as everywhere in shoal. Ties go to the
//! other measure (sum for `Busiest`, busiest for `Sum`), then to the lowest port number.

use crate::model::{Lid, NodeKind};

use super::minhop::MinHop;
use super::shortest_ports::{Candidates, ShortestPorts, Tail, TargetPaths};
use super::topology::Topology;
use super::{NO_ROUTE, RouteError, Routes, RoutingEngine};

/// What a path's cost is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Objective {
    /// The busiest link end on the path (`--engine greedy`).
    Busiest,
    /// The sum of the link ends' loads (`--engine greedy-sum`).
    Sum,
}

/// The router with its traffic: `(source LID, destination LID, bytes)`, any order, repeats summed.
#[derive(Clone, Debug)]
pub struct Greedy {
    pub objective: Objective,
    pub pairs: Vec<(Lid, Lid, u64)>,
}

impl RoutingEngine for Greedy {
    fn name(&self) -> &'static str {
        match self.objective {
            Objective::Busiest => "greedy",
            Objective::Sum => "greedy-sum",
        }
    }

    fn route(&self, topology: &Topology) -> Result<Routes, RouteError> {
        // Sorting and resolving the pairs use every core first, so that inside the join below
        // this thread only places pairs (waiting on a parallel step in there, it could take
        // minhop's job itself). The sorted pairs are dropped once resolved: one list is held.
        let pairs = resolve(topology, &heaviest_first(&self.pairs));
        // Minhop's rows do not depend on the pairs: worked out beside them.
        let (state, minhop) = rayon::join(
            || {
                let mut state = State::new(topology, self.objective);
                for (i, pair) in pairs.iter().enumerate() {
                    if let Some(next) = pairs.get(i + 1) {
                        state.prefetch_for(next);
                    }
                    state.place(pair);
                }
                state
            },
            || MinHop.route(topology),
        );
        let minhop = minhop?;
        let mut ports = minhop.ports;
        // The rows the pairs fixed win over minhop's.
        let switches = topology.switches.len();
        for (d, fixed) in state.rows.chunks(switches.max(1)).enumerate() {
            for (row, &port) in ports.iter_mut().zip(fixed) {
                if port != NO_ROUTE
                    && let Some(slot) = row.get_mut(d)
                {
                    *slot = port;
                }
            }
        }
        Ok(Routes { ports, warnings: minhop.warnings })
    }
}

/// The pairs summed by (source, destination), heaviest first; equal bytes in LID order, so the
/// tables do not depend on the input's order.
fn heaviest_first(pairs: &[(Lid, Lid, u64)]) -> Vec<(Lid, Lid, u64)> {
    use rayon::prelude::*;
    let mut sorted = pairs.to_vec();
    sorted.par_sort_unstable_by_key(|&(s, d, _)| (s, d));
    let mut summed: Vec<(Lid, Lid, u64)> = Vec::with_capacity(sorted.len());
    for (s, d, b) in sorted {
        match summed.last_mut() {
            Some(last) if (last.0, last.1) == (s, d) => last.2 = last.2.saturating_add(b),
            _ => summed.push((s, d, b)),
        }
    }
    summed.retain(|&(s, d, b)| b > 0 && s != d);
    // (source, destination) is unique once summed: no two keys tie, so an unstable sort is exact.
    summed.par_sort_unstable_by_key(|&(s, d, b)| (std::cmp::Reverse(b), s, d));
    summed
}

/// A pair with what placing it needs from the fabric looked up beforehand (in parallel: the
/// look-ups do not depend on the loads), so that the pairs' loop only routes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Resolved {
    /// The destination's position in [`Topology::destinations`].
    d: u32,
    /// The switch the pair enters the fabric at ([`NO_SWITCH`]: a CA cabled to no switch).
    start: u32,
    /// The source CA's link end ([`NO_END`] for a switch's own LID).
    first: usize,
    /// The target switch's link end to the destination ([`NO_END`]: none).
    last: usize,
    bytes: u64,
}

/// A link end that is not there.
const NO_END: usize = usize::MAX;

/// [`Resolved::start`] of a pair that enters at no switch.
const NO_SWITCH: u32 = u32::MAX;

/// The pairs in the same order, resolved; a pair whose destination is no routed LID, or whose
/// source no port owns, is left out (it loads nothing).
fn resolve(topology: &Topology, pairs: &[(Lid, Lid, u64)]) -> Vec<Resolved> {
    use rayon::prelude::*;
    let fabric = topology.fabric;
    let last: Vec<usize> = topology
        .destinations
        .iter()
        .map(|dest| {
            fabric.out_through(topology.switches[dest.target], dest.exit).map_or(NO_END, |e| e.0.index())
        })
        .collect();
    let one = |&(src, dst, bytes): &(Lid, Lid, u64)| {
        let d = topology.destinations.binary_search_by_key(&dst, |d| d.lid).ok()?;
        let owner = fabric.owner_of_lid(src)?;
        let (first, start) = if fabric.node(owner.node).kind == NodeKind::Switch {
            (NO_END, topology.switch_of[owner.node.index()])
        } else {
            let (end, leaf, _) = fabric.out_through(owner.node, owner.port)?;
            (end.index(), topology.switch_of[leaf.index()])
        };
        // Positions fit in 32 bits: LIDs are 16 bits, and the graph numbers nodes in 32.
        let start = start.map_or(Some(NO_SWITCH), |s| u32::try_from(s).ok())?;
        Some(Resolved { d: u32::try_from(d).ok()?, start, first, last: last[d], bytes })
    };
    pairs.par_iter().filter_map(one).collect()
}

/// A path's cost: (the objective's measure, the other measure), compared in that order.
type Cost = (u64, u64);

/// [`State::best`]'s limit when every way counts (the pair's entry switch).
const NO_LIMIT: u64 = u64::MAX;

/// A search's choice so far: the lowest cost offered, first offered on a tie, and the port's
/// position in [`ShortestPorts::of`] (`NO_ROUTE`: nothing offered yet).
#[derive(Clone, Copy)]
struct Choice {
    cost: Cost,
    pick: u8,
}

impl Choice {
    const NONE: Choice = Choice { cost: (u64::MAX, u64::MAX), pick: NO_ROUTE };

    fn is_some(&self) -> bool {
        self.pick != NO_ROUTE
    }

    /// Takes `cost` if it is the first offered or strictly lower, without a branch.
    #[inline]
    fn offer(&mut self, cost: Cost, pick: u8) {
        let key = |(first, second): Cost| (u128::from(first) << 64) | u128::from(second);
        let lower = !self.is_some() | (key(cost) < key(self.cost));
        self.cost = std::hint::select_unpredictable(lower, cost, self.cost);
        self.pick = std::hint::select_unpredictable(lower, pick, self.pick);
    }
}

/// The rows chosen so far, the link ends' loads, and a per-pair memo of the best way on.
struct State<'t, 'f> {
    topology: &'t Topology<'f>,
    objective: Objective,
    /// `rows[d * switches + s]`: destination-major, so one pair's look-ups stay close together.
    rows: Vec<u8>,
    load: Vec<u64>,
    /// `(pair stamp, cost from this switch to the target, the chosen port's position in
    /// [`ShortestPorts::of`] or `NO_ROUTE`)` per switch.
    memo: Vec<(u32, Cost, u8)>,
    stamp: u32,
    paths: ShortestPorts,
    /// What the last pair's search read, for [`State::prefetch_for`]: the switches it searched
    /// (at most [`SEARCHED_KEPT`]), and the lowest and highest switch whose tail it read.
    searched: Vec<usize>,
    tails_read: (usize, usize),
}

/// Searched switches [`State::searched`] keeps (a pair on a k = 36 tree searches 19).
const SEARCHED_KEPT: usize = 64;

/// Cache lines of tails [`State::prefetch_for`] asks for at most (324 spines' take 41).
const TAIL_LINES: usize = 64;

impl<'t, 'f> State<'t, 'f> {
    fn new(topology: &'t Topology<'f>, objective: Objective) -> Self {
        Self::with_paths(topology, objective, ShortestPorts::new(topology))
    }

    fn with_paths(topology: &'t Topology<'f>, objective: Objective, paths: ShortestPorts) -> Self {
        let switches = topology.switches.len();
        State {
            topology,
            objective,
            rows: vec![NO_ROUTE; topology.destinations.len() * switches],
            load: vec![0; topology.fabric.link_end_count()],
            memo: vec![(0, (0, 0), NO_ROUTE); switches],
            stamp: 0,
            paths,
            searched: Vec::with_capacity(SEARCHED_KEPT),
            tails_read: (usize::MAX, 0),
        }
    }

    fn row(&mut self, s: usize, d: usize) -> &mut u8 {
        &mut self.rows[d * self.topology.switches.len() + s]
    }

    /// Routes one pair: fixes the rows on its best path and adds its bytes to the path's ends.
    fn place(&mut self, pair: &Resolved) {
        let topology = self.topology;
        let Resolved { d, start, first, last, bytes } = *pair;
        let d = d as usize;
        self.add(first, bytes);
        if start == NO_SWITCH {
            return;
        }
        let mut s = start as usize;
        self.searched.clear();
        self.tails_read = (usize::MAX, 0);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.memo.iter_mut().for_each(|m| m.0 = 0);
            self.stamp = 1;
        }
        let target = topology.destinations[d].target;
        let paths = self.paths.target(topology, target);
        if self.best(s, d, paths.as_deref(), NO_LIMIT).is_none() {
            return;
        }
        while s != target {
            let Some((port, end, next)) = self.way_on(s, paths.as_deref()) else { return };
            *self.row(s, d) = port;
            self.add(end, bytes);
            s = next;
        }
        *self.row(s, d) = topology.destinations[d].exit.0;
        self.add(last, bytes);
    }

    /// Asks the cache for what placing `next` will read first, while this pair is placed: its
    /// target's masks and rows at the switches the last search went through, and its tails
    /// over the span the last search read (consecutive pairs mostly share their source, so
    /// their searches go through the same switches; their targets differ, and each target's
    /// tails and masks are out of cache by the time it comes round again).
    fn prefetch_for(&mut self, next: &Resolved) {
        let topology = self.topology;
        let d = next.d as usize;
        let Some(paths) = self.paths.target(topology, topology.destinations[d].target) else { return };
        let switches = topology.switches.len();
        for &s in &self.searched {
            prefetch(&paths.masks[s]);
            prefetch(&self.rows[d * switches + s]);
        }
        let (lo, hi) = self.tails_read;
        if lo <= hi {
            let per_line = 64 / size_of::<Tail>();
            for s in (lo..=hi).step_by(per_line).take(TAIL_LINES) {
                prefetch(&paths.tails[s]);
            }
        }
    }

    /// The way the pair just searched leaves switch `s` by (port, link end, next switch): the
    /// search's choice, or the one way on of a switch whose [`super::shortest_ports::Tail`]
    /// stood in for a search.
    fn way_on(&self, s: usize, paths: Option<&TargetPaths>) -> Option<(u8, usize, usize)> {
        let (stamp, _, pick) = self.memo[s];
        if stamp == self.stamp {
            let link = self.paths.of(s).get(usize::from(pick))?;
            return Some((link.port, link.end, link.next));
        }
        let tail = paths?.tails[s];
        (tail.single() && tail.len > 0).then_some((tail.port, tail.end as usize, usize::from(tail.next)))
    }

    fn add(&mut self, end: usize, bytes: u64) {
        if let Some(load) = self.load.get_mut(end) {
            *load = load.saturating_add(bytes);
        }
    }

    /// The cost of the one path of a switch with a single way on (its tail), `None` for a
    /// switch with several.
    #[inline]
    fn tail_cost(&self, s: usize, paths: Option<&TargetPaths>) -> Option<Cost> {
        let tails = &paths?.tails;
        let mut tail = tails[s];
        if !tail.single() {
            return None;
        }
        let (mut busiest, mut sum) = (0u64, 0u64);
        while tail.len > 0 {
            let here = self.load.get(tail.end as usize).copied().unwrap_or(0);
            busiest = busiest.max(here);
            sum = sum.saturating_add(here);
            tail = tails[usize::from(tail.next)];
        }
        Some(match self.objective {
            Objective::Busiest => (busiest, sum),
            Objective::Sum => (sum, busiest),
        })
    }

    /// [`State::tail_cost`] of `s`, its first link end read and the rest taken from `after` when
    /// `after` holds the switch that end leads to (else worked out and kept there): the ways on
    /// from one switch that end in a single path mostly share all of it but their first end
    /// (the 18 spines above an aggregation switch of k = 36 lead down through one switch).
    #[inline]
    fn tail_cost_via(
        &self,
        s: usize,
        paths: Option<&TargetPaths>,
        after: &mut (usize, Cost),
    ) -> Option<Cost> {
        let tail = paths?.tails[s];
        if !tail.single() {
            return None;
        }
        if tail.len == 0 {
            return Some((0, 0));
        }
        let next = usize::from(tail.next);
        if after.0 != next {
            *after = (next, self.tail_cost(next, paths)?);
        }
        Some(self.combine(self.load.get(tail.end as usize).copied().unwrap_or(0), after.1))
    }

    /// The cost of the best way from switch `s` to destination `d`'s target, over the shortest
    /// paths that follow the rows already set; memoised per pair. `None`: no way, or none whose
    /// objective measure is at most `limit`. A switch with a single path costs its tail: the
    /// rows set on it can only be that path's.
    ///
    /// `limit` is what the callers above can still use: a way whose measure exceeds it cannot
    /// become their choice, so it is not searched further. It acts where a search goes more
    /// than one switch deep (a target past the tails' cache, a deeper fabric); ways read from
    /// tails are read whole (see the loop). A result cut by the limit is not memoised; one
    /// within it is exact (whatever was cut costs more).
    fn best(&mut self, s: usize, d: usize, paths: Option<&TargetPaths>, limit: u64) -> Option<Cost> {
        let topology = self.topology;
        let target = topology.destinations[d].target;
        if s == target {
            return Some((0, 0));
        }
        if let Some(cost) = self.tail_cost(s, paths) {
            return Some(cost);
        }
        if self.memo[s].0 == self.stamp {
            return (self.memo[s].2 != NO_ROUTE).then_some(self.memo[s].1);
        }
        if self.searched.len() < SEARCHED_KEPT {
            self.searched.push(s);
        }
        let fixed = *self.row(s, d);
        let mut chosen = Choice::NONE;
        let candidates = match paths {
            Some(p) => Candidates::Bits(p.masks[s]),
            None => self.paths.candidates(topology, s, target),
        };
        let base = self.paths.first_of(s);
        // The single path after the first end of the last way read from tails, and its cost.
        let mut after = (usize::MAX, (0, 0));
        for i in candidates {
            // `i` is a position in the switch's own ports (its masks are built from them); a
            // switch has at most 255 ports, so it fits below `NO_ROUTE`.
            let link = self.paths.link(base + i);
            if fixed != NO_ROUTE && fixed != link.port {
                continue;
            }
            let here = self.load.get(link.end).copied().unwrap_or(0);
            // Most ways on end in a single path (a spine down to the target): read, not
            // searched, and offered without a bound to skip it by. Loads the router has
            // balanced make each comparison a coin toss: a branch on it, mispredicted about
            // every other way, cost more than the few ends it let the search skip.
            if let Some(rest) = self.tail_cost_via(link.next, paths, &mut after) {
                let (lo, hi) = self.tails_read;
                self.tails_read = (lo.min(link.next), hi.max(link.next));
                chosen.offer(self.combine(here, rest), i as u8);
                continue;
            }
            // Any path on through this end costs at least (here, here) under either objective,
            // and only a strictly lower cost replaces the choice: the rest need not be looked at.
            if chosen.is_some() && (here, here) >= chosen.cost {
                continue;
            }
            let bound = if chosen.is_some() { chosen.cost.0.min(limit) } else { limit };
            let Some(rest_limit) = self.rest_limit(here, bound) else { continue };
            let Some(rest) = self.best(link.next, d, paths, rest_limit) else { continue };
            chosen.offer(self.combine(here, rest), i as u8);
        }
        let within = chosen.is_some() && chosen.cost.0 <= limit;
        if limit == NO_LIMIT || within {
            self.memo[s] =
                if within { (self.stamp, chosen.cost, chosen.pick) } else { (self.stamp, (0, 0), NO_ROUTE) };
        }
        within.then_some(chosen.cost)
    }

    /// The limit on the rest of a path after a link end loaded `here`, for a path whose
    /// objective measure must stay within `bound`; `None` when `here` alone exceeds it.
    fn rest_limit(&self, here: u64, bound: u64) -> Option<u64> {
        if here > bound {
            return None;
        }
        Some(match self.objective {
            // The busiest end on (here, then the rest) exceeds `bound` when the rest's does.
            Objective::Busiest => bound,
            // `bound` itself may be a saturated sum: then nothing is cut.
            Objective::Sum if bound == NO_LIMIT => NO_LIMIT,
            Objective::Sum => bound - here,
        })
    }

    /// One more link end's load in front of the rest of a path's cost.
    fn combine(&self, here: u64, (first, second): Cost) -> Cost {
        match self.objective {
            Objective::Busiest => (first.max(here), second.saturating_add(here)),
            Objective::Sum => (first.saturating_add(here), second.max(here)),
        }
    }
}

/// Hints the cache to fetch the line holding `item`; nothing else happens.
#[inline]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and cannot fault, whatever the address;
    // the address is a live reference's besides.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::TwoLevel;
    use crate::model::{Cluster, Fabric};
    use crate::routing::engines::compare::max_load;
    use crate::routing::engines::{check_routes, route_by};
    use crate::routing::{Flow, trace};

    /// Two leaves × 2 hosts, 2 spines: hosts n0001, n0002 on leaf 0, n0003, n0004 on leaf 1.
    fn fabric_and_lids() -> (Fabric, Vec<Lid>) {
        let cluster = Cluster::new(vec![TwoLevel::new(2, 2, 2).build()]);
        let fabric = cluster.rails[0].clone();
        let lids = cluster.hosts.iter().map(|h| fabric.node(h.on_rail(0)[0]).base_lid().unwrap()).collect();
        (fabric, lids)
    }

    fn spine_of(fabric: &Fabric, src: Lid, dst: Lid) -> String {
        let path = trace(fabric, src, dst);
        fabric.node(path.hops[2].node).description.clone()
    }

    #[test]
    fn a_second_pair_from_the_same_leaf_avoids_the_spine_the_heavier_one_took() {
        let (fabric, h) = fabric_and_lids();
        let pairs = vec![(h[1], h[3], 50), (h[0], h[2], 100)];
        let engine = Greedy { objective: Objective::Busiest, pairs };
        let (routed, _) = route_by(&fabric, &engine, "t").unwrap();
        assert_ne!(spine_of(&routed, h[0], h[2]), spine_of(&routed, h[1], h[3]));
        let flows = [Flow { src: h[0], dst: h[2], bytes: 100 }, Flow { src: h[1], dst: h[3], bytes: 50 }];
        assert_eq!(max_load(&routed, "greedy", &flows).switch_to_switch, 100);
    }

    #[test]
    fn every_row_is_delivered_on_a_shortest_path_traffic_or_not() {
        let (fabric, h) = fabric_and_lids();
        let engine = Greedy { objective: Objective::Busiest, pairs: vec![(h[0], h[3], 7)] };
        let (routed, warnings) = route_by(&fabric, &engine, "t").unwrap();
        let check = check_routes(&routed, &super::super::Topology::new(&routed, "t"));
        assert!(check.all_delivered() && check.shortest == check.rows && check.loops == 0, "{check:?}");
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn pairs_are_summed_and_taken_heaviest_first_whatever_their_order() {
        let (a, b, c) = (Lid(1), Lid(2), Lid(3));
        let order = heaviest_first(&[(a, c, 5), (b, c, 8), (a, c, 4), (c, c, 99), (b, a, 0)]);
        assert_eq!(order, vec![(a, c, 9), (b, c, 8)]);
    }

    /// The k = 8 three-level tree, its hosts' LIDs, and each host sending `bytes(i, j)` to 6
    /// others across pods (`j` in 1..7).
    fn k8_with_pairs(bytes: fn(usize, usize) -> u64) -> (Fabric, Vec<Lid>, Vec<(Lid, Lid, u64)>) {
        let fabric = crate::model::synthetic::ThreeLevel::k_ary(8).build();
        let lids: Vec<Lid> = fabric.cas().filter_map(|ca| fabric.node(ca).base_lid()).collect();
        let n = lids.len();
        let pairs = (0..n)
            .flat_map(|i| (1..7).map(move |j| (i, j)))
            .map(|(i, j)| (lids[i], lids[(i + j * 37) % n], bytes(i, j)))
            .collect();
        (fabric, lids, pairs)
    }

    #[test]
    fn single_paths_read_from_tails_fix_the_rows_a_full_search_fixes() {
        // Bytes varied so that ties and order both matter.
        let (fabric, _, pairs) = k8_with_pairs(|i, j| 1000 + ((i * j) % 5) as u64 * 100);
        let topology = super::super::Topology::new(&fabric, "t");
        for objective in [Objective::Busiest, Objective::Sum] {
            let rows = |paths: ShortestPorts| {
                let mut state = State::with_paths(&topology, objective, paths);
                for pair in resolve(&topology, &heaviest_first(&pairs)) {
                    state.place(&pair);
                }
                (state.rows, state.load)
            };
            let read = rows(ShortestPorts::new(&topology));
            let searched = rows(ShortestPorts::new(&topology).uncached());
            assert!(read.0.iter().any(|&p| p != NO_ROUTE));
            assert!(read == searched, "{objective:?}: the tails changed the rows or loads");
        }
    }

    #[test]
    fn the_choice_takes_the_first_offer_then_only_strictly_lower_costs() {
        let mut choice = Choice::NONE;
        choice.offer((u64::MAX, u64::MAX), 4);
        assert_eq!((choice.cost, choice.pick), ((u64::MAX, u64::MAX), 4), "the first offer, however dear");
        choice.offer((5, 9), 6);
        choice.offer((5, 9), 2);
        assert_eq!(choice.pick, 6, "a tie keeps the earlier offer");
        choice.offer((5, 8), 7);
        choice.offer((6, 0), 1);
        assert_eq!((choice.cost, choice.pick), ((5, 8), 7), "the second measure decides an equal first");
    }

    #[test]
    fn a_search_limited_below_the_best_cost_finds_nothing_and_one_at_it_finds_that_cost() {
        // Every uplink of the probe's leaf carries some.
        let (fabric, lids, pairs) = k8_with_pairs(|i, j| 100 + ((i * j) % 7) as u64);
        let topology = super::super::Topology::new(&fabric, "t");
        let n = lids.len();
        for objective in [Objective::Busiest, Objective::Sum] {
            // Searched switch by switch (no tails), so that limits reach every level.
            let mut state = State::with_paths(&topology, objective, ShortestPorts::new(&topology).uncached());
            let placed = resolve(&topology, &heaviest_first(&pairs));
            for pair in &placed {
                state.place(pair);
            }
            // A new pair across pods, on the loaded fabric.
            let probe = resolve(&topology, &[(lids[0], lids[n - 1], 1)])[0];
            let (start, d) = (probe.start as usize, probe.d as usize);
            let mut search = |limit: u64| {
                state.stamp += 1;
                state.best(start, d, None, limit)
            };
            let unlimited = search(NO_LIMIT).expect("the tree connects every pair");
            assert!(unlimited.0 > 0, "{objective:?}: the pairs loaded the probe's ways");
            assert_eq!(search(unlimited.0), Some(unlimited), "{objective:?}");
            assert_eq!(search(unlimited.0 - 1), None, "{objective:?}");
        }
    }
}
