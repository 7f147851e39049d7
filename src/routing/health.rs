//! Link health (issue 22, item 4): degraded links, ports whose error counters moved, and ports
//! that waited to send (XmitWait).
//!
//! A link is degraded when its active width or speed is below what both its ends support, where
//! the topology records that (ibdiagnet2 `db_csv`). Elsewhere (lst, ibnetdiscover: active only)
//! it is degraded when it runs below what the rest of its tier runs: the tier is the pair of its
//! ends' levels (a CA is level 0, a switch one more than its nearest neighbour's), and what the
//! tier runs is the capacity most of its links have.

use std::collections::{HashMap, VecDeque};

use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;

use crate::model::capacity::Capacity;
use crate::model::port_counters::{Accused, CounterKind};
use crate::model::{Cluster, Fabric, Guid, LinkEnd, NodeKind, Side};

use super::link_rates::LinkRates;
use super::observed::Observed;

/// A link running below its tier.
#[derive(Clone, Debug, PartialEq)]
pub struct Degraded {
    pub rail: usize,
    pub a: (Guid, u8),
    pub b: (Guid, u8),
    pub width: String,
    pub speed: String,
    pub expected_width: String,
    pub expected_speed: String,
    pub reason: String,
}

/// An error counter of a port that moved (or stands above 0, with one snapshot).
#[derive(Clone, Debug, PartialEq)]
pub struct PortError {
    pub rail: usize,
    pub guid: Guid,
    pub port: u8,
    pub counter: CounterKind,
    pub count: u64,
}

impl PortError {
    pub fn accuses(&self) -> Accused {
        self.counter.accuses().unwrap_or(Accused::Other)
    }
}

/// A port that waited with data to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Stalled {
    pub rail: usize,
    pub guid: Guid,
    pub port: u8,
    /// The link end it sends into.
    pub end: LinkEnd,
    pub xmit_wait: u64,
    pub stall_percent: Option<f64>,
}

/// Everything `shoal health` lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Health {
    pub degraded: Vec<Degraded>,
    /// By what they accuse (cable, buffers, routing, other), then rail, GUID, port.
    pub errors: Vec<PortError>,
    /// Largest stall first (by % where known, else by ticks).
    pub stalled: Vec<Stalled>,
}

/// The health of a fabric, with its counters if any.
pub fn health(cluster: &Cluster, observed: Option<&Observed>) -> Health {
    let degraded = cluster.rails.iter().enumerate().flat_map(|(r, f)| degraded(r, f)).collect();
    let Some(observed) = observed else { return Health { degraded, ..Default::default() } };
    let rates = LinkRates::new(cluster, observed);
    let (mut errors, mut stalled) = (Vec::new(), Vec::new());
    for port in &observed.ports {
        let (rail, node, number) = port.place;
        let guid = cluster.rails[rail].node(node).guid;
        for (counter, count) in port.counts.iter() {
            if counter.is_error() && count.value > 0 {
                errors.push(PortError { rail, guid, port: number.0, counter, count: count.value });
            }
        }
        if let Some(wait) = port.counts.get(CounterKind::PortXmitWait).filter(|w| w.value > 0) {
            let stall_percent = rates.stall_percent(rail, port.sends);
            stalled.push(Stalled {
                rail,
                guid,
                port: number.0,
                end: port.sends,
                xmit_wait: wait.value,
                stall_percent,
            });
        }
    }
    errors.sort_by_key(|e| (e.accuses(), e.rail, e.guid, e.port, e.counter));
    stalled.sort_by(|a, b| {
        let key = |s: &Stalled| (s.stall_percent.unwrap_or(-1.0), s.xmit_wait);
        key(b).partial_cmp(&key(a)).unwrap_or(std::cmp::Ordering::Equal)
    });
    Health { degraded, errors, stalled }
}

/// Each node's level: CAs 0, a switch one more than its nearest neighbour's.
pub fn levels(fabric: &Fabric) -> HashMap<NodeIndex, u32> {
    let mut level = HashMap::new();
    let mut queue = VecDeque::new();
    for n in fabric.graph.node_indices() {
        if fabric.node(n).kind != NodeKind::Switch {
            level.insert(n, 0);
            queue.push_back(n);
        }
    }
    while let Some(n) = queue.pop_front() {
        let next = level[&n] + 1;
        for m in fabric.graph.neighbors(n) {
            if let std::collections::hash_map::Entry::Vacant(slot) = level.entry(m) {
                slot.insert(next);
                queue.push_back(m);
            }
        }
    }
    level
}

/// The links of one rail that run below what both ends support, or (where that is not recorded)
/// below the capacity most links of their tier run.
fn degraded(rail: usize, fabric: &Fabric) -> Vec<Degraded> {
    let level = levels(fabric);
    let tier = |a: NodeIndex, b: NodeIndex| {
        let (la, lb) =
            (level.get(&a).copied().unwrap_or(u32::MAX), level.get(&b).copied().unwrap_or(u32::MAX));
        (la.min(lb), la.max(lb))
    };
    let mut counts: HashMap<(u32, u32), HashMap<Capacity, usize>> = HashMap::new();
    let mut out = Vec::new();
    let mut links = Vec::new();
    for e in fabric.graph.edge_references() {
        let Ok(capacity) = Capacity::of(e.weight()) else { continue };
        match Capacity::supported(e.weight()) {
            Some(best) => {
                if capacity.lanes < best.lanes || capacity.speed < best.speed {
                    let reason =
                        format!("runs {} where both ends support {}", capacity.describe(), best.describe());
                    out.extend(entry(rail, fabric, e.id(), capacity, best, reason));
                }
            }
            None => links.push((e, tier(e.source(), e.target()), capacity)),
        }
    }
    for (_, t, capacity) in &links {
        *counts.entry(*t).or_default().entry(*capacity).or_default() += 1;
    }
    let usual: HashMap<(u32, u32), Capacity> = counts
        .into_iter()
        .filter_map(|(t, c)| {
            let best = c.into_iter().max_by(|a, b| {
                (a.1, a.0.bytes_per_s())
                    .partial_cmp(&(b.1, b.0.bytes_per_s()))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })?;
            Some((t, best.0))
        })
        .collect();
    for (edge, t, capacity) in links {
        let Some(expected) = usual.get(&t).copied() else { continue };
        if capacity.bytes_per_s() >= expected.bytes_per_s() {
            continue;
        }
        let reason = format!(
            "runs {} where the other links of its tier (levels {}–{}) run {}",
            capacity.describe(),
            t.0,
            t.1,
            expected.describe()
        );
        out.extend(entry(rail, fabric, edge.id(), capacity, expected, reason));
    }
    out.sort_by_key(|d| (d.a, d.b));
    out
}

/// A degraded link's entry; `None` where an end cannot be placed.
fn entry(
    rail: usize,
    fabric: &Fabric,
    edge: petgraph::graph::EdgeIndex,
    capacity: Capacity,
    expected: Capacity,
    reason: String,
) -> Option<Degraded> {
    let end = |side: Side| {
        let ((node, port), _) = fabric.link_end_nodes(LinkEnd { edge, side })?;
        Some((fabric.node(node).guid, port.0))
    };
    Some(Degraded {
        rail,
        a: end(Side::A)?,
        b: end(Side::B)?,
        width: format!("{}x", capacity.lanes),
        speed: capacity.speed.name().to_string(),
        expected_width: format!("{}x", expected.lanes),
        expected_speed: expected.speed.name().to_string(),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::TwoLevel;

    #[test]
    fn a_link_slower_than_the_rest_of_its_tier_is_degraded_and_the_others_are_not() {
        let mut fabric = TwoLevel::new(2, 2, 2).build();
        for link in fabric.graph.edge_weights_mut() {
            (link.width, link.speed) = (Some("4x".into()), Some("10".into()));
        }
        let slow = fabric.graph.edge_indices().next().unwrap();
        fabric.graph[slow].width = Some("1x".into());
        fabric.graph[slow].speed = Some("2.5".into());
        let found = degraded(0, &fabric);
        assert_eq!(found.len(), 1, "{found:?}");
        let d = &found[0];
        assert_eq!((d.width.as_str(), d.speed.as_str()), ("1x", "SDR"));
        assert_eq!((d.expected_width.as_str(), d.expected_speed.as_str()), ("4x", "QDR"));
        assert!(d.reason.contains("4x QDR"), "{}", d.reason);
    }

    #[test]
    fn a_link_below_what_both_ends_support_is_degraded_even_when_its_tier_runs_the_same() {
        let mut fabric = TwoLevel::new(2, 2, 2).build();
        for link in fabric.graph.edge_weights_mut() {
            (link.width, link.speed) = (Some("4x".into()), Some("50".into()));
            (link.supported_width, link.supported_speed) = (Some("4x"), Some("50"));
        }
        let slow = fabric.graph.edge_indices().next().unwrap();
        fabric.graph[slow].supported_speed = Some("100");
        let found = degraded(0, &fabric);
        assert_eq!(found.len(), 1, "{found:?}");
        let d = &found[0];
        assert_eq!((d.width.as_str(), d.speed.as_str()), ("4x", "HDR"));
        assert_eq!((d.expected_width.as_str(), d.expected_speed.as_str()), ("4x", "NDR"));
        assert_eq!(d.reason, "runs 4x HDR where both ends support 4x NDR");
    }

    #[test]
    fn links_without_width_or_speed_are_never_called_degraded() {
        let fabric = TwoLevel::new(2, 2, 2).build();
        assert!(degraded(0, &fabric).is_empty());
    }
}
