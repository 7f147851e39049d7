//! The recent-files list, kept in eframe's storage as plain text: one request per line,
//! rails separated by `|`, a rail's files by `,`, then `|profile=` and the profile path
//! (or `|loads=` and a loads file).

use std::path::PathBuf;

use crate::load::LoadRequest;

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

/// Sorts dropped or picked paths into a request: directories are rails (in order), `*.ibprof`
/// files (or `.gz`) the profile, `*.loads.csv` (or `.gz`) a loads file, other files one more
/// rail together. Keeps `current`'s rails if
/// only a profile was given.
pub fn request_from_paths(paths: &[PathBuf], current: Option<&LoadRequest>) -> Option<LoadRequest> {
    let mut request = LoadRequest::default();
    let mut loose = Vec::new();
    for p in paths {
        let name = p.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        if p.is_dir() {
            request.rails.push(vec![p.clone()]);
        } else if name.ends_with(".ibprof") || name.ends_with(".ibprof.gz") {
            request.profile = Some(p.clone());
        } else if name.ends_with(".loads.csv") || name.ends_with(".loads.csv.gz") {
            request.loads = Some(p.clone());
        } else {
            loose.push(p.clone());
        }
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
    fn recent_requests_round_trip_through_text() {
        let a = LoadRequest {
            rails: vec![vec!["/d/rail0".into()], vec!["/d/r1/a.lst".into(), "/d/r1/a.fdbs".into()]],
            profile: Some("/d/p.ibprof.gz".into()),
            loads: Some("/d/run.loads.csv".into()),
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
