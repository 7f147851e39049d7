//! Congestion regions over time (issue 22, item 6): the seed's congestion evolution graph, made
//! for fat trees.
//!
//! - Per interval, the link ends whose stall reaches a threshold, and that touch the same switch
//!   on the same tier and direction, form one region (touching is transitive: a chain of hot
//!   uplinks through two leaves under one spine is one region if they share the spine).
//! - Regions of consecutive intervals that share a link end are linked: a region linked to two
//!   later ones split, one linked to two earlier ones merged.
//! - Regions are numbered from 1 in time order, the worst stall first within an interval.
//!
//! Ends are the view model's link positions ([`super::dataset::FabricIndex`]); a tier is the
//! higher level of a link's two nodes (hosts are level 0), a direction up or down, as the
//! `link_ends` table writes them.

use std::ops::Range;

use crate::model::{Cluster, LinkEnd, NodeKind};
use crate::routing::Observed;
use crate::routing::health::levels;

use super::link_series::LinkSeries;

/// The regions of a cluster's counter intervals at `threshold` % stall; `None` when the counters
/// span no interval with times.
pub fn fabric_regions(cluster: &Cluster, observed: &Observed, threshold: f32) -> Option<Evolution> {
    let series = LinkSeries::of(cluster, observed)?;
    let places = EndPlaces::new(cluster);
    Some(congestion_regions(&places, series.stall.iter().map(Vec::as_slice), threshold))
}

/// Where each link end sits: its class (tier × direction) and the switches it touches.
#[derive(Clone, Debug, Default)]
pub struct EndPlaces {
    /// Per link position: index into `classes`.
    class: Vec<u16>,
    /// Per link position: the switches (numbered over all rails) at its two ends; `NONE` for a host.
    touches: Vec<[u32; 2]>,
    /// (tier, up) of each class.
    pub classes: Vec<(u32, bool)>,
    switches: usize,
}

const NONE: u32 = u32::MAX;

impl EndPlaces {
    /// The places of every link end of a cluster, rail by rail as the view model numbers them.
    pub fn new(cluster: &Cluster) -> EndPlaces {
        let mut places = EndPlaces::default();
        for fabric in &cluster.rails {
            let level = levels(fabric);
            let first_switch = places.switches as u32;
            let switch_of = |n: petgraph::graph::NodeIndex| {
                if fabric.node(n).kind != NodeKind::Ca { first_switch + n.index() as u32 } else { NONE }
            };
            for i in 0..fabric.link_end_count() {
                let Some(((from, _), (to, _))) = fabric.link_end_nodes(LinkEnd::from_index(i)) else {
                    places.push((0, false), [NONE, NONE]);
                    continue;
                };
                let (lf, lt) = (level.get(&from).copied().unwrap_or(0), level.get(&to).copied().unwrap_or(0));
                places.push((lf.max(lt), lf < lt), [switch_of(from), switch_of(to)]);
            }
            places.switches += fabric.graph.node_count();
        }
        places
    }

    fn push(&mut self, class: (u32, bool), touches: [u32; 2]) {
        let index = match self.classes.iter().position(|c| *c == class) {
            Some(i) => i,
            None => {
                self.classes.push(class);
                self.classes.len() - 1
            }
        };
        self.class.push(index as u16);
        self.touches.push(touches);
    }

    /// How many link ends.
    pub fn len(&self) -> usize {
        self.class.len()
    }

    pub fn is_empty(&self) -> bool {
        self.class.is_empty()
    }

    /// (tier, up) of a link end.
    pub fn class_of(&self, end: u32) -> Option<(u32, bool)> {
        self.classes.get(*self.class.get(end as usize)? as usize).copied()
    }
}

/// One region: hot link ends of one interval, of one tier and direction, joined by switches.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    /// Its number, from 1, in time order, the worst stall first within an interval.
    pub number: u32,
    pub interval: u32,
    /// Link positions, ascending.
    pub ends: Vec<u32>,
    /// The largest stall % among its ends.
    pub worst_stall: f32,
    pub tier: u32,
    pub up: bool,
}

/// Every region of a series, and how they follow each other.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evolution {
    /// By interval, then worst stall first: `regions[i].number == i + 1`.
    pub regions: Vec<Region>,
    /// The regions of each interval.
    pub by_interval: Vec<Range<usize>>,
    /// (earlier, later) region indices of consecutive intervals that share a link end, sorted.
    pub links: Vec<(u32, u32)>,
    /// The stall % an end had to reach.
    pub threshold: f32,
}

impl Evolution {
    /// The regions an earlier one continues into.
    pub fn later(&self, region: usize) -> impl Iterator<Item = usize> + '_ {
        self.links.iter().filter(move |l| l.0 as usize == region).map(|l| l.1 as usize)
    }

    /// The regions a later one came from.
    pub fn earlier(&self, region: usize) -> impl Iterator<Item = usize> + '_ {
        self.links.iter().filter(move |l| l.1 as usize == region).map(|l| l.0 as usize)
    }

    /// The region numbered `number`, if there is one.
    pub fn numbered(&self, number: u32) -> Option<&Region> {
        self.regions.get((number as usize).checked_sub(1)?)
    }
}

/// Scratch space reused from interval to interval, so an interval costs its hot ends.
struct Scratch {
    /// Per (switch, class) slot: the interval that last wrote it, and the hot end it holds.
    slot_stamp: Vec<u32>,
    slot_first: Vec<u32>,
    /// Per link end: the interval it was last hot in, and its region there.
    end_stamp: Vec<u32>,
    end_region: Vec<u32>,
    parent: Vec<u32>,
}

/// The regions of each interval's stall % per link end (`NaN`: unknown), ends hot at
/// `threshold` % or more.
pub fn congestion_regions<'a>(
    places: &EndPlaces,
    intervals: impl IntoIterator<Item = &'a [f32]>,
    threshold: f32,
) -> Evolution {
    let slots = places.switches * places.classes.len().max(1);
    let mut scratch = Scratch {
        slot_stamp: vec![NONE; slots],
        slot_first: vec![0; slots],
        end_stamp: vec![NONE; places.len()],
        end_region: vec![0; places.len()],
        parent: Vec::new(),
    };
    let mut out = Evolution { threshold, ..Default::default() };
    let mut hot: Vec<u32> = Vec::new();
    for (t, stall) in intervals.into_iter().enumerate() {
        let t = t as u32;
        hot.clear();
        hot.extend(
            stall
                .iter()
                .take(places.len())
                .enumerate()
                .filter(|(_, s)| **s >= threshold)
                .map(|(e, _)| e as u32),
        );
        let start = out.regions.len();
        for mut region in interval_regions(places, &hot, stall, t, &mut scratch) {
            region.interval = t;
            out.regions.push(region);
        }
        out.regions[start..]
            .sort_by(|a, b| b.worst_stall.total_cmp(&a.worst_stall).then(a.ends.cmp(&b.ends)));
        link_to_earlier(&mut out, start, t, &mut scratch);
        out.by_interval.push(start..out.regions.len());
    }
    for (i, region) in out.regions.iter_mut().enumerate() {
        region.number = i as u32 + 1;
    }
    out.links.sort_unstable();
    out.links.dedup();
    out
}

/// One interval's regions (unnumbered, unsorted): hot ends joined through shared switch slots.
fn interval_regions(places: &EndPlaces, hot: &[u32], stall: &[f32], t: u32, s: &mut Scratch) -> Vec<Region> {
    s.parent.clear();
    s.parent.extend(0..hot.len() as u32);
    let classes = places.classes.len();
    for (i, &end) in hot.iter().enumerate() {
        let class = places.class[end as usize] as usize;
        for switch in places.touches[end as usize] {
            if switch == NONE {
                continue;
            }
            let slot = switch as usize * classes + class;
            if s.slot_stamp[slot] == t {
                union(&mut s.parent, i as u32, s.slot_first[slot]);
            } else {
                s.slot_stamp[slot] = t;
                s.slot_first[slot] = i as u32;
            }
        }
    }
    let mut by_root: Vec<u32> = vec![NONE; hot.len()];
    let mut regions: Vec<Region> = Vec::new();
    for (i, &end) in hot.iter().enumerate() {
        let root = find(&mut s.parent, i as u32) as usize;
        if by_root[root] == NONE {
            by_root[root] = regions.len() as u32;
            let (tier, up) = places.class_of(end).unwrap_or((0, false));
            regions.push(Region { number: 0, interval: t, ends: Vec::new(), worst_stall: 0.0, tier, up });
        }
        let region = &mut regions[by_root[root] as usize];
        region.ends.push(end);
        region.worst_stall = region.worst_stall.max(stall[end as usize]);
    }
    regions
}

/// Links the regions of interval `t` (from `start` on) to those of `t − 1` sharing an end, and
/// records each end's region for interval `t + 1`.
fn link_to_earlier(out: &mut Evolution, start: usize, t: u32, s: &mut Scratch) {
    for (index, region) in out.regions.iter().enumerate().skip(start) {
        for &end in &region.ends {
            let e = end as usize;
            if t > 0 && s.end_stamp[e] == t - 1 {
                out.links.push((s.end_region[e], index as u32));
            }
            s.end_stamp[e] = t;
            s.end_region[e] = index as u32;
        }
    }
}

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
}

#[cfg(test)]
#[path = "congestion_tests.rs"]
mod tests;
