//! `shoal render --module matrix`: the traffic matrix written as PNG or SVG, drawn as the
//! window's matrix view draws it ([`shoal::modules::matrix::export_list`]), at most one cell per
//! point. `--save-session` keeps the view; `render --session` of a matrix view comes here too.

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use shoal::routing::RegionKey;
use shoal::view_model::Dataset;
use shoal::view_model::OpenRequest;
use shoal::view_model::matrix::MatrixShow;
use shoal::view_model::orbit::Orbit;
use shoal::view_model::session::ExportSize;
use shoal::view_model::values::RegionSelection;
use shoal::view_model::view::{ModuleSpec, ViewSpec};

use super::render_args::RenderCli;

/// Draws the matrix the flags describe; writes the session first when asked for one.
pub fn render_matrix(dataset: &Dataset, r: &RenderCli, request: OpenRequest) -> Result<()> {
    if dataset.fabric.as_ref().is_none_or(|f| f.flows.is_empty()) {
        bail!("--module matrix draws a profile's traffic on fabric dumps: give RAILs and --profile");
    }
    let selection = match (r.region, r.diff.as_deref()) {
        (None, None) => RegionSelection::Total,
        (Some(n), None) => RegionSelection::Region(n),
        (None, Some([a, b])) => RegionSelection::Diff(RegionKey::Region(*a), RegionKey::Region(*b)),
        _ => bail!("--module matrix takes --region N or --diff A B"),
    };
    let mut spec = ViewSpec {
        module: ModuleSpec::with("matrix", &r.matrix.options()),
        selection,
        ..ViewSpec::for_dataset(dataset)
    };
    if let Some(map) = r.colormap.filter(|_| r.diff.is_some()) {
        spec.diverging_map = map;
    }
    // `--where` as every view takes it; the matrix honours the clauses on pairs.
    for c in &r.conditions {
        spec.filter.clauses.push(shoal::view_model::filter::Clause::parse(c)?);
    }
    let size = ExportSize {
        width: r.width,
        height: r.height,
        pixels_per_point: shoal::export::pixels_per_point_for(r.width, r.height),
    };
    if let Some(path) = &r.save_session {
        super::render_paint::save(request, &spec, (Orbit::default(), size), path)?;
    }
    match &r.out {
        Some(out) => paint_matrix(dataset, &spec, size, out),
        None => Ok(()),
    }
}

/// Paints a matrix view at an export size and prints what it drew.
pub fn paint_matrix(dataset: &Dataset, spec: &ViewSpec, size: ExportSize, out: &Path) -> Result<()> {
    let ExportSize { width, height, pixels_per_point: ppp } = size;
    let points = [width as f32 / ppp, height as f32 / ppp];
    let (grid, list) =
        shoal::modules::matrix::export_list(dataset, spec, points).map_err(|e| anyhow!("{e}"))?;
    shoal::export::write_list(&list, ppp, out)?;
    let aggregated = if grid.per_bin > 1 {
        format!(" (aggregated: {} per cell, to fit the canvas)", grid.per_bin)
    } else {
        String::new()
    };
    let (entities, by) = (grid.entities.len(), grid.options.by.name());
    match grid.options.show {
        MatrixShow::Cells => eprintln!(
            "{}: traffic matrix of {entities} {by}s, {} non-empty cells{aggregated}",
            out.display(),
            grid.cells.len()
        ),
        MatrixShow::Bars => {
            eprintln!(
                "{}: hop-class bars of {entities} {by}s, {} rows{aggregated}",
                out.display(),
                grid.side()
            )
        }
    }
    Ok(())
}
