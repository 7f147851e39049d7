//! Which of a switch's switch-to-switch ports lie on a shortest path to a target switch, looked
//! up instead of found again for every pair (issue 23: the greedy router asked it of every
//! switch of every pair's shortest paths, scanning all 36 ports of each spine for the one that
//! leads down). A target's answers for every switch are one bit mask per switch, filled on the
//! first pair to that target and kept within [`CACHE_BYTES`].

use super::NO_HOPS;
use super::topology::{Peer, Topology};

/// Memory the cached masks may take: past it, masks are worked out each time they are asked.
const CACHE_BYTES: usize = 64 << 20;

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
    /// Per target switch, per switch: bit `i` set when `of(switch)[i]` is on a shortest
    /// path to the target.
    masks: Vec<Option<Box<[u64]>>>,
    cached_bytes: usize,
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
        ShortestPorts { links, first, masks: vec![None; topology.switches.len()], cached_bytes: 0, masks_fit }
    }

    /// Switch `s`'s switch-to-switch ports, in port order.
    pub fn of(&self, s: usize) -> &[Uplink] {
        &self.links[self.first[s]..self.first[s + 1]]
    }

    fn switches(&self) -> usize {
        self.first.len() - 1
    }

    /// The positions in [`ShortestPorts::of`]`(s)` of the ports on a shortest path from `s` to `target`.
    pub fn candidates(&mut self, topology: &Topology, s: usize, target: usize) -> Candidates {
        if let Some(Some(row)) = self.masks.get(target) {
            return Candidates::Bits(row[s]);
        }
        let hops = topology.hops_to(target);
        if !self.masks_fit {
            let on = self.of(s).iter().enumerate().filter(|(_, l)| on_shortest(hops, l.next, s));
            return Candidates::Listed(on.map(|(i, _)| i).collect::<Vec<_>>().into_iter());
        }
        let row_bytes = self.switches() * 8;
        if self.cached_bytes + row_bytes > CACHE_BYTES {
            return Candidates::Bits(self.mask(hops, s));
        }
        let row: Box<[u64]> = (0..self.switches()).map(|switch| self.mask(hops, switch)).collect();
        let bits = row[s];
        self.masks[target] = Some(row);
        self.cached_bytes += row_bytes;
        Candidates::Bits(bits)
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
