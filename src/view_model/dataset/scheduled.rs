//! Jobs from the scheduler's accounting (issue 26), as the view model holds them: no profile,
//! only their hosts on the fabric, their time range and their footprint (the link ends on the
//! routes among their hosts, [`crate::routing::footprint`]).

use rayon::prelude::*;

use crate::model::{Cluster, LinkEnd, Warning};
use crate::profile_io::slurm::SlurmJob;
use crate::routing::footprint::{Footprint, footprint};

/// One accounted job.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduledJob {
    /// Slurm's JobID (`4101`, `4102_3` for an array task).
    pub id: String,
    pub name: String,
    pub user: String,
    pub state: String,
    /// Unix seconds, when known.
    pub start: Option<f64>,
    pub end: Option<f64>,
    /// Its hosts on the fabric (indices into `cluster.hosts`), in NodeList order.
    pub hosts: Vec<usize>,
    /// Its hosts as the scheduler named them, all of them.
    pub host_names: Vec<String>,
    pub footprint: Footprint,
}

impl ScheduledJob {
    /// Whether its time range meets `other`'s (an unknown end runs on; an unknown start never
    /// began).
    pub fn overlaps(&self, other: &ScheduledJob) -> bool {
        let (Some(a), Some(b)) = (self.start, other.start) else { return false };
        let (a_end, b_end) = (self.end.unwrap_or(f64::INFINITY), other.end.unwrap_or(f64::INFINITY));
        a < b_end && b < a_end
    }

    /// Whether the footprint holds a link end of a rail.
    pub fn crosses(&self, rail: usize, end: LinkEnd) -> bool {
        self.footprint.rails.get(rail).is_some_and(|ends| ends.binary_search(&end).is_ok())
    }
}

/// The jobs placed on the cluster, with a warning for each job whose nodes are not all in the
/// fabric (naming them) and for routes no table delivers; `source` names the file.
pub fn schedule(cluster: &Cluster, jobs: Vec<SlurmJob>, source: &str) -> (Vec<ScheduledJob>, Vec<Warning>) {
    let placed: Vec<(ScheduledJob, Vec<String>, usize)> = jobs
        .into_par_iter()
        .map(|job| {
            let (mut hosts, mut missing) = (Vec::new(), Vec::new());
            for name in &job.hosts {
                match cluster.host_index(name) {
                    Some(h) => hosts.push(h),
                    None => missing.push(name.clone()),
                }
            }
            let footprint = footprint(cluster, &hosts);
            let scheduled = ScheduledJob {
                id: job.id,
                name: job.name,
                user: job.user,
                state: job.state,
                start: job.start,
                end: job.end,
                hosts,
                host_names: job.hosts,
                footprint,
            };
            (scheduled, missing, job.line)
        })
        .collect();
    let mut warnings = Vec::new();
    let mut out = Vec::with_capacity(placed.len());
    for (job, missing, line) in placed {
        if !missing.is_empty() {
            warnings.push(Warning::at(
                source,
                line,
                format!(
                    "job {} ({}): {} of its {} nodes are not in the fabric: {}",
                    job.id,
                    job.name,
                    missing.len(),
                    job.host_names.len(),
                    listed(&missing)
                ),
            ));
        }
        if job.footprint.undelivered > 0 {
            warnings.push(Warning::at(
                source,
                line,
                format!(
                    "job {}: {} routes among its hosts are not delivered by the tables",
                    job.id, job.footprint.undelivered
                ),
            ));
        }
        out.push(job);
    }
    (out, warnings)
}

/// Names, the first ten and a count of the rest.
fn listed(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(10).map(String::as_str).collect();
    match names.len() {
        n if n > 10 => format!("{} and {} more", shown.join(", "), n - 10),
        _ => shown.join(", "),
    }
}

/// Link ends crossed by two or more footprints, per rail, with how many footprints cross each
/// (the contention of footprints).
pub fn footprint_contention(cluster: &Cluster, jobs: &[ScheduledJob]) -> Vec<Vec<(LinkEnd, u32)>> {
    cluster
        .rails
        .iter()
        .enumerate()
        .map(|(rail, fabric)| {
            let mut count = vec![0u32; fabric.link_end_count()];
            for end in jobs.iter().flat_map(|j| j.footprint.rails.get(rail).into_iter().flatten()) {
                if let Some(c) = count.get_mut(end.index()) {
                    *c += 1;
                }
            }
            (count.into_iter().enumerate())
                .filter(|(_, c)| *c >= 2)
                .map(|(i, c)| (LinkEnd::from_index(i), c))
                .collect()
        })
        .collect()
}

/// How many of each job's footprint ends another job's footprint crosses too.
pub fn contended_ends(cluster: &Cluster, jobs: &[ScheduledJob]) -> Vec<usize> {
    let contention = footprint_contention(cluster, jobs);
    jobs.iter()
        .map(|job| {
            (contention.iter().enumerate())
                .map(|(rail, ends)| ends.iter().filter(|(e, _)| job.crosses(rail, *e)).count())
                .sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::TwoLevel;

    fn job(id: &str, hosts: &[&str], start: Option<f64>, end: Option<f64>) -> SlurmJob {
        SlurmJob {
            id: id.into(),
            name: format!("job{id}"),
            user: "u".into(),
            node_list: hosts.join(","),
            hosts: hosts.iter().map(|h| h.to_string()).collect(),
            start,
            end,
            state: "COMPLETED".into(),
            line: 2,
        }
    }

    #[test]
    fn nodes_outside_the_fabric_are_named_and_the_rest_placed() {
        let cluster = Cluster::new(vec![TwoLevel::new(2, 2, 1).build()]);
        let names: Vec<&str> = cluster.hosts.iter().map(|h| h.name.as_str()).collect();
        let (jobs, warnings) =
            schedule(&cluster, vec![job("1", &[names[0], "ghost7", names[3]], Some(0.0), None)], "sacct.txt");
        assert_eq!(jobs[0].hosts, [0, 3]);
        assert!(!jobs[0].footprint.is_empty());
        assert_eq!(warnings.len(), 1);
        assert_eq!(
            warnings[0].to_string(),
            "sacct.txt:2: job 1 (job1): 1 of its 3 nodes are not in the fabric: ghost7"
        );
    }

    #[test]
    fn jobs_overlap_when_their_ranges_meet_and_a_running_job_runs_on() {
        let a = |s, e| schedule(&Cluster::default(), vec![job("a", &[], s, e)], "j").0.remove(0);
        assert!(a(Some(0.0), Some(10.0)).overlaps(&a(Some(5.0), Some(20.0))));
        assert!(!a(Some(0.0), Some(10.0)).overlaps(&a(Some(10.0), Some(20.0))));
        assert!(a(Some(0.0), None).overlaps(&a(Some(1e9), Some(2e9))));
        assert!(!a(None, None).overlaps(&a(Some(0.0), None)));
    }

    #[test]
    fn an_end_in_two_footprints_is_contended() {
        let cluster = Cluster::new(vec![TwoLevel::new(2, 2, 1).build()]);
        let n: Vec<String> = cluster.hosts.iter().map(|h| h.name.clone()).collect();
        let jobs =
            vec![job("1", &[&n[0], &n[2]], Some(0.0), None), job("2", &[&n[1], &n[3]], Some(0.0), None)];
        let (jobs, _) = schedule(&cluster, jobs, "j");
        let contended = footprint_contention(&cluster, &jobs);
        // Both cross the one spine: leaf-to-spine and spine-to-leaf ends are shared.
        assert!(!contended[0].is_empty());
        for (end, count) in &contended[0] {
            assert_eq!(*count, 2);
            assert!(jobs[0].crosses(0, *end) && jobs[1].crosses(0, *end));
        }
    }
}
