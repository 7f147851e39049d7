//! `shoal hot --json`: the ranking as one JSON object, the same ends and figures as the table.
//!
//! Keys: `title` (what was ranked: `region 2 "exchange"`, `the whole run`, `all jobs (…)`),
//! `ranked_by` (`bytes`, `observed`, `residual`, `second_job_bytes`), `routing` (`static`,
//! `ar_modelled`), and `ends`, busiest first: `rank`, `rail`, `from`/`from_port` (the node
//! description and port of the sending end), `to`/`to_port`, then per ranking `bytes` and
//! `share_percent` (of the busiest end's bytes), `beside` (the other routing model's bytes),
//! `observed`/`predicted`/`residual`, `jobs` (each job's bytes at a contended end), and `pairs`
//! (source host, destination host, bytes: who sent the most through the end).

use serde::Serialize;
use shoal::model::echo::echo;
use shoal::model::{Cluster, LinkEnd};
use shoal::routing::RoutingModel;

#[derive(Debug, Serialize)]
pub struct HotJson {
    pub title: String,
    pub ranked_by: &'static str,
    pub routing: &'static str,
    /// Pairs come from a loads file's top-K summary: each is a lower bound.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pairs_are_lower_bounds: bool,
    pub ends: Vec<EndJson>,
}

impl HotJson {
    pub fn new(title: &str, ranked_by: &'static str, model: RoutingModel) -> Self {
        let routing = match model {
            RoutingModel::Static => "static",
            RoutingModel::AdaptiveModelled => "ar_modelled",
        };
        HotJson {
            title: title.to_string(),
            ranked_by,
            routing,
            pairs_are_lower_bounds: false,
            ends: Vec::new(),
        }
    }

    /// Prints it to standard output.
    pub fn print(&self) -> anyhow::Result<()> {
        println!("{}", serde_json::to_string_pretty(self)?);
        Ok(())
    }
}

/// One ranked link end; the figures a ranking does not have are left out.
#[derive(Debug, Default, Serialize)]
pub struct EndJson {
    pub rank: usize,
    pub rail: usize,
    pub from: String,
    pub from_port: u8,
    pub to: String,
    pub to_port: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_percent: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beside: Option<BesideJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub residual: Option<i64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub jobs: Vec<JobJson>,
    pub pairs: Vec<PairJson>,
}

/// The other routing model's bytes on the same end (`routing`: `static` or `ar_modelled`).
#[derive(Debug, Serialize)]
pub struct BesideJson {
    pub routing: &'static str,
    pub bytes: u64,
}

#[derive(Debug, Serialize)]
pub struct JobJson {
    pub job: String,
    pub bytes: u64,
    pub pairs: Vec<PairJson>,
}

/// Host names; `?` where a flow's host is not known.
#[derive(Debug, Serialize)]
pub struct PairJson {
    pub from: String,
    pub to: String,
    pub bytes: u64,
}

/// The end's rank (from 1), rail and nodes, the figures left to fill; `None` for an end the
/// fabric does not hold.
pub fn end_json(cluster: &Cluster, i: usize, rail: usize, end: LinkEnd) -> Option<EndJson> {
    let fabric = cluster.rails.get(rail)?;
    let ((a, ap), (b, bp)) = fabric.link_end_nodes(end)?;
    Some(EndJson {
        rank: i + 1,
        rail,
        from: echo(&fabric.node(a).description).into_owned(),
        from_port: ap.0,
        to: echo(&fabric.node(b).description).into_owned(),
        to_port: bp.0,
        ..EndJson::default()
    })
}

/// (source host, destination host, bytes) as names.
pub fn pairs_json(cluster: &Cluster, pairs: &[(Option<usize>, Option<usize>, u64)]) -> Vec<PairJson> {
    let name = |h: &Option<usize>| {
        h.and_then(|h| cluster.hosts.get(h)).map_or_else(|| "?".to_string(), |h| echo(&h.name).into_owned())
    };
    pairs.iter().map(|(s, d, bytes)| PairJson { from: name(s), to: name(d), bytes: *bytes }).collect()
}
