//! Which of a switch's switch-to-switch ports lie on a shortest path to a target switch, looked
//! up instead of found again for every pair (issue 23: the greedy router asked it of every
//! switch of every pair's shortest paths, scanning all 36 ports of each spine for the one that
//! leads down). A target's answers for every switch are one bit mask per switch, filled on the
//! first pair to that target and kept within [`CACHE_BYTES`].
//!
//! With the masks come the target's [`Tail`]s: a switch with one way on, and one from every
//! switch after it (a spine above a fat tree's target pod, the pod's aggregation switch), has
//! one path to the target whatever the rows and loads, so its cost is the loads of that path's
//! few link ends, read without searching.

use std::sync::Arc;

use super::NO_HOPS;
use super::topology::{Peer, Topology};

/// Memory the cached masks may take: past it, masks are worked out each time they are asked.
const CACHE_BYTES: usize = 64 << 20;

/// Link ends a [`Tail`] may lead along; a longer single path is searched as any other.
const TAIL_ENDS: u8 = 3;

/// [`Tail::len`] of a switch with more than one way on (or a longer single path).
const NOT_SINGLE: u8 = u8::MAX;

/// The one path from a switch to a target, one link at a time: the link end it sends into, the
/// port and the switch it leads to, and how many link ends are left to the target (the
/// target's own hand-over end not counted, as in the router's costs), or [`NOT_SINGLE`]. Eight
/// bytes, so that the tails a pair reads stay few cache lines (a spine's tail is read once per
/// aggregation switch above the source, 324 a pair on k = 36).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tail {
    pub end: u32,
    pub next: u16,
    pub port: u8,
    pub len: u8,
}

impl Tail {
    const NONE: Tail = Tail { end: 0, next: 0, port: 0, len: NOT_SINGLE };

    /// Whether the switch has a single path to the target (the target itself included).
    pub fn single(&self) -> bool {
        self.len != NOT_SINGLE
    }
}

/// One target's answers for every switch: its shortest-path port masks and tails.
pub struct TargetPaths {
    pub masks: Box<[u64]>,
    pub tails: Box<[Tail]>,
}

/// One switch-to-switch port: its number, the switch it leads to and the link end it sends into.
#[derive(Clone, Copy, Debug)]
pub struct Uplink {
    pub port: u8,
    pub next: usize,
    pub end: usize,
}

/// Every switch's switch-to-switch ports (in port order), and the cached shortest-path masks.
pub struct ShortestPorts {
    /// Switch `s`'s ports are `links[first[s]..first[s + 1]]`: one list, no pointer to follow.
    links: Vec<Uplink>,
    first: Vec<usize>,
    /// Per target switch: per switch, bit `i` set when `of(switch)[i]` is on a shortest
    /// path to the target, and the switch's [`Tail`].
    targets: Vec<Option<Arc<TargetPaths>>>,
    cached_bytes: usize,
    /// [`CACHE_BYTES`], or less for a test that searches every path.
    cache_limit: usize,
    /// Whether every switch has at most 64 such ports (a mask holds them).
    masks_fit: bool,
}

/// The candidates of one switch: bits of a mask, or positions listed (more than 64 ports).
pub enum Candidates {
    Bits(u64),
    Listed(std::vec::IntoIter<usize>),
}

impl Iterator for Candidates {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        match self {
            Candidates::Bits(bits) => {
                if *bits == 0 {
                    return None;
                }
                let i = bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                Some(i)
            }
            Candidates::Listed(list) => list.next(),
        }
    }
}

impl ShortestPorts {
    pub fn new(topology: &Topology) -> Self {
        let fabric = topology.fabric;
        let per_switch: Vec<Vec<Uplink>> = topology
            .ports
            .iter()
            .zip(&topology.switches)
            .map(|(ports, &node)| {
                ports
                    .iter()
                    .filter_map(|p| {
                        let Peer::Switch(next) = p.peer else { return None };
                        let (end, _, _) = fabric.out_through(node, p.port)?;
                        Some(Uplink { port: p.port.0, next, end: end.index() })
                    })
                    .collect()
            })
            .collect();
        let masks_fit = per_switch.iter().all(|l| l.len() <= 64);
        let mut first = Vec::with_capacity(per_switch.len() + 1);
        first.push(0);
        for l in &per_switch {
            first.push(first.last().copied().unwrap_or(0) + l.len());
        }
        let links = per_switch.into_iter().flatten().collect();
        ShortestPorts {
            links,
            first,
            targets: vec![None; topology.switches.len()],
            cached_bytes: 0,
            cache_limit: CACHE_BYTES,
            masks_fit,
        }
    }

    /// Keeps no target's masks or tails: every pair's paths are searched, as past the cache.
    #[cfg(test)]
    pub fn uncached(mut self) -> Self {
        self.cache_limit = 0;
        self
    }

    /// Switch `s`'s switch-to-switch ports, in port order.
    pub fn of(&self, s: usize) -> &[Uplink] {
        &self.links[self.first[s]..self.first[s + 1]]
    }

    /// Where switch `s`'s ports start in the one list: `of(s)[i]` is `link(first_of(s) + i)`,
    /// for a search that steps through a switch's ports without slicing the list each time.
    pub fn first_of(&self, s: usize) -> usize {
        self.first[s]
    }

    /// The port at a position of the one list (see [`ShortestPorts::first_of`]).
    pub fn link(&self, at: usize) -> Uplink {
        self.links[at]
    }

    fn switches(&self) -> usize {
        self.first.len() - 1
    }

    /// The positions in [`ShortestPorts::of`]`(s)` of the ports on a shortest path from `s` to `target`.
    pub fn candidates(&mut self, topology: &Topology, s: usize, target: usize) -> Candidates {
        if let Some(Some(paths)) = self.targets.get(target) {
            return Candidates::Bits(paths.masks[s]);
        }
        if let Some(paths) = self.target(topology, target) {
            return Candidates::Bits(paths.masks[s]);
        }
        let hops = topology.hops_to(target);
        if !self.masks_fit {
            let on = self.of(s).iter().enumerate().filter(|(_, l)| on_shortest(hops, l.next, s));
            return Candidates::Listed(on.map(|(i, _)| i).collect::<Vec<_>>().into_iter());
        }
        Candidates::Bits(self.mask(hops, s))
    }

    /// `target`'s masks and tails, worked out on the first call and kept while they fit in
    /// [`CACHE_BYTES`]; `None` past it, or where a switch has more ports than a mask holds.
    pub fn target(&mut self, topology: &Topology, target: usize) -> Option<Arc<TargetPaths>> {
        if let Some(Some(paths)) = self.targets.get(target) {
            return Some(Arc::clone(paths));
        }
        let row_bytes = self.switches() * (8 + size_of::<Tail>());
        if !self.masks_fit || self.cached_bytes + row_bytes > self.cache_limit {
            return None;
        }
        let hops = topology.hops_to(target);
        let masks: Box<[u64]> = (0..self.switches()).map(|switch| self.mask(hops, switch)).collect();
        let tails = self.tails(hops, &masks, target);
        let paths = Arc::new(TargetPaths { masks, tails });
        self.targets[target] = Some(Arc::clone(&paths));
        self.cached_bytes += row_bytes;
        Some(paths)
    }

    /// Every switch's [`Tail`] to `target`, nearest switches first so that a switch's next one
    /// is known when it is reached.
    fn tails(&self, hops: &[u8], masks: &[u64], target: usize) -> Box<[Tail]> {
        let mut tails = vec![Tail::NONE; self.switches()];
        // Tails name switches in 16 bits; a larger fabric is searched switch by switch.
        if u16::try_from(self.switches()).is_err() {
            return tails.into_boxed_slice();
        }
        tails[target].len = 0;
        let mut by_hops: Vec<usize> = (0..self.switches()).filter(|&s| hops[s] != NO_HOPS).collect();
        by_hops.sort_by_key(|&s| hops[s]);
        for s in by_hops.into_iter().filter(|&s| s != target) {
            let mask = masks[s];
            if mask.count_ones() != 1 {
                continue;
            }
            let link = self.of(s)[mask.trailing_zeros() as usize];
            let after = tails[link.next].len;
            let (Ok(end), Ok(next)) = (u32::try_from(link.end), u16::try_from(link.next)) else { continue };
            if after < TAIL_ENDS {
                tails[s] = Tail { end, next, port: link.port, len: after + 1 };
            }
        }
        tails.into_boxed_slice()
    }

    fn mask(&self, hops: &[u8], s: usize) -> u64 {
        let on = self.of(s).iter().enumerate().filter(|(_, l)| on_shortest(hops, l.next, s));
        on.fold(0, |bits, (i, _)| bits | 1 << i)
    }
}

/// A hop from `s` to `next` is on a shortest path when `next` is one hop nearer the target.
fn on_shortest(hops: &[u8], next: usize, s: usize) -> bool {
    hops[next] != NO_HOPS && hops[next] + 1 == hops[s]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::ThreeLevel;

    #[test]
    fn only_the_spines_and_the_target_pods_aggregation_switches_have_a_single_path_to_a_leaf() {
        let fabric = ThreeLevel::k_ary(4).build();
        let topology = Topology::new(&fabric, "t");
        let mut ports = ShortestPorts::new(&topology);
        let leaf = topology.endpoint_links().iter().position(|&hosts| hosts > 0).expect("a leaf");
        let paths = ports.target(&topology, leaf).expect("20 switches fit the cache");
        let mut lengths: Vec<u8> = paths.tails.iter().filter(|t| t.single()).map(|t| t.len).collect();
        lengths.sort_unstable();
        assert_eq!(lengths, vec![0, 1, 1, 2, 2, 2, 2], "the leaf, its 2 aggregation switches, the 4 spines");
        for (s, tail) in paths.tails.iter().enumerate().filter(|(_, t)| t.single()) {
            // The tail is the path the masks lead along.
            let (mut at, mut tail) = (s, *tail);
            while tail.len > 0 {
                let mask = paths.masks[at];
                assert_eq!(mask.count_ones(), 1);
                let link = ports.of(at)[mask.trailing_zeros() as usize];
                assert_eq!(
                    (link.end as u32, link.next, link.port),
                    (tail.end, usize::from(tail.next), tail.port)
                );
                at = link.next;
                tail = paths.tails[at];
            }
            assert_eq!(at, leaf);
        }
    }
}
