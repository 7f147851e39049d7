//! "Why was my job slow?" (issue 22, item 7): for each congestion region that touches a job's
//! routes, the job's link ends there ranked by stall × the job's share of the bytes, the bytes
//! there that were not the job's, the degraded links and error ports on its routes, and a short
//! verdict. `shoal why` prints it; the window's panel shows it.
//!
//! The job's routes are the link ends its traced bytes cross. Its share of an end is its traced
//! bytes over what the counters saw there across the whole window (at most 1); the residual is
//! what the counters saw minus the job's bytes. With several jobs, the other jobs' traced bytes
//! at each end are listed too.

use crate::model::thresholds::{self, STALL};
use crate::model::{Cluster, LinkEnd};
use crate::routing::health::{Degraded, PortError, health};
use crate::routing::{Observed, RegionLoads, residual};

use super::congestion::{EndPlaces, Evolution, Region, congestion_regions};
use super::dataset::{Dataset, FabricData};
use super::link_series::LinkSeries;

/// One of the job's link ends in a region.
#[derive(Clone, Debug, PartialEq)]
pub struct JobEnd {
    pub rail: usize,
    pub end: LinkEnd,
    /// The end's stall % in the region's interval.
    pub stall_percent: f64,
    pub job_bytes: u64,
    pub observed: Option<u64>,
    /// `job_bytes / observed`, at most 1.
    pub job_share: Option<f64>,
    /// stall × share: what ranks the ends.
    pub score: f64,
    /// observed − job_bytes.
    pub residual: Option<i64>,
    /// The other jobs' traced bytes here, where several jobs are given.
    pub other_jobs: Vec<(String, u64)>,
}

/// One region and the job's part in it.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionWhy {
    pub region: Region,
    pub interval_label: String,
    /// The job's ends in the region, highest score first.
    pub job_ends: Vec<JobEnd>,
    /// The residual summed over the job's ends in the region.
    pub residual_bytes: i64,
    pub verdict: String,
}

/// The whole answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    pub job: String,
    /// The stall % a region's ends reach.
    pub threshold: f64,
    /// Link ends the job's bytes crossed.
    pub route_ends: usize,
    /// False when no link end's stall % is known (no interval with times, no XmitWait read, no
    /// capacity).
    pub stall_known: bool,
    pub regions: Vec<RegionWhy>,
    /// Degraded links with an end on the job's routes.
    pub degraded: Vec<Degraded>,
    /// Ports on the job's routes (sending into, or receiving from, one of its ends) whose error
    /// counters moved.
    pub errors: Vec<PortError>,
    pub verdict: String,
}

/// What the job's bytes and the other jobs' are, per link end.
struct JobBytes<'a> {
    name: String,
    total: &'a RegionLoads,
    others: Vec<(&'a str, &'a RegionLoads)>,
}

/// The answer for the data set's job (`job`: one of several by name; default the first), the
/// regions at `threshold` % stall (default [`thresholds::DEFAULT_REGION_STALL`]), or only
/// region `only`.
pub fn why(
    dataset: &Dataset,
    job: Option<&str>,
    threshold: Option<f64>,
    only: Option<u32>,
) -> Result<Why, String> {
    let fabric = dataset.fabric.as_ref().ok_or("why needs fabric dumps")?;
    let observed =
        fabric.observed.as_ref().ok_or("why needs port counters (--counters before --counters after)")?;
    let bytes = job_bytes(fabric, job)?;
    // Without an interval no stall % is known: no region, but the routes' health still counts.
    let series = LinkSeries::of(&fabric.cluster, observed).unwrap_or_default();
    let threshold = threshold.unwrap_or(thresholds::DEFAULT_REGION_STALL);
    let places = EndPlaces::new(&fabric.cluster);
    let evolution = congestion_regions(&places, series.stall.iter().map(Vec::as_slice), threshold as f32);
    if let Some(n) = only.filter(|&n| evolution.numbered(n).is_none()) {
        return Err(format!(
            "there is no region {n}: {} region(s) at {threshold} % stall",
            evolution.regions.len()
        ));
    }
    let on_route = route_ends(&fabric.cluster, bytes.total);
    let regions = regions_of(fabric, observed, &bytes, &series, &evolution, &on_route, only);
    let found = health(&fabric.cluster, Some(observed));
    let degraded =
        found.degraded.into_iter().filter(|d| degraded_on_route(&fabric.cluster, d, &on_route)).collect();
    let errors = found.errors.into_iter().filter(|e| error_on_route(&fabric.cluster, e, &on_route)).collect();
    let mut answer = Why {
        job: bytes.name,
        threshold,
        route_ends: on_route.iter().flatten().filter(|&&b| b).count(),
        stall_known: series.stall.iter().flatten().any(|s| s.is_finite()),
        regions,
        degraded,
        errors,
        verdict: String::new(),
    };
    answer.verdict = overall_verdict(&answer);
    Ok(answer)
}

fn job_bytes<'a>(fabric: &'a FabricData, job: Option<&str>) -> Result<JobBytes<'a>, String> {
    if fabric.jobs.is_empty() {
        if job.is_some() {
            return Err(
                "--for-job picks one of several jobs (--job NAME=PROFILE); one profile was given".into()
            );
        }
        let name = if fabric.profile.is_some() { "the profile" } else { "the loads" }.to_string();
        return Ok(JobBytes { name, total: &fabric.loads.total, others: Vec::new() });
    }
    let index = match job {
        None => 0,
        Some(name) => fabric.jobs.iter().position(|j| j.name == name).ok_or_else(|| {
            let names: Vec<&str> = fabric.jobs.iter().map(|j| j.name.as_str()).collect();
            format!("no job named {name}: the jobs are {}", names.join(", "))
        })?,
    };
    let others = fabric
        .jobs
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .map(|(_, j)| (j.name.as_str(), &j.loads.total))
        .collect();
    Ok(JobBytes { name: fabric.jobs[index].name.clone(), total: &fabric.jobs[index].loads.total, others })
}

/// Per rail and end index: whether the job's bytes crossed it.
fn route_ends(cluster: &Cluster, total: &RegionLoads) -> Vec<Vec<bool>> {
    cluster
        .rails
        .iter()
        .enumerate()
        .map(|(r, f)| {
            let load = total.rails.get(r);
            (0..f.link_end_count()).map(|i| load.is_some_and(|l| l.at(LinkEnd::from_index(i)) > 0)).collect()
        })
        .collect()
}

fn on(on_route: &[Vec<bool>], rail: usize, end: LinkEnd) -> bool {
    on_route.get(rail).and_then(|r| r.get(end.index())).copied().unwrap_or(false)
}

fn degraded_on_route(cluster: &Cluster, d: &Degraded, on_route: &[Vec<bool>]) -> bool {
    let Some(fabric) = cluster.rails.get(d.rail) else { return false };
    (0..fabric.link_end_count()).map(LinkEnd::from_index).any(|end| {
        on(on_route, d.rail, end)
            && fabric.link_end_nodes(end).is_some_and(|((a, ap), (b, bp))| {
                let ends = [(fabric.node(a).guid, ap.0), (fabric.node(b).guid, bp.0)];
                ends.contains(&d.a) && ends.contains(&d.b)
            })
    })
}

fn error_on_route(cluster: &Cluster, e: &PortError, on_route: &[Vec<bool>]) -> bool {
    let Some(fabric) = cluster.rails.get(e.rail) else { return false };
    (0..fabric.link_end_count()).map(LinkEnd::from_index).any(|end| {
        on(on_route, e.rail, end)
            && fabric.link_end_nodes(end).is_some_and(|((a, ap), (b, bp))| {
                (fabric.node(a).guid, ap.0) == (e.guid, e.port)
                    || (fabric.node(b).guid, bp.0) == (e.guid, e.port)
            })
    })
}

/// The regions that touch the job's routes (or region `only`), each with the job's ends ranked.
fn regions_of(
    fabric: &FabricData,
    observed: &Observed,
    bytes: &JobBytes<'_>,
    series: &LinkSeries,
    evolution: &Evolution,
    on_route: &[Vec<bool>],
    only: Option<u32>,
) -> Vec<RegionWhy> {
    let mut out = Vec::new();
    for region in &evolution.regions {
        if only.is_some_and(|n| n != region.number) {
            continue;
        }
        let stall = &series.stall[region.interval as usize];
        let mut job_ends: Vec<JobEnd> = region
            .ends
            .iter()
            .filter_map(|&p| {
                let (rail, end) = fabric.index.link(p as usize)?;
                on(on_route, rail, end)
                    .then(|| job_end(observed, bytes, rail, end, f64::from(stall[p as usize])))
            })
            .collect();
        if job_ends.is_empty() && only.is_none() {
            continue;
        }
        job_ends.sort_by(|a, b| b.score.total_cmp(&a.score));
        let residual_bytes = job_ends.iter().filter_map(|e| e.residual).fold(0i64, i64::saturating_add);
        let verdict = region_verdict(region, &job_ends);
        let interval_label = series.labels.get(region.interval as usize).cloned().unwrap_or_default();
        out.push(RegionWhy { region: region.clone(), interval_label, job_ends, residual_bytes, verdict });
    }
    out
}

fn job_end(
    observed: &Observed,
    bytes: &JobBytes<'_>,
    rail: usize,
    end: LinkEnd,
    stall_percent: f64,
) -> JobEnd {
    let at = |loads: &RegionLoads| loads.rails.get(rail).map_or(0, |l| l.at(end));
    let job_bytes = at(bytes.total);
    let seen = observed.at(rail, end);
    let job_share = seen.filter(|&o| o > 0).map(|o| (job_bytes as f64 / o as f64).min(1.0));
    let other_jobs = bytes.others.iter().map(|(name, loads)| (name.to_string(), at(loads))).collect();
    JobEnd {
        rail,
        end,
        stall_percent,
        job_bytes,
        observed: seen,
        job_share,
        score: stall_percent * job_share.unwrap_or(0.0),
        residual: seen.map(|o| residual(o, job_bytes)),
        other_jobs,
    }
}

fn region_verdict(region: &Region, ends: &[JobEnd]) -> String {
    let severity = thresholds::level(&STALL, f64::from(region.worst_stall)).unwrap_or("below the thresholds");
    let Some(top) = ends.first() else {
        return format!(
            "region {} stalled up to {:.1} % ({severity}) off the job's routes",
            region.number, region.worst_stall
        );
    };
    let share = top.job_share.unwrap_or(0.0);
    let whose = if share >= 0.5 {
        format!("the job's own traffic: {:.0} % of the bytes there were its own", 100.0 * share)
    } else {
        format!("other traffic: {:.0} % of the bytes there were not the job's", 100.0 * (1.0 - share))
    };
    format!(
        "region {}: {} of the job's link ends, stalling up to {:.1} % ({severity}); at the end that \
         ranks first (stall {:.1} %), {whose}",
        region.number,
        ends.len(),
        region.worst_stall,
        top.stall_percent
    )
}

fn overall_verdict(w: &Why) -> String {
    let mut parts = Vec::new();
    match w.regions.iter().filter(|r| !r.job_ends.is_empty()).max_by(|a, b| a.region.worst_stall.total_cmp(&b.region.worst_stall)) {
        None if !w.stall_known => parts.push(
            "no stall % is known: the counters span no interval with times, read no XmitWait, or no link's capacity is known".into(),
        ),
        None => parts.push(format!(
            "no link end on the job's routes stalled {} % of an interval or more: its bytes did not wait in the fabric",
            w.threshold
        )),
        Some(worst) => parts.push(worst.verdict.clone()),
    }
    if !w.degraded.is_empty() {
        parts.push(format!("{} degraded link(s) on its routes", w.degraded.len()));
    }
    if !w.errors.is_empty() {
        let cable =
            w.errors.iter().filter(|e| e.accuses() == crate::model::port_counters::Accused::Cable).count();
        parts.push(format!(
            "error counters moved on its routes ({} count(s), {cable} accusing a cable)",
            w.errors.len()
        ));
    }
    parts.join("; ")
}
