//! Data sets made from host-to-host traffic rather than files: for tests and benchmarks.

use std::collections::BTreeMap;

use crate::model::synthetic::TwoLevel;
use crate::model::{Cluster, EpochMicros, Lid, RailId};
use crate::routing::flows::FlowOrigin;
use crate::routing::{Flow, FlowSet, Loads, RailLoad, RegionKey, RegionLoads, accumulate};

use super::{Dataset, DatasetJob, HostBytes};

impl Dataset {
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
        let pairs: Vec<Vec<HostBytes>> = regions.iter().map(|(_, p)| p.clone()).collect();
        let (mut loads, flows) = traced(&cluster, &pairs);
        for (region, (region_name, _)) in loads.regions.iter_mut().zip(regions) {
            region.name = Some(region_name);
        }
        loads.total.name = Some("total".into());
        Dataset::assemble(name, cluster, None, loads, flows, Vec::new())
    }

    /// Several jobs on one cluster, each with its regions of host → host bytes (numbered from
    /// 1; rank = host index within the job), as [`Dataset::from_host_traffic`] makes one.
    pub fn from_job_traffic(
        name: String,
        cluster: Cluster,
        jobs: Vec<(String, Vec<Vec<HostBytes>>)>,
    ) -> Dataset {
        let jobs = jobs
            .into_iter()
            .map(|(job, regions)| {
                let (loads, flows) = traced(&cluster, &regions);
                let mut hosts: Vec<usize> = regions.iter().flatten().flat_map(|&(s, d, _)| [s, d]).collect();
                hosts.sort_unstable();
                hosts.dedup();
                let rank_hosts = hosts.into_iter().map(|h| (h as u32, h)).collect();
                DatasetJob { name: job, loads, flows, rank_hosts, placed: false }
            })
            .collect();
        let layout = crate::layout::layout_fat_tree(&cluster, &crate::layout::FatTreeOptions::default());
        Dataset::with_jobs(name, cluster, layout, jobs, Vec::new())
    }
}

/// Each region's loads and flows (regions numbered from 1), and the total's.
fn traced(cluster: &Cluster, regions: &[Vec<HostBytes>]) -> (Loads, crate::routing::RegionFlows) {
    let loads_of = |set: &FlowSet, region: Option<u32>| RegionLoads {
        region,
        name: region.map(|r| format!("region {r}")),
        dumptime: region.map(|r| EpochMicros(1_700_000_000_000_000 + i64::from(r) * 1_000_000)),
        rails: cluster
            .rails
            .iter()
            .zip(&set.flows)
            .map(|(f, fl)| accumulate(f, fl))
            .collect::<Vec<RailLoad>>(),
        ..Default::default()
    };
    let mut loads = Loads::default();
    let mut flows = BTreeMap::new();
    for (i, pairs) in regions.iter().enumerate() {
        let number = i as u32 + 1;
        let set = flow_set(cluster, pairs);
        loads.regions.push(loads_of(&set, Some(number)));
        flows.insert(RegionKey::Region(number), std::sync::Arc::new(set));
    }
    let all: Vec<HostBytes> = regions.iter().flatten().copied().collect();
    let total = flow_set(cluster, &all);
    loads.total = loads_of(&total, None);
    flows.insert(RegionKey::Total, std::sync::Arc::new(total));
    (loads, flows)
}

/// Host → host bytes split evenly over the rails (rank = host index), as `RailPolicy::Split` does.
pub(super) fn flow_set(cluster: &Cluster, pairs: &[(usize, usize, u64)]) -> FlowSet {
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
                src_host: Some(s as u32),
                dst_host: Some(d as u32),
            });
        }
    }
    set
}
