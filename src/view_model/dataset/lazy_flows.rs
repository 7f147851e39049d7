//! A data set's flows with their origins (who sent the bytes each link end carries), built when
//! something first asks for them: `hot`, the traffic matrix, the pairs domain, the what-if
//! panel. Opening does not need them (the loads are traced without origins), and building them
//! was most of an open: about half of `render`'s CPU on TSUBAME-sized rails, where every region
//! and the total hold 1.7 million rank pairs per rail.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use crate::model::{Cluster, Profile, RegionTable};
use crate::routing::switch_count::keep_switch_counts;
use crate::routing::{FlowBuilder, FlowSet, LoadOptions, RegionFlows, RegionInput, RegionKey};
use crate::view_model::trace::{region_input, total_input};

/// Flows built once, on first use, and shared by the data set's clones.
#[derive(Clone, Default)]
pub struct LazyFlows {
    built: Arc<OnceLock<RegionFlows>>,
    recipe: Option<Arc<FlowsRecipe>>,
}

/// What a profile's flows are built from.
pub struct FlowsRecipe {
    pub cluster: Arc<Cluster>,
    pub profile: Arc<Profile>,
    pub regions: RegionTable,
    pub options: LoadOptions,
}

impl LazyFlows {
    /// Flows already built (jobs, tests, data sets without a profile).
    pub fn ready(flows: RegionFlows) -> LazyFlows {
        LazyFlows { built: Arc::new(OnceLock::from(flows)), recipe: None }
    }

    /// A profile's flows, built when [`LazyFlows::all`] is first called.
    pub fn deferred(recipe: FlowsRecipe) -> LazyFlows {
        LazyFlows { built: Arc::default(), recipe: Some(Arc::new(recipe)) }
    }

    /// The flows of every traced region and of the total, built now if not yet.
    pub fn all(&self) -> &RegionFlows {
        self.built.get_or_init(|| match &self.recipe {
            Some(r) => flows_of(&r.cluster, &r.profile, &r.regions, &r.options),
            None => BTreeMap::new(),
        })
    }

    /// Whether they have been built (by [`LazyFlows::all`], here or in a clone).
    pub fn is_built(&self) -> bool {
        self.built.get().is_some()
    }

    /// Whether there are no flows at all (no profile), without building them.
    pub fn is_empty(&self) -> bool {
        match self.built.get() {
            Some(flows) => flows.is_empty(),
            None => self.recipe.is_none(),
        }
    }

    /// The most rank pairs any region (or the total) holds, each rail counted, intra-node pairs
    /// included: counted without building the flows when they are not built yet. `None` without
    /// flows.
    pub fn most_pairs(&self) -> Option<usize> {
        self.most_pairs_past(usize::MAX)
    }

    /// [`LazyFlows::most_pairs`] up to `limit`: past it, some number above it, found without
    /// counting every region's every pair (what a bound's check needs).
    pub fn most_pairs_past(&self, limit: usize) -> Option<usize> {
        if let Some(flows) = self.built.get() {
            let pairs = |set: &crate::routing::FlowSet| {
                set.flows.iter().map(Vec::len).sum::<usize>() + set.intra_node_pairs.len()
            };
            return flows.values().map(|set| pairs(set)).max();
        }
        let r = self.recipe.as_ref()?;
        let builder = FlowBuilder::new(&r.cluster, r.options.policy, &r.options.host_map);
        let mut most = None;
        for key in keys_of(&r.regions, &r.options) {
            let input = input_of(&r.profile, &r.regions, key);
            let count = input.map_or(0, |input| builder.count_pairs_past(&input.ranks, limit));
            most = most.max(Some(count));
            if count > limit {
                break;
            }
        }
        most
    }
}

impl std::fmt::Debug for LazyFlows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyFlows")
            .field("built", &self.built.get().map(|flows| flows.len()))
            .field("deferred", &self.recipe.is_some())
            .finish()
    }
}

/// The flows of every traced region and of the total (only the traced ones when the open traced
/// one region), each set with its flows' switch counts. A profile with one region has the same
/// traffic in it and in the total: its flows are built once and shared.
pub fn flows_of(
    cluster: &Cluster,
    profile: &Profile,
    regions: &RegionTable,
    options: &LoadOptions,
) -> RegionFlows {
    let mut keys = keys_of(regions, options);
    let total_is = match keys.as_slice() {
        [RegionKey::Region(n), RegionKey::Total] if total_is_region(profile, regions, *n) => {
            Some(RegionKey::Region(*n))
        }
        _ => None,
    };
    if total_is.is_some() {
        keys.pop();
    }
    let mut flows: RegionFlows = keys
        .into_par_iter()
        .map(|key| {
            let input = input_of(profile, regions, key);
            let mut set = input.map_or_else(FlowSet::default, |input| {
                FlowBuilder::new(cluster, options.policy, &options.host_map)
                    .keep_origins(true)
                    .flows(&input.ranks)
            });
            // A traffic matrix then looks its hop classes up instead of walking the tables.
            keep_switch_counts(cluster, &mut set);
            (key, Arc::new(set))
        })
        .collect();
    if let Some(only) = total_is {
        let shared = flows[&only].clone();
        flows.insert(RegionKey::Total, shared);
    }
    flows
}

/// The counters behind a key: a region's deltas, or every rank's totals; `None` for a region
/// the table lacks.
fn input_of<'p>(profile: &'p Profile, regions: &'p RegionTable, key: RegionKey) -> Option<RegionInput<'p>> {
    match key {
        RegionKey::Region(n) => regions.index_of(n).map(|at| region_input(profile, regions, at)),
        RegionKey::Total => Some(total_input(profile, regions)),
    }
}

/// Every traced region, then the total.
fn keys_of(regions: &RegionTable, options: &LoadOptions) -> Vec<RegionKey> {
    regions
        .regions
        .iter()
        .map(|r| RegionKey::Region(r.number))
        .filter(|k| options.only_region.is_none_or(|n| *k == RegionKey::Region(n)))
        .chain([RegionKey::Total])
        .collect()
}

/// Whether the total's traffic is region `n`'s, rank by rank and peer by peer.
fn total_is_region(profile: &Profile, regions: &RegionTable, n: u32) -> bool {
    let Some(at) = regions.index_of(n) else { return false };
    let region = region_input(profile, regions, at);
    let total = total_input(profile, regions);
    region.ranks.len() == total.ranks.len()
        && region.ranks.iter().zip(&total.ranks).all(|(r, t)| r.peers == t.peers && r.lids == t.lids)
}

#[cfg(test)]
#[path = "lazy_flows_tests.rs"]
mod tests;
