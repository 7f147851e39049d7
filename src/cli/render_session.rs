//! `shoal render --save-session S` and `--session S [--view N]`: the view the flags describe
//! written as a session, and a session's view drawn as the window exports it.

use std::path::Path;

use anyhow::{Result, bail};
use shoal::modules::link_group::union_range;
use shoal::modules::registry;
use shoal::scene::camera::Camera;
use shoal::view_model::open;
use shoal::view_model::prepare::{Prepared, Ranges};
use shoal::view_model::session::{ExportSize, Session};
use shoal::view_model::{Dataset, Filter};

use super::common::report_warnings;
use super::render_args::RenderCli;
use super::render_paint::{Canvas, paint, prepare_view};

/// Flags that describe a view of their own: with `--session` the session's view is drawn.
fn check_flags(r: &RenderCli) -> Result<()> {
    let view_flags = [
        (!r.open.rails.is_empty(), "RAIL"),
        (r.open.profile.is_some() || r.open.loads.is_some() || r.open.jobs.any(), "--profile/--loads/--job"),
        (r.module.is_some(), "--module"),
        (r.region.is_some() || r.diff.is_some() || r.diff_jobs.is_some(), "--region/--diff"),
        (!r.conditions.is_empty() || r.threshold.is_some(), "--where/--threshold"),
        (r.attr.is_some() || r.colormap.is_some(), "--attr/--colormap"),
        (r.rotate.is_some(), "--rotate"),
    ];
    match view_flags.iter().find(|(given, _)| *given) {
        Some((_, flag)) => {
            bail!("{flag} describes a view; --session draws the session's view (--view N picks one)")
        }
        None => Ok(()),
    }
}

/// Draws the session's focused view (or view `--view N`) at its own export size.
pub fn render(r: &RenderCli, path: &Path) -> Result<()> {
    check_flags(r)?;
    let Some(out) = &r.out else { bail!("--session draws to --out FILE") };
    let mut session = Session::read(path)?;
    registry::check_session(&mut session, path).map_err(anyhow::Error::msg)?;
    let view = session.view(r.view, path)?;
    let ExportSize { width, height, pixels_per_point: ppp } = view.export;
    let sane = |n: u32| (64..=32768).contains(&n);
    if !sane(width) || !sane(height) || !(0.25..=16.0).contains(&ppp) {
        bail!(
            "{}: the view's export size {width}×{height} at {ppp} pixels per point is out of range",
            path.display()
        );
    }
    if view.spec.module.is("time_strip") {
        bail!("{}: the view is a time strip; render draws it with --module time-strip", path.display());
    }
    if view.spec.module.is("congestion") {
        bail!("{}: the view is congestion regions; render draws it with --module congestion", path.display());
    }
    let progress = super::progress::Progress::new("render");
    let dataset = open(&session.request, &progress.of_open())?;
    drop(progress);
    report_warnings(&dataset.warnings, r.open.verbose);
    let group = session.groups.iter().find(|g| g.id == view.group);
    let spec = view.titled_spec(&dataset, &registry::module_title(&view.spec, &dataset));
    if view.spec.module.is("matrix") {
        return super::render_matrix::paint_matrix(&dataset, &spec, view.export, out);
    }
    let filter = group.map(|g| g.filter.clone()).unwrap_or_default();
    let mut spec = spec;
    let prepared = prepare_view(&dataset, &mut spec, &filter, None)?;
    // As in the window: a group's shared camera moves all its members; its ranges are theirs.
    let camera = group.and_then(|g| g.shared_camera).unwrap_or(view.camera);
    let ranges = group_ranges(&dataset, &session, view.group, &filter);
    let canvas = Canvas { orbit: view.orbit(), camera: Camera::from(camera), size: view.export, ranges, out };
    paint(&dataset, &spec, &prepared, &canvas)
}

/// The colour ranges a link group agrees on: the unions of its members' own, as the window's
/// workspace computes them (a member that cannot be prepared, a time strip, has none).
fn group_ranges(dataset: &Dataset, session: &Session, group: u32, filter: &Filter) -> Ranges {
    let members: Vec<Prepared> = session
        .views
        .iter()
        .filter(|v| v.group == group && registry::class_of(&v.spec).is_network())
        .filter_map(|v| prepare_view(dataset, &mut v.spec.clone(), filter, None).ok())
        .collect();
    let links = union_range(members.iter().filter_map(|p| p.link_range));
    (links, union_range(members.iter().filter_map(|p| p.node_range)))
}
