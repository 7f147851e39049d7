//! The recent-files list, kept in eframe's storage as plain text: one request per line,
//! rails separated by `|`, a rail's files by `,`, then `|profile=` and the profile path
//! (or `|loads=` and a loads file), `|job=NAME=PATH` / `|place=NAME=POLICY` for each job, and
//! `|counters=[railN=]PATH` for each counter snapshot, in the order given (before, after, …).

use std::path::PathBuf;

use crate::load::LoadRequest;
use crate::pipeline::{CounterSpec, JobSpec};
use crate::routing::PlacementPolicy;
use crate::routing::placement::ParsedPolicy;

pub const KEY: &str = "shoal.recent";
pub const KEEP: usize = 8;

pub fn encode(list: &[LoadRequest]) -> String {
    list.iter()
        .map(|r| {
            let mut parts: Vec<String> = r
                .rails
                .iter()
                .map(|rail| rail.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(","))
                .collect();
            if let Some(p) = &r.profile {
                parts.push(format!("profile={}", p.display()));
            }
            if let Some(p) = &r.loads {
                parts.push(format!("loads={}", p.display()));
            }
            for job in &r.jobs {
                parts.push(format!("job={}={}", job.name, job.profile.display()));
                if let Some(policy) = job.place.spelling() {
                    parts.push(format!("place={}={policy}", job.name));
                }
            }
            for spec in &r.counters {
                let rail = spec.rail.map_or(String::new(), |n| format!("rail{n}="));
                parts.push(format!("counters={rail}{}", spec.path.display()));
            }
            parts.join("|")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn decode(text: &str) -> Vec<LoadRequest> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut request = LoadRequest::default();
            for part in line.split('|') {
                if let Some(p) = part.strip_prefix("profile=") {
                    request.profile = Some(PathBuf::from(p));
                } else if let Some(p) = part.strip_prefix("loads=") {
                    request.loads = Some(PathBuf::from(p));
                } else if let Some(spec) = part.strip_prefix("counters=") {
                    if let Ok(spec) = CounterSpec::parse(spec) {
                        request.counters.push(spec);
                    }
                } else if let Some((name, path)) = part.strip_prefix("job=").and_then(|j| j.split_once('=')) {
                    request.jobs.push(JobSpec {
                        name: name.into(),
                        profile: path.into(),
                        place: PlacementPolicy::AsRecorded,
                    });
                } else if let Some((name, policy)) =
                    part.strip_prefix("place=").and_then(|j| j.split_once('='))
                {
                    if let (Some(job), Ok(ParsedPolicy::Ready(policy))) =
                        (request.jobs.iter_mut().find(|j| j.name == name), PlacementPolicy::parse(policy))
                    {
                        job.place = policy;
                    }
                } else {
                    request.rails.push(part.split(',').map(PathBuf::from).collect());
                }
            }
            request
        })
        .filter(|r| !r.rails.is_empty())
        .take(KEEP)
        .collect()
}

/// Puts `request` first, without duplicates, keeping at most [`KEEP`].
pub fn push(list: &mut Vec<LoadRequest>, request: LoadRequest) {
    list.retain(|r| *r != request);
    list.insert(0, request);
    list.truncate(KEEP);
}

/// Adds profiles to a request as jobs named after their files (`md.ibprof` → `md`, a repeated
/// name gets `-2`, `-3` …); a profile opened on its own becomes the first job.
pub fn add_jobs(request: &mut LoadRequest, profiles: &[PathBuf]) {
    if request.jobs.is_empty()
        && let Some(p) = request.profile.take()
    {
        request.jobs.push(JobSpec::from_profile(&p));
    }
    for p in profiles {
        let mut spec = JobSpec::from_profile(p);
        let base = spec.name.clone();
        let mut n = 1;
        while request.jobs.iter().any(|j| j.name == spec.name)
            || crate::pipeline::jobs::RESERVED_JOB_NAMES.contains(&spec.name.as_str())
        {
            n += 1;
            spec.name = format!("{base}-{n}");
        }
        request.jobs.push(spec);
    }
}

/// Sorts dropped or picked paths into a request: directories are rails (in order), `*.ibprof`
/// files (or `.gz`) the profile (several: one job each), `*.loads.csv` (or `.gz`) a loads
/// file, other files one more rail together. Keeps `current`'s rails if only profiles were given.
pub fn request_from_paths(paths: &[PathBuf], current: Option<&LoadRequest>) -> Option<LoadRequest> {
    let mut request = LoadRequest::default();
    let mut loose = Vec::new();
    let mut profiles = Vec::new();
    for p in paths {
        let name = p.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        let text = p.to_string_lossy();
        // `DIR,FILE,…` is one rail, as the subcommands read a RAIL (e.g. a directory and an
        // ibdiagnet2.far beside it).
        if !p.exists() && text.contains(',') {
            request.rails.push(text.split(',').filter(|s| !s.is_empty()).map(PathBuf::from).collect());
        } else if p.is_dir() {
            request.rails.push(vec![p.clone()]);
        } else if name.ends_with(".ibprof") || name.ends_with(".ibprof.gz") {
            profiles.push(p.clone());
        } else if name.ends_with(".loads.csv") || name.ends_with(".loads.csv.gz") {
            request.loads = Some(p.clone());
        } else {
            loose.push(p.clone());
        }
    }
    match profiles.as_slice() {
        [one] => request.profile = Some(one.clone()),
        _ => add_jobs(&mut request, &profiles),
    }
    if !loose.is_empty() {
        request.rails.push(loose);
    }
    if request.rails.is_empty() {
        request.rails = current?.rails.clone();
    }
    (!request.rails.is_empty()).then_some(request)
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
        assert_eq!(r.rails, rails);
    }

    #[test]
    fn several_profiles_open_as_jobs_named_after_their_files() {
        let paths: Vec<PathBuf> =
            ["/p/md.ibprof", "/p/io.ibprof.gz", "/q/md.ibprof"].map(PathBuf::from).into();
        let current = LoadRequest { rails: vec![vec!["/r0".into()]], ..Default::default() };
        let r = request_from_paths(&paths, Some(&current)).unwrap();
        let names: Vec<&str> = r.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["md", "io", "md-2"]);
        assert_eq!(r.profile, None);
        let mut placed = r.clone();
        placed.jobs[1].place = PlacementPolicy::RandomSwitch(7);
        assert_eq!(decode(&encode(std::slice::from_ref(&placed))), [placed]);
    }

    #[test]
    fn a_reopened_recent_entry_reloads_the_same_counters_in_order() {
        let r = LoadRequest {
            rails: vec![vec!["/d/rail0".into()], vec!["/d/rail1".into()]],
            profile: Some("/d/p.ibprof".into()),
            counters: ["/c/before.txt", "rail1=/c/r1 before.txt", "/c/after.txt", "rail1=/c/r1 after.txt"]
                .iter()
                .map(|s| CounterSpec::parse(s).unwrap())
                .collect(),
            ..Default::default()
        };
        let back = decode(&encode(std::slice::from_ref(&r)));
        assert_eq!(back, std::slice::from_ref(&r));
        assert_eq!(back[0].counters[1].rail, Some(1));
        let counters_only = LoadRequest { profile: None, ..r };
        assert_eq!(decode(&encode(std::slice::from_ref(&counters_only))), [counters_only]);
    }

    #[test]
    fn recent_requests_round_trip_through_text() {
        let a = LoadRequest {
            rails: vec![vec!["/d/rail0".into()], vec!["/d/r1/a.lst".into(), "/d/r1/a.fdbs".into()]],
            profile: Some("/d/p.ibprof.gz".into()),
            loads: Some("/d/run.loads.csv".into()),
            jobs: Vec::new(),
            ..Default::default()
        };
        let b = LoadRequest { rails: vec![vec!["/x".into()]], ..Default::default() };
        let mut list = vec![b.clone()];
        push(&mut list, a.clone());
        push(&mut list, b.clone());
        assert_eq!(list, [b.clone(), a.clone()]);
        assert_eq!(decode(&encode(&list)), list);
    }

    #[test]
    fn a_dropped_profile_alone_reuses_the_open_rails() {
        let current = LoadRequest { rails: vec![vec!["/r0".into()]], ..Default::default() };
        let r = request_from_paths(&["/p/run.ibprof".into()], Some(&current)).unwrap();
        assert_eq!(r.rails, current.rails);
        assert_eq!(r.profile, Some("/p/run.ibprof".into()));
        assert!(request_from_paths(&["/p/run.ibprof".into()], None).is_none());
    }
}
