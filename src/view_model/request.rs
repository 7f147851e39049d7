//! What to open, as plain data (issue 21): every face — the window's dialogs, drops, recent
//! list and reloads, each command's flags, a session file — builds one [`OpenRequest`] and hands
//! it to [`super::open`]. It is serde data so a session file can hold it as readable YAML.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::layout::{FatTreeOptions, HcaPlanes};
use crate::profile_io::prometheus_api::time::{parse_duration, parse_time};
use crate::profile_io::prometheus_api::{DEFAULT_STEP_SECS, PromRange};
use crate::routing::RailPolicy;

/// Everything that changes what is opened.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OpenRequest {
    /// One subnet's dumps per rail, rail 0 first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rails: Vec<RailRequest>,
    /// Run data instead of rails: a Boxfish `*_meta.yaml`, a CSV pair or a folder holding one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<PathBuf>,
    /// The profile whose traffic is traced (with jobs: the first job, named after its file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<PathBuf>,
    /// Jobs sharing the fabric (issue 12).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub jobs: Vec<JobRequest>,
    /// Link-end loads already traced (a loads file or `convert`'s links.csv), shown instead of a
    /// profile's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loads: Option<PathBuf>,
    /// Port-counter snapshots: one as they stand, two per rail as after − before.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterSpec>,
    /// Port counters from a Prometheus server over a time range, fed wherever `counters` go
    /// (issue 26).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prometheus: Option<PrometheusRequest>,
    /// Jobs from the scheduler's accounting: `sacct --parsable2` output (issue 26).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jobs_from: Option<PathBuf>,
    /// Maps the profile's ranks onto the fabric's hosts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_map: Option<PathBuf>,
    /// Which rail carries rank-level bytes: `split` or `rail:N`.
    #[serde(with = "rail_policy_text")]
    pub rail_policy: RailPolicy,
    /// Which trace the views colour by default.
    pub routing: RoutingMode,
    /// How rail-optimized subnets are laid out: `auto` or `off`.
    #[serde(with = "hca_planes_text")]
    pub hca_planes: HcaPlanes,
}

/// One rail: its dump files and folders.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RailRequest {
    pub paths: Vec<PathBuf>,
}

/// One job: its name, its profile and where its ranks run (`as-recorded`, `linear`,
/// `random-node:SEED`, `random-switch:SEED` or `hosts:FILE`, read when opened).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobRequest {
    pub name: String,
    pub profile: PathBuf,
    #[serde(default = "as_recorded", skip_serializing_if = "is_as_recorded")]
    pub place: String,
}

fn as_recorded() -> String {
    "as-recorded".into()
}

fn is_as_recorded(text: &String) -> bool {
    text == "as-recorded"
}

impl JobRequest {
    /// A job named after its profile's file (`md.ibprof.gz` → `md`), placed as recorded.
    pub fn from_profile(profile: &Path) -> JobRequest {
        JobRequest { name: job_name_of(profile), profile: profile.to_path_buf(), place: as_recorded() }
    }
}

pub use super::trace::CounterSpec;

/// A Prometheus server and a range, as typed (`--prometheus URL --from T --to T --step D`):
/// times in RFC 3339 or Unix seconds, the step as Prometheus writes durations (default 60 s).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrometheusRequest {
    pub url: String,
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
}

impl PrometheusRequest {
    /// The range in seconds; an error names the flag whose text is no time or duration.
    pub fn range(&self) -> Result<PromRange, String> {
        let from = parse_time(&self.from).map_err(|e| format!("--from: {e}"))?;
        let to = parse_time(&self.to).map_err(|e| format!("--to: {e}"))?;
        let step = match &self.step {
            Some(text) => parse_duration(text).map_err(|e| format!("--step: {e}"))?,
            None => DEFAULT_STEP_SECS,
        };
        Ok(PromRange { url: self.url.clone(), from, to, step })
    }
}
pub use super::trace::jobs::job_name_of;

/// Which trace the loads come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RoutingMode {
    /// The static forwarding tables, as `ibtracert` walks them.
    #[default]
    Static,
    /// Adaptive routing, modelled: AR-enabled destinations spread over their groups' ports.
    Ar,
}

impl RoutingMode {
    pub fn parse(text: &str) -> Result<RoutingMode, String> {
        match text {
            "static" => Ok(RoutingMode::Static),
            "ar" => Ok(RoutingMode::Ar),
            _ => Err(format!("expected `static` or `ar`, got `{text}`")),
        }
    }
}

/// `split` or `rail:N`.
pub fn parse_rail_policy(text: &str) -> Result<RailPolicy, String> {
    match text {
        "split" => Ok(RailPolicy::Split),
        _ => text
            .strip_prefix("rail:")
            .and_then(|n| n.parse::<u8>().ok())
            .map(RailPolicy::Rail)
            .ok_or_else(|| format!("expected `split` or `rail:N`, got `{text}`")),
    }
}

/// The spelling [`parse_rail_policy`] reads.
pub fn rail_policy_spelling(policy: RailPolicy) -> String {
    match policy {
        RailPolicy::Split => "split".into(),
        RailPolicy::Rail(n) => format!("rail:{n}"),
    }
}

/// `auto` or `off`.
pub fn parse_hca_planes(text: &str) -> Result<HcaPlanes, String> {
    HcaPlanes::parse(text).ok_or_else(|| format!("expected `auto` or `off`, got `{text}`"))
}

impl OpenRequest {
    /// A request for these rails (one path list per rail) and nothing else.
    pub fn of_rails(rails: Vec<Vec<PathBuf>>) -> OpenRequest {
        OpenRequest {
            rails: rails.into_iter().map(|paths| RailRequest { paths }).collect(),
            ..Default::default()
        }
    }

    /// Each rail's paths.
    pub fn rail_paths(&self) -> Vec<Vec<PathBuf>> {
        self.rails.iter().map(|r| r.paths.clone()).collect()
    }

    /// The layout's options.
    pub fn layout(&self) -> FatTreeOptions {
        FatTreeOptions { hca_planes: self.hca_planes, ..FatTreeOptions::default() }
    }

    /// Every job the request names, `profile` first (empty: at most one plain profile).
    pub fn job_requests(&self) -> Vec<JobRequest> {
        if self.jobs.is_empty() {
            return Vec::new();
        }
        let first = self.profile.as_deref().map(JobRequest::from_profile);
        first.into_iter().chain(self.jobs.iter().cloned()).collect()
    }

    /// Every input path, to watch or to rewrite (rails, run, profile, jobs, loads, counters,
    /// jobs from the scheduler, host map).
    pub fn paths_mut(&mut self) -> Vec<&mut PathBuf> {
        let rails = self.rails.iter_mut().flat_map(|r| r.paths.iter_mut());
        rails
            .chain(self.run.iter_mut())
            .chain(self.profile.iter_mut())
            .chain(self.jobs.iter_mut().map(|j| &mut j.profile))
            .chain(self.loads.iter_mut())
            .chain(self.counters.iter_mut().map(|c| &mut c.path))
            .chain(self.jobs_from.iter_mut())
            .chain(self.host_map.iter_mut())
            .collect()
    }

    /// Every input path.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.clone().paths_mut().into_iter().map(|p| p.clone()).collect()
    }

    /// The bundled two-rail sample: `sample-data/tworail` with the samplesort profile.
    pub fn sample() -> OpenRequest {
        let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
        OpenRequest {
            profile: Some(base.join("samplesort.ibprof.gz")),
            ..OpenRequest::of_rails(vec![vec![base.join("rail0")], vec![base.join("rail1")]])
        }
    }
}

mod rail_policy_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::routing::RailPolicy;

    pub fn serialize<S: Serializer>(policy: &RailPolicy, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::rail_policy_spelling(*policy))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RailPolicy, D::Error> {
        super::parse_rail_policy(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

mod hca_planes_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::layout::HcaPlanes;

    pub fn serialize<S: Serializer>(planes: &HcaPlanes, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match planes {
            HcaPlanes::Auto => "auto",
            HcaPlanes::Off => "off",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<HcaPlanes, D::Error> {
        super::parse_hca_planes(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reads_back_from_the_yaml_it_writes() {
        let request = OpenRequest {
            profile: Some("p.ibprof".into()),
            jobs: vec![JobRequest {
                name: "io".into(),
                profile: "ior.ibprof".into(),
                place: "linear".into(),
            }],
            counters: vec![CounterSpec { rail: Some(1), path: "c.txt".into() }],
            prometheus: Some(PrometheusRequest {
                url: "http://127.0.0.1:9090".into(),
                from: "2026-11-24T10:00:00Z".into(),
                to: "1795000000".into(),
                step: Some("5m".into()),
            }),
            jobs_from: Some("sacct.txt".into()),
            host_map: Some("map.txt".into()),
            rail_policy: RailPolicy::Rail(0),
            routing: RoutingMode::Ar,
            hca_planes: HcaPlanes::Off,
            ..OpenRequest::of_rails(vec![vec!["r0".into()], vec!["r1".into(), "r1.far".into()]])
        };
        let text = serde_saphyr::to_string(&request).unwrap();
        assert!(text.contains("rail_policy: rail:0"), "{text}");
        assert_eq!(serde_saphyr::from_str::<OpenRequest>(&text).unwrap(), request);
    }

    #[test]
    fn a_prometheus_range_reads_its_times_and_names_a_bad_flag() {
        let mut request = PrometheusRequest {
            url: "http://p:9090".into(),
            from: "2023-11-14T22:13:20Z".into(),
            to: "1700003600".into(),
            step: None,
        };
        let range = request.range().unwrap();
        assert_eq!((range.from, range.to, range.step), (1_700_000_000.0, 1_700_003_600.0, 60.0));
        request.step = Some("soon".into());
        assert!(request.range().unwrap_err().starts_with("--step: `soon`"));
    }

    #[test]
    fn a_misspelt_policy_or_key_is_an_error_naming_it() {
        let error = serde_saphyr::from_str::<OpenRequest>("rail_policy: rail:x\n").unwrap_err();
        assert!(error.to_string().contains("rail:N"), "{error}");
        let error = serde_saphyr::from_str::<OpenRequest>("profiel: p\n").unwrap_err();
        assert!(error.to_string().contains("profiel"), "{error}");
    }
}
