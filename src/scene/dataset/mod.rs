//! The one view model: every data set the app shows (a multi-rail fabric with its loads and
//! profile, a Boxfish run, a CSV pair) is a [`Run`]: domains (nodes, links, ranks,
//! communicators) with typed attribute tables and projections between them. The query engine
//! ([`super::query`]), the highlight projection ([`super::highlight`]) and every panel and module
//! read only the run. A fabric adds [`FabricData`]: the cluster, layout, loads and flows that the
//! fat-tree module draws from and that answer route questions (the path of a pair, the pairs
//! crossing a link end), with the [`FabricIndex`] that maps the run's positions onto them.

pub mod counters;
mod fabric;

use std::collections::BTreeMap;

use crate::layout::{ClusterLayout, FatTreeOptions, layout_fat_tree};
use crate::model::synthetic::TwoLevel;
use crate::model::{Cluster, Domain, EpochMicros, Lid, Profile, RailId, RegionInfo, Run, Warning};
use crate::routing::flows::FlowOrigin;
use crate::routing::{Flow, FlowSet, Loads, RailLoad, RegionKey, RegionLoads, accumulate};

pub use fabric::{FabricIndex, fabric_run};

use super::highlight::RankHosts;
use super::values::RegionSelection;

/// Bytes from one host to another: (source host, destination host, bytes), hosts indexing
/// `Cluster::hosts`.
pub type HostBytes = (usize, usize, u64);

/// What a fabric adds to its run.
#[derive(Clone, Debug, Default)]
pub struct FabricData {
    pub cluster: Cluster,
    pub layout: ClusterLayout,
    pub profile: Option<Profile>,
    pub loads: Loads,
    /// Where the dumps hold adaptive-routing tables: the same regions traced with AR spreading
    /// (modelled, see [`crate::routing::ar`]); the run's `traffic` table then has `bytes_ar` and
    /// `ar_minus_static` beside `bytes`.
    pub ar_loads: Option<Loads>,
    /// The flows of each region and of the total, to find who crossed a link end.
    pub flows: BTreeMap<RegionKey, FlowSet>,
    pub rank_hosts: RankHosts,
    pub index: FabricIndex,
    /// Where "who crossed this link end" comes from.
    pub attribution: Attribution,
    /// What the port counters saw per link end, if counters were given ([`counters`]).
    pub observed: Option<crate::routing::Observed>,
}

/// Where the pairs crossing a link end come from: the flows traced from a profile, a loads
/// file's top-K summary (lower bounds), or nowhere (a loads file without one).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Attribution {
    #[default]
    Flows,
    TopK(crate::routing::loads_input::TopKTable),
    None,
}

/// How a data set's rows name regions, found once when it is built (the region panel asks
/// every frame, every view's preparation asks again).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Regions {
    /// The attribute that names regions (`code_region`, `region`), if any.
    pub attribute: Option<String>,
    /// The region value of the whole-run rows (a negative one), if the rows have any.
    pub whole: Option<f64>,
    /// The regions themselves, ascending.
    pub list: Vec<RegionInfo>,
}

#[derive(Clone, Debug)]
pub struct Dataset {
    /// Shown in titles: the rail directories', the profile's or the run's name.
    pub name: String,
    pub run: Run,
    pub fabric: Option<FabricData>,
    pub warnings: Vec<Warning>,
    regions: Regions,
}

impl Dataset {
    /// A Boxfish run or a CSV pair.
    pub fn from_run(run: Run, warnings: Vec<Warning>) -> Dataset {
        let regions = run_regions(&run);
        Dataset { name: run.name().to_string(), run, fabric: None, warnings, regions }
    }

    /// Lays out the cluster and builds its view model.
    pub fn assemble(
        name: String,
        cluster: Cluster,
        profile: Option<Profile>,
        loads: Loads,
        flows: BTreeMap<RegionKey, FlowSet>,
        warnings: Vec<Warning>,
    ) -> Dataset {
        let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
        Dataset::with_layout(name, cluster, layout, profile, loads, flows, warnings)
    }

    /// Builds the view model around a layout already made.
    pub fn with_layout(
        name: String,
        cluster: Cluster,
        layout: ClusterLayout,
        profile: Option<Profile>,
        loads: Loads,
        flows: BTreeMap<RegionKey, FlowSet>,
        warnings: Vec<Warning>,
    ) -> Dataset {
        let rank_hosts = rank_hosts(&cluster, profile.as_ref());
        let ar_loads = cluster
            .rails
            .iter()
            .any(|f| f.has_adaptive_routing())
            .then(|| crate::routing::ar::ar_loads(&cluster, &loads, &flows));
        let (run, index) = fabric_run(&name, &cluster, &layout, (&loads, ar_loads.as_ref()), &rank_hosts);
        // The adapter's traffic rows: `region`, the whole run as −1.
        let list = loads
            .regions
            .iter()
            .filter_map(|r| {
                Some(RegionInfo { number: r.region?, name: r.name.clone(), dumptime: r.dumptime })
            })
            .collect();
        let regions = Regions { attribute: Some("region".into()), whole: Some(-1.0), list };
        let fabric = FabricData {
            cluster,
            layout,
            profile,
            loads,
            ar_loads,
            flows,
            rank_hosts,
            index,
            attribution: Attribution::Flows,
            observed: None,
        };
        Dataset { name, run, fabric: Some(fabric), warnings, regions }
    }

    /// The regions: a fabric's from its profile (numbers, names, dump times), a run's from the
    /// non-negative values of its region attribute.
    pub fn regions(&self) -> &[RegionInfo] {
        &self.regions.list
    }

    /// How the rows name regions.
    pub fn region_rows(&self) -> &Regions {
        &self.regions
    }

    /// The flow sets behind a selection (for a diff: those of A, the side that has the bytes).
    pub fn flows_for(&self, selection: RegionSelection) -> Vec<&FlowSet> {
        let Some(fabric) = &self.fabric else { return Vec::new() };
        let get = |k: RegionKey| fabric.flows.get(&k);
        match selection {
            RegionSelection::Total => get(RegionKey::Total).into_iter().collect(),
            RegionSelection::Region(n) => get(RegionKey::Region(n)).into_iter().collect(),
            RegionSelection::Cumulative(_) | RegionSelection::Window(..) => {
                let (first, last) = selection.window().unwrap_or_default();
                fabric
                    .flows
                    .iter()
                    .filter(|(k, _)| matches!(k, RegionKey::Region(m) if first <= *m && *m <= last))
                    .map(|(_, f)| f)
                    .collect()
            }
            RegionSelection::Diff(a, _) => get(a).into_iter().collect(),
        }
    }

    /// A synthetic two-level fat tree on `rails` rails with two regions of traffic, for tests and
    /// benchmarks: region 1 an all-to-all of 1 KiB per pair (only up to 512 hosts; above, each
    /// host sends 1 KiB to 16 others spread over the machine), region 2 every host sending 1 MiB
    /// to the host half the machine and one further away (a shift that loads the spines unevenly).
    pub fn synthetic(leaves: usize, hosts_per_leaf: usize, spines: usize, rails: usize) -> Dataset {
        let fabrics = (0..rails)
            .map(|r| {
                TwoLevel::new(leaves, hosts_per_leaf, spines).rail(RailId(r as u8), (r as u64) << 32).build()
            })
            .collect();
        let cluster = Cluster::new(fabrics);
        let n = cluster.hosts.len();
        let spread: Vec<(usize, usize, u64)> = if n <= 512 {
            (0..n).flat_map(|s| (0..n).filter(move |&d| d != s).map(move |d| (s, d, 1024))).collect()
        } else {
            (0..n).flat_map(|s| (1..=16).map(move |k| (s, (s + k * n / 17) % n, 1024))).collect()
        };
        let shift: Vec<(usize, usize, u64)> = (0..n).map(|s| (s, (s + n / 2 + 1) % n, 1 << 20)).collect();
        let name = format!("synthetic {leaves}×{hosts_per_leaf}, {spines} spines, {rails} rails");
        Dataset::from_host_traffic(
            name,
            cluster,
            vec![("all-to-all".into(), spread), ("shift".into(), shift)],
        )
    }

    /// A data set whose traffic is given as host → host bytes per region (regions numbered from
    /// 1; rank = host index), split evenly over the rails as `RailPolicy::Split` does.
    pub fn from_host_traffic(
        name: String,
        cluster: Cluster,
        regions: Vec<(String, Vec<HostBytes>)>,
    ) -> Dataset {
        let mut loads = Loads::default();
        let mut flows = BTreeMap::new();
        let all: Vec<(usize, usize, u64)> = regions.iter().flat_map(|(_, p)| p.iter().copied()).collect();
        let loads_of = |set: &FlowSet, region: Option<u32>, name: &str| RegionLoads {
            region,
            name: Some(name.to_string()),
            dumptime: region.map(|r| EpochMicros(1_700_000_000_000_000 + i64::from(r) * 1_000_000)),
            rails: cluster
                .rails
                .iter()
                .zip(&set.flows)
                .map(|(f, fl)| accumulate(f, fl))
                .collect::<Vec<RailLoad>>(),
            ..Default::default()
        };
        for (i, (region_name, pairs)) in regions.iter().enumerate() {
            let number = i as u32 + 1;
            let set = flow_set(&cluster, pairs);
            loads.regions.push(loads_of(&set, Some(number), region_name));
            flows.insert(RegionKey::Region(number), set);
        }
        let total = flow_set(&cluster, &all);
        loads.total = loads_of(&total, None, "total");
        flows.insert(RegionKey::Total, total);
        Dataset::assemble(name, cluster, None, loads, flows, Vec::new())
    }
}

/// A run's regions: the non-negative whole values of its region attribute, and its negative
/// whole-run value if it has one.
fn run_regions(run: &Run) -> Regions {
    let Some(attribute) = super::view::region_attribute(run) else { return Regions::default() };
    let mut numbers = super::query::distinct_values(run, Domain::Links, &attribute);
    if numbers.is_empty() {
        numbers = super::query::distinct_values(run, Domain::Nodes, &attribute);
    }
    let whole = numbers.iter().copied().find(|v| *v < 0.0);
    let list = numbers
        .into_iter()
        .filter(|v| *v >= 0.0 && v.fract() == 0.0 && *v <= f64::from(u32::MAX))
        .map(|v| RegionInfo { number: v as u32, name: None, dumptime: None })
        .collect();
    Regions { attribute: Some(attribute), whole, list }
}

fn rank_hosts(cluster: &Cluster, profile: Option<&Profile>) -> RankHosts {
    profile
        .iter()
        .flat_map(|p| p.ranks.iter())
        .filter_map(|r| Some((r.rank, cluster.host_index(&r.host)?)))
        .collect()
}

/// Host → host bytes split evenly over the rails (rank = host index), as `RailPolicy::Split` does.
fn flow_set(cluster: &Cluster, pairs: &[(usize, usize, u64)]) -> FlowSet {
    let rails = cluster.rails.len();
    let mut set =
        FlowSet { flows: vec![Vec::new(); rails], origins: vec![Vec::new(); rails], ..Default::default() };
    let lid = |h: usize, r: usize| -> Option<Lid> {
        cluster.hosts[h].on_rail(r).first().and_then(|&ca| cluster.rails[r].node(ca).base_lid())
    };
    for &(s, d, bytes) in pairs {
        for r in 0..rails {
            let (Some(src), Some(dst)) = (lid(s, r), lid(d, r)) else { continue };
            let share = bytes / rails as u64 + u64::from((r as u64) < bytes % rails as u64);
            set.flows[r].push(Flow { src, dst, bytes: share });
            set.origins[r].push(FlowOrigin {
                src_rank: s as u32,
                dst_rank: Some(d as u32),
                src_host: Some(s),
                dst_host: Some(d),
            });
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_synthetic_dataset_routes_every_byte_and_lists_its_regions() {
        let d = Dataset::synthetic(4, 4, 2, 2);
        let f = d.fabric.as_ref().unwrap();
        assert_eq!(f.cluster.hosts.len(), 16);
        for region in f.loads.regions.iter().chain([&f.loads.total]) {
            for rail in &region.rails {
                assert!(rail.is_conserved());
                assert_eq!(rail.undelivered, 0);
            }
        }
        let names: Vec<_> = d.regions().iter().map(|r| (r.number, r.name.clone())).collect();
        assert_eq!(names, [(1, Some("all-to-all".into())), (2, Some("shift".into()))]);
        assert_eq!(d.flows_for(RegionSelection::Cumulative(2)).len(), 2);
    }
}
