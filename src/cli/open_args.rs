//! The opening flags every command shares (issue 21): one clap definition, flattened into each
//! command that opens data, turned into one [`OpenRequest`] for [`shoal::view_model::open`].

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use shoal::layout::HcaPlanes;
use shoal::routing::{PlacementPolicy, RailPolicy};
use shoal::view_model::request::{parse_hca_planes, parse_rail_policy};
use shoal::view_model::{CounterSpec, JobRequest, OpenRequest, PrometheusRequest, RailRequest, is_run_path};

/// What to open and how.
#[derive(Args, Debug, Clone, Default)]
pub struct OpenArgs {
    /// One subnet's dumps: a directory, or files joined by commas; repeat for each rail, rail 0
    /// first. Or one run: a Boxfish `*_meta.yaml`, a `nodes.csv` (with its `links.csv`), or
    /// their folder. With no subcommand the window sorts these by content (dumps, profiles, a
    /// loads file, counters), and opens one session file as it was saved.
    #[arg(value_name = "RAIL")]
    pub rails: Vec<String>,
    /// List every warning instead of a summary.
    #[arg(short, long)]
    pub verbose: bool,
    /// A profile: ibprof v1 (file, .gz, or a directory of *.ibprof files) or PFProf JSON (a rank
    /// file, or a directory of them), told apart by content.
    #[arg(long, value_name = "P", conflicts_with = "loads")]
    pub profile: Option<PathBuf>,
    /// Link-end loads already traced: a loads file written in situ by libibprof
    /// (`IBPROF_LOADS`), or `shoal convert`'s links.csv. Used instead of a profile.
    #[arg(long, value_name = "FILE")]
    pub loads: Option<PathBuf>,
    #[command(flatten)]
    pub jobs: JobArgs,
    /// A port-counter file (perfquery, ibqueryerrors, ibdiagnet2 db_csv/.pm, PerfMgr dump,
    /// Prometheus), recognised by content. Once: counters as they stand; twice or more: each
    /// port's later minus earlier value, between the files that hold it (three or more: a
    /// series). `railN=FILE` puts a LID-only file on rail N (default 0).
    #[arg(long = "counters", value_name = "[railN=]FILE", value_parser = CounterSpec::parse)]
    pub counters: Vec<CounterSpec>,
    #[command(flatten)]
    pub history: HistoryArgs,
    /// `split` spreads rank-level bytes over the rails both hosts share; `rail:N` uses rail N.
    #[arg(long, value_name = "POLICY", default_value = "split", value_parser = parse_rail_policy)]
    pub rail_policy: RailPolicy,
    /// Maps the profile's ranks onto the fabric's hosts (node descriptions' first words): lines
    /// `profile-host fabric-host`, or `rank R fabric-host` for one rank. `#` starts a comment.
    #[arg(long, value_name = "FILE")]
    pub host_map: Option<PathBuf>,
    /// `auto`: where a subnet is rail-optimized (hosts with several HCAs, each HCA index on its
    /// own leaves: planes), draw every CA on the host row grouped by plane, a host marked by all
    /// of its CAs; `off`: one dot per host, as the thesis draws it.
    #[arg(long, value_name = "auto|off", default_value = "auto", value_parser = parse_hca_planes)]
    pub hca_planes: HcaPlanes,
}

/// The fabric as it ran (issue 26): counters from Prometheus over a range, jobs from Slurm.
#[derive(Args, Debug, Clone, Default)]
pub struct HistoryArgs {
    /// A Prometheus server scraping an InfiniBand exporter (treydock's or guilbaults'), e.g.
    /// `http://127.0.0.1:9090`: its counters from --from to --to, at each --step, go wherever
    /// --counters go (two steps: after − before; more: a series for the time strip).
    #[arg(long, value_name = "URL", requires_all = ["from", "to"])]
    pub prometheus: Option<String>,
    /// The range's start: RFC 3339 (`2026-11-24T10:00:00Z`) or Unix seconds.
    #[arg(long, value_name = "TIME", requires = "prometheus", value_parser = checked_time)]
    pub from: Option<String>,
    /// The range's end: RFC 3339 or Unix seconds.
    #[arg(long, value_name = "TIME", requires = "prometheus", value_parser = checked_time)]
    pub to: Option<String>,
    /// The step between snapshots, as Prometheus writes durations (`60s`, `5m`, `1h`); default 60s.
    #[arg(long, value_name = "DURATION", requires = "prometheus", value_parser = checked_duration)]
    pub step: Option<String>,
    /// Jobs from the scheduler's accounting: `sacct --parsable2` output with the columns
    /// JobID, JobName, User, NodeList, Start, End and State (job steps are skipped). Each job's
    /// footprint is the link ends on the routes among its hosts.
    #[arg(long, value_name = "FILE")]
    pub jobs_from: Option<PathBuf>,
}

fn checked_time(text: &str) -> Result<String, String> {
    shoal::profile_io::prometheus_api::time::parse_time(text).map(|_| text.to_string())
}

fn checked_duration(text: &str) -> Result<String, String> {
    shoal::profile_io::prometheus_api::time::parse_duration(text).map(|_| text.to_string())
}

impl HistoryArgs {
    /// The Prometheus range asked for, if any.
    pub fn prometheus(&self) -> Option<PrometheusRequest> {
        Some(PrometheusRequest {
            url: self.prometheus.clone()?,
            from: self.from.clone()?,
            to: self.to.clone()?,
            step: self.step.clone(),
        })
    }
}

/// Several jobs on the fabric, and where their ranks run.
#[derive(Args, Debug, Clone, Default)]
pub struct JobArgs {
    /// A job: its name and its profile. Repeat for each job sharing the fabric; `--profile P`
    /// is one more job, named after the file (`md.ibprof.gz` → `md`), listed first.
    #[arg(long = "job", value_name = "NAME=PROFILE", value_parser = parse_job)]
    pub jobs: Vec<(String, PathBuf)>,
    /// Where a job's ranks run: `as-recorded` (default), `linear`, `random-node:SEED`,
    /// `random-switch:SEED` or `hosts:FILE` (one host per line, rank order). Placed jobs take
    /// hosts no other job holds, in command-line order.
    #[arg(long = "place", value_name = "NAME=POLICY", value_parser = parse_place)]
    pub place: Vec<(String, String)>,
}

fn parse_job(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((name, path)) if !name.trim().is_empty() && !path.is_empty() => {
            Ok((name.trim().to_string(), PathBuf::from(path)))
        }
        _ => Err(format!("expected NAME=PROFILE, got `{text}`")),
    }
}

fn parse_place(text: &str) -> Result<(String, String), String> {
    let (name, policy) = text.split_once('=').ok_or_else(|| format!("expected NAME=POLICY, got `{text}`"))?;
    PlacementPolicy::parse(policy)?;
    Ok((name.trim().to_string(), policy.to_string()))
}

impl JobArgs {
    /// Whether jobs were asked for (then every profile goes down the jobs road).
    pub fn any(&self) -> bool {
        !self.jobs.is_empty() || !self.place.is_empty()
    }

    /// The jobs: `profile` first (named after its file), then each `--job`, each with its
    /// `--place`.
    pub fn requests(&self, profile: Option<&std::path::Path>) -> Result<Vec<JobRequest>> {
        let mut jobs: Vec<JobRequest> = profile.map(JobRequest::from_profile).into_iter().collect();
        jobs.extend(self.jobs.iter().map(|(name, path)| JobRequest {
            name: name.clone(),
            profile: path.clone(),
            place: "as-recorded".into(),
        }));
        let mut placed = std::collections::HashSet::new();
        for (name, text) in &self.place {
            let known: Vec<String> = jobs.iter().map(|s| s.name.clone()).collect();
            let Some(job) = jobs.iter_mut().find(|s| s.name == *name) else {
                bail!("--place {name}=…: no job is named {name} (the jobs: {})", known.join(", "));
            };
            if !placed.insert(name.clone()) {
                bail!("--place {name} is given twice");
            }
            job.place = text.clone();
        }
        Ok(jobs)
    }
}

impl OpenArgs {
    /// Whether counters come from files or from Prometheus.
    pub fn has_counters(&self) -> bool {
        !self.counters.is_empty() || self.history.prometheus.is_some()
    }

    /// Each RAIL's paths (a RAIL's commas separate its files).
    pub fn rail_paths(&self) -> Vec<Vec<PathBuf>> {
        self.rails
            .iter()
            .map(|r| r.split(',').filter(|p| !p.is_empty()).map(PathBuf::from).collect())
            .collect()
    }

    /// What the flags ask to open, the RAILs aside.
    pub fn flags_request(&self) -> Result<OpenRequest> {
        let mut request = OpenRequest {
            profile: self.profile.clone(),
            loads: self.loads.clone(),
            counters: self.counters.clone(),
            prometheus: self.history.prometheus(),
            jobs_from: self.history.jobs_from.clone(),
            host_map: self.host_map.clone(),
            rail_policy: self.rail_policy,
            hca_planes: self.hca_planes,
            ..Default::default()
        };
        if self.jobs.any() {
            if self.loads.is_some() {
                bail!("--loads shows loads already traced; --job and --place need profiles");
            }
            // The profile is the first job, with whatever --place names it.
            request.jobs = self.jobs.requests(self.profile.as_deref())?;
            request.profile = None;
        }
        Ok(request)
    }

    /// The whole request: one run path alone is the run, anything else the rails.
    pub fn request(&self) -> Result<OpenRequest> {
        let mut request = self.flags_request()?;
        match self.rails.as_slice() {
            [] => bail!("no RAIL given: name one subnet's dumps per rail (or one run)"),
            [one] if is_run_path(std::path::Path::new(one)) => request.run = Some(PathBuf::from(one)),
            _ => request.rails = self.rail_paths().into_iter().map(|paths| RailRequest { paths }).collect(),
        }
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placing_the_profiles_job_keeps_it_first_and_placed() {
        let args = OpenArgs {
            rails: vec!["r0".into(), "r1a,r1b".into()],
            profile: Some("md.ibprof".into()),
            jobs: JobArgs {
                jobs: vec![("io".into(), "ior.ibprof".into())],
                place: vec![("md".into(), "linear".into())],
            },
            ..Default::default()
        };
        let request = args.request().unwrap();
        assert_eq!(request.rail_paths(), [vec![PathBuf::from("r0")], vec!["r1a".into(), "r1b".into()]]);
        let jobs: Vec<(&str, &str)> =
            request.jobs.iter().map(|j| (j.name.as_str(), j.place.as_str())).collect();
        assert_eq!(jobs, [("md", "linear"), ("io", "as-recorded")]);
        assert_eq!(request.profile, None);
    }

    #[test]
    fn placing_a_job_nobody_named_or_twice_is_an_error() {
        let jobs =
            |place: Vec<(String, String)>| JobArgs { jobs: vec![("a".into(), "a.ibprof".into())], place };
        let error = jobs(vec![("b".into(), "linear".into())]).requests(None).unwrap_err();
        assert!(error.to_string().contains("no job is named b (the jobs: a)"), "{error}");
        let twice = vec![("a".into(), "linear".into()), ("a".into(), "linear".into())];
        assert!(jobs(twice).requests(None).unwrap_err().to_string().contains("twice"));
    }

    #[test]
    fn no_rail_is_an_error_and_one_run_path_is_the_run() {
        assert!(OpenArgs::default().request().is_err());
        let run =
            OpenArgs { rails: vec!["sample-data/torus8/torus8_meta.yaml".into()], ..Default::default() };
        assert!(run.request().unwrap().run.is_some());
    }
}
