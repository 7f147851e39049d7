//! Profile → per-region link-end loads on every rail.

use rayon::prelude::*;

use crate::model::{Cluster, Warning};

use super::accumulate::accumulate;
use super::demand::trace_together;
use super::flows::{FlowBuilder, FlowSet, HostMap, RailPolicy};
use super::loads::{Loads, RailLoad, RegionLoads};
use super::region_input::RegionInput;
use super::saturation::saturation_warnings;
use super::undelivered::undelivered_warnings;

/// How rank-level traffic is placed.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    pub policy: RailPolicy,
    pub host_map: HostMap,
    /// Trace only this region and the whole run's total, not every region: all that
    /// `hot --region N` shows, and on a 20,000-region profile most of its memory (issue 13).
    /// `None` (the default): every region. A region the profile lacks: only the total.
    pub only_region: Option<u32>,
}

/// Traces one region's flows on every rail.
pub fn region_loads(cluster: &Cluster, input: &RegionInput<'_>, flows: &FlowSet) -> RegionLoads {
    let rails = cluster
        .rails
        .par_iter()
        .zip(flows.flows.par_iter())
        .map(|(fabric, rail_flows)| accumulate(fabric, rail_flows))
        .collect();
    RegionLoads {
        region: input.region,
        name: input.name.clone(),
        dumptime: input.dumptime,
        rails,
        intra_node_bytes: flows.intra_node_bytes,
        unplaced_bytes: flows.unplaced_bytes,
    }
}

/// Lets a region's rails share the end lists of the region before when they name the same
/// ends: a time-step loop's regions mostly do, and then each costs only its counts.
fn share_ends(loads: &mut RegionLoads, previous: &RegionLoads) {
    for (rail, before) in loads.rails.iter_mut().zip(&previous.rails) {
        rail.bytes.share_ends(&before.bytes);
    }
}

/// Loads for every region and the total. With `total: None` the total is the sum of the
/// regions (exact when the dumps were monotone, and then cheaper than tracing again); otherwise
/// the given cumulative counters are traced. All of them are traced together in one pass per
/// rail ([`super::demand`]) unless its matrices would outgrow the traffic, and then region by
/// region; both give the same loads. Warnings name each distinct placement problem once,
/// and any rail whose accounting does not balance (a bug, reported rather than hidden).
pub fn compute_loads(
    cluster: &Cluster,
    regions: &[RegionInput<'_>],
    total: Option<&RegionInput<'_>>,
    options: &LoadOptions,
    source: &str,
) -> (Loads, Vec<Warning>) {
    let mut builder = FlowBuilder::new(cluster, options.policy, &options.host_map);
    let mut inputs: Vec<&RegionInput<'_>> = regions.iter().collect();
    inputs.extend(total);
    let mut traced = trace_together(cluster, &mut builder, &inputs).unwrap_or_else(|| {
        let mut traced: Vec<RegionLoads> = Vec::with_capacity(inputs.len());
        for input in &inputs {
            let mut loads = region_loads(cluster, input, &builder.flows(&input.ranks));
            if let Some(previous) = traced.last() {
                share_ends(&mut loads, previous);
            }
            traced.push(loads);
        }
        traced
    });
    for i in 1..traced.len() {
        let (done, rest) = traced.split_at_mut(i);
        share_ends(&mut rest[0], &done[i - 1]);
    }
    let total = match total {
        Some(_) => traced.pop().unwrap_or_default(),
        None => {
            let mut sum = RegionLoads::sum(&traced);
            sum.rails.resize_with(cluster.rails.len(), || RailLoad::with_link_ends(0));
            sum
        }
    };
    let loads = Loads { regions: traced, total };
    let mut warnings = builder.warnings(source);
    for region in loads.regions.iter().chain([&loads.total]) {
        for (r, rail) in region.rails.iter().enumerate() {
            if !rail.is_conserved() {
                warnings.push(Warning::in_file(
                    source,
                    format!(
                        "rail {r}, region {:?}: injected {} != delivered {} + undelivered {}",
                        region.key(),
                        rail.injected,
                        rail.delivered,
                        rail.undelivered
                    ),
                ));
            }
        }
    }
    warnings.extend(undelivered_warnings(cluster, &loads, source));
    warnings.extend(saturation_warnings(cluster, &loads, source));
    (loads, warnings)
}
