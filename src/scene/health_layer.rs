//! The health layer (issue 22, item 5) of a fat-tree scene: degraded links dashed, ports whose
//! error counters moved ringed in red where they send into their link, from
//! [`crate::routing::health`]. Marks are placed on the scene's own halves, so a hidden link end
//! (filtered out) carries none; `draw::health_glyphs` turns them into lines and dots, which
//! every painter draws.

use std::collections::HashMap;

use crate::layout::Position;
use crate::model::{Cluster, LinkEnd, Side};
use crate::routing::Observed;
use crate::routing::health::health;

use super::{HealthMark, Scene};

/// The words a title carries when the layer is on.
pub const HEALTH_KEY: &str = "health: dashed = degraded link, red ring = error port";

/// The marks of a fat-tree scene's cluster.
pub fn health_marks(scene: &Scene, cluster: &Cluster, observed: Option<&Observed>) -> Vec<HealthMark> {
    let found = health(cluster, observed);
    let halves: HashMap<(u8, LinkEnd), (Position, Position)> =
        scene.halves.iter().map(|h| ((h.rail, h.end), (h.from, h.to))).collect();
    let mut ports: HashMap<(usize, crate::model::Guid, u8), LinkEnd> = HashMap::new();
    for (rail, fabric) in cluster.rails.iter().enumerate() {
        for i in 0..fabric.link_end_count() {
            let end = LinkEnd::from_index(i);
            if let Some(((node, port), _)) = fabric.link_end_nodes(end) {
                ports.insert((rail, fabric.node(node).guid, port.0), end);
            }
        }
    }
    let mut out = Vec::new();
    for d in &found.degraded {
        let Some(&end) = ports.get(&(d.rail, d.a.0, d.a.1)) else { continue };
        let half = |side: Side| halves.get(&(d.rail as u8, LinkEnd { edge: end.edge, side })).map(|h| h.0);
        if let (Some(a), Some(b)) = (half(Side::A), half(Side::B)) {
            out.push(HealthMark::Degraded { a, b });
        }
    }
    for e in &found.errors {
        let Some(&end) = ports.get(&(e.rail, e.guid, e.port)) else { continue };
        if let Some(&(from, to)) = halves.get(&(e.rail as u8, end)) {
            let at = Position { x: from.x + (to.x - from.x) * 0.3, y: from.y + (to.y - from.y) * 0.3 };
            out.push(HealthMark::ErrorPort { at });
        }
    }
    out.dedup();
    out
}
