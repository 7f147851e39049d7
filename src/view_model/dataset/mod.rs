//! The one view model: every data set the app shows (a multi-rail fabric with its loads and
//! profile, a Boxfish run, a CSV pair) is a [`Run`]: domains (nodes, links, ranks,
//! communicators) with typed attribute tables and projections between them. The query engine
//! ([`super::query`]), the highlight projection ([`super::highlight`]) and every panel and module
//! read only the run. A fabric adds [`FabricData`]: the cluster, layout, loads and flows that the
//! fat-tree module draws from and that answer route questions (the path of a pair, the pairs
//! crossing a link end), with the [`FabricIndex`] that maps the run's positions onto them.

pub mod counters;
mod fabric;
mod fabric_index;
mod lazy_flows;
pub mod link_health;
mod pairs;
mod rows;
pub mod scheduled;
pub mod scheduled_tables;
mod synthetic;

use std::collections::BTreeMap;

use crate::layout::{ClusterLayout, FatTreeOptions, layout_fat_tree};
use crate::model::{Cluster, Domain, HostMap, Profile, RegionInfo, Run, Warning};
use crate::routing::{FlowSet, Loads, RailLoad, RegionKey, RegionLoads};

pub use fabric::{RankJobs, TrafficSet, fabric_run};
pub use fabric_index::FabricIndex;
pub use lazy_flows::{FlowsRecipe, LazyFlows, flows_of};
pub use rows::{DENSE_ROWS, link_row_bytes, link_row_kept, node_row_kept, sparse_rows};
// `region_rows` (below) builds a [`TrafficSet`]'s regions.

use super::values::RegionSelection;

/// The static trace's bytes per link end.
pub const STATIC_BYTES: &str = "bytes";
/// The AR spread's bytes per link end (modelled).
pub const AR_BYTES: &str = "bytes_ar";
/// AR spread − static trace per link end (modelled, signed).
pub const AR_MINUS_STATIC: &str = "ar_minus_static";

/// Which rank runs on which host, from the profile's rank sections.
pub type RankHosts = std::collections::HashMap<u32, usize>;

/// Bytes from one host to another: (source host, destination host, bytes), hosts indexing
/// `Cluster::hosts`.
pub type HostBytes = (usize, usize, u64);

/// What a fabric adds to its run.
#[derive(Clone, Debug, Default)]
pub struct FabricData {
    /// Shared with the run's lazy pairs domain, which traces on it when first named.
    pub cluster: std::sync::Arc<Cluster>,
    pub layout: ClusterLayout,
    /// Shared with the flows' recipe, which builds from it when they are first asked for.
    pub profile: Option<std::sync::Arc<Profile>>,
    pub loads: Loads,
    /// Where the dumps hold adaptive-routing tables: the same regions traced with AR spreading
    /// (modelled, see [`crate::routing::ar`]); the run's `traffic` table then has `bytes_ar` and
    /// `ar_minus_static` beside `bytes`.
    pub ar_loads: Option<Loads>,
    /// The flows of each region and of the total, to find who crossed a link end (one
    /// profile's, built when first asked for; empty when jobs share the fabric, see
    /// `job_flows`).
    pub flows: LazyFlows,
    /// Each job's flows by its own regions: region N of one job is not region N of another.
    pub job_flows: Vec<(String, crate::routing::RegionFlows)>,
    pub rank_hosts: RankHosts,
    pub index: FabricIndex,
    /// The jobs sharing the fabric (empty for one profile opened on its own); `loads` then
    /// holds job `all`'s total only.
    pub jobs: Vec<JobLoads>,
    /// With jobs: the second-largest job's bytes per end (job `contention`'s rows).
    pub contention: Option<RegionLoads>,
    /// Where "who crossed this link end" comes from.
    pub attribution: Attribution,
    /// What the port counters saw per link end, if counters were given ([`counters`]).
    pub observed: Option<crate::routing::Observed>,
    /// The one job a loads file's rows name, if they name one.
    pub loads_job: Option<String>,
    /// What each rail was read from, and its warnings (`shoal info`).
    pub rails_read: Vec<crate::model::RailRead>,
    /// Jobs from the scheduler's accounting (`--jobs-from`), with their footprints.
    pub scheduled: Vec<scheduled::ScheduledJob>,
}

impl FabricData {
    /// The traffic rows' sources, in row order: each job's regions and total (or the one
    /// profile's), then job `all`'s and job `contention`'s totals. The adapter writes its
    /// `traffic` rows from these, and a clause-free view reads its values from them
    /// ([`crate::view_model::fabric_values`]): one list, so the two storages cannot disagree.
    pub fn traffic_sets(&self) -> Vec<TrafficSet<'_>> {
        if self.jobs.is_empty() {
            let ar = self.ar_loads.as_ref().map(region_rows);
            return vec![TrafficSet { job: None, regions: region_rows(&self.loads), ar }];
        }
        let mut sets: Vec<TrafficSet<'_>> = self
            .jobs
            .iter()
            .map(|j| TrafficSet {
                job: Some(&j.name),
                regions: region_rows(&j.loads),
                ar: j.ar_loads.as_ref().map(region_rows),
            })
            .collect();
        let all_ar = self.ar_loads.as_ref().map(|a| vec![(-1, &a.total)]);
        sets.push(TrafficSet { job: Some(ALL_JOBS), regions: vec![(-1, &self.loads.total)], ar: all_ar });
        if let Some(contention) = &self.contention {
            sets.push(TrafficSet { job: Some(CONTENTION), regions: vec![(-1, contention)], ar: None });
        }
        sets
    }

    /// The run of this fabric (its tables written from [`FabricData::traffic_sets`]), keeping
    /// the index that maps the run's positions onto the cluster.
    fn build_run(&mut self, name: &str, rank_jobs: &RankJobs, warnings: &mut Vec<Warning>) -> Run {
        let sets = self.traffic_sets();
        let (run, index, note) =
            fabric_run(name, &self.cluster, &self.layout, &sets, &self.rank_hosts, (rank_jobs, &self.flows));
        drop(sets);
        self.index = index;
        warnings.extend(note);
        run
    }
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

/// One job's name and loads, in a fabric data set.
#[derive(Clone, Debug, Default)]
pub struct JobLoads {
    pub name: String,
    pub loads: Loads,
    /// The job's AR loads (modelled), where the dumps hold AR tables.
    pub ar_loads: Option<Loads>,
    /// Where a placed job's ranks went: (rank, host index) in rank order; empty when the job
    /// ran where it was recorded.
    pub placement: Vec<(u32, usize)>,
}

/// One traced job, as a data set takes it: its loads, the flows of each of its regions, and
/// where its ranks ran (rank → host index).
#[derive(Clone, Debug, Default)]
pub struct DatasetJob {
    pub name: String,
    pub loads: Loads,
    pub flows: crate::routing::RegionFlows,
    pub rank_hosts: Vec<(u32, usize)>,
    /// Whether `rank_hosts` is a placement (`--place`) rather than where the job was recorded.
    pub placed: bool,
}

/// The job value of the sum over jobs, and of the contention rows.
pub const ALL_JOBS: &str = "all";
pub const CONTENTION: &str = "contention";

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

/// One profile's trace as a data set takes it: the profile (if any), its loads, the flows of
/// each region, and the host map that placed its ranks.
pub struct Traced<'a> {
    pub profile: Option<std::sync::Arc<Profile>>,
    pub loads: Loads,
    pub flows: LazyFlows,
    pub host_map: &'a HostMap,
}

#[derive(Clone, Debug)]
pub struct Dataset {
    /// Shown in titles: the rail directories', the profile's or the run's name.
    pub name: String,
    pub run: Run,
    pub fabric: Option<FabricData>,
    pub warnings: Vec<Warning>,
    /// Which trace its views colour by when they open: the request's routing mode (AR only
    /// where the dumps hold adaptive-routing tables).
    pub routing: crate::view_model::RoutingMode,
    regions: Regions,
    /// The jobs the rows name (a `job` attribute's values other than `all` and `contention`).
    jobs: Vec<String>,
}

impl Dataset {
    /// A Boxfish run or a CSV pair.
    pub fn from_run(run: Run, warnings: Vec<Warning>) -> Dataset {
        let regions = run_regions(&run);
        let jobs = run_jobs(&run);
        Dataset {
            name: run.name().to_string(),
            run,
            fabric: None,
            warnings,
            routing: Default::default(),
            regions,
            jobs,
        }
    }

    /// Lays out the cluster and builds its view model.
    pub fn assemble(
        name: String,
        cluster: Cluster,
        profile: Option<Profile>,
        loads: Loads,
        flows: crate::routing::RegionFlows,
        warnings: Vec<Warning>,
    ) -> Dataset {
        let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
        let host_map = HostMap::default();
        Dataset::with_layout(
            name,
            cluster,
            layout,
            Traced {
                profile: profile.map(std::sync::Arc::new),
                loads,
                flows: LazyFlows::ready(flows),
                host_map: &host_map,
            },
            warnings,
        )
    }

    /// Builds the view model around a layout already made.
    pub fn with_layout(
        name: String,
        cluster: impl Into<std::sync::Arc<Cluster>>,
        layout: ClusterLayout,
        traced: Traced<'_>,
        warnings: Vec<Warning>,
    ) -> Dataset {
        let Traced { profile, loads, flows, host_map } = traced;
        let cluster = cluster.into();
        let rank_hosts = rank_hosts(&cluster, profile.as_deref(), host_map);
        let ar_loads = cluster
            .rails
            .iter()
            .any(|f| f.has_adaptive_routing())
            .then(|| crate::routing::ar::ar_loads(&cluster, &loads, flows.all()));
        // AR sums saturate as the static ones do, and are named the same way (issue 24).
        let mut warnings = warnings;
        if let Some(ar) = &ar_loads {
            warnings.extend(crate::routing::saturation::saturation_warnings(&cluster, ar, "AR model"));
        }
        // The adapter's traffic rows: `region`, the whole run as −1.
        let regions =
            Regions { attribute: Some("region".into()), whole: Some(-1.0), list: region_list([&loads]) };
        let mut fabric = FabricData {
            cluster,
            layout,
            profile,
            loads,
            ar_loads,
            flows,
            job_flows: Vec::new(),
            rank_hosts,
            index: FabricIndex::default(),
            jobs: Vec::new(),
            contention: None,
            attribution: Attribution::Flows,
            observed: None,
            loads_job: None,
            rails_read: Vec::new(),
            scheduled: Vec::new(),
        };
        let run = fabric.build_run(&name, &RankJobs::new(), &mut warnings);
        Dataset {
            name,
            run,
            fabric: Some(fabric),
            warnings,
            routing: Default::default(),
            regions,
            jobs: Vec::new(),
        }
    }

    /// Several jobs on one fabric: each job's rows, job `all` (the sum of their totals) and job
    /// `contention` (the second-largest job's bytes per end). Ranks are numbered job after job.
    pub fn with_jobs(
        name: String,
        cluster: Cluster,
        layout: ClusterLayout,
        jobs: Vec<DatasetJob>,
        mut warnings: Vec<Warning>,
    ) -> Dataset {
        let totals: Vec<&RegionLoads> = jobs.iter().map(|j| &j.loads.total).collect();
        let mut all = RegionLoads::sum(totals.iter().copied());
        all.rails.resize_with(cluster.rails.len(), || RailLoad::with_link_ends(0));
        let contention = crate::routing::contention_load(&totals);
        // Where the dumps hold AR tables, each job's AR loads (its flows spread over the AR
        // groups, modelled) and job `all`'s, their sum: `bytes_ar` and `ar_minus_static` rows.
        let job_ar: Option<Vec<Loads>> = cluster.rails.iter().any(|f| f.has_adaptive_routing()).then(|| {
            jobs.iter().map(|j| crate::routing::ar::ar_loads(&cluster, &j.loads, &j.flows)).collect()
        });
        let all_ar: Option<Loads> = job_ar.as_ref().map(|per_job| {
            let mut total = RegionLoads::sum(per_job.iter().map(|l| &l.total));
            total.rails.resize_with(cluster.rails.len(), || RailLoad::with_link_ends(0));
            Loads { regions: Vec::new(), total }
        });
        let (mut rank_hosts, mut rank_jobs) = (RankHosts::new(), RankJobs::new());
        let mut next = 0u32;
        for job in &jobs {
            let base = next;
            for &(rank, host) in &job.rank_hosts {
                rank_hosts.insert(base + rank, host);
                rank_jobs.insert(base + rank, (job.name.clone(), rank));
                next = next.max(base + rank + 1);
            }
        }
        let list = region_list(jobs.iter().map(|j| &j.loads));
        let regions = Regions { attribute: Some("region".into()), whole: Some(-1.0), list };
        let names = jobs.iter().map(|j| j.name.clone()).collect();
        let mut job_flows = Vec::with_capacity(jobs.len());
        let mut job_loads = Vec::with_capacity(jobs.len());
        let mut job_ar = job_ar.map(Vec::into_iter);
        for job in jobs {
            job_flows.push((job.name.clone(), job.flows));
            let ar_loads = job_ar.as_mut().and_then(Iterator::next);
            let placement = if job.placed { job.rank_hosts } else { Vec::new() };
            job_loads.push(JobLoads { name: job.name, loads: job.loads, ar_loads, placement });
        }
        let mut fabric = FabricData {
            cluster: std::sync::Arc::new(cluster),
            layout,
            profile: None,
            // Job `all`'s total, and its AR loads: the sums of the jobs' (computed above).
            loads: Loads { regions: Vec::new(), total: all },
            ar_loads: all_ar,
            flows: LazyFlows::default(),
            job_flows,
            rank_hosts,
            index: FabricIndex::default(),
            jobs: job_loads,
            contention: Some(contention),
            attribution: Attribution::Flows,
            observed: None,
            loads_job: None,
            rails_read: Vec::new(),
            scheduled: Vec::new(),
        };
        let run = fabric.build_run(&name, &rank_jobs, &mut warnings);
        Dataset {
            name,
            run,
            fabric: Some(fabric),
            warnings,
            routing: Default::default(),
            regions,
            jobs: names,
        }
    }

    /// The jobs the rows name, in order (empty when the data set is one job's, or none).
    pub fn jobs(&self) -> &[String] {
        &self.jobs
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

    /// The flow sets behind a selection (for a diff: those of A, the side that has the bytes),
    /// of `job` when jobs share the fabric (`None`, `all`, `contention`: every job's).
    pub fn flows_for(&self, selection: RegionSelection, job: Option<&str>) -> Vec<&FlowSet> {
        let Some(fabric) = &self.fabric else { return Vec::new() };
        if fabric.job_flows.is_empty() {
            return select_flows(fabric.flows.all(), selection);
        }
        // A job's own flows; `all` and `contention` are every job's.
        let wanted = |name: &str| job.is_none_or(|j| j == name || j == ALL_JOBS || j == CONTENTION);
        fabric
            .job_flows
            .iter()
            .filter(|(name, _)| wanted(name))
            .flat_map(|(_, flows)| select_flows(flows, selection))
            .collect()
    }
}

/// The attribute that names regions (`code_region` in Boxfish runs, `region` in CSV pairs and
/// fabrics), if the links or nodes have one.
pub fn region_attribute(run: &Run) -> Option<String> {
    let has = |name: &str| {
        [Domain::Links, Domain::Nodes]
            .into_iter()
            .any(|d| super::query::attributes(run, d).iter().any(|a| a.name == name))
    };
    ["code_region", "region"].into_iter().find(|n| has(n)).map(String::from)
}

/// A load's traffic rows: each region by number, the total as −1.
pub fn region_rows(loads: &Loads) -> Vec<(i64, &RegionLoads)> {
    loads.regions.iter().filter_map(|r| Some((i64::from(r.region?), r))).chain([(-1, &loads.total)]).collect()
}

/// The regions of several loads, by number (the first name and dump time seen win).
fn region_list<'a>(loads: impl IntoIterator<Item = &'a Loads>) -> Vec<RegionInfo> {
    let mut list: BTreeMap<u32, RegionInfo> = BTreeMap::new();
    for region in loads.into_iter().flat_map(|l| &l.regions) {
        if let Some(number) = region.region {
            list.entry(number).or_insert(RegionInfo {
                number,
                name: region.name.clone(),
                dumptime: region.dumptime,
            });
        }
    }
    list.into_values().collect()
}

/// Appends one flow set to another, rail by rail.
/// The flow sets a selection covers in one profile's flows.
fn select_flows(flows: &crate::routing::RegionFlows, selection: RegionSelection) -> Vec<&FlowSet> {
    let get = |k: RegionKey| flows.get(&k).map(|f| &**f);
    match selection {
        RegionSelection::Total => get(RegionKey::Total).into_iter().collect(),
        RegionSelection::Region(n) => get(RegionKey::Region(n)).into_iter().collect(),
        RegionSelection::Cumulative(_) | RegionSelection::Window(..) => {
            let (first, last) = selection.window().unwrap_or_default();
            flows
                .iter()
                .filter(|(k, _)| matches!(k, RegionKey::Region(m) if first <= *m && *m <= last))
                .map(|(_, f)| &**f)
                .collect()
        }
        RegionSelection::Diff(a, _) => get(a).into_iter().collect(),
    }
}

/// The jobs a run's link rows name: its `job` attribute's values but `all` and `contention`,
/// in order of first appearance.
fn run_jobs(run: &Run) -> Vec<String> {
    let mut jobs: Vec<String> = Vec::new();
    for table in run.tables_of(Domain::Links) {
        let Some(column) = table.column("job") else { continue };
        for row in 0..column.len() {
            let job = column.text(row);
            if !job.is_empty() && job != ALL_JOBS && job != CONTENTION && !jobs.contains(&job) {
                jobs.push(job);
            }
        }
    }
    jobs
}

/// A run's regions: the non-negative whole values of its region attribute, and its negative
/// whole-run value if it has one.
fn run_regions(run: &Run) -> Regions {
    let Some(attribute) = region_attribute(run) else { return Regions::default() };
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

/// Where each rank ran: its recorded host, or where the host map puts it.
fn rank_hosts(cluster: &Cluster, profile: Option<&Profile>, host_map: &HostMap) -> RankHosts {
    profile
        .iter()
        .flat_map(|p| p.ranks.iter())
        .filter_map(|r| Some((r.rank, cluster.host_index(host_map.host_of_rank(r.rank, &r.host))?)))
        .collect()
}

#[cfg(test)]
mod tests;
