//! Opening runs (a Boxfish `*_meta.yaml`, a CSV pair, or a folder holding one) and sessions into
//! the same workspace as fabrics, and the window's command line as one [`OpenRequest`].

use std::path::{Path, PathBuf};

pub use crate::view_model::is_run_path;
use crate::view_model::session::Session;
use crate::view_model::{OpenRequest, PathKind, classify};

use super::ShoalApp;

/// Opens a run through the loader, as any other request; a failure keeps what is on screen and
/// says why.
pub fn open_run(app: &mut ShoalApp, path: &Path, ctx: &egui::Context) {
    app.open(OpenRequest { run: Some(path.to_path_buf()), ..Default::default() }, ctx);
}

/// File → Open run…: a file dialog on its own thread.
pub(super) fn open_dialog(app: &mut ShoalApp, ctx: &egui::Context) {
    app.spawn_dialog(
        super::path_entry::Purpose::Run,
        || {
            rfd::FileDialog::new()
                .set_title("Open a run: a Boxfish *_meta.yaml or a nodes.csv")
                .add_filter("Boxfish meta or CSV pair", &["yaml", "yml", "csv", "gz"])
                .pick_file()
                .map(super::Dialog::Run)
        },
        ctx,
    );
}

/// `shoal PATH… [flags]` with no subcommand: one session file opens that session, one run path
/// the run, anything else is sorted into `request` (rails, profiles, loads, counters) by
/// [`super::recent::request_from_paths`]; the flags' request fills what the paths leave open.
pub fn run_paths(paths: Vec<PathBuf>, flags: OpenRequest) -> anyhow::Result<()> {
    if let [one] = paths.as_slice()
        && classify(one) == Some(PathKind::Session)
    {
        let mut session = Session::read(one)?;
        crate::modules::registry::check_session(&mut session, one).map_err(anyhow::Error::msg)?;
        let request = session.request.clone();
        return super::run_with(Some(request), move |app| app.pending_session = Some(session));
    }
    let request = match paths.first() {
        Some(p) if is_run_path(p) && paths.len() == 1 => OpenRequest { run: Some(p.clone()), ..flags },
        _ => {
            let mut request = super::recent::request_from_paths(&paths, None).unwrap_or_default();
            merge_flags(&mut request, flags);
            request
        }
    };
    super::run((!request.rails.is_empty() || request.run.is_some()).then_some(request))
}

/// The flags' choices over what the paths named: a `--profile`, `--loads` or jobs replace the
/// paths' profile; counters, host map, rail policy, routing and layout come from the flags.
fn merge_flags(request: &mut OpenRequest, flags: OpenRequest) {
    if !flags.jobs.is_empty() {
        // The profile (a PATH or --profile) is the first job.
        if flags.profile.is_some() {
            request.profile = flags.profile;
        }
        request.jobs.extend(flags.jobs);
        request.loads = None;
    } else if flags.profile.is_some() {
        (request.profile, request.loads) = (flags.profile, None);
    } else if flags.loads.is_some() {
        (request.profile, request.loads) = (None, flags.loads);
    }
    request.counters.extend(flags.counters);
    request.prometheus = flags.prometheus.or(request.prometheus.take());
    request.jobs_from = flags.jobs_from.or(request.jobs_from.take());
    request.host_map = flags.host_map;
    request.rail_policy = flags.rail_policy;
    request.routing = flags.routing;
    request.hca_planes = flags.hca_planes;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::RailPolicy;

    #[test]
    fn the_command_lines_flags_fill_what_the_paths_leave_open() {
        let mut request = OpenRequest {
            profile: Some("/p/run.ibprof".into()),
            ..OpenRequest::of_rails(vec![vec!["/r0".into()], vec!["/r1".into()]])
        };
        let flags = OpenRequest {
            host_map: Some("/m/map.txt".into()),
            rail_policy: RailPolicy::Rail(1),
            counters: vec![crate::view_model::CounterSpec { rail: None, path: "/c/after.txt".into() }],
            ..Default::default()
        };
        merge_flags(&mut request, flags);
        assert_eq!(request.rail_paths(), [vec![PathBuf::from("/r0")], vec![PathBuf::from("/r1")]]);
        assert_eq!(request.profile, Some("/p/run.ibprof".into()), "the paths' profile stays");
        assert_eq!(request.host_map, Some("/m/map.txt".into()));
        assert_eq!(request.rail_policy, RailPolicy::Rail(1));
        assert_eq!(request.counters.len(), 1);
    }

    #[test]
    fn a_loads_flag_replaces_the_paths_profile_and_jobs_keep_it_first() {
        let paths = OpenRequest {
            profile: Some("/p/a.ibprof".into()),
            ..OpenRequest::of_rails(vec![vec!["/r".into()]])
        };
        let mut loads = paths.clone();
        merge_flags(&mut loads, OpenRequest { loads: Some("/l.csv".into()), ..Default::default() });
        assert_eq!((loads.profile, loads.loads), (None, Some("/l.csv".into())));
        let mut jobs = paths.clone();
        let job = crate::view_model::JobRequest::from_profile(std::path::Path::new("/p/io.ibprof"));
        merge_flags(&mut jobs, OpenRequest { jobs: vec![job], ..Default::default() });
        let names: Vec<String> = jobs.job_requests().into_iter().map(|j| j.name).collect();
        assert_eq!(names, ["a", "io"]);
    }
}
