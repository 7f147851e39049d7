//! `shoal convert --jobs-from`'s tables (issue 26): `jobs` (`job,name,user,start,end,state,hosts`)
//! and `footprints` (`job,rail,a_guid,a_port,b_guid,b_port`: one row per link end on the job's
//! routes; the end at a sends towards b). Times are RFC 3339 UTC, empty when unknown; hosts are
//! the job's node names, space-separated, as the scheduler expanded them.

use serde::Serialize;

use super::csv_cell;
use crate::model::Cluster;
use crate::profile_io::prometheus_api::time::rfc3339_of;
use crate::view_model::dataset::scheduled::ScheduledJob;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobRow {
    #[serde(serialize_with = "csv_cell::serialize")]
    pub job: String,
    #[serde(serialize_with = "csv_cell::serialize")]
    pub name: String,
    #[serde(serialize_with = "csv_cell::serialize")]
    pub user: String,
    pub start: String,
    pub end: String,
    #[serde(serialize_with = "csv_cell::serialize")]
    pub state: String,
    #[serde(serialize_with = "csv_cell::serialize")]
    pub hosts: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FootprintRow {
    #[serde(serialize_with = "csv_cell::serialize")]
    pub job: String,
    pub rail: u8,
    pub a_guid: String,
    pub a_port: u8,
    pub b_guid: String,
    pub b_port: u8,
}

fn time(t: Option<f64>) -> String {
    t.filter(|t| t.is_finite()).map(rfc3339_of).unwrap_or_default()
}

/// One row per job.
pub fn job_rows(jobs: &[ScheduledJob]) -> Vec<JobRow> {
    jobs.iter()
        .map(|j| JobRow {
            job: j.id.clone(),
            name: j.name.clone(),
            user: j.user.clone(),
            start: time(j.start),
            end: time(j.end),
            state: j.state.clone(),
            hosts: j.host_names.join(" "),
        })
        .collect()
}

/// One row per link end of each job's footprint, rail by rail.
pub fn footprint_rows(cluster: &Cluster, jobs: &[ScheduledJob]) -> Vec<FootprintRow> {
    let mut rows = Vec::new();
    for job in jobs {
        for (rail, ends) in job.footprint.rails.iter().enumerate() {
            let Some(fabric) = cluster.rails.get(rail) else { continue };
            for &end in ends {
                let Some(((a, a_port), (b, b_port))) = fabric.link_end_nodes(end) else { continue };
                rows.push(FootprintRow {
                    job: job.id.clone(),
                    rail: rail as u8,
                    a_guid: fabric.node(a).guid.to_string(),
                    a_port: a_port.0,
                    b_guid: fabric.node(b).guid.to_string(),
                    b_port: b_port.0,
                });
            }
        }
    }
    rows
}
