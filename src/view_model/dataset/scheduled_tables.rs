//! The scheduler's jobs as tables of the run, so the query engine filters and colours by them
//! like any other attribute (issue 26):
//!
//! - `scheduled` (links): `linkid footprints`, how many jobs' footprints cross each link end
//!   (2 or more: contended), a colouring;
//! - `scheduled_jobs` (links): `linkid job jobid`, one row per link end of each job's footprint,
//!   so `job = NAME` (or `jobid = 5001`) keeps the link ends on the job's routes;
//! - `scheduled_hosts` (nodes): `nodeid job jobid`, one row per CA of each job's hosts, so the
//!   same clause keeps the job's hosts in a node view.
//!
//! A link end or host passes `job = NAME` when one of its rows passes (the engine's rule for a
//! table other than the one aggregated). With profile jobs (`--job`), the traffic table's own
//! `job` column is found first and the clause picks those rows, as before.

use crate::model::{Column, Domain, LinkEnd, Table, TextColumn};
use crate::profile_io::slurm::SlurmJob;

use super::scheduled::{ScheduledJob, schedule};
use super::{Dataset, FabricData};
use crate::view_model::query::Condition;
use crate::view_model::relation::Relation;

pub const FOOTPRINTS_TABLE: &str = "scheduled";
pub const FOOTPRINTS: &str = "footprints";
pub const JOB_LINKS_TABLE: &str = "scheduled_jobs";
pub const JOB_HOSTS_TABLE: &str = "scheduled_hosts";

impl Dataset {
    /// The data set with the scheduler's jobs (a run without fabric is returned unchanged) and
    /// their tables.
    pub fn with_scheduled(mut self, jobs: Vec<SlurmJob>, source: &str) -> Dataset {
        let Some(fabric) = self.fabric.as_mut() else { return self };
        let (jobs, warnings) = schedule(&fabric.cluster, jobs, source);
        fabric.scheduled = jobs;
        self.warnings.extend(warnings);
        let tables = [footprints_table(fabric), job_links_table(fabric), job_hosts_table(fabric)];
        for table in tables.into_iter().flatten() {
            self.run = self.run.with_table(table);
        }
        self
    }
}

/// The clause that keeps one scheduler job (an index into `FabricData::scheduled`): `job =
/// NAME` where the name is the job's alone and no profile jobs give `job` another meaning,
/// else `jobid = ID`.
pub fn job_clause(dataset: &Dataset, job: usize) -> Option<Condition> {
    let jobs = &dataset.fabric.as_ref()?.scheduled;
    let this = jobs.get(job)?;
    let unique = jobs.iter().filter(|j| j.name == this.name).count() == 1;
    let by_name = unique && dataset.jobs().is_empty() && !this.name.contains(['*', ' ']);
    let (attribute, value) = if by_name { ("job", &this.name) } else { ("jobid", &this.id) };
    Some(Condition { attribute: attribute.into(), relation: Relation::Eq, value: value.clone() })
}

/// `linkid footprints` for every link end.
fn footprints_table(fabric: &FabricData) -> Option<Table> {
    let (mut ids, mut counts) = (Vec::new(), Vec::new());
    for (rail, f) in fabric.cluster.rails.iter().enumerate() {
        let mut count = vec![0u32; f.link_end_count()];
        for end in fabric.scheduled.iter().flat_map(|j| j.footprint.rails.get(rail).into_iter().flatten()) {
            if let Some(c) = count.get_mut(end.index()) {
                *c += 1;
            }
        }
        for (i, c) in count.into_iter().enumerate() {
            if let Some(position) = fabric.index.link_position(rail, LinkEnd::from_index(i)) {
                ids.push(position as i64);
                counts.push(f64::from(c));
            }
        }
    }
    let names = vec!["linkid".to_string(), FOOTPRINTS.to_string()];
    // Equal-length columns with an integer key: this cannot fail.
    Table::new(
        FOOTPRINTS_TABLE,
        Domain::Links,
        "linkid",
        names,
        vec![Column::Int(ids), Column::Float(counts)],
    )
    .ok()
}

/// Rows `id job jobid`, one per (id, job).
#[derive(Default)]
struct JobRows {
    ids: Vec<i64>,
    names: TextColumn,
    job_ids: TextColumn,
}

impl JobRows {
    fn push(&mut self, id: usize, job: &ScheduledJob) {
        self.ids.push(id as i64);
        self.names.push(&job.name);
        self.job_ids.push(&job.id);
    }

    fn table(self, name: &str, domain: Domain, key: &str) -> Option<Table> {
        let names = [key, "job", "jobid"].map(String::from).to_vec();
        let columns = vec![Column::Int(self.ids), Column::Text(self.names), Column::Text(self.job_ids)];
        // Equal-length columns with an integer key: this cannot fail.
        Table::new(name, domain, key, names, columns).ok()
    }
}

/// `linkid job jobid`: each job's footprint, end by end.
fn job_links_table(fabric: &FabricData) -> Option<Table> {
    let mut rows = JobRows::default();
    for job in &fabric.scheduled {
        for (rail, ends) in job.footprint.rails.iter().enumerate() {
            for &end in ends {
                if let Some(position) = fabric.index.link_position(rail, end) {
                    rows.push(position, job);
                }
            }
        }
    }
    rows.table(JOB_LINKS_TABLE, Domain::Links, "linkid")
}

/// `nodeid job jobid`: each job's hosts, CA by CA on every rail.
fn job_hosts_table(fabric: &FabricData) -> Option<Table> {
    let (cluster, index) = (&fabric.cluster, &fabric.index);
    let mut rows = JobRows::default();
    for job in &fabric.scheduled {
        // A host's CAs on the rails may be one node of the view model: one row each.
        let mut positions: Vec<usize> = (job.hosts.iter().filter_map(|&h| cluster.hosts.get(h)))
            .flat_map(|host| {
                (0..cluster.rails.len()).flat_map(move |rail| {
                    host.on_rail(rail).iter().filter_map(move |&ca| index.node_position(rail, ca))
                })
            })
            .collect();
        positions.sort_unstable();
        positions.dedup();
        for position in positions {
            rows.push(position, job);
        }
    }
    rows.table(JOB_HOSTS_TABLE, Domain::Nodes, "nodeid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::query::{Condition, mask};

    fn sacct_job(id: &str, name: &str, hosts: &[String]) -> SlurmJob {
        SlurmJob {
            id: id.into(),
            name: name.into(),
            user: "u".into(),
            node_list: hosts.join(","),
            hosts: hosts.to_vec(),
            start: Some(0.0),
            end: Some(60.0),
            state: "COMPLETED".into(),
            line: 2,
        }
    }

    /// A synthetic fabric with two jobs: `a` on the first and last host, `b` on the second.
    fn two_jobs() -> Dataset {
        let d = Dataset::synthetic(4, 3, 2, 2);
        let hosts: Vec<String> =
            d.fabric.as_ref().unwrap().cluster.hosts.iter().map(|h| h.name.clone()).collect();
        let a = sacct_job("11", "a", &[hosts[0].clone(), hosts[hosts.len() - 1].clone()]);
        let b = sacct_job("12", "b", &[hosts[1].clone()]);
        d.with_scheduled(vec![a, b], "sacct.txt")
    }

    fn passing(d: &Dataset, domain: Domain, clause: &str) -> Vec<usize> {
        let m = mask(&d.run, domain, &[Condition::parse(clause).unwrap()]).unwrap();
        m.iter().enumerate().filter(|(_, p)| **p).map(|(i, _)| i).collect()
    }

    #[test]
    fn job_equals_name_keeps_exactly_the_link_ends_of_its_footprint() {
        let d = two_jobs();
        let f = d.fabric.as_ref().unwrap();
        let a = &f.scheduled[0];
        let mut expected: Vec<usize> = (a.footprint.rails.iter().enumerate())
            .flat_map(|(rail, ends)| ends.iter().filter_map(move |&e| f.index.link_position(rail, e)))
            .collect();
        expected.sort_unstable();
        assert!(!expected.is_empty(), "hosts on different leaves have routes");
        assert_eq!(passing(&d, Domain::Links, "job = a"), expected);
        assert_eq!(passing(&d, Domain::Links, "jobid = 11"), expected);
        assert!(passing(&d, Domain::Links, "job = b").is_empty(), "a job on one host crosses no link");
    }

    #[test]
    fn a_jobs_own_clause_names_it_by_name_when_the_name_is_its_alone_else_by_id() {
        let d = two_jobs();
        assert_eq!(job_clause(&d, 0).unwrap().to_string(), "job = a");
        let hosts: Vec<String> =
            d.fabric.as_ref().unwrap().cluster.hosts.iter().map(|h| h.name.clone()).collect();
        let twice = Dataset::synthetic(4, 3, 2, 2).with_scheduled(
            vec![sacct_job("1", "bash", &hosts[..1]), sacct_job("2", "bash", &hosts[1..2])],
            "s",
        );
        assert_eq!(job_clause(&twice, 1).unwrap().to_string(), "jobid = 2");
        assert_eq!(job_clause(&twice, 2), None);
    }

    #[test]
    fn job_equals_name_keeps_the_jobs_hosts_in_a_node_view() {
        let d = two_jobs();
        let f = d.fabric.as_ref().unwrap();
        let nodes_of = |hosts: &[usize]| {
            let mut out: Vec<usize> = (hosts.iter().map(|&h| &f.cluster.hosts[h]))
                .flat_map(|host| {
                    (0..f.cluster.rails.len()).flat_map(move |rail| {
                        host.on_rail(rail).iter().filter_map(move |&ca| f.index.node_position(rail, ca))
                    })
                })
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let last = f.cluster.hosts.len() - 1;
        assert!(!nodes_of(&[1]).is_empty());
        assert_eq!(passing(&d, Domain::Nodes, "job = b"), nodes_of(&[1]));
        assert_eq!(passing(&d, Domain::Nodes, "job = *"), nodes_of(&[0, 1, last]), "every job's hosts");
    }
}
