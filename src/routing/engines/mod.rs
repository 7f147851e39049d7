//! Routing engines: forwarding tables computed from a fabric's cabling alone (`shoal route`),
//! so that a rail can be replayed under another routing than the one its subnet manager chose.
//!
//! Every engine fills, for every switch and every destination LID (each LID of an LMC range on
//! its own, switches' own LIDs included), one output port; a destination a switch cannot reach
//! is `UNREACHABLE`. Engines implement [`RoutingEngine`]; [`route`] runs one and puts its
//! tables on a copy of the fabric.
//!
//! - [`Dmodk`]: D-mod-k for fat trees: shortest paths, the port picked by destination.
//! - [`MinHop`]: OpenSM's minhop: shortest paths, the least-used port.
//! - [`UpDown`]: OpenSM's up*/down* from automatically found roots: deadlock-free.
//! - [`Greedy`]: PFSim's application-aware router: a profile's pairs heaviest first, each on
//!   the shortest path whose busiest link end is least loaded ([`compare`] sets its maximum
//!   link-end load beside the other engines').

mod balance;
mod check;
pub mod compare;
mod dmodk;
mod greedy;
mod minhop;
mod shortest_ports;
mod topology;
mod updn;

use std::fmt;

use rayon::prelude::*;

use crate::model::{Fabric, Lft, LftEntry, PortNum, Warning};

pub use check::{RouteCheck, check_routes};
pub use dmodk::Dmodk;
pub use greedy::{Greedy, Objective};
pub use minhop::MinHop;
pub use topology::{Destination, NO_HOPS, Peer, SwitchPort, Topology};
pub use updn::UpDown;

/// Port value in [`Routes`] meaning "no route": written as `UNREACHABLE`.
pub const NO_ROUTE: u8 = u8::MAX;

/// The engine's answer: `ports[switch][destination]`, positions as in the [`Topology`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Routes {
    pub ports: Vec<Vec<u8>>,
    pub warnings: Vec<Warning>,
}

/// Why an engine cannot route a fabric.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RouteError {
    #[error("the fabric has no switch; there is nothing to route")]
    NoSwitch,
    #[error("{engine} needs a fat tree, and this fabric is not one: {why}; try --engine minhop or updn")]
    NotAFatTree { engine: &'static str, why: String },
}

/// One routing algorithm. Engines keep no state: everything comes from the topology.
pub trait RoutingEngine: Sync {
    /// The name `--engine` takes.
    fn name(&self) -> &'static str;

    /// Picks every switch's output port for every destination, or says why it cannot.
    fn route(&self, topology: &Topology) -> Result<Routes, RouteError>;
}

/// The engines `shoal route --engine` offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    Dmodk,
    MinHop,
    UpDown,
}

impl Engine {
    pub const ALL: [Engine; 3] = [Engine::Dmodk, Engine::MinHop, Engine::UpDown];

    pub fn implementation(self) -> &'static dyn RoutingEngine {
        match self {
            Engine::Dmodk => &Dmodk,
            Engine::MinHop => &MinHop,
            Engine::UpDown => &UpDown,
        }
    }

    pub fn parse(name: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.implementation().name() == name)
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.implementation().name())
    }
}

/// Routes `fabric` with `engine` and returns a copy carrying the new tables (every switch gets
/// one; its old table is dropped), with the warnings of the topology and the engine. `source`
/// names the rail in warnings.
pub fn route(fabric: &Fabric, engine: Engine, source: &str) -> Result<(Fabric, Vec<Warning>), RouteError> {
    route_by(fabric, engine.implementation(), source)
}

/// [`route`] with any engine, one that carries its traffic ([`Greedy`]) included.
pub fn route_by(
    fabric: &Fabric,
    engine: &dyn RoutingEngine,
    source: &str,
) -> Result<(Fabric, Vec<Warning>), RouteError> {
    let topology = Topology::new(fabric, source);
    if topology.switches.is_empty() {
        return Err(RouteError::NoSwitch);
    }
    let routes = engine.route(&topology)?;
    let mut warnings = topology.warnings.clone();
    warnings.extend(routes.warnings.iter().cloned());
    warnings.extend(unrouted_warnings(&topology, &routes, engine.name(), source));
    let tables = tables_of(&topology, &routes);
    let mut routed = fabric.clone();
    for (&switch, lft) in topology.switches.iter().zip(tables) {
        routed.replace_lft(switch, Some(lft));
    }
    Ok((routed, warnings))
}

/// One forwarding table per switch, rows in LID order (stranded LIDs `UNREACHABLE`).
fn tables_of(topology: &Topology, routes: &Routes) -> Vec<Lft> {
    routes
        .ports
        .par_iter()
        .map(|ports| {
            let mut lft = Lft::new();
            let mut stranded = topology.stranded.iter().peekable();
            for (dest, &port) in topology.destinations.iter().zip(ports) {
                while let Some(&&lid) = stranded.peek().filter(|&&&l| l < dest.lid) {
                    lft.set(lid, LftEntry::Unreachable);
                    stranded.next();
                }
                let entry =
                    if port == NO_ROUTE { LftEntry::Unreachable } else { LftEntry::Port(PortNum(port)) };
                lft.set(dest.lid, entry);
            }
            for &lid in stranded {
                lft.set(lid, LftEntry::Unreachable);
            }
            lft
        })
        .collect()
}

/// Warnings counting the (switch, LID) rows the engine left `UNREACHABLE`: CA LIDs (pairs that
/// will not be delivered) and switch LIDs (only management traffic) apart.
fn unrouted_warnings(topology: &Topology, routes: &Routes, engine: &str, source: &str) -> Vec<Warning> {
    let (mut to_cas, mut to_switches) = (0usize, 0usize);
    for ports in &routes.ports {
        for (dest, &port) in topology.destinations.iter().zip(ports) {
            if port == NO_ROUTE {
                *(if dest.to_switch { &mut to_switches } else { &mut to_cas }) += 1;
            }
        }
    }
    let mut warnings = Vec::new();
    if to_cas > 0 {
        let message = format!(
            "{engine}: {to_cas} (switch, CA LID) rows have no route (the fabric is not connected, or no \
             legal path exists) and are UNREACHABLE: some CA pairs will not be delivered"
        );
        warnings.push(Warning::in_file(source, message));
    }
    if to_switches > 0 {
        let message = format!(
            "{engine}: {to_switches} (switch, switch LID) rows have no route and are UNREACHABLE \
             (switch-to-switch management paths only; up*/down* has no legal path between some \
             switches, as OpenSM's updn without connect_roots)"
        );
        warnings.push(Warning::in_file(source, message));
    }
    warnings
}

#[cfg(test)]
mod tests;
