//! One traffic under several routings: the maximum link-end load each gives (PFAnalyzer's
//! measure, issue 23), so `shoal route --engine greedy` and the window's what-if panel can set
//! the application-aware router beside D-mod-K, minhop and the tables the rail was recorded with.

use crate::model::{Fabric, Lid, LinkEnd, NodeKind};
use crate::routing::{Flow, accumulate};

use super::{Engine, Greedy, Objective, RoutingEngine, route_by};

/// What one routing makes of the traffic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaxLoad {
    /// `recorded`, or the engine's `--engine` name.
    pub routing: String,
    /// The busiest link end, CA links included.
    pub any_end: u64,
    /// The busiest link end between two switches (what routing can change).
    pub switch_to_switch: u64,
    /// Where `switch_to_switch` is (the lowest index among equals); `None` when no bytes cross
    /// a switch-to-switch end. Every routing here keeps the recorded fabric's links, so the
    /// index names the same end on the rail that is open.
    pub busiest_end: Option<LinkEnd>,
    /// The busiest link between two switches, both directions summed: PFSim's measure, whose
    /// graph is undirected.
    pub switch_link: u64,
    /// Bytes the tables do not deliver.
    pub undelivered: u64,
}

/// The busiest link end of `flows` on `fabric`'s own tables.
pub fn max_load(fabric: &Fabric, routing: &str, flows: &[Flow]) -> MaxLoad {
    let load = accumulate(fabric, flows);
    let is_switch = |n| fabric.node(n).kind == NodeKind::Switch;
    let (mut any_end, mut switch_to_switch, mut switch_link) = (0, 0, 0);
    let mut busiest: Option<usize> = None;
    for (index, bytes) in load.bytes.nonzero() {
        any_end = any_end.max(bytes);
        // The two ends of a link are indices 2e and 2e + 1.
        let end = LinkEnd::from_index(index);
        let between_switches =
            fabric.link_end_nodes(end).is_some_and(|((a, _), (b, _))| is_switch(a) && is_switch(b));
        if between_switches {
            let busier =
                bytes > switch_to_switch || (bytes == switch_to_switch && busiest.is_some_and(|b| index < b));
            if busier {
                busiest = Some(index);
            }
            switch_to_switch = switch_to_switch.max(bytes);
            let both = bytes.saturating_add(load.bytes.get(index ^ 1));
            switch_link = switch_link.max(both);
        }
    }
    MaxLoad {
        routing: routing.to_string(),
        any_end,
        switch_to_switch,
        busiest_end: busiest.map(LinkEnd::from_index),
        switch_link,
        undelivered: load.undelivered,
    }
}

/// A link end as `shoal hot` and the window name it: `node (port) -> far node (port)`.
pub fn end_label(fabric: &Fabric, end: LinkEnd) -> String {
    match fabric.link_end_nodes(end) {
        Some(((a, ap), (b, bp))) => {
            format!("{} ({ap}) -> {} ({bp})", fabric.node(a).description, fabric.node(b).description)
        }
        None => format!("end {}", end.index()),
    }
}

/// The flows as the greedy router takes them.
pub fn pairs_of(flows: &[Flow]) -> Vec<(Lid, Lid, u64)> {
    flows.iter().map(|f| (f.src, f.dst, f.bytes)).collect()
}

/// `flows` under the recorded tables (when every switch has one), D-mod-K (when the fabric is
/// a fat tree), minhop, greedy and greedy-sum, in that order. `source` names the rail.
pub fn compare_routings(fabric: &Fabric, flows: &[Flow], source: &str) -> Vec<MaxLoad> {
    let greedy = |objective| Greedy { objective, pairs: pairs_of(flows) };
    let engines: [Box<dyn RoutingEngine>; 2] =
        [Box::new(greedy(Objective::Busiest)), Box::new(greedy(Objective::Sum))];
    let mut rows = baseline_routings(fabric, flows, source);
    rows.extend(routed_with(fabric, flows, source, &engines));
    rows
}

/// What an application-aware routing is measured against: the recorded tables (when every
/// switch has one), D-mod-K (when the fabric is a fat tree) and minhop.
pub fn baseline_routings(fabric: &Fabric, flows: &[Flow], source: &str) -> Vec<MaxLoad> {
    let mut rows = Vec::new();
    let switches = fabric.switches().count();
    if switches > 0 && fabric.switches_with_lft() == switches {
        rows.push(max_load(fabric, "recorded", flows));
    }
    let engines: [Box<dyn RoutingEngine>; 2] =
        [Box::new(EngineRef(Engine::Dmodk)), Box::new(EngineRef(Engine::MinHop))];
    rows.extend(routed_with(fabric, flows, source, &engines));
    rows
}

fn routed_with(
    fabric: &Fabric,
    flows: &[Flow],
    source: &str,
    engines: &[Box<dyn RoutingEngine>],
) -> Vec<MaxLoad> {
    let mut rows = Vec::new();
    for engine in engines {
        // An engine that cannot route this fabric (D-mod-K off a fat tree) has no row.
        if let Ok((routed, _)) = route_by(fabric, engine.as_ref(), source) {
            rows.push(max_load(&routed, engine.name(), flows));
        }
    }
    rows
}

/// A table engine behind a box, beside the greedy routers that carry their traffic.
struct EngineRef(Engine);

impl RoutingEngine for EngineRef {
    fn name(&self) -> &'static str {
        self.0.implementation().name()
    }

    fn route(&self, topology: &super::Topology) -> Result<super::Routes, super::RouteError> {
        self.0.implementation().route(topology)
    }
}
