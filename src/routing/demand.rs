//! Traces several regions' traffic on every rail in one pass, through a destination ×
//! entry-switch demand matrix.
//!
//! [`accumulate`] sorts one region's flow list by destination. With rank-level counters a region
//! is an all-to-all of millions of flows, and every region repeats the same pairs. But after its
//! source's own link, a flow's path depends only on the switch it enters and its destination
//! (forwarding is destination-based). So placing a flow costs two additions, to its source CA's
//! link end and to the cell (destination, entry switch), with no flow list at all; then each
//! destination's cells are pushed down its routing tree once, for every region together.
//!
//! Flows the matrix cannot hold exactly (an unknown LID, a source that is a switch or whose port
//! is dead or leads to a CA, a node sending to itself) are kept as flows and traced by
//! [`accumulate`]. A destination whose tables loop is walked hop by hop from each entry switch,
//! which is what a per-pair trace does after the first hop.

use petgraph::graph::NodeIndex;
use rayon::prelude::*;

use crate::model::bytes::add_bytes;
use crate::model::{Cluster, Fabric, Lid, LinkEnd, NodeKind};

use super::accumulate::{Flow, Source, accumulate, source_of};
use super::flows::{FlowBuilder, FlowOrigin, FlowSink};
use super::loads::{DropReason, RailLoad, RegionLoads};
use super::port_hops::PortHops;
use super::region_input::RegionInput;
use super::tally::Tally;
use super::trace::next_port;
use super::tree::Trees;

const NO_SLOT: u32 = u32::MAX;

/// The largest matrix per rail (cells, regions included) worth allocating: 256 MB per copy.
const MAX_CELLS: usize = 32 << 20;

/// Matrix cells allowed per counter placed: beyond this, sorting the flows is cheaper. Measured
/// on the scale bench: a k = 36 fabric with 100 peers per rank has 8.6 cells per counter, and
/// sorting took 0.27 s against the matrix's 0.30 s and 200 MB less memory; an all-to-all over
/// 1,296 hosts has 0.03.
const CELLS_PER_FLOW: usize = 2;

/// Where a CA's bytes enter the switches.
#[derive(Clone, Copy)]
struct Entering {
    /// The CA's own link end.
    end: LinkEnd,
    /// The entry switch's column in the matrix.
    slot: u32,
    origin: NodeIndex,
}

/// What the matrix needs to know of one rail; shared by every thread.
struct RailRoutes<'f> {
    fabric: &'f Fabric,
    regions: usize,
    /// By source LID.
    sources: Vec<Option<Entering>>,
    /// By destination LID: its row in the matrix, or [`NO_SLOT`].
    dst_slot: Vec<u32>,
    /// Row → destination LID and the node owning it.
    dsts: Vec<(Lid, NodeIndex)>,
    /// Column → entry switch.
    entries: Vec<NodeIndex>,
    hops: PortHops,
}

impl<'f> RailRoutes<'f> {
    /// `None` when the matrix would have more than `max_cells` cells.
    fn new(fabric: &'f Fabric, regions: usize, max_cells: usize) -> Option<Self> {
        let lids = fabric.lid_end();
        let mut entry_slot = vec![NO_SLOT; fabric.graph.node_count()];
        let mut routes = RailRoutes {
            fabric,
            regions,
            sources: vec![None; lids],
            dst_slot: vec![NO_SLOT; lids],
            dsts: Vec::new(),
            entries: Vec::new(),
            hops: PortHops::new(fabric),
        };
        for l in 0..lids {
            let lid = Lid(l as u16);
            let Some(owner) = fabric.owner_of_lid(lid) else { continue };
            routes.dst_slot[l] = routes.dsts.len() as u32;
            routes.dsts.push((lid, owner.node));
            let source = source_of(fabric, lid);
            if let Some(Source { origin, first: Some(end), next: Some(next), next_is_switch: true }) = source
            {
                let slot = &mut entry_slot[next.index()];
                if *slot == NO_SLOT {
                    *slot = routes.entries.len() as u32;
                    routes.entries.push(next);
                }
                routes.sources[l] = Some(Entering { end, slot: *slot, origin });
            }
        }
        let cells = routes.dsts.len().checked_mul(routes.entries.len())?.checked_mul(regions)?;
        (cells <= max_cells).then_some(routes)
    }

    fn cells(&self) -> usize {
        self.dsts.len() * self.entries.len() * self.regions
    }
}

/// One rail's placed traffic: source link ends and injected bytes in `tally`, the rest waiting
/// in the matrix or as exact flows. The matrix is entry-switch major,
/// `(column * rows + row) * regions + region`: a rank's peers all enter at its leaf, so while
/// one rank is placed its additions stay within one column (tens of kilobytes, in cache).
struct RailTally {
    tally: Tally,
    demand: Vec<u64>,
    exact: Vec<Vec<Flow>>,
}

impl RailTally {
    fn new(routes: &RailRoutes<'_>) -> Self {
        RailTally {
            tally: Tally::new(routes.fabric.link_end_count(), routes.regions),
            demand: vec![0; routes.cells()],
            exact: vec![Vec::new(); routes.regions],
        }
    }

    fn add(&mut self, routes: &RailRoutes<'_>, region: usize, flow: Flow) {
        let entering = routes.sources.get(usize::from(flow.src.0)).copied().flatten();
        let row = routes.dst_slot.get(usize::from(flow.dst.0)).copied().unwrap_or(NO_SLOT);
        match entering {
            Some(e) if row != NO_SLOT && routes.dsts[row as usize].1 != e.origin => {
                self.tally.inject(region, flow.bytes);
                self.tally.credit(e.end, region, flow.bytes);
                let cell = (e.slot as usize * routes.dsts.len() + row as usize) * routes.regions + region;
                add_bytes(&mut self.demand[cell], flow.bytes);
            }
            _ => self.exact[region].push(flow),
        }
    }

    fn merge(mut self, other: RailTally) -> Self {
        self.tally = self.tally.merge(other.tally);
        for (a, b) in self.demand.iter_mut().zip(&other.demand) {
            add_bytes(a, *b);
        }
        for (a, b) in self.exact.iter_mut().zip(other.exact) {
            a.extend(b);
        }
        self
    }

    /// Pushes every destination's demand, traces the exact flows: one load per region.
    fn finish(self, routes: &RailRoutes<'_>) -> Vec<RailLoad> {
        let RailTally { tally, demand, exact } = self;
        let link_ends = routes.fabric.link_end_count();
        let pushed = (0..routes.dsts.len())
            .into_par_iter()
            .fold(
                || Pusher::new(routes),
                |mut pusher, row| {
                    pusher.destination(row, &demand);
                    pusher
                },
            )
            .map(|pusher| pusher.tally)
            .reduce(|| Tally::new(link_ends, routes.regions), Tally::merge)
            .merge(tally);
        let mut loads = pushed.finish();
        for (load, flows) in loads.iter_mut().zip(&exact) {
            if !flows.is_empty() {
                load.add(&accumulate(routes.fabric, flows));
            }
        }
        loads
    }
}

/// Pushes destinations' rows down their trees, one destination at a time.
struct Pusher<'r, 'f> {
    routes: &'r RailRoutes<'f>,
    trees: Trees<'r>,
    /// Bytes waiting at each switch (`node * regions + region`); zero between destinations.
    demand: Vec<u64>,
    tally: Tally,
}

impl<'r, 'f> Pusher<'r, 'f> {
    fn new(routes: &'r RailRoutes<'f>) -> Self {
        let fabric = routes.fabric;
        Pusher {
            routes,
            trees: Trees::new(fabric, &routes.hops),
            demand: vec![0; fabric.graph.node_count() * routes.regions],
            tally: Tally::new(fabric.link_end_count(), routes.regions),
        }
    }

    /// Pushes one destination's demand, read from its row of every column of `matrix`.
    fn destination(&mut self, row: usize, matrix: &[u64]) {
        let routes = self.routes;
        let regions = routes.regions;
        let cell = |column: usize| {
            let at = (column * routes.dsts.len() + row) * regions;
            &matrix[at..at + regions]
        };
        let (dst, destination) = routes.dsts[row];
        let mut begun = false;
        for (column, &switch) in routes.entries.iter().enumerate() {
            let amounts = cell(column);
            if amounts.iter().all(|&a| a == 0) {
                continue;
            }
            if !begun {
                self.trees.begin(dst, destination);
                begun = true;
            }
            if self.trees.resolve(switch) {
                for (r, &a) in amounts.iter().enumerate() {
                    add_bytes(&mut self.demand[switch.index() * regions + r], a);
                }
            } else {
                self.walk(switch, dst, destination, amounts);
            }
        }
        if begun {
            self.tally.push(&mut self.trees, &mut self.demand, dst);
        }
    }

    /// Walks a looping chain hop by hop, as a per-pair trace does after its first hop.
    fn walk(&mut self, start: NodeIndex, dst: Lid, destination: NodeIndex, amounts: &[u64]) {
        let fabric = self.routes.fabric;
        let mut visited = Vec::new();
        let mut node = start;
        let (at, reason) = loop {
            if node == destination {
                for (r, &a) in amounts.iter().enumerate() {
                    self.tally.deliver(r, a);
                }
                return;
            }
            if visited.contains(&node) {
                break (node, DropReason::Loop);
            }
            visited.push(node);
            if fabric.node(node).kind != NodeKind::Switch {
                break (node, DropReason::WrongEndpoint);
            }
            let port = match next_port(fabric, node, dst) {
                Ok(port) => port,
                Err(reason) => break (node, reason),
            };
            let Some((end, next, _)) = fabric.out_through(node, port) else {
                break (node, DropReason::DeadPort);
            };
            for (r, &a) in amounts.iter().enumerate() {
                self.tally.credit(end, r, a);
            }
            node = next;
        };
        for (r, &a) in amounts.iter().enumerate() {
            if a > 0 {
                self.tally.drop_bytes(r, Some(at), dst, reason, a);
            }
        }
    }
}

/// Places traffic straight into each rail's matrix, region by region.
struct RegionsSink<'r, 'f> {
    routes: &'r [RailRoutes<'f>],
    rails: Vec<RailTally>,
    region: usize,
    intra_node: Vec<u64>,
    unplaced: Vec<u64>,
}

impl<'r, 'f> RegionsSink<'r, 'f> {
    fn new(routes: &'r [RailRoutes<'f>], regions: usize) -> Self {
        RegionsSink {
            routes,
            rails: routes.iter().map(RailTally::new).collect(),
            region: 0,
            intra_node: vec![0; regions],
            unplaced: vec![0; regions],
        }
    }

    fn merge(mut self, other: Self) -> Self {
        self.rails = self.rails.into_iter().zip(other.rails).map(|(a, b)| a.merge(b)).collect();
        for r in 0..self.intra_node.len() {
            add_bytes(&mut self.intra_node[r], other.intra_node[r]);
            add_bytes(&mut self.unplaced[r], other.unplaced[r]);
        }
        self
    }
}

impl FlowSink for RegionsSink<'_, '_> {
    fn region(&mut self, region: usize) {
        self.region = region;
    }

    fn flow(&mut self, rail: usize, flow: Flow, _origin: FlowOrigin) {
        self.rails[rail].add(&self.routes[rail], self.region, flow);
    }

    fn intra_node(&mut self, bytes: u64) {
        add_bytes(&mut self.intra_node[self.region], bytes);
    }

    fn unplaced(&mut self, bytes: u64) {
        add_bytes(&mut self.unplaced[self.region], bytes);
    }
}

/// Loads of every input, traced together; `None` when the matrices would be too large for the
/// traffic (then tracing region by region is cheaper).
pub(crate) fn trace_together(
    cluster: &Cluster,
    builder: &mut FlowBuilder<'_>,
    inputs: &[&RegionInput<'_>],
) -> Option<Vec<RegionLoads>> {
    let regions = inputs.len();
    let counters: usize =
        inputs.iter().flat_map(|i| &i.ranks).map(|t| t.peers.len() + 2 * t.lids.len()).sum();
    let max_cells = MAX_CELLS.min(CELLS_PER_FLOW.saturating_mul(counters + 1024));
    let routes: Vec<RailRoutes<'_>> = cluster
        .rails
        .iter()
        .map(|fabric| RailRoutes::new(fabric, regions, max_cells))
        .collect::<Option<_>>()?;
    let ranks: Vec<&[_]> = inputs.iter().map(|i| i.ranks.as_slice()).collect();
    let sink = builder.place_regions(&ranks, || RegionsSink::new(&routes, regions), RegionsSink::merge);
    let per_rail: Vec<Vec<RailLoad>> =
        sink.rails.into_par_iter().zip(&routes).map(|(tally, routes)| tally.finish(routes)).collect();
    let mut per_rail: Vec<_> = per_rail.into_iter().map(Vec::into_iter).collect();
    Some(
        inputs
            .iter()
            .enumerate()
            .map(|(r, input)| RegionLoads {
                region: input.region,
                name: input.name.clone(),
                dumptime: input.dumptime,
                rails: per_rail.iter_mut().map(|loads| loads.next().unwrap_or_default()).collect(),
                intra_node_bytes: sink.intra_node[r],
                unplaced_bytes: sink.unplaced[r],
            })
            .collect(),
    )
}

#[cfg(test)]
#[path = "demand_tests.rs"]
mod tests;
