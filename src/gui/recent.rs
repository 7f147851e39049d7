//! The recent-files list, kept in eframe's storage as plain text: one request per line,
//! rails separated by `|`, a rail's files by `,`, then `|profile=` and the profile path
//! (or `|loads=` and a loads file), `|job=NAME=PATH` / `|place=NAME=POLICY` for each job, and
//! `|counters=[railN=]PATH` for each counter snapshot, in the order given (before, after, …),
//! `|host-map=PATH` and `|rail-policy=rail:N` when given; a run is `run=PATH` alone.

use std::path::PathBuf;

use crate::routing::RailPolicy;
use crate::view_model::request::{parse_rail_policy, rail_policy_spelling};
use crate::view_model::{CounterSpec, JobRequest, OpenRequest, PathKind, RailRequest, classify};

pub const KEY: &str = "shoal.recent";
pub const KEEP: usize = 8;

pub fn encode(list: &[OpenRequest]) -> String {
    list.iter()
        .map(|r| {
            let mut parts: Vec<String> = r
                .rails
                .iter()
                .map(|rail| rail.paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(","))
                .collect();
            if let Some(p) = &r.run {
                parts.push(format!("run={}", p.display()));
            }
            if let Some(p) = &r.profile {
                parts.push(format!("profile={}", p.display()));
            }
            if let Some(p) = &r.loads {
                parts.push(format!("loads={}", p.display()));
            }
            for job in &r.jobs {
                parts.push(format!("job={}={}", job.name, job.profile.display()));
                if job.place != "as-recorded" {
                    parts.push(format!("place={}={}", job.name, job.place));
                }
            }
            for spec in &r.counters {
                let rail = spec.rail.map_or(String::new(), |n| format!("rail{n}="));
                parts.push(format!("counters={rail}{}", spec.path.display()));
            }
            if let Some(p) = &r.host_map {
                parts.push(format!("host-map={}", p.display()));
            }
            if r.rail_policy != RailPolicy::Split {
                parts.push(format!("rail-policy={}", rail_policy_spelling(r.rail_policy)));
            }
            parts.join("|")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn decode(text: &str) -> Vec<OpenRequest> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut request = OpenRequest::default();
            for part in line.split('|') {
                if let Some(p) = part.strip_prefix("profile=") {
                    request.profile = Some(PathBuf::from(p));
                } else if let Some(p) = part.strip_prefix("loads=") {
                    request.loads = Some(PathBuf::from(p));
                } else if let Some(spec) = part.strip_prefix("counters=") {
                    if let Ok(spec) = CounterSpec::parse(spec) {
                        request.counters.push(spec);
                    }
                } else if let Some(p) = part.strip_prefix("run=") {
                    request.run = Some(PathBuf::from(p));
                } else if let Some(p) = part.strip_prefix("host-map=") {
                    request.host_map = Some(PathBuf::from(p));
                } else if let Some(policy) = part.strip_prefix("rail-policy=") {
                    request.rail_policy = parse_rail_policy(policy).unwrap_or_default();
                } else if let Some((name, path)) = part.strip_prefix("job=").and_then(|j| j.split_once('=')) {
                    request.jobs.push(JobRequest {
                        name: name.into(),
                        profile: path.into(),
                        place: "as-recorded".into(),
                    });
                } else if let Some((name, policy)) =
                    part.strip_prefix("place=").and_then(|j| j.split_once('='))
                {
                    if let Some(job) = request.jobs.iter_mut().find(|j| j.name == name) {
                        job.place = policy.into();
                    }
                } else {
                    request.rails.push(RailRequest { paths: part.split(',').map(PathBuf::from).collect() });
                }
            }
            request
        })
        .filter(|r| !r.rails.is_empty() || r.run.is_some())
        .take(KEEP)
        .collect()
}

/// Puts `request` first, without duplicates, keeping at most [`KEEP`].
pub fn push(list: &mut Vec<OpenRequest>, request: OpenRequest) {
    list.retain(|r| *r != request);
    list.insert(0, request);
    list.truncate(KEEP);
}

/// Adds profiles to a request as jobs named after their files (`md.ibprof` → `md`, a repeated
/// name gets `-2`, `-3` …); a profile opened on its own becomes the first job.
pub fn add_jobs(request: &mut OpenRequest, profiles: &[PathBuf]) {
    if request.jobs.is_empty()
        && let Some(p) = request.profile.take()
    {
        request.jobs.push(JobRequest::from_profile(&p));
    }
    for p in profiles {
        let mut spec = JobRequest::from_profile(p);
        let base = spec.name.clone();
        let mut n = 1;
        while request.jobs.iter().any(|j| j.name == spec.name)
            || crate::view_model::trace::jobs::RESERVED_JOB_NAMES.contains(&spec.name.as_str())
        {
            n += 1;
            spec.name = format!("{base}-{n}");
        }
        request.jobs.push(spec);
    }
}

/// Sorts dropped or picked paths into a request by what they hold ([`classify`]): rail folders
/// and dumps are rails (folders one each, in order; loose dump files one more rail together),
/// profiles the profile (several: one job each), a loads file the loads, counter snapshots the
/// counters. Keeps `current`'s rails if none were given.
pub fn request_from_paths(paths: &[PathBuf], current: Option<&OpenRequest>) -> Option<OpenRequest> {
    let mut request = OpenRequest::default();
    let mut loose = Vec::new();
    let mut profiles = Vec::new();
    for p in paths {
        let name = p.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        let text = p.to_string_lossy();
        // `DIR,FILE,…` is one rail, as the subcommands read a RAIL (e.g. a directory and an
        // ibdiagnet2.far beside it).
        if !p.exists() && text.contains(',') {
            request.rails.push(RailRequest {
                paths: text.split(',').filter(|s| !s.is_empty()).map(PathBuf::from).collect(),
            });
            continue;
        }
        let kind = classify(p);
        match kind {
            _ if p.is_dir() && kind != Some(PathKind::Profile) => {
                request.rails.push(RailRequest { paths: vec![p.clone()] })
            }
            Some(PathKind::Profile) => profiles.push(p.clone()),
            Some(PathKind::Loads) => request.loads = Some(p.clone()),
            Some(PathKind::Counters) => request.counters.push(CounterSpec { rail: None, path: p.clone() }),
            // By name where the file cannot be read (yet): a profile, a loads file, else a dump.
            None if name.ends_with(".ibprof") || name.ends_with(".ibprof.gz") => profiles.push(p.clone()),
            None if name.ends_with(".loads.csv") || name.ends_with(".loads.csv.gz") => {
                request.loads = Some(p.clone())
            }
            _ => loose.push(p.clone()),
        }
    }
    match profiles.as_slice() {
        [one] => request.profile = Some(one.clone()),
        _ => add_jobs(&mut request, &profiles),
    }
    if !loose.is_empty() {
        request.rails.push(RailRequest { paths: loose });
    }
    if request.rails.is_empty() {
        let current = current?;
        request.rails = current.rails.clone();
        (request.host_map, request.rail_policy, request.hca_planes) =
            (current.host_map.clone(), current.rail_policy, current.hca_planes);
    }
    (!request.rails.is_empty()).then_some(request)
}

/// A request in a line: its rails and profile, loads file or jobs (or its run).
pub fn describe(r: &OpenRequest) -> String {
    if let Some(run) = &r.run {
        return run.display().to_string();
    }
    let rails: Vec<String> =
        r.rails.iter().filter_map(|x| x.paths.first()).map(|p| p.display().to_string()).collect();
    let specs = r.job_requests();
    if !specs.is_empty() {
        let jobs: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        return format!("{} + jobs {}", rails.join(", "), jobs.join(", "));
    }
    match r.profile.as_ref().or(r.loads.as_ref()) {
        Some(p) => format!("{} + {}", rails.join(", "), p.display()),
        None => rails.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_joined_by_commas_open_as_one_rail() {
        let paths: Vec<PathBuf> =
            ["/nowhere/rail0,/nowhere/ibdiagnet2.far", "/nowhere/rail1,"].map(PathBuf::from).into();
        let r = request_from_paths(&paths, None).unwrap();
        let rails: Vec<Vec<PathBuf>> = vec![
            vec!["/nowhere/rail0".into(), "/nowhere/ibdiagnet2.far".into()],
            vec!["/nowhere/rail1".into()],
        ];
        assert_eq!(r.rail_paths(), rails);
    }

    #[test]
    fn several_profiles_open_as_jobs_named_after_their_files() {
        let paths: Vec<PathBuf> =
            ["/p/md.ibprof", "/p/io.ibprof.gz", "/q/md.ibprof"].map(PathBuf::from).into();
        let current = OpenRequest::of_rails(vec![vec!["/r0".into()]]);
        let r = request_from_paths(&paths, Some(&current)).unwrap();
        let names: Vec<&str> = r.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["md", "io", "md-2"]);
        assert_eq!(r.profile, None);
        let mut placed = r.clone();
        placed.jobs[1].place = "random-switch:7".into();
        assert_eq!(decode(&encode(std::slice::from_ref(&placed))), [placed]);
    }

    #[test]
    fn a_reopened_recent_entry_reloads_the_same_counters_in_order() {
        let r = OpenRequest {
            host_map: Some("/d/map.txt".into()),
            rail_policy: RailPolicy::Rail(1),
            profile: Some("/d/p.ibprof".into()),
            counters: ["/c/before.txt", "rail1=/c/r1 before.txt", "/c/after.txt", "rail1=/c/r1 after.txt"]
                .iter()
                .map(|s| CounterSpec::parse(s).unwrap())
                .collect(),
            ..OpenRequest::of_rails(vec![vec!["/d/rail0".into()], vec!["/d/rail1".into()]])
        };
        let back = decode(&encode(std::slice::from_ref(&r)));
        assert_eq!(back, std::slice::from_ref(&r));
        assert_eq!(back[0].counters[1].rail, Some(1));
        let counters_only = OpenRequest { profile: None, ..r };
        assert_eq!(decode(&encode(std::slice::from_ref(&counters_only))), [counters_only]);
    }

    #[test]
    fn recent_requests_round_trip_through_text() {
        let a = OpenRequest {
            profile: Some("/d/p.ibprof.gz".into()),
            loads: Some("/d/run.loads.csv".into()),
            jobs: Vec::new(),
            ..OpenRequest::of_rails(vec![
                vec!["/d/rail0".into()],
                vec!["/d/r1/a.lst".into(), "/d/r1/a.fdbs".into()],
            ])
        };
        let b = OpenRequest::of_rails(vec![vec!["/x".into()]]);
        let run = OpenRequest { run: Some("/d/torus8_meta.yaml".into()), ..Default::default() };
        assert_eq!(decode(&encode(std::slice::from_ref(&run))), [run]);
        let mut list = vec![b.clone()];
        push(&mut list, a.clone());
        push(&mut list, b.clone());
        assert_eq!(list, [b.clone(), a.clone()]);
        assert_eq!(decode(&encode(&list)), list);
    }

    #[test]
    fn a_dropped_profile_alone_reuses_the_open_rails() {
        let current = OpenRequest::of_rails(vec![vec!["/r0".into()]]);
        let r = request_from_paths(&["/p/run.ibprof".into()], Some(&current)).unwrap();
        assert_eq!(r.rails, current.rails);
        assert_eq!(r.profile, Some("/p/run.ibprof".into()));
        assert!(request_from_paths(&["/p/run.ibprof".into()], None).is_none());
    }
}
