//! One prepared view painted to a file: the step `render` with flags and `render --session`
//! share, so both write the same bytes for the same view.

use std::path::Path;

use anyhow::Result;
use shoal::modules::registry;
use shoal::scene::camera::Camera;
use shoal::scene::draw::plot_rect;
use shoal::view_model::OpenRequest;
use shoal::view_model::highlight::{Highlight, project};
use shoal::view_model::orbit::Orbit;
use shoal::view_model::prepare::{Prepared, Ranges};
use shoal::view_model::session::{CameraState, ExportSize, Session, SessionView};
use shoal::view_model::{Dataset, Filter, ViewSpec};

use super::render_args::Threshold;

/// The view prepared under its link group's filter; a threshold (`--threshold`, a share of the
/// view's own maximum) goes into the spec's value range, so a session saved from it draws the
/// same links.
pub fn prepare_view(
    dataset: &Dataset,
    spec: &mut ViewSpec,
    group: &Filter,
    threshold: Option<Threshold>,
) -> Result<Prepared> {
    let mut prepared = registry::prepare_view(dataset, spec, group).map_err(anyhow::Error::msg)?;
    if let Some(t) = threshold {
        spec.filter.value_range = Some((t.bytes(prepared.link_max()), f64::INFINITY));
    }
    if spec.filter.value_range.is_some() || group.value_range.is_some() {
        prepared.apply_value_filter(spec, group);
    }
    Ok(prepared)
}

/// Where and how a prepared view is painted: its rotation, camera, export size, and the colour
/// ranges its link group agreed on (`None`: the view's own).
pub struct Canvas<'a> {
    pub orbit: Orbit,
    pub camera: Camera,
    pub size: ExportSize,
    pub ranges: Ranges,
    pub out: &'a Path,
}

/// Paints a prepared view to `canvas.out` and prints the summary line scripts read: links for
/// a fat tree, link ends and nodes for the others.
pub fn paint(dataset: &Dataset, spec: &ViewSpec, prepared: &Prepared, canvas: &Canvas<'_>) -> Result<()> {
    let ExportSize { width, height, pixels_per_point: ppp } = canvas.size;
    let plot = plot_rect(width as f32 / ppp, height as f32 / ppp);
    let lit = project(dataset, &Highlight::default());
    let aspect = plot.w / plot.h.max(1.0);
    let mut spec = spec.clone();
    if spec.title.is_empty() {
        spec.title = spec.default_title(dataset, &registry::module_title(&spec, dataset));
    }
    let scene = prepared.scene(dataset, &spec, canvas.ranges, &lit, &canvas.orbit, aspect);
    shoal::export::write_at(&scene, &canvas.camera, (width, height, ppp), canvas.out)?;
    for p in &prepared.problems {
        eprintln!("shoal: warning: {p}");
    }
    let out = canvas.out.display();
    match spec.module.class_id() {
        "fat_tree" => eprintln!("{out}: {} links drawn", scene.visible_link_count()),
        _ => eprintln!("{out}: {} link ends and {} nodes drawn", scene.halves.len(), scene.marks.len()),
    }
    Ok(())
}

/// Writes the session of one view: what was opened, the view's spec, rotation and size.
pub fn save(
    request: OpenRequest,
    spec: &ViewSpec,
    (orbit, size): (Orbit, ExportSize),
    path: &Path,
) -> Result<()> {
    let view = SessionView {
        spec: spec.clone(),
        group: 0,
        camera: CameraState::default(),
        orbit: Some(orbit.rotation),
        export: size,
        number: None,
    };
    Session::of_view(request, view).write(path)?;
    eprintln!("{}: session written", path.display());
    Ok(())
}
